// The load balancer of deploy/ (issue 12): deploy/nginx.conf, pointed at two local processes, passes
// `nginx -t`, and carries REST and a screen's Socket.IO session (long-polling first, then the WebSocket
// upgrade) with patches written on either process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import { freePort } from '../server/db/launcher.js';
import { client } from './helpers/http.js';
import { repoRoot } from './helpers/processes.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  dir: string;
  a: TestService;
  b: TestService;
  org: OrgFixture;
  nginx: ChildProcess | null;
  url: string;
}

const deploy = suite<Ctx>('deploy: nginx in front of two processes', {} as Ctx);

const NGINX = '/usr/sbin/nginx';

deploy.before(async (ctx) => {
  ctx.dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-nginx-'));
  const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', TRUST_PROXY: 'true' };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
  ctx.nginx = null;
});
deploy.after(async (ctx) => {
  ctx.nginx?.kill('SIGTERM');
  await ctx.a.close();
  await ctx.b.close();
  await fs.rm(ctx.dir, { recursive: true, force: true });
});

/** deploy/nginx.conf with the compose hosts replaced by the local processes and a free port. */
async function localConfig(ctx: Ctx, port: number): Promise<string> {
  const text = (await fs.readFile(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8'))
    .replace('server hub1:3000', `server 127.0.0.1:${ctx.a.port}`)
    .replace('server hub2:3000', `server 127.0.0.1:${ctx.b.port}`)
    .replace('listen 8080 backlog=4096;', `listen 127.0.0.1:${port} backlog=4096;`)
    .replaceAll('/tmp/', `${ctx.dir}/`);
  assert.not.match(text, 'hub1:3000');
  assert.match(text, `listen 127.0.0.1:${port} backlog=4096;`);
  const file = path.join(ctx.dir, 'nginx.conf');
  await fs.writeFile(file, text);
  return file;
}

deploy('deploy/nginx.conf passes nginx -t', async (ctx) => {
  await fs.access(NGINX).catch(() => {
    throw new Error(`${NGINX} is missing: apt-get install nginx-light (bash .ci/run installs it)`);
  });
  const port = await freePort();
  const file = await localConfig(ctx, port);
  const check = spawnSync(NGINX, ['-t', '-c', file], { encoding: 'utf8' });
  assert.is(check.status, 0, check.stderr);
  assert.match(check.stderr, 'test is successful');
  ctx.nginx = spawn(NGINX, ['-c', file, '-g', 'daemon off;'], { stdio: 'ignore' });
  ctx.url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(`${ctx.url}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    assert.ok(Date.now() < deadline, 'nginx answers');
    await new Promise((r) => setTimeout(r, 100));
  }
});

deploy(
  'through nginx: REST works and a screen (polling, then WebSocket) gets patches written on either process',
  async (ctx) => {
    assert.ok(ctx.url, 'nginx runs');
    const api = client(ctx.url, { apiKey: ctx.org.apiKey });
    const created = await api.post('/api/v1/monitor', { name: 'Hinter dem Proxy', organizationID: ctx.org.orgId });
    assert.is(created.status, 201);
    const id = created.body.id as number;
    // The display client's default: HTTP long-polling first, upgraded to a WebSocket when possible.
    const socket = io(ctx.url, {
      path: '/socket.io',
      auth: { token: ctx.org.apiKey, scheme: 'api-token' },
      reconnection: false,
    });
    const patches: Array<{ version: number; payload: { event?: string } }> = [];
    socket.on('monitor:patch', (p) => patches.push(p));
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const ack = await socket.timeout(5_000).emitWithAck('monitor:subscribe', { monitorId: id });
      assert.is(ack.data.version, 0);
      await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post(`/api/v1/monitor/${id}/data/alarming`, {
        event: 'über A',
      });
      await client(ctx.b.url, { apiKey: ctx.org.apiKey }).post(`/api/v1/monitor/${id}/data/alarming`, {
        event: 'über B',
      });
      const deadline = Date.now() + 10_000;
      while (patches.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(
        patches.map((p) => [p.version, p.payload.event]),
        [
          [1, 'über A'],
          [2, 'über B'],
        ],
      );
      assert.is(socket.io.engine.transport.name, 'websocket', 'the session was upgraded through nginx');
    } finally {
      socket.close();
    }
  },
);

deploy.run();
