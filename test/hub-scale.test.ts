import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { client } from './helpers/http.js';
import { privateRedis, spawnService, type RedisServer, type ServiceProcess } from './helpers/processes.js';
import { connectScreen, type Screen, WAIT_MS } from './helpers/screen.js';
import { testDbUri } from './helpers/service.js';

interface Ctx {
  db: Database;
  apiKey: string;
  orgId: number;
  procs: ServiceProcess[];
  screens: Screen[];
  redis?: RedisServer;
}

const scale = suite<Ctx>('hub: two processes over Redis');

scale.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
  const identity = new IdentityCommands(ctx.db);
  const org = await identity.createOrganization('Kreis Nord');
  ctx.orgId = org.id;
  ctx.apiKey = (await identity.createApiKey(org.id, 'leitstelle')).token;
  ctx.procs = [];
  ctx.screens = [];
});
scale.after.each(async (ctx) => {
  for (const s of ctx.screens) s.close();
  for (const p of ctx.procs) assert.is(await p.stop(), 0, 'service exits cleanly on SIGTERM');
  await ctx.redis?.kill();
  ctx.screens = [];
  ctx.procs = [];
});
scale.after(async (ctx) => {
  await ctx.db.close();
});

async function monitorOn(ctx: Ctx, url: string): Promise<number> {
  const res = await client(url, { apiKey: ctx.apiKey }).post('/api/v1/monitor', {
    name: 'Wache 3',
    organizationID: ctx.orgId,
  });
  assert.is(res.status, 201);
  return res.body.id;
}

const patchVersions = (screen: Screen) =>
  screen.events.filter((e) => e.name === 'monitor:patch').map((e) => e.payload.version as number);
const increasing = (list: number[]) => list.every((v, i) => i === 0 || v > list[i - 1]);

/** Two service processes on one database and one Redis, a monitor, and a subscribed screen on each. */
async function twoProcesses(ctx: Ctx, redisUrl: string) {
  const env = { MONGODB_URI: testDbUri(), REDIS_URL: redisUrl };
  const [a, b] = await Promise.all([spawnService(env), spawnService(env)]);
  ctx.procs.push(a, b);
  const id = await monitorOn(ctx, a.url);
  const onA = await connectScreen(a.url, ctx.apiKey);
  const onB = await connectScreen(b.url, ctx.apiKey);
  ctx.screens.push(onA, onB);
  await onA.subscribe(id);
  await onB.subscribe(id);
  return { a, b, id, onA, onB, apis: [client(a.url, { apiKey: ctx.apiKey }), client(b.url, { apiKey: ctx.apiKey })] };
}

scale(
  'writes on both processes reach the screens on both, in version order, under 20 concurrent writers',
  async (ctx) => {
    const { id, onA, onB, apis } = await twoProcesses(ctx, process.env.REDIS_URL!);
    // Half the writers on each process: they race for versions across processes, and each process
    // receives the other's patches through Redis, possibly before its own earlier ones.
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        apis[i % 2].patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: i + 1 } }),
      ),
    );
    assert.ok(
      replies.every((r) => r.status === 200),
      JSON.stringify(replies.map((r) => r.status)),
    );
    const versions = replies.map((r) => Number(/version (\d+)/.exec(r.body.message)![1])).sort((x, y) => x - y);
    assert.equal(
      versions,
      Array.from({ length: 20 }, (_, i) => i + 1),
    );

    for (const screen of [onB, onA]) {
      await screen.waitFor(() => screen.version === 20, WAIT_MS, 'version 20');
      assert.ok(increasing(patchVersions(screen)), `patches out of order: ${patchVersions(screen)}`);
      assert.ok(increasing(screen.shown), `shown out of order: ${screen.shown}`);
    }
    // A single write on A reaches the screen on B.
    await apis[0].post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B2', negativeResponses: 2 });
    await onB.waitFor(() => onB.version === 21, WAIT_MS, 'version 21 on B');
    assert.is(onB.events.filter((e) => e.name === 'monitor:patch').at(-1)!.payload.payload.negativeResponses, 2);
  },
);

scale(
  'Redis stopped during writes and started after them: REST keeps answering, readiness reports ' +
    'it, every screen ends on the latest version',
  async (ctx) => {
    ctx.redis = await privateRedis();
    const { a, b, id, onA, onB, apis } = await twoProcesses(ctx, ctx.redis.url);
    const statuses: number[] = [];
    let readyDuringOutage: any = null;
    for (let i = 1; i <= 30; i++) {
      if (i === 10) await ctx.redis.kill();
      if (i === 15) readyDuringOutage = (await client(a.url, null).get('/readyz')).body;
      const res = await apis[i % 2].patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { inactivePager: i } });
      statuses.push(res.status);
      await new Promise((r) => setTimeout(r, 40));
    }
    assert.ok(
      statuses.every((s) => s === 200),
      `REST answered ${statuses.join(',')}`,
    );
    // The last 20 writes happened while Redis was away; nothing is written after it returns, so the
    // screens can only converge through the hub's version resync.
    await ctx.redis.start();
    assert.is(readyDuringOutage?.checks?.hub?.detail?.redis, 'down');
    assert.is(readyDuringOutage?.status, 'ready');
    for (const screen of [onA, onB]) {
      await screen.waitFor(() => screen.version === 30, 20_000, 'the latest version after Redis returned');
      assert.ok(increasing(screen.shown), `shown out of order: ${screen.shown}`);
    }
    // With Redis back (both processes' clients reconnect on their own schedule, and B subscribes again
    // after it is ready), patches cross processes again: writes on A arrive on B as patches. A write
    // before B listens again reaches B's screen by resync instead, so A writes until one arrives as a
    // patch, then three more must.
    const deadline = Date.now() + WAIT_MS;
    for (const proc of [a, b]) {
      while ((await client(proc.url, null).get('/readyz')).body.checks.hub.detail.redis !== 'up') {
        assert.ok(Date.now() < deadline, 'both processes reconnect to Redis');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const lastIsPatch = () =>
      onB.events.filter((e) => e.name === 'monitor:patch' || e.name === 'monitor:snapshot').at(-1)?.name ===
      'monitor:patch';
    let version = 30;
    do {
      assert.ok(Date.now() < deadline, 'a write on A reaches B as a patch again');
      version++;
      assert.is(
        (await apis[0].patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { inactivePager: version } })).status,
        200,
      );
      await onB.waitFor(() => onB.version === version, WAIT_MS, `version ${version} on B`);
    } while (!lastIsPatch());
    const patchesOnB = onB.events.filter((e) => e.name === 'monitor:patch').length;
    for (let i = 1; i <= 3; i++)
      assert.is(
        (await apis[0].patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { inactivePager: version + i } })).status,
        200,
      );
    await onB.waitFor(() => onB.version === version + 3, WAIT_MS, `version ${version + 3} on B`);
    assert.ok(
      onB.events.filter((e) => e.name === 'monitor:patch').length >= patchesOnB + 3,
      'B got the new writes as patches',
    );
  },
);

scale(
  'writes taking turns on two processes build on each other without colliding: each learns the ' +
    "other's version from its patch",
  async (ctx) => {
    const { a, b, id, onA, onB, apis } = await twoProcesses(ctx, process.env.REDIS_URL!);
    const collisions = async (url: string) => {
      const text = await (await fetch(`${url}/metrics`)).text();
      return Number(/^alarmhub_data_write_collisions_total (\d+)/m.exec(text)?.[1]);
    };
    const before = [await collisions(a.url), await collisions(b.url)];
    assert.is(
      (await apis[0].post(`/api/v1/monitor/${id}/data/alarming`, { eventId: 12, event: 'TH1 VU eingeklemmt' })).status,
      200,
    );
    await onB.waitFor(() => onB.version === 1, WAIT_MS, 'version 1 on B');
    for (let i = 1; i <= 10; i++) {
      const res = await apis[i % 2].patch(`/api/v1/monitor/${id}/data/alarming`, { positiveResponses: i });
      assert.is(res.status, 200);
      assert.match(res.body.message, `version ${i + 1})`);
      // The next write goes to the other process once this one's patch has reached it.
      for (const screen of [onA, onB])
        await screen.waitFor(() => screen.version === i + 1, WAIT_MS, `version ${i + 1}`);
    }
    assert.equal([await collisions(a.url), await collisions(b.url)], before, 'no write had to be built again');
    // What each process derived is what is stored: a write after the turns sees every earlier one.
    const stored = await apis[1].get(`/api/v1/monitor/${id}/data`);
    assert.is(stored.body.alarmData.positiveResponses, 10);
    assert.is(stored.body.alarmData.event, 'TH1 VU eingeklemmt');
  },
);

scale(
  'a screen subscribing on one process gets what the other process changed before: configuration, ' +
    'data and a running test alarm (what a process keeps for subscriptions follows the others)',
  async (ctx) => {
    const { id, onB, apis } = await twoProcesses(ctx, process.env.REDIS_URL!);
    const b = ctx.procs[1];
    // Each step: a change on A, seen by B (its first screen got the broadcast), then a new screen on B.
    const newScreenOnB = async () => {
      const screen = await connectScreen(b.url, ctx.apiKey);
      ctx.screens.push(screen);
      const ack = await screen.subscribe(id);
      assert.ok('data' in ack && ack.data.snapshot, JSON.stringify(ack));
      return { screen, snapshot: ack.data.snapshot };
    };
    assert.is((await apis[0].put('/api/v1/monitor', { id, name: 'Wache 3 Süd' })).status, 200);
    await onB.waitFor(() => onB.events.some((e) => e.name === 'monitor:updated'), WAIT_MS, 'the update on B');
    assert.is((await newScreenOnB()).snapshot.monitor.name, 'Wache 3 Süd');

    assert.is(
      (await apis[0].post(`/api/v1/monitor/${id}/data/alarming`, { eventId: 7, event: 'B3 Scheune' })).status,
      200,
    );
    await onB.waitFor(() => onB.events.some((e) => e.name === 'monitor:patch'), WAIT_MS, 'the patch on B');
    const afterPatch = (await newScreenOnB()).snapshot;
    assert.is(afterPatch.data.alarmData.event, 'B3 Scheune', JSON.stringify(afterPatch.data));

    assert.is(
      (await apis[0].post(`/api/v1/monitor/${id}/test-alarm`, { message: 'Probealarm', durationSeconds: 60 })).status,
      200,
    );
    await onB.waitFor(() => onB.events.some((e) => e.name === 'monitor:test-alarm'), WAIT_MS, 'the test alarm on B');
    const { screen } = await newScreenOnB();
    await screen.waitFor(
      () => screen.events.some((e) => e.name === 'monitor:test-alarm' && e.payload.message === 'Probealarm'),
      WAIT_MS,
      'the running test alarm on the new screen',
    );
  },
);

scale.run();
