// Rate limits shared by all processes of an installation through Redis (issue 12): the second process
// refuses once the budget is spent on the first; without Redis each process counts alone; a Redis
// outage never refuses requests it cannot count.
import { randomBytes } from 'node:crypto';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { client, type Reply } from './helpers/http.js';
import { privateRedis, type RedisServer } from './helpers/processes.js';
import { connectScreen, type Screen } from './helpers/screen.js';
import { createOrg, otherDatabase, startTestService, type TestService } from './helpers/service.js';

interface Ctx {
  services: TestService[];
  screens: Screen[];
  redis: RedisServer | null;
}

const shared = suite<Ctx>('rate limits shared across processes', { services: [], screens: [], redis: null } as Ctx);

shared.after.each(async (ctx) => {
  for (const s of ctx.screens) s.close();
  for (const s of ctx.services) await s.close();
  await ctx.redis?.kill();
  Object.assign(ctx, { services: [], screens: [], redis: null });
});

async function pair(ctx: Ctx, env: Record<string, string>) {
  const dbUri = otherDatabase(`limits_${randomBytes(4).toString('hex')}`);
  const a = await startTestService({ RATE_LIMIT_PER_SECOND: '5', ...env }, { dbUri });
  const b = await startTestService({ RATE_LIMIT_PER_SECOND: '5', ...env }, { dbUri });
  ctx.services.push(a, b);
  const org = await createOrg(a);
  return { a, b, org };
}

const get = (svc: TestService, key: string, orgId: number) =>
  client(svc.url, { apiKey: key }).get(`/api/v1/monitor?organization=${orgId}`);

// Requests sent all at once: one by one, a slow machine lets a budget grow back (5 a second in memory,
// a new 2 s window in Redis) as fast as it is spent.
const burst = (svc: TestService, key: string, orgId: number, count: number) =>
  Promise.all(Array.from({ length: count }, () => get(svc, key, orgId)));
const statuses = (responses: Reply[]) => responses.map((r) => r.status).join(',');

shared('with Redis: the budget spent on process A is spent on process B too', async (ctx) => {
  const { a, b, org } = await pair(ctx, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  // Redis counts in fixed windows of 2 s: an attempt that straddles a new window proves nothing and is
  // made again; on one window, B must refuse what A spent.
  for (let attempt = 1; ; attempt++) {
    assert.ok(attempt <= 5, 'every attempt straddled a new window');
    const onA = await burst(a, org.apiKey, org.orgId, 15);
    assert.ok(
      onA.every((r) => r.status === 200 || r.status === 429),
      statuses(onA),
    );
    if (!onA.some((r) => r.status === 429)) continue;
    const onB = await get(b, org.apiKey, org.orgId);
    if (onB.status === 200) {
      // A new window began after A's burst, or B does not share A's count: A tells which.
      const stillA = await get(a, org.apiKey, org.orgId);
      assert.is(
        stillA.status,
        200,
        'B answered 200 while A, on the same window, still refuses: the budget is not shared',
      );
      continue;
    }
    assert.is(onB.status, 429, 'B refuses: the shared budget (burst 10) is spent');
    assert.ok(Number(onB.headers.get('retry-after')) >= 1);
    break;
  }
  assert.is(
    (await client(b.url, { pat: org.admin.token }).get(`/api/v1/monitor?organization=${org.orgId}`)).status,
    200,
    'another credential has its own budget',
  );
});

shared('with Redis: hub subscriptions share their budget across processes as well', async (ctx) => {
  const { a, b, org } = await pair(ctx, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  const id = (
    await client(a.url, { apiKey: org.apiKey }).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })
  ).body.id;
  const onA = await connectScreen(a.url, org.apiKey);
  const onB = await connectScreen(b.url, org.apiKey);
  ctx.screens.push(onA, onB);
  // All at once, well past the budget (60 in a 30 s window).
  const acks = await Promise.all(Array.from({ length: 100 }, () => onA.subscribe(id)));
  assert.ok(
    acks.some((ack) => 'error' in ack && ack.error.error === 'rate_limited'),
    'A runs out',
  );
  const ack = await onB.subscribe(id);
  assert.ok('error' in ack && ack.error.error === 'rate_limited', `B refuses too: ${JSON.stringify(ack)}`);
});

shared('without Redis each process counts alone', async (ctx) => {
  const { a, b, org } = await pair(ctx, {});
  const onA = await burst(a, org.apiKey, org.orgId, 30);
  assert.ok(
    onA.some((r) => r.status === 429),
    `A refuses once its budget is spent: ${statuses(onA)}`,
  );
  // B's budget is its own and whole: all of a burst of 10 (the burst allowed) passes.
  const onB = await burst(b, org.apiKey, org.orgId, 10);
  assert.ok(
    onB.every((r) => r.status === 200),
    statuses(onB),
  );
});

shared(
  'Redis going away: requests are still answered (counted in memory meanwhile), never refused for it',
  async (ctx) => {
    ctx.redis = await privateRedis();
    const { a, org } = await pair(ctx, { REDIS_URL: ctx.redis.url });
    assert.is((await get(a, org.apiKey, org.orgId)).status, 200);
    await ctx.redis.kill();
    const during = await Promise.all(Array.from({ length: 5 }, () => get(a, org.apiKey, org.orgId)));
    assert.ok(
      during.every((r) => r.status === 200),
      during.map((r) => r.status).join(','),
    );
  },
);

shared.run();
