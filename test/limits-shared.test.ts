// Rate limits shared by all processes of an installation through Redis (issue 12): the second process
// refuses once the budget is spent on the first; without Redis each process counts alone; a Redis
// outage never refuses requests it cannot count.
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client } from './helpers/http.js';
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

const get = (svc: TestService, key: string, orgId: number) => client(svc.url, { apiKey: key }).get(`/api/v1/monitor?organization=${orgId}`);

shared('with Redis: the budget spent on process A is spent on process B too', async (ctx) => {
  const { a, b, org } = await pair(ctx, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  const onA = await Promise.all(Array.from({ length: 10 }, () => get(a, org.apiKey, org.orgId)));
  assert.ok(onA.every((r) => r.status === 200), onA.map((r) => r.status).join(','));
  const onB = await get(b, org.apiKey, org.orgId);
  assert.is(onB.status, 429, 'B refuses: the shared budget (burst 10) is spent');
  assert.ok(Number(onB.headers.get('retry-after')) >= 1);
  assert.is((await client(b.url, { pat: org.admin.token }).get(`/api/v1/monitor?organization=${org.orgId}`)).status, 200, 'another credential has its own budget');
});

shared('with Redis: hub subscriptions share their budget across processes as well', async (ctx) => {
  const { a, b, org } = await pair(ctx, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  const id = (await client(a.url, { apiKey: org.apiKey }).post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id;
  const onA = await connectScreen(a.url, org.apiKey);
  const onB = await connectScreen(b.url, org.apiKey);
  ctx.screens.push(onA, onB);
  let refused = false;
  for (let i = 0; i < 80 && !refused; i++) {
    const ack = await onA.subscribe(id);
    refused = 'error' in ack && ack.error.error === 'rate_limited';
  }
  assert.ok(refused, 'A runs out');
  const ack = await onB.subscribe(id);
  assert.ok('error' in ack && ack.error.error === 'rate_limited', `B refuses too: ${JSON.stringify(ack)}`);
});

shared('without Redis each process counts alone', async (ctx) => {
  const { a, b, org } = await pair(ctx, {});
  await Promise.all(Array.from({ length: 10 }, () => get(a, org.apiKey, org.orgId)));
  assert.is((await get(a, org.apiKey, org.orgId)).status, 429);
  assert.is((await get(b, org.apiKey, org.orgId)).status, 200);
});

shared('Redis going away: requests are still answered (counted in memory meanwhile), never refused for it', async (ctx) => {
  ctx.redis = await privateRedis();
  const { a, org } = await pair(ctx, { REDIS_URL: ctx.redis.url });
  assert.is((await get(a, org.apiKey, org.orgId)).status, 200);
  await ctx.redis.kill();
  const during = await Promise.all(Array.from({ length: 5 }, () => get(a, org.apiKey, org.orgId)));
  assert.ok(during.every((r) => r.status === 200), during.map((r) => r.status).join(','));
});

shared.run();
