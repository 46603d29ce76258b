// Several service processes on one embedded database (README, "Quick start"): the second reuses the database
// the first started, and keeps working when the first stops.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
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
const dirs: string[] = [];
shared.after(async (ctx) => {
  for (const p of ctx.procs) await p.stop();
  for (const dir of [...dirs, ctx.dataDir]) await fs.rm(dir, { recursive: true, force: true });
});

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

shared("a second process reuses the first one's database and takes it over when the first stops", async (ctx) => {
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
  await until(
    async () =>
      (await client(second.url, null).get('/readyz')).status === 200 &&
      (await api(second.url).get(`/api/v1/monitor/${created.body.id}`)).status === 200,
    30_000,
    'the second process serving again',
  );
  assert.is((await api(second.url).get(`/api/v1/monitor/${created.body.id}`)).body.name, 'Halle 1');
  const state = JSON.parse(await fs.readFile(path.join(ctx.dataDir, 'embedded-db.json'), 'utf8'));
  assert.is(state.pid, second.child.pid, 'the second process owns the database now');
});

const statePath = (ctx: Ctx) => path.join(ctx.dataDir, 'embedded-db.json');
const readState = async (ctx: Ctx) =>
  JSON.parse(await fs.readFile(statePath(ctx), 'utf8')) as { pid: number; childPid: number };
const ready = async (url: string) => (await client(url, null).get('/readyz')).status === 200;

// Each of the following starts on a data directory of its own.
const fresh = async (ctx: Ctx) => {
  for (const p of ctx.procs.splice(0)) await p.stop();
  dirs.push(ctx.dataDir);
  ctx.dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-shared-'));
};

shared('the embedded database dying alone is started again by its owner on the same data and address', async (ctx) => {
  await fresh(ctx);
  const env = { DATA_DIR: ctx.dataDir, MONGODB_URI: '', REDIS_URL: '' };
  const owner = await spawnService(env, 120_000);
  ctx.procs.push(owner);
  const org = await runAdmin(['org', 'create', '--name', 'Wache Süd'], env);
  const before = await readState(ctx);
  assert.is(before.pid, owner.child.pid);
  process.kill(before.childPid, 'SIGKILL');
  const killedAt = Date.now();
  // The owner notices the exit at once: readiness may never even see it down.
  await until(
    async () => (await readState(ctx)).childPid !== before.childPid && (await ready(owner.url)),
    15_000,
    'the database started again',
  );
  const after = await readState(ctx);
  assert.is.not(after.childPid, before.childPid);
  assert.is(after.pid, owner.child.pid);
  const again = await runAdmin(['org', 'create', '--name', 'Wache West'], env);
  assert.is(again.json.id, org.json.id + 1, 'the data survived');
  process.stderr.write(`[launcher] database back after ${Date.now() - killedAt} ms\n`);
});

shared('when its owner cannot restart it (stopped), another process on the data directory does', async (ctx) => {
  await fresh(ctx);
  const env = { DATA_DIR: ctx.dataDir, MONGODB_URI: '', REDIS_URL: '' };
  ctx.procs.push(await spawnService(env, 120_000));
  const other = await spawnService(env, 60_000);
  ctx.procs.push(other);
  const before = await readState(ctx);
  const owner = ctx.procs.find((p) => p.child.pid === before.pid)!;
  process.kill(before.pid, 'SIGSTOP');
  try {
    process.kill(before.childPid, 'SIGKILL');
    await until(
      async () => (await readState(ctx)).pid === other.child.pid && (await ready(other.url)),
      20_000,
      'the other process taking over',
    );
  } finally {
    process.kill(before.pid, 'SIGCONT');
  }
  await until(() => ready(owner.url), 15_000, 'the stopped owner serving again on the new database');
  assert.is((await readState(ctx)).pid, other.child.pid, 'the owner does not start a second one');
});

shared.run();
