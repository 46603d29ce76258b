// Past one Redis (issue 12): REDIS_URL naming a Redis Cluster (three local nodes started here). The hub
// then runs on Socket.IO's sharded adapter (Redis 7 sharded pub/sub), rate limits are counted in the
// cluster, and every key and channel stays under the installation's prefix.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { freePort } from '../server/db/launcher.js';
import { client } from './helpers/http.js';
import { connectScreen, type Screen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  dir: string;
  nodes: ChildProcess[];
  ports: number[];
  a: TestService;
  b: TestService;
  org: OrgFixture;
  screens: Screen[];
}

const cluster = suite<Ctx>('hub and rate limits on a Redis Cluster', { nodes: [], screens: [] } as unknown as Ctx);

async function reachable(port: number): Promise<boolean> {
  return spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG';
}

// A cluster node on a free port, answering PING. A port another process took between freePort() and the
// node's bind makes the node exit: it is started again on another port; its output says why it stopped.
async function startNode(root: string): Promise<{ port: number; node: ChildProcess }> {
  let said = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const dir = path.join(root, String(port));
    await fs.mkdir(dir);
    const node = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    said = '';
    node.stdout!.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-2_000)));
    node.stderr!.on('data', (d: Buffer) => (said = (said + d.toString()).slice(-2_000)));
    let exited = false;
    node.once('exit', () => (exited = true));
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline) {
      if (await reachable(port)) return { port, node };
      await new Promise((r) => setTimeout(r, 50));
    }
    node.kill('SIGKILL');
    if (!exited) throw new Error(`redis-server on ${port} did not answer within 10 s: ${said}`);
  }
  throw new Error(`redis-server did not start on three ports; the last said: ${said}`);
}

cluster.before(async (ctx) => {
  ctx.dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-cluster-'));
  ctx.ports = [];
  for (let i = 0; i < 3; i++) {
    const { port, node } = await startNode(ctx.dir);
    ctx.ports.push(port);
    ctx.nodes.push(node);
  }
  const create = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...ctx.ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
    { encoding: 'utf8' },
  );
  if (create.status !== 0) throw new Error(`cluster create failed: ${create.stdout} ${create.stderr}`);
  const deadline = Date.now() + 15_000;
  while (
    !/cluster_state:ok/.test(
      spawnSync('redis-cli', ['-p', String(ctx.ports[0]), 'cluster', 'info'], { encoding: 'utf8' }).stdout,
    )
  ) {
    if (Date.now() > deadline) throw new Error('the cluster did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }
  const env = {
    REDIS_URL: `redis-cluster://${ctx.ports.map((p) => `127.0.0.1:${p}`).join(',')}`,
    RATE_LIMIT_PER_SECOND: '5',
  };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
});
cluster.after(async (ctx) => {
  for (const s of ctx.screens) s.close();
  await ctx.a?.close();
  await ctx.b?.close();
  for (const node of ctx.nodes) node.kill('SIGKILL');
  await fs.rm(ctx.dir, { recursive: true, force: true });
});

cluster(
  'a write on process B reaches a screen on process A through sharded pub/sub; readiness says Redis is up',
  async (ctx) => {
    assert.is((await client(ctx.a.url, null).get('/readyz')).body.checks.hub.detail.redis, 'up');
    const api = client(ctx.b.url, { pat: ctx.org.admin.token });
    const id = (await api.post('/api/v1/monitor', { name: 'Cluster', organizationID: ctx.org.orgId })).body.id;
    const screen = await connectScreen(ctx.a.url, ctx.org.member.token);
    ctx.screens.push(screen);
    await screen.subscribe(id);
    assert.is((await api.post(`/api/v1/monitor/${id}/data/alarming`, { event: 'Über den Cluster' })).status, 200);
    await screen.waitFor(() => screen.version === 1, WAIT_MS, 'the patch from B');
    const patch = screen.events.find((e) => e.name === 'monitor:patch')!.payload;
    assert.is(patch.payload.event, 'Über den Cluster');
  },
);

cluster(
  "rate limits are shared through the cluster, and every key lives under the installation's prefix",
  async (ctx) => {
    const get = (svc: TestService) =>
      client(svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/monitor?organization=${ctx.org.orgId}`);
    const first = await Promise.all(Array.from({ length: 10 }, () => get(ctx.a)));
    assert.ok(
      first.every((r) => r.status === 200),
      first.map((r) => r.status).join(','),
    );
    assert.is((await get(ctx.b)).status, 429);
    const keys = ctx.ports.flatMap((port) =>
      spawnSync('redis-cli', ['-p', String(port), '--scan'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean),
    );
    assert.ok(keys.length > 0, 'the limits left keys');
    assert.ok(
      keys.every((k) => k.startsWith(`${ctx.a.redisPrefix}:`)),
      keys.join(' '),
    );
  },
);

cluster.run();
