// Several service processes on one embedded database (CONTRACT.md §7): the second reuses the database
// the first started, and keeps working when the first stops.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runAdmin } from './helpers/cli.js';
import { client } from './helpers/http.js';
import { spawnService, type ServiceProcess } from './helpers/processes.js';

interface Ctx {
  dataDir: string;
  procs: ServiceProcess[];
}

const shared = suite<Ctx>('embedded database shared by several processes', {} as Ctx);

shared.before(async (ctx) => {
  ctx.dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-shared-'));
  ctx.procs = [];
});
shared.after(async (ctx) => {
  for (const p of ctx.procs) await p.stop();
  await fs.rm(ctx.dataDir, { recursive: true, force: true });
});

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

shared('a second process reuses the first one\'s database and takes it over when the first stops', async (ctx) => {
  const env = { DATA_DIR: ctx.dataDir, MONGODB_URI: '', REDIS_URL: '' };
  const first = await spawnService(env, 120_000);
  const second = await spawnService(env, 60_000);
  ctx.procs.push(second);
  const org = await runAdmin(['org', 'create', '--name', 'Wache Ost'], env);
  assert.is(org.code, 0, org.stderr);
  const key = await runAdmin(['apikey', 'create', '--org', String(org.json.id), '--name', 'screen'], env);
  const api = (url: string) => client(url, { apiKey: key.json.token });
  const created = await api(first.url).post('/api/v1/monitor', { name: 'Halle 1', organizationID: org.json.id });
  assert.is(created.status, 201);
  assert.is((await api(second.url).get(`/api/v1/monitor/${created.body.id}`)).body.name, 'Halle 1');

  assert.is(await first.stop(), 0);
  await until(async () => (await client(second.url, null).get('/readyz')).status === 200 && (await api(second.url).get(`/api/v1/monitor/${created.body.id}`)).status === 200, 30_000, 'the second process serving again');
  assert.is((await api(second.url).get(`/api/v1/monitor/${created.body.id}`)).body.name, 'Halle 1');
  const state = JSON.parse(await fs.readFile(path.join(ctx.dataDir, 'embedded-db.json'), 'utf8'));
  assert.is(state.pid, second.child.pid, 'the second process owns the database now');
});

shared.run();
