// The channel areas on a full collection: A3 (a device by ID), A7 (any-active: the user's devices
// by owner) and S13 (a mobile number by ID) with `devices` devices and mobile numbers of other users
// stored beside the caller's. FerretDB answers only _id lookups from an index, so A7 shows the cost
// of a listing by owner there.
// Usage: npx tsx bench/channels.ts [devices=10000] [seconds=5] [connections=10]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { loadConfig } from '../server/config.js';
import { launchDatabase } from '../server/db/launcher.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { startService } from '../server/service.js';
import { smsModels } from '../server/areas/sms/models.js';
import { appModels } from '../server/areas/app/models.js';

const [devices, seconds, connections] = [
  Number(process.argv[2] ?? 10_000),
  Number(process.argv[3] ?? 5),
  Number(process.argv[4] ?? 10),
];
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-bench-'));
const database = await launchDatabase({ uri: process.env.MONGODB_URI, dataDir, say: (l) => console.error(l) });
const service = await startService(
  loadConfig({ PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_SECOND: '0' }),
  database.uri,
  pino({ level: 'silent' }),
);
const identity = new IdentityCommands(service.db);
const org = await identity.createOrganization('Bench');
const user = await identity.createUser('Bench user');
await identity.addMember(org.id, user.id, 'member');
const { token } = await identity.createPersonalToken(user.id, 'bench');

// Other users' devices and numbers fill the collections (IDs far above the service's own).
const now = new Date();
const base = 1_000_000;
const filler = Array.from({ length: devices }, (_, i) => ({
  _id: String(base + i),
  ownerID: base + (i % 5_000),
  active: i % 3 === 0,
  createdAt: now,
  updatedAt: now,
}));
await appModels(service.db).Device.insertMany(
  filler.map((d, i) => ({
    ...d,
    name: `Phone ${i}`,
    nameKey: `phone ${i}`,
    os: 'Android 14',
    platform: 'android',
    pushToken: `tok${i}`,
    pushTokenDevelopment: false,
  })),
);
await smsModels(service.db).Mobile.insertMany(
  filler.map((d) => ({
    _id: d._id,
    ownerID: d.ownerID,
    active: d.active,
    createdAt: now,
    name: '',
    gsm: '004917612345678',
  })),
);

const url = `http://127.0.0.1:${service.port}`;
const headers = { 'Personal-Access-Token': token, 'Content-Type': 'application/json' };
const post = async (p: string, body: unknown) =>
  (await (await fetch(url + p, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: number };
const device = await post('/api/v1/app/device', {
  name: 'Mine',
  os: 'iOS 17',
  ownerID: user.id,
  pushToken: 'ab'.repeat(32),
  pushTokenDevelopment: false,
  active: true,
});
const mobile = await post('/api/v1/sms/mobile', { gsm: '004917612345678', ownerID: user.id });

const cases = [
  { name: 'A3 GET device', path: `/api/v1/app/device/${device.id}` },
  { name: 'S13 GET mobile', path: `/api/v1/sms/${mobile.id}` },
  { name: 'A7 any-active', path: `/api/v1/app/any-active?user_id=${user.id}&organization_id=${org.id}` },
  { name: 'A1 list own devices', path: `/api/v1/app/device?owner_id=${user.id}` },
];
console.log(
  `${devices} devices and mobile numbers of other users stored; ${seconds} s per case, ${connections} connections`,
);
console.log('case                 req/s     p50 ms   p99 ms   non-2xx');
for (const c of cases) {
  const result = await autocannon({ url: url + c.path, headers, connections, duration: seconds });
  console.log(
    `${c.name.padEnd(20)} ${result.requests.average.toFixed(0).padStart(6)}   ${String(result.latency.p50).padStart(6)} ` +
      `  ${String(result.latency.p99).padStart(6)}   ${result.non2xx}`,
  );
}
await service.close();
await database.stop();
await fs.rm(dataDir, { recursive: true, force: true });
