// The database going away and coming back: REST answers 503 with Retry-After (never hangs, never a
// 500), /healthz stays up, /readyz says unavailable, and everything works again once it is back.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { loadConfig } from '../server/config.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { startService, type RunningService } from '../server/service.js';
import { client } from './helpers/http.js';
import { startFerret } from './helpers/processes.js';

interface Ctx {
  dir: string;
  db: ChildProcess | null;
  service: RunningService;
}

const faults = suite<Ctx>('database outage', {} as Ctx);

faults.before(async (ctx) => {
  ctx.dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-faults-'));
});
faults.after(async (ctx) => {
  await ctx.service?.close().catch(() => {});
  ctx.db?.kill('SIGKILL');
  await fs.rm(ctx.dir, { recursive: true, force: true });
});

faults('REST answers 503 unavailable while the database is down and recovers when it returns', async (ctx) => {
  const first = await startFerret(ctx.dir, '127.0.0.1:0');
  ctx.db = first.child;
  const port = new URL(first.uri.replace('mongodb:', 'http:')).port;
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1' });
  ctx.service = await startService(config, first.uri, pino({ level: 'silent' }));
  const url = `http://127.0.0.1:${ctx.service.port}`;
  const identity = new IdentityCommands(ctx.service.db);
  const org = await identity.createOrganization('Outage');
  const { token } = await identity.createApiKey(org.id, 'k');
  const api = client(url, { apiKey: token });
  const id = (await api.post('/api/v1/monitor', { name: 'Wache', organizationID: org.id })).body.id;

  await new Promise((r) => {
    first.child.once('exit', r);
    first.child.kill('SIGKILL');
  });
  const started = Date.now();
  const down = await api.get(`/api/v1/monitor/${id}`);
  const took = Date.now() - started;
  assert.is(down.status, 503, JSON.stringify(down.body));
  assert.is(down.body.error, 'unavailable');
  assert.ok(down.headers.get('retry-after'));
  // Server selection gives up after 5 s; the bound catches the 30 s socket timeout, not a slow machine.
  assert.ok(took < 20_000, `503 took ${took} ms`);
  assert.is((await client(url, null).get('/healthz')).status, 200);
  const ready = await client(url, null).get('/readyz');
  assert.is(ready.status, 503);
  assert.is(ready.body.checks.mongodb.ok, false);

  const again = await startFerret(ctx.dir, `127.0.0.1:${port}`);
  ctx.db = again.child;
  const deadline = Date.now() + 20_000;
  let res = await api.get(`/api/v1/monitor/${id}`);
  while (res.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    res = await api.get(`/api/v1/monitor/${id}`);
  }
  assert.is(res.status, 200);
  assert.is(res.body.name, 'Wache');
  assert.is((await api.post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3', positiveResponses: 1 })).status, 200);
});

faults.run();
