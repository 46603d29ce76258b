// Hardening monitor data (issue 7): late patches after a clear, bounded data, hot paths on exact
// string-_id lookups, and concurrent configuration changes on two processes — over the real wire.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { MONITOR_DATA_MAX_BYTES } from '../server/areas/monitor/store.js';
import { expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
}

const data = suite<Ctx>('hardening: monitor data', {} as Ctx);

data.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
});
data.after(async (ctx) => {
  await ctx.svc.close();
});

const api = (ctx: Ctx, org: OrgFixture = ctx.a) => client(ctx.svc.url, { apiKey: org.apiKey });
const newMonitor = async (ctx: Ctx, org: OrgFixture = ctx.a) =>
  (await api(ctx, org).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id as number;
const read = async (ctx: Ctx, id: number) => {
  const res = await api(ctx).get(`/api/v1/monitor/${id}/data`);
  return { version: Number(res.headers.get('etag')!.slice(1, -1)), body: res.body };
};

data('M8 409 no_active_alarm for a late response count after the alarm was cleared; nothing changes', async (ctx) => {
  const id = await newMonitor(ctx);
  const alarm = `/api/v1/monitor/${id}/data/alarming`;
  assert.is(
    (await api(ctx).post(alarm, { eventId: 4711, event: 'B3 Wohnungsbrand', positiveResponses: 1 })).status,
    200,
  );
  assert.is((await api(ctx).post(alarm, {})).status, 200);
  const before = await read(ctx, id);
  const screen = await connectScreen(ctx.svc.url, ctx.a.apiKey);
  await screen.subscribe(id);
  const late = await api(ctx).patch(alarm, { positiveResponses: 3 });
  expectError(late, 409, 'no_active_alarm');
  assert.match(late.body.message, /cleared or has ended/);
  const revived = await api(ctx).patch(alarm, { eventId: 4711, positiveResponses: 3 });
  expectError(revived, 409, 'no_active_alarm');
  const after = await read(ctx, id);
  assert.is(after.version, before.version, 'no version was written');
  assert.equal(after.body.alarmData, {});
  assert.not.ok('4711' in after.body.alarmDataList, 'the cleared event did not come back');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(
    screen.events.filter((e) => e.name === 'monitor:patch'),
    [],
    'screens got nothing',
  );
  screen.close();
});

data(
  'M8 on a process whose remembered state is old (the alarm was set on another process) patches the stored alarm',
  async (ctx) => {
    const other = await startTestService();
    try {
      const id = await newMonitor(ctx);
      const alarm = `/api/v1/monitor/${id}/data/alarming`;
      // This process writes (and remembers) a cleared state; the other one sets an alarm after it.
      assert.is((await api(ctx).post(alarm, {})).status, 200);
      assert.is(
        (await client(other.url, { apiKey: ctx.a.apiKey }).post(alarm, { eventId: 9, event: 'Brand' })).status,
        200,
      );
      const res = await api(ctx).patch(alarm, { positiveResponses: 5 });
      assert.is(res.status, 200, JSON.stringify(res.body));
      assert.is((await read(ctx, id)).body.alarmData.positiveResponses, 5);
    } finally {
      await other.close();
    }
  },
);

data('M8 409 for an ended event and for an eventId no active event has; 200 for the active one', async (ctx) => {
  const id = await newMonitor(ctx);
  const alarm = `/api/v1/monitor/${id}/data/alarming`;
  await api(ctx).post(alarm, { eventId: 1, event: 'Brand', eventEndDate: new Date(Date.now() - 60_000).toISOString() });
  expectError(await api(ctx).patch(alarm, { positiveResponses: 2 }), 409, 'no_active_alarm');
  await api(ctx).post(alarm, { eventId: 2, event: 'Unfall' });
  expectError(await api(ctx).patch(alarm, { eventId: 99, positiveResponses: 2 }), 409, 'no_active_alarm');
  assert.is((await api(ctx).patch(alarm, { eventId: 2, positiveResponses: 2 })).status, 200);
  assert.is((await read(ctx, id)).body.alarmData.positiveResponses, 2);
});

data(
  'M8 409 when alarmData names neither event nor message: a patch cannot complete counters into an alarm',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const alarm = `/api/v1/monitor/${id}/data/alarming`;
    await api(ctx).post(alarm, { positiveResponses: 1 });
    expectError(await api(ctx).patch(alarm, { event: 'Brand' }), 409, 'no_active_alarm');
  },
);

data('OpenAPI states the patch rule and the 409 on M8', async (ctx) => {
  const doc = (await client(ctx.svc.url, null).get('/openapi.json')).body;
  const m8 = doc.paths['/api/v1/monitor/{monitor_id}/data/alarming'].patch;
  assert.ok(m8.responses['409'], 'M8 documents 409');
  assert.match(m8.description, /no_active_alarm/);
  assert.match(m8.description, String(MONITOR_DATA_MAX_BYTES));
});

data(
  `M10 413 payload_too_large once the merged data would pass ${MONITOR_DATA_MAX_BYTES} bytes (UTF-8, ` +
    `not UTF-16 units); the data stays`,
  async (ctx) => {
    const id = await newMonitor(ctx);
    // 300 000 '€' are 300 000 UTF-16 units but 900 000 bytes: the fifth such table passes 4 MiB.
    const table = '€'.repeat(300_000);
    const statuses: number[] = [];
    for (let i = 1; i <= 8; i++)
      statuses.push((await api(ctx).patch(`/api/v1/monitor/${id}/data/meta`, { tables: { [`t${i}`]: table } })).status);
    assert.equal(statuses, [200, 200, 200, 200, 413, 413, 413, 413]);
    const refused = await api(ctx).patch(`/api/v1/monitor/${id}/data/meta`, { tables: { more: table } });
    expectError(refused, 413, 'payload_too_large');
    assert.match(refused.body.message, /limit is 4\.0 MiB/);
    const { version, body } = await read(ctx, id);
    assert.is(version, 4);
    assert.equal(Object.keys(body.metaData.tables), ['t1', 't2', 't3', 't4']);
    // A set that makes room is accepted again.
    assert.is((await api(ctx).post(`/api/v1/monitor/${id}/data/meta`, { tables: { t9: 'klein' } })).status, 200);
  },
);

data(
  'hot paths read by exact string _id only: credential, monitor, data and writes of another organization never scan',
  async (ctx) => {
    // A large neighbour in organization B, then A's requests watched at the driver.
    const neighbour = await newMonitor(ctx, ctx.b);
    for (let i = 0; i < 3; i++)
      await api(ctx, ctx.b).patch(`/api/v1/monitor/${neighbour}/data/meta`, {
        tables: { [`t${i}`]: 'x'.repeat(900_000) },
      });
    const id = await newMonitor(ctx);
    await api(ctx).post(`/api/v1/monitor/${id}/data/alarming`, { event: 'Brand', eventId: 3 });
    const filters: string[] = [];
    ctx.svc.db.conn.set('debug', (collection: string, method: string, filter: unknown) => {
      // Background work, not a request's path: hub heartbeats, and the alarm outbox's sweep (it reads the
      // collection of unfinished deliveries whole, docs/alarms.md "Delivered").
      if (/^insert/.test(method) || collection === 'hub_processes' || collection === 'alarm_outbox') return;
      filters.push(`${collection}.${method} ${JSON.stringify(filter)}`);
    });
    try {
      const member = client(ctx.svc.url, { pat: ctx.a.member.token });
      assert.is((await member.get(`/api/v1/monitor/${id}`)).status, 200);
      assert.is((await member.get(`/api/v1/monitor/${id}/data`)).status, 200);
      assert.is((await api(ctx).patch(`/api/v1/monitor/${id}/data/alarming`, { positiveResponses: 4 })).status, 200);
      assert.is((await api(ctx).patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: 2 } })).status, 200);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      ctx.svc.db.conn.set('debug', false);
    }
    assert.ok(filters.length > 0);
    const scans = filters.filter((f) => !/^\S+ \{"_id":"[^"]+"\}$/.test(f));
    assert.equal(scans, [], 'every query is {_id: <string>}');
  },
);

data('M2 on two processes at once: every change is kept and every revision is distinct', async (ctx) => {
  const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
  const first = await startTestService(env);
  const second = await startTestService(env);
  try {
    const id = await newMonitor(ctx);
    const here = client(first.url, { apiKey: ctx.a.apiKey });
    const there = client(second.url, { apiKey: ctx.a.apiKey });
    const screen = await connectScreen(first.url, ctx.a.apiKey);
    await screen.subscribe(id);
    for (let round = 1; round <= 20; round++) {
      const [x, y] = await Promise.all([
        here.put('/api/v1/monitor', { id, name: `Wache ${round}` }),
        there.put('/api/v1/monitor', { id, standbyDelay: round }),
      ]);
      assert.is(x.status, 200);
      assert.is(y.status, 200);
      const now = (await here.get(`/api/v1/monitor/${id}`)).body;
      assert.is(now.name, `Wache ${round}`, `round ${round} lost the name`);
      assert.is(now.standbyDelay, round, `round ${round} lost the standby delay`);
    }
    await screen.waitFor(
      () => screen.events.filter((e) => e.name === 'monitor:updated').length >= 40,
      WAIT_MS,
      'the 40 updates of both processes',
    );
    const revisions = screen.events.filter((e) => e.name === 'monitor:updated').map((e) => e.payload.revision);
    assert.is(new Set(revisions).size, revisions.length, `revisions repeat: ${revisions}`);
    screen.close();
  } finally {
    await first.close();
    await second.close();
  }
});

data(
  'a monitor deleted on another process: reads, writes and subscriptions here answer 404 (it is ' +
    'remembered here; its tombstone and missing data tell)',
  async (ctx) => {
    const other = await startTestService();
    try {
      const id = await newMonitor(ctx);
      const alarm = `/api/v1/monitor/${id}/data/alarming`;
      const member = client(ctx.svc.url, { pat: ctx.a.member.token });
      // This process learns the monitor's owner and its newest version.
      assert.is((await api(ctx).post(alarm, { eventId: 7, event: 'B2 Kaminbrand' })).status, 200);
      assert.is((await member.get(`/api/v1/monitor/${id}/data`)).status, 200);
      assert.is((await member.get(`/api/v1/monitor/${id}`)).status, 200);
      assert.is((await client(other.url, { apiKey: ctx.a.apiKey }).delete(`/api/v1/monitor/${id}`)).status, 200);
      // The monitor itself, remembered here since the read above, is gone too.
      expectError(await member.get(`/api/v1/monitor/${id}`), 404, 'not_found');
      expectError(await api(ctx).put(`/api/v1/monitor`, { id, name: 'Wache Nord' }), 404, 'not_found');
      expectError(await member.get(`/api/v1/monitor/${id}/data`), 404, 'not_found');
      expectError(await api(ctx).patch(alarm, { positiveResponses: 2 }), 404, 'not_found');
      expectError(await api(ctx).post(alarm, { eventId: 8, event: 'B3' }), 404, 'not_found');
      expectError(await api(ctx).patch(`/api/v1/monitor/${id}/data/meta`, { pagers: {} }), 404, 'not_found');
      expectError(await member.patch(alarm, { positiveResponses: 2 }), 404, 'not_found'); // not 403: the monitor is gone
      const screen = await connectScreen(ctx.svc.url, ctx.a.apiKey);
      const ack = await screen.subscribe(id).catch((err: Error) => err);
      assert.is((ack as { error?: { error: string } }).error?.error, 'not_found', JSON.stringify(ack));
      screen.close();
      // Nothing was written back: the other process finds no monitor either.
      expectError(
        await client(other.url, { apiKey: ctx.a.apiKey }).get(`/api/v1/monitor/${id}/data`),
        404,
        'not_found',
      );
    } finally {
      await other.close();
    }
  },
);

data.run();
