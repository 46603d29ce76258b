// Paired screens as stations run them: each with a screen token of its own (bench/perf's screens share
// one API key). One hub process (compiled, as production runs it: `npm run build` first) on the
// embedded database; N screens are paired through F1–F3 over 100 monitors, then:
//   - they connect and subscribe all at once, and again after the process was restarted (a storm);
//   - they stay connected, idle: the CPU the hub process and the database spend per second, which is
//     what a process pays per screen for the credential recheck and the screens' health;
//   - every screen is online with a recent lastSeen afterwards (the health writes did happen), and the
//     CPU of a storm is counted until every screen's health write of it has landed.
// Usage: npm run -s build && npx tsx bench/paired-screens.ts [screens=1000] [idleSeconds=45]
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { launchDatabase } from '../server/db/launcher.js';
import { openDatabase } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { cpuMs, embeddedDatabasePid } from './perf/proc.js';

const count = Number(process.argv[2] ?? 1000);
const idleSeconds = Number(process.argv[3] ?? 45);
const here = path.dirname(fileURLToPath(import.meta.url));

function startHub(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(path.join(here, 'perf/hub-process.ts'), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the hub process exited with ${code}`)));
    child.on(
      'message',
      (m: { listening?: number }) => m.listening && resolve({ child, url: `http://127.0.0.1:${m.listening}` }),
    );
  });
}

async function stopHub(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ stop: true });
  await exited;
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paired-screens-'));
const database = await launchDatabase({ dataDir: dir, say: () => {} });
const dbPid = (await embeddedDatabasePid(dir)) ?? NaN;
if (!dbPid)
  throw new Error('the embedded database was not started by this run (this bench needs the embedded default)');
const setup = await openDatabase(database.uri, serviceModels);
const identity = new IdentityCommands(setup);
const org = await identity.createOrganization('Bench');
const { token: apiKey } = await identity.createApiKey(org.id, 'bench');
await setup.close();
const env = {
  BENCH_MONGODB_URI: database.uri,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_SECOND: '0',
  HUB_MAX_SOCKETS_PER_TOKEN: '0',
};
const headers = { 'API-TOKEN': apiKey, 'Content-Type': 'application/json' };

let hub = await startHub(env);
const monitors: number[] = [];
for (let i = 0; i < 100; i++) {
  const created = await fetch(`${hub.url}/api/v1/monitor`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: `Wache ${i}`, organizationID: org.id }),
  });
  const id = ((await created.json()) as { id: number }).id;
  await fetch(`${hub.url}/api/v1/monitor/${id}/data/alarming`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ eventId: 1, event: 'Bench alarm' }),
  });
  monitors.push(id);
}

// Pairing, eight at a time: the screen asks (F1), an admin binds its code (F3), the screen polls (F2).
const tokens: string[] = new Array(count);
const pairingStart = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < count) {
      const i = next++;
      const started = (await (await fetch(`${hub.url}/api/v1/screens/pairing`, { method: 'POST' })).json()) as {
        pairingId: string;
        code: string;
        pollSecret: string;
      };
      const paired = await fetch(`${hub.url}/api/v1/monitor/${monitors[i % monitors.length]}/screens`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ code: started.code, name: `Screen ${i}` }),
      });
      if (paired.status !== 201) throw new Error(`pairing answered ${paired.status}: ${await paired.text()}`);
      const polled = await fetch(`${hub.url}/api/v1/screens/pairing/${started.pairingId}`, {
        headers: { 'Pairing-Secret': started.pollSecret },
      });
      tokens[i] = ((await polled.json()) as { token: string }).token;
    }
  }),
);
console.log(`paired ${count} screens in ${((Date.now() - pairingStart) / 1000).toFixed(1)} s`);

let sockets: Socket[] = [];
async function storm(what: string): Promise<void> {
  const [hubBefore, dbBefore, begin] = [cpuMs(hub.child.pid!), cpuMs(dbPid), Date.now()];
  let failed = 0;
  sockets = [];
  await Promise.all(
    tokens.map(async (token, i) => {
      const socket = io(hub.url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token, scheme: 'screen-token' },
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        const ack = (await socket
          .timeout(120_000)
          .emitWithAck('monitor:subscribe', { monitorId: monitors[i % monitors.length] })) as { data?: unknown };
        if (!ack.data) failed++;
      } catch {
        failed++;
      }
    }),
  );
  const perScreen = (before: number, pid: number) => ((cpuMs(pid) - before) / count).toFixed(2);
  console.log(
    `${what}: ${count} screens subscribed after ${((Date.now() - begin) / 1000).toFixed(1)} s, ${failed} ` +
      `failed; CPU per screen: hub ${perScreen(hubBefore, hub.child.pid!)} ms, database ${perScreen(dbBefore, dbPid)} ms`,
  );
  // The storm's bookkeeping may go on after the last subscription (each screen's health write): its
  // whole cost is counted until every screen's lastSeen is from this storm (a scan every 500 ms; the
  // database CPU of the scans, measured after, is taken off).
  const check = await openDatabase(database.uri, serviceModels);
  const screens = check.conn.collection('screens');
  const written = () => screens.countDocuments({ lastSeen: { $gte: new Date(begin) } });
  let scans = 1;
  for (; (await written()) < count; scans++) await new Promise((r) => setTimeout(r, 500));
  const [hubAfter, dbAfter, end] = [cpuMs(hub.child.pid!), cpuMs(dbPid), Date.now()];
  const scanStart = cpuMs(dbPid);
  for (let i = 0; i < 10; i++) await written();
  const scanMs = (cpuMs(dbPid) - scanStart) / 10;
  await check.close();
  console.log(
    `  every screen's health written after ${((end - begin) / 1000).toFixed(1)} s; CPU per screen ` +
      `until then: hub ${((hubAfter - hubBefore) / count).toFixed(2)} ms, database ${((dbAfter - dbBefore - scans * scanMs) / count).toFixed(2)} ` +
      `ms (${scans} scans of ${scanMs.toFixed(0)} ms taken off)`,
  );
}

async function idle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 5_000));
  const [hubBefore, dbBefore] = [cpuMs(hub.child.pid!), cpuMs(dbPid)];
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const perSecond = (before: number, pid: number) => ((cpuMs(pid) - before) / idleSeconds).toFixed(0);
  console.log(
    `idle ${idleSeconds} s with ${count} screens connected: hub ${perSecond(hubBefore, hub.child.pid!)} ` +
      `ms CPU/s, database ${perSecond(dbBefore, dbPid)} ms CPU/s`,
  );
  const check = await openDatabase(database.uri, serviceModels);
  const screens = await check.conn.collection('screens').find({}).toArray();
  const ages = screens.map((s) => Date.now() - new Date(s.lastSeen).getTime());
  const online = screens.filter((s) => s.online).length;
  console.log(
    `  ${online} of ${screens.length} screens online; oldest lastSeen ${(Math.max(...ages) / 1000).toFixed(0)} ` +
      `s ago (offline after 120 s)`,
  );
  await check.close();
}

await storm('first connect');
await idle();
for (const socket of sockets) socket.close();
await stopHub(hub.child);
hub = await startHub(env);
await storm('after a restart');
await idle();
for (const socket of sockets) socket.close();
await stopHub(hub.child);
await database.stop();
await fs.rm(dir, { recursive: true, force: true });
