import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { RateLimiter } from '../server/http/rate-limit.js';
import { client } from './helpers/http.js';
import { connectScreen } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { spendBudget } from './helpers/limits.js';

const unit = suite('RateLimiter');

unit('a bucket allows the burst, then one request per 1/rate seconds; rate 0 is off', () => {
  const limiter = new RateLimiter(2, 3);
  const t = 1_000_000;
  assert.equal(
    [0, 1, 2].map(() => limiter.take('k', t)),
    [0, 0, 0],
  );
  assert.is(limiter.take('k', t), 1);
  assert.is(limiter.take('k', t + 499), 1);
  assert.is(limiter.take('k', t + 500), 0);
  assert.is(limiter.take('other', t), 0);
  const off = new RateLimiter(0, 0);
  for (let i = 0; i < 100; i++) assert.is(off.take('k', t), 0);
});

unit('a take of several tokens spends all or none; given back tokens never exceed the burst', () => {
  const limiter = new RateLimiter(5 / 600, 5);
  const t = 1_000_000;
  assert.is(limiter.take('k', t, 3), 0);
  assert.ok(limiter.take('k', t, 3) > 0, 'three more are not there');
  assert.is(limiter.take('k', t, 2), 0, 'the refused take spent nothing');
  assert.ok(limiter.take('k', t) > 0);
  limiter.give('k', 2, t);
  assert.is(limiter.take('k', t, 2), 0);
  limiter.give('k', 50, t);
  assert.is(limiter.take('k', t, 5), 0);
  assert.ok(limiter.take('k', t) > 0, 'the gift stopped at the burst');
});

unit.run();

const limited = suite<{ svc: TestService; org: OrgFixture }>(
  'rate limits on the wire',
  {} as { svc: TestService; org: OrgFixture },
);

limited.before(async (ctx) => {
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '5' });
  ctx.org = await createOrg(ctx.svc);
});
limited.after(async (ctx) => {
  await ctx.svc.close();
});

limited(
  '429 rate_limited with Retry-After once one credential exceeds its burst; another credential is unaffected',
  async (ctx) => {
    const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
    // At once, so the budget (a burst of 10, then 5 a second) cannot refill meanwhile on a busy machine.
    const replies = await Promise.all(
      Array.from({ length: 30 }, () => api.get(`/api/v1/monitor?organization=${ctx.org.orgId}`)),
    );
    const statuses = replies.map((r) => r.status);
    assert.ok(statuses.filter((s) => s === 200).length >= 10, statuses.join(','));
    const refused = replies.find((r) => r.status === 429);
    assert.ok(refused, statuses.join(','));
    assert.is(refused!.body.error, 'rate_limited');
    assert.ok(Number(refused!.headers.get('retry-after')) >= 1);
    assert.is(
      (await client(ctx.svc.url, { pat: ctx.org.admin.token }).get(`/api/v1/monitor?organization=${ctx.org.orgId}`))
        .status,
      200,
    );
  },
);

limited("alarm data writes (M7-M10) are never refused for rate, even past the credential's budget", async (ctx) => {
  // The API key spent its budget in the test before; the monitor is made with the admin's token.
  const created = await client(ctx.svc.url, { pat: ctx.org.admin.token }).post('/api/v1/monitor', {
    name: 'Wache',
    organizationID: ctx.org.orgId,
  });
  assert.is(created.status, 201);
  const id = created.body.id;
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  const statuses: number[] = [];
  statuses.push((await api.post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3', positiveResponses: 0 })).status);
  for (let i = 1; i < 30; i++)
    statuses.push((await api.patch(`/api/v1/monitor/${id}/data/alarming`, { positiveResponses: i })).status);
  assert.equal(statuses, Array(30).fill(200));
});

limited(
  'an address sending unknown tokens gets 429 after 20 of them, while valid credentials from it still work',
  async (ctx) => {
    const bad = client(ctx.svc.url, { apiKey: 'ahk_guess' });
    await spendBudget(async () => (await bad.get('/api/v1/monitor?organization=1')).status, {
      burst: 20,
      perSecond: 5,
      accepted: 401,
      refused: 429,
      what: 'unknown tokens per address',
    });
    assert.is(
      (await client(ctx.svc.url, { pat: ctx.org.member.token }).get(`/api/v1/monitor?organization=${ctx.org.orgId}`))
        .status,
      200,
    );
  },
);

limited.run();

const hubLimited = suite('hub rate limits');

hubLimited(
  'bad handshakes from one address end in connect_error rate_limited; a valid token from it still connects',
  async () => {
    const svc = await startTestService({ RATE_LIMIT_PER_SECOND: '5' });
    try {
      const org = await createOrg(svc);
      await spendBudget(
        () =>
          connectScreen(svc.url, 'ahk_guess').then(
            () => 'connected',
            (e: Error) => e.message,
          ),
        {
          burst: 20,
          perSecond: 5,
          accepted: 'unauthorized',
          refused: 'rate_limited',
          what: 'bad handshakes per address',
        },
      );
      const good = await connectScreen(svc.url, org.apiKey);
      assert.ok(good.socket.connected);
      good.close();
    } finally {
      await svc.close();
    }
  },
);

hubLimited.run();
