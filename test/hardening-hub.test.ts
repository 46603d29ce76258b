// Hardening the hub (issue 7): installations sharing one Redis, limits per credential, repeated
// snapshots, restored histories and processes with different hub settings — over the real wire.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { MonitorStore } from '../server/areas/monitor/store.js';
import { eventually } from './helpers/fleet.js';
import { client } from './helpers/http.js';
import { privateRedis, reachable } from './helpers/processes.js';
import { connectScreen, WAIT_MS, type Screen } from './helpers/screen.js';
import { createOrg, otherDatabase, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { identityModels } from '../server/identity/models.js';

interface Ctx {
  services: TestService[];
  screens: Screen[];
}

const hub = suite<Ctx>('hardening: the hub', { services: [], screens: [] } as Ctx);

hub.after.each(async (ctx) => {
  for (const s of ctx.screens) s.close();
  for (const s of ctx.services) await s.close();
  ctx.screens = [];
  ctx.services = [];
});

const redisUrl = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const api = (svc: TestService, org: OrgFixture) => client(svc.url, { apiKey: org.apiKey });
const patches = (screen: Screen) => screen.events.filter((e) => e.name === 'monitor:patch').map((e) => e.payload);

async function start(ctx: Ctx, env: Record<string, string> = {}, opts: Parameters<typeof startTestService>[1] = {}) {
  const svc = await startTestService(env, opts);
  ctx.services.push(svc);
  return svc;
}

async function screenOn(ctx: Ctx, svc: TestService, token: string) {
  const screen = await connectScreen(svc.url, token);
  ctx.screens.push(screen);
  return screen;
}

hub("two installations on one Redis (own databases, same monitor IDs) never see each other's screens", async (ctx) => {
  const suffix = randomBytes(4).toString('hex');
  const a = await start(ctx, { REDIS_URL: redisUrl() }, { dbUri: otherDatabase(`install_a_${suffix}`) });
  const b = await start(ctx, { REDIS_URL: redisUrl() }, { dbUri: otherDatabase(`install_b_${suffix}`) });
  assert.is.not(a.installationId, b.installationId);
  assert.is(a.redisPrefix, `alarm-hub:${a.installationId}`);
  const orgA = await createOrg(a);
  const orgB = await createOrg(b);
  const monitorA = (await api(a, orgA).post('/api/v1/monitor', { name: 'A', organizationID: orgA.orgId })).body.id;
  const monitorB = (await api(b, orgB).post('/api/v1/monitor', { name: 'B', organizationID: orgB.orgId })).body.id;
  assert.is(monitorA, monitorB, 'both installations number their first monitor the same');
  const wallB = await screenOn(ctx, b, orgB.apiKey);
  await wallB.subscribe(monitorB);

  assert.is(
    (await api(a, orgA).post(`/api/v1/monitor/${monitorA}/data/alarming`, { event: 'A: Brand', eventId: 1 })).status,
    200,
  );
  // B's own write, published after A's, is the point by which A's would have arrived.
  assert.is(
    (await api(b, orgB).post(`/api/v1/monitor/${monitorB}/data/alarming`, { event: 'B: Unfall', eventId: 2 })).status,
    200,
  );
  await wallB.waitFor(() => patches(wallB).some((p) => p.payload.event === 'B: Unfall'), WAIT_MS, "B's own alarm");
  assert.equal(
    patches(wallB).filter((p) => p.payload.event !== 'B: Unfall'),
    [],
    "installation A's write reached B's wall",
  );
  assert.is(patches(wallB).length, 1);
  assert.is(patches(wallB)[0].payload.event, 'B: Unfall');
  assert.is(wallB.version, 1);
});

hub('REDIS_PREFIX overrides the namespace', async (ctx) => {
  const svc = await start(ctx, { REDIS_URL: redisUrl(), REDIS_PREFIX: 'staging-north' });
  assert.is(svc.redisPrefix, 'staging-north');
});

hub('subscriptions are limited per credential and address: reconnecting does not reset the budget', async (ctx) => {
  const svc = await start(ctx, { RATE_LIMIT_PER_SECOND: '50' });
  const org = await createOrg(svc);
  const id = (await api(svc, org).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id;
  // All at once: one by one, a slow machine lets the budget (2 a second) grow back as fast as it is spent.
  const burst = async (screen: Screen, count: number) => {
    const acks = await Promise.all(Array.from({ length: count }, () => screen.subscribe(id)));
    const refused = acks.filter((ack) => 'error' in ack && ack.error.error === 'rate_limited').length;
    assert.is(
      acks.filter((ack) => 'data' in ack).length + refused,
      count,
      JSON.stringify(acks.find((ack) => !('data' in ack))),
    );
    return { granted: count - refused, refused };
  };
  const first = await screenOn(ctx, svc, org.member.token);
  const spent = await burst(first, 100);
  assert.ok(spent.refused > 0, `the budget runs out (${spent.granted} granted)`);
  first.close();
  // A new socket of the same token starts with the spent budget, plus what grew back since: a fresh
  // budget would grant the whole burst again.
  const again = await screenOn(ctx, svc, org.member.token);
  const after = await burst(again, spent.granted);
  assert.ok(
    after.granted < spent.granted / 2,
    `a new socket of the same token was granted ${after.granted} of ${spent.granted}`,
  );
  const other = await screenOn(ctx, svc, org.apiKey);
  assert.ok('data' in (await other.subscribe(id)), 'another credential has its own budget');
});

hub('a credential holds at most HUB_MAX_SOCKETS_PER_TOKEN sockets; a closed one frees its place', async (ctx) => {
  const svc = await start(ctx, { HUB_MAX_SOCKETS_PER_TOKEN: '3' });
  const org = await createOrg(svc);
  const held = [
    await screenOn(ctx, svc, org.apiKey),
    await screenOn(ctx, svc, org.apiKey),
    await screenOn(ctx, svc, org.apiKey),
  ];
  const refused = await connectScreen(svc.url, org.apiKey).then(
    (s) => (s.close(), null),
    (err: Error) => err,
  );
  assert.is(refused?.message, 'too_many_connections');
  assert.ok(await screenOn(ctx, svc, org.member.token), 'other credentials are not affected');
  held[0].close();
  // The server counts the socket out once it hears the close: try until then.
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const freed = await connectScreen(svc.url, org.apiKey).catch((err: Error) => err);
    if (!(freed instanceof Error)) {
      ctx.screens.push(freed);
      break;
    }
    assert.is(freed.message, 'too_many_connections');
    assert.ok(Date.now() < deadline, 'the closed socket freed its place');
    await new Promise((r) => setTimeout(r, 50));
  }
});

hub("handshakes whose client left before they finished do not use up the credential's places", async (ctx) => {
  const svc = await start(ctx, { HUB_MAX_SOCKETS_PER_TOKEN: '3' });
  const org = await createOrg(svc);
  const { io } = await import('socket.io-client');
  // CONNECT sent, then the connection closed at once: the server finishes the handshake (its token
  // lookup is awaited) for a client that is already gone.
  const aborted = () =>
    new Promise<void>((resolve) => {
      const socket = io(svc.url, {
        path: '/socket.io',
        auth: { token: org.apiKey, scheme: 'api-token' },
        transports: ['websocket'],
        reconnection: false,
      });
      socket.io.once('open', () => setImmediate(() => socket.io.engine.close()));
      socket.io.engine?.once('close', () => resolve());
      socket.io.once('close', () => resolve());
      socket.once('connect', () => {
        socket.io.engine.close();
        resolve();
      });
    });
  for (let i = 0; i < 12; i++) await aborted();
  // Every place is free again once the server heard the closes: a screen of the credential gets in.
  const deadline = Date.now() + WAIT_MS;
  const held: Screen[] = [];
  while (held.length < 3) {
    const screen = await connectScreen(svc.url, org.apiKey).catch((err: Error) => err);
    if (screen instanceof Error) {
      assert.is(screen.message, 'too_many_connections');
      assert.ok(Date.now() < deadline, `aborted handshakes keep the places of ${3 - held.length} sockets`);
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    ctx.screens.push(screen);
    held.push(screen);
  }
  const refused = await connectScreen(svc.url, org.apiKey).then(
    (s) => (s.close(), null),
    (err: Error) => err,
  );
  assert.is(refused?.message, 'too_many_connections', 'the cap still holds');
});

hub("repeated snapshots of one version read the monitor's data from the database at most once", async (ctx) => {
  const svc = await start(ctx);
  const org = await createOrg(svc);
  const id = (await api(svc, org).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id;
  await api(svc, org).post(`/api/v1/monitor/${id}/data/meta`, { tables: { roster: 'x'.repeat(500_000) } });
  const reads: string[] = [];
  svc.db.conn.set('debug', (collection: string, method: string) => {
    if (collection === 'chain_contents' && method.startsWith('find')) reads.push(method);
  });
  try {
    for (let i = 0; i < 20; i++) {
      const screen = await screenOn(ctx, svc, org.apiKey);
      const ack = await screen.subscribe(id);
      assert.ok('data' in ack && ack.data.snapshot?.version === 1);
      screen.close();
    }
  } finally {
    svc.db.conn.set('debug', false);
  }
  assert.ok(reads.length <= 1, `the data was read ${reads.length} times for 20 snapshots`);
});

hub(
  'screens of one monitor subscribing at once to a fresh process share its reads: one of the monitor, ' +
    'four of its histories, one of its test alarm',
  async (ctx) => {
    const first = await start(ctx, { RATE_LIMIT_PER_SECOND: '0' });
    const org = await createOrg(first);
    const id = (await api(first, org).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id;
    await api(first, org).post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3' });
    // Another process, which has read nothing of this monitor yet: a storm after its restart.
    const fresh = await start(
      ctx,
      { RATE_LIMIT_PER_SECOND: '0', HUB_MAX_SOCKETS_PER_TOKEN: '0' },
      { monitorCommands: true },
    );
    const screens = await Promise.all(Array.from({ length: 30 }, () => screenOn(ctx, fresh, org.apiKey)));
    const reads: Record<string, number> = {};
    fresh.db.conn.set('debug', (collection: string, method: string) => {
      if (method.startsWith('find')) reads[collection] = (reads[collection] ?? 0) + 1;
    });
    // The test alarm is looked up after each answer; a second read would begin when the first ends.
    const driver = fresh.db.conn.getClient();
    const alarmReads = { started: 0, running: new Set<number>() };
    const started = (e: { requestId: number; command: { find?: unknown } }) => {
      if (e.command.find !== 'test_alarms') return;
      alarmReads.started++;
      alarmReads.running.add(e.requestId);
    };
    const ended = (e: { requestId: number }) => void alarmReads.running.delete(e.requestId);
    driver.on('commandStarted', started);
    driver.on('commandSucceeded', ended);
    driver.on('commandFailed', ended);
    try {
      const acks = await Promise.all(screens.map((screen) => screen.subscribe(id)));
      for (const ack of acks) assert.ok('data' in ack && ack.data.snapshot?.version === 1, JSON.stringify(ack));
      // Counted until the test-alarm reads begun have ended and no further one began after them.
      const deadline = Date.now() + WAIT_MS;
      for (let quiet = 0; quiet < 3;) {
        assert.ok(
          Date.now() < deadline,
          `test-alarm reads still running: ${alarmReads.running.size} of ${alarmReads.started}`,
        );
        const settled = alarmReads.started > 0 && alarmReads.running.size === 0;
        quiet = settled ? quiet + 1 : 0;
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      fresh.db.conn.set('debug', false);
      driver.off('commandStarted', started);
      driver.off('commandSucceeded', ended);
      driver.off('commandFailed', ended);
    }
    // The monitor is read once, for the check and its snapshot. Its histories by exact lookups: the
    // configuration's next revision (none), and the data's versions 0 and 1 and the absent 2, each link
    // read whole on this cold process, so that the newest one's body needs no further read.
    assert.ok((reads.monitors ?? 0) <= 1, `the monitor was read ${reads.monitors} times for 30 subscriptions`);
    assert.ok(
      (reads.chain_links ?? 0) <= 4,
      `the histories' links were read ${reads.chain_links} times for 30 subscriptions`,
    );
    assert.ok((reads.test_alarms ?? 0) <= 1, `the test alarm was read ${reads.test_alarms} times for 30 subscriptions`);
  },
);

hub(
  'a history restored from a backup: live patches reach the screens and a screen holding the old ' +
    'history gets the new one',
  async (ctx) => {
    const svc = await start(ctx);
    const org = await createOrg(svc);
    const id = (await api(svc, org).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id;
    const write = (event: string) => api(svc, org).post(`/api/v1/monitor/${id}/data/alarming`, { event });
    await write('one');
    await write('two');
    // The backup: the monitor's data history as it is at version 2.
    const { links, contents, heads } = svc.db.chains;
    const key = `data:${id}`;
    const backup = {
      links: await links.find({ key }).lean(),
      contents: await contents.find({ key }).lean(),
      heads: await heads.find({ _id: key }).lean(),
    };
    for (const event of ['three', 'four', 'five']) await write(event);
    const wall = await screenOn(ctx, svc, org.apiKey);
    const subscribed = await wall.subscribe(id);
    assert.is(wall.version, 5);
    const oldEpoch = 'data' in subscribed ? subscribed.data.epoch : '';

    // The restore, under the running process.
    await links.deleteMany({ key });
    await contents.deleteMany({ key });
    await heads.deleteMany({ _id: key });
    await links.insertMany(backup.links);
    await contents.insertMany(backup.contents);
    await heads.insertMany(backup.heads);
    for (const event of ['drei', 'vier', 'fünf']) assert.is((await write(event)).status, 200);

    const stored = await api(svc, org).get(`/api/v1/monitor/${id}/data`);
    assert.is(stored.headers.get('etag'), '"5"', 'the restored history is at version 5 again');
    assert.is(stored.body.alarmData.event, 'fünf');
    const shows = (e: { name: string; payload: any }) =>
      e.name === 'monitor:snapshot' ? e.payload.data.alarmData.event : e.payload.payload?.event;
    await wall.waitFor(() => wall.events.some((e) => shows(e) === 'fünf'), WAIT_MS, 'the new history on the wall');
    const reset = wall.events.find((e) => e.name === 'monitor:snapshot' && e.payload.reset);
    assert.ok(reset, 'the process noticed the reset and sent the stored state marked as such');
    assert.ok(reset!.payload.version < 5);
    assert.is(wall.version, 5);

    const cold = await screenOn(ctx, svc, org.apiKey);
    const ack = await cold.subscribe(id, 5, oldEpoch);
    assert.ok(
      'data' in ack && ack.data.snapshot?.data.alarmData.event === 'fünf',
      'a screen asking with the old epoch at the same number gets the stored state',
    );
  },
);

hub('processes on one database with different hub settings: an error at start and a report on /readyz', async (ctx) => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  const suffix = randomBytes(4).toString('hex');
  const dbUri = otherDatabase(`mismatch_${suffix}`);
  const withRedis = await start(ctx, { REDIS_URL: redisUrl(), HUB_HEARTBEAT_MS: '200' }, { dbUri });
  const without = await start(ctx, { HUB_HEARTBEAT_MS: '200' }, { dbUri, log: pino({ level: 'error' }, sink) });
  // Each process compares at start and on its own heartbeat, and a peer whose last beat is 3 beats
  // (600 ms here) old counts as gone: on a busy machine a beat can be late, so the start may see no
  // peer; the error then comes with the next beat that does. Waited for, as each report below.
  await eventually(
    async () => lines.some((l) => /hub configuration differs/.test(l) && /"level":50/.test(l)),
    (logged) => logged,
    'the mismatch logged as an error',
  );
  const mismatched = (url: string) =>
    eventually(
      async () =>
        (
          (await client(url, null).get('/readyz')).body.checks.hub.detail.mismatchedProcesses as Array<{ hub: string }>
        ).map((p) => p.hub),
      (hubs) => hubs.length > 0,
      `a mismatch reported on ${url}/readyz`,
    );
  const seen = await mismatched(without.url);
  assert.is(seen.length, 1);
  assert.match(seen[0], /^Redis /);
  assert.equal(await mismatched(withRedis.url), ['no Redis (single-process hub)']);
});

hub('processes with the same hub settings report no mismatch', async (ctx) => {
  const dbUri = otherDatabase(`same_${randomBytes(4).toString('hex')}`);
  const one = await start(ctx, { REDIS_URL: redisUrl(), HUB_HEARTBEAT_MS: '200' }, { dbUri });
  const { HubProcess } = one.db.system;
  const [first] = await HubProcess.find({}).lean();
  await start(ctx, { REDIS_URL: redisUrl(), HUB_HEARTBEAT_MS: '200' }, { dbUri });
  // The first process compares after each heartbeat: two of them after the second started, so that
  // one comparison surely saw it.
  const beats = new Set<number>();
  const deadline = Date.now() + WAIT_MS;
  while (beats.size < 3) {
    assert.ok(Date.now() < deadline, 'the first process beat twice');
    beats.add((await HubProcess.findById(first._id).lean())!.seenAt.getTime());
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal((await client(one.url, null).get('/readyz')).body.checks.hub.detail.mismatchedProcesses, []);
});

hub(
  "TOKEN_RECHECK_MS=0 is the default interval: a connected socket's token is not read again every millisecond",
  async (ctx) => {
    const svc = await start(ctx, { TOKEN_RECHECK_MS: '0' });
    const org = await createOrg(svc);
    await screenOn(ctx, svc, org.apiKey);
    // The recheck reads each connected credential's token: count those reads over half a second.
    const Token = identityModels(svc.db).Token;
    const original = Token.findById;
    let reads = 0;
    Token.findById = ((...args: Parameters<typeof original>) => (
      reads++,
      original.apply(Token, args)
    )) as typeof original;
    try {
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      Token.findById = original;
    }
    // Every 5 s by default: at most one recheck falls into the half second.
    assert.ok(reads <= 1, `the token was read ${reads} times in 500 ms`);
  },
);

hub(
  "patches that are only late (Redis holding them) are not overtaken by the periodic resync's snapshots",
  async (ctx) => {
    const redis = await privateRedis();
    const control = new Redis(redis.url);
    // The versions the reader's resync passes find stored (only the hub asks the store for them; the writer's hub
    // has no screens, so every call here after the subscription is the reader's).
    const found: number[] = [];
    const dataVersion = MonitorStore.prototype.dataVersion;
    MonitorStore.prototype.dataVersion = async function (this: MonitorStore, monitorId: number) {
      const result = await dataVersion.call(this, monitorId);
      found.push(result.n);
      return result;
    };
    try {
      // A resync pass every 6 s gives a monitor stored ahead of its screens 3 s of grace. Each write's
      // publication is held in Redis (CLIENT PAUSE) until a pass has found the new version stored while
      // the screens still hold the one before, and only then let go: late, but well within the grace,
      // however busy the machine (the hold ends when the pass is seen, not after a fixed time).
      const env = { REDIS_URL: redis.url, HUB_RESYNC_MS: '6000', RATE_LIMIT_PER_SECOND: '0' };
      const writer = await start(ctx, env);
      const reader = await start(ctx, env);
      const org = await createOrg(writer);
      const monitorId = (await api(writer, org).post('/api/v1/monitor', { name: 'Wache 1', organizationID: org.orgId }))
        .body.id;
      const wall = await screenOn(ctx, reader, org.apiKey);
      await wall.subscribe(monitorId);
      for (let version = 1; version <= 3; version++) {
        await control.call('CLIENT', 'PAUSE', '120000', 'WRITE');
        const res = await api(writer, org).post(`/api/v1/monitor/${monitorId}/data/alarming`, {
          event: `Brand ${version}`,
          eventId: version,
        });
        assert.is(res.status, 200);
        assert.is(Number(/version (\d+)/.exec(res.body.message)![1]), version);
        await wall.waitFor(
          () => found.includes(version),
          2 * 6_000 + WAIT_MS,
          `a resync pass finding version ${version} stored`,
        );
        assert.is(wall.version, version - 1, 'the patch is still held');
        await control.call('CLIENT', 'UNPAUSE');
        // A snapshot sent by the pass would have been sent before the patch, on the same socket.
        await wall.waitFor(() => wall.version === version, WAIT_MS, `version ${version} on the wall`);
      }
      assert.equal(
        patches(wall).map((p) => p.version),
        [1, 2, 3],
        'every version arrived as a patch',
      );
      assert.is(
        wall.events.filter((e) => e.name === 'monitor:snapshot').length,
        0,
        'no snapshot was sent for late patches',
      );
    } finally {
      MonitorStore.prototype.dataVersion = dataVersion;
      await control.call('CLIENT', 'UNPAUSE').catch(() => undefined);
      control.disconnect();
      for (const s of ctx.services) await s.close();
      ctx.services = [];
      await redis.kill();
    }
    assert.not.ok(await reachable(redis.port), "the test's redis-server is gone");
  },
);

hub.run();
