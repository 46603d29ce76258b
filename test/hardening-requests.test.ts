// Hardening requests (issue 7): the rate-limit exemption only after authorization, a full connection
// pool answered 503, and the error messages a newcomer meets — over the real wire.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { connectScreen } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
  monitorId: number;
}

const req = suite<Ctx>('hardening: requests', {} as Ctx);

req.before(async (ctx) => {
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '50' });
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
  ctx.monitorId = (
    await client(ctx.svc.url, { pat: ctx.a.admin.token }).post('/api/v1/monitor', {
      name: 'Wache',
      organizationID: ctx.a.orgId,
    })
  ).body.id;
});
req.after(async (ctx) => {
  await ctx.svc.close();
});

req(
  "another organization's key writing alarm data gets 429 past its budget; the own key is never refused",
  async (ctx) => {
    const path = `/api/v1/monitor/${ctx.monitorId}/data/alarming`;
    const stranger = client(ctx.svc.url, { apiKey: ctx.b.apiKey });
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 300 }, () => stranger.patch(path, { positiveResponses: 1 }).then((r) => r)),
    );
    const seconds = (Date.now() - started) / 1000;
    const counts = statuses.reduce<Record<number, number>>(
      (c, r) => ({ ...c, [r.status]: (c[r.status] ?? 0) + 1 }),
      {},
    );
    // The budget: a burst of 100, then 50 a second for as long as the flood took.
    assert.ok(
      counts[429] > 0 && counts[404] <= 100 + 50 * seconds + 1,
      `statuses ${JSON.stringify(counts)} in ${seconds} s`,
    );
    assert.ok(
      Object.keys(counts).every((s) => s === '404' || s === '429'),
      JSON.stringify(counts),
    );
    const limited = statuses.find((r) => r.status === 429)!;
    expectError(limited, 429, 'rate_limited');
    assert.ok(limited.headers.get('retry-after'));
    const own = client(ctx.svc.url, { apiKey: ctx.a.apiKey });
    assert.is((await own.post(path, { event: 'B3', eventId: 1 })).status, 200);
    const mine = await Promise.all(Array.from({ length: 150 }, (_, i) => own.patch(path, { positiveResponses: i })));
    assert.ok(
      mine.every((r) => r.status === 200 || r.status === 503),
      `own writes: ${[...new Set(mine.map((r) => r.status))]}`,
    );
    assert.ok(mine.filter((r) => r.status === 200).length >= 100);
  },
);

req('a member (authorized to read, not to write) is counted too: 403, then 429', async (ctx) => {
  const member = client(ctx.svc.url, { pat: ctx.a.member.token });
  const replies = await Promise.all(
    Array.from({ length: 250 }, () => member.post(`/api/v1/monitor/${ctx.monitorId}/data/meta`, { latestAlarms: [] })),
  );
  assert.equal([...new Set(replies.map((r) => r.status))].sort(), [403, 429]);
});

req('invalid JSON: 400 invalid_json saying line and column', async (ctx) => {
  const body = '{\n  "name": "Wache",\n  "organizationID": 1,\n}';
  const res = await request(ctx.svc.url, 'POST', '/api/v1/monitor', { auth: { apiKey: ctx.a.apiKey }, body });
  expectError(res, 400, 'invalid_json');
  assert.match(res.body.message, 'line 4, column 1');
  assert.match(res.body.message, 'no trailing comma');
  const cut = await request(ctx.svc.url, 'POST', '/api/v1/monitor', {
    auth: { apiKey: ctx.a.apiKey },
    body: '{"name": "Wa',
  });
  assert.match(cut.body.message, 'line 1, column 10');
  const bare = await request(ctx.svc.url, 'POST', '/api/v1/monitor', {
    auth: { apiKey: ctx.a.apiKey },
    body: '{name: 1}',
  });
  assert.match(bare.body.message, 'line 1, column 2 expected a property name in double quotes');
});

req('an enum error lists the allowed values', async (ctx) => {
  const res = await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post(
    `/api/v1/monitor/${ctx.monitorId}/data/alarming`,
    {
      event: 'Brand',
      units: [{ name: 'HLF', feedback: [{ name: 'Kim', feedback: 7 }] }],
    },
  );
  expectError(res, 400, 'invalid_body');
  assert.is(res.body.details[0].path, 'units.0.feedback.0.feedback');
  assert.is(res.body.details[0].problem, 'must be one of 0, 1, 2');
});

req(
  'a token under the wrong header, with a Bearer prefix, or in Authorization gets a hint naming the right header',
  async (ctx) => {
    const path = `/api/v1/monitor/${ctx.monitorId}`;
    const swappedKey = await request(ctx.svc.url, 'GET', path, { auth: { pat: ctx.a.apiKey } });
    expectError(swappedKey, 401, 'unauthorized');
    assert.match(swappedKey.body.message, 'send it in the API-TOKEN header');
    const swappedPat = await request(ctx.svc.url, 'GET', path, { auth: { apiKey: ctx.a.member.token } });
    assert.match(swappedPat.body.message, 'send it in the Personal-Access-Token header');
    const bearer = await request(ctx.svc.url, 'GET', path, { auth: { apiKey: `Bearer ${ctx.a.apiKey}` } });
    assert.match(bearer.body.message, 'without a "Bearer " prefix');
    const authorization = await request(ctx.svc.url, 'GET', path, {
      headers: { Authorization: `Bearer ${ctx.a.apiKey}` },
    });
    expectError(authorization, 401, 'unauthorized');
    assert.match(authorization.body.message, 'organization API keys (ahk_…) go in API-TOKEN');
  },
);

const pool = suite<{ svc: TestService; org: OrgFixture; id: number; fresh: number[] }>(
  'hardening: a full database pool',
  {} as never,
);

pool.before(async (ctx) => {
  // The fixtures come from a service with a normal pool; the one under test has one connection, and
  // a request waits at most 200 ms for it.
  const setup = await startTestService();
  ctx.org = await createOrg(setup);
  const admin = client(setup.url, { apiKey: ctx.org.apiKey });
  ctx.id = (await admin.post('/api/v1/monitor', { name: 'Wache', organizationID: ctx.org.orgId })).body.id;
  // Monitors the service under test has never read: a subscribe to one must read the database.
  ctx.fresh = [];
  for (let i = 0; i < 10; i++)
    ctx.fresh.push(
      (await admin.post('/api/v1/monitor', { name: `Wache ${i}`, organizationID: ctx.org.orgId })).body.id,
    );
  await setup.close();
  ctx.svc = await startTestService({ MONGODB_POOL_SIZE: '1', MONGODB_WAIT_QUEUE_TIMEOUT_MS: '200' });
  // A collection of its own for the slow scans below, large enough that eight of them hold the one
  // connection far longer than a request waits for it, whatever else the run's database holds.
  const scratch = ctx.svc.db.conn.db!.collection<{ _id: string; body: string }>('hardening_pool_scan');
  await scratch.deleteMany({});
  for (let i = 0; i < 4; i++)
    await scratch.insertMany(Array.from({ length: 1_000 }, (_, k) => ({ _id: `${i}:${k}`, body: 'z'.repeat(1_000) })));
});
pool.after(async (ctx) => {
  await ctx.svc.db.conn
    .db!.collection('hardening_pool_scan')
    .drop()
    .catch(() => undefined);
  await ctx.svc.close();
});

pool(
  'requests that cannot get a connection in time answer 503 unavailable with Retry-After, never 500',
  async (ctx) => {
    const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
    await api.post(`/api/v1/monitor/${ctx.id}/data/meta`, { tables: { roster: 'x'.repeat(900_000) } });
    await api.post(`/api/v1/monitor/${ctx.id}/data/meta`, { tables: { roster: 'y'.repeat(900_000) } });
    // Slow queries (a field filter reads every document) hold the one connection for a while, while
    // requests queue for it; rounds until the queue overflowed once (how long a scan takes varies).
    const replies: Awaited<ReturnType<typeof api.get>>[] = [];
    for (let round = 0; round < 10 && !replies.some((r) => r.status === 503); round++) {
      const slow = Promise.all(
        Array.from({ length: 8 }, () =>
          ctx.svc.db.chains.contents
            .find({ body: 'no such body' })
            .lean()
            .catch(() => null),
        ),
      );
      replies.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            i % 2 ? api.get(`/api/v1/monitor/${ctx.id}/data`) : api.get(`/api/v1/monitor/${ctx.id}`),
          ),
        )),
      );
      await slow;
    }
    const statuses = new Set(replies.map((r) => r.status));
    assert.ok(
      [...statuses].every((s) => s === 200 || s === 503),
      [...statuses].join(','),
    );
    const busy = replies.find((r) => r.status === 503);
    assert.ok(busy, 'the pool of one connection was exhausted at least once');
    expectError(busy!, 503, 'unavailable');
    assert.ok(busy!.headers.get('retry-after'));
  },
);

pool(
  'a hub subscribe that cannot get a connection is acknowledged with unavailable, not internal_error',
  async (ctx) => {
    const screens = await Promise.all(Array.from({ length: 10 }, () => connectScreen(ctx.svc.url, ctx.org.apiKey)));
    const codes = new Set<string>();
    try {
      for (let round = 0; round < 10 && !codes.has('unavailable'); round++) {
        const slow = Promise.all(
          Array.from({ length: 8 }, () =>
            ctx.svc.db.conn
              .db!.collection('hardening_pool_scan')
              .find({ body: 'no such body' })
              .toArray()
              .catch(() => null),
          ),
        );
        // Each round a monitor not yet in memory, so that every subscribe needs a connection.
        const acks = await Promise.all(screens.map((s) => s.subscribe(ctx.fresh[round])));
        for (const a of acks) codes.add('error' in a ? a.error.error : 'ok');
        await slow;
      }
    } finally {
      for (const s of screens) s.close();
    }
    assert.ok(codes.has('unavailable'), [...codes].join(','));
    assert.not.ok(codes.has('internal_error'), [...codes].join(','));
  },
);

// Command events cost every command a copy and every reply a second decoding (server/db/database.ts).
const events = suite('database: command events');

events('a request costs no command events unless they are asked for', async () => {
  for (const asked of [false, true]) {
    const svc = await startTestService({}, { monitorCommands: asked });
    const driver = svc.db.conn.getClient();
    let seen = 0;
    const count = () => void seen++;
    try {
      const org = await createOrg(svc);
      driver.on('commandStarted', count);
      const answer = await client(svc.url, { apiKey: org.apiKey }).get(`/api/v1/monitor?organization=${org.orgId}`);
      assert.is(answer.status, 200);
      if (asked) assert.ok(seen > 0, 'asked for, the events arrive');
      else assert.is(seen, 0, `${seen} command events without anyone asking`);
    } finally {
      driver.off('commandStarted', count);
      await svc.close();
    }
  }
});

req.run();
pool.run();
events.run();
