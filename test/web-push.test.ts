// Web Push from the service (W1, web devices at A2/A4, alarm and test pushes; docs/members-app.md "Web
// Push") against a local push service that checks the VAPID signature and decrypts every push with the
// subscription's keys, as a browser's push service and the browser would (test/helpers/web-push-fake.ts).
import { createECDH } from 'node:crypto';
import * as assert from 'uvu/assert';
import type { Database } from '../server/db/database.js';
import { VapidKeys } from '../server/areas/app/vapid.js';
import { ConfigError } from '../server/config.js';
import { TEST_KEY } from './helpers/els-cobra.js';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { eventually } from './helpers/fleet.js';
import { client, request } from './helpers/http.js';
import { createOrg, otherDatabase, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import { startWebPushFake, type FakeSubscription, type WebPushFake } from './helpers/web-push-fake.js';

const PAYLOAD = 'Payload missing or in wrong format';
// A push that takes longer than this is given up and tried again (the outbox's try limit too).
const TIMEOUT_MS = 5_000;

interface Ctx {
  fake: WebPushFake;
  db: string;
  env: Record<string, string>;
  one: TestService;
  two: TestService;
}

const s = suite<Ctx>('Web Push', {} as Ctx);

s.before(async (ctx) => {
  ctx.fake = await startWebPushFake();
  // A database of its own: the installation's key pair is made here, under this file's secrets key.
  ctx.db = otherDatabase(`web-push-${process.pid}`);
  ctx.env = {
    SECRETS_KEY: TEST_KEY,
    WEB_PUSH_ORIGINS: ctx.fake.url,
    ALARM_OUTBOX_SWEEP_MS: '200',
    GATEWAY_TIMEOUT_MS: String(TIMEOUT_MS),
  };
  // Two processes of one installation: either may send an alarm's pushes (the outbox's sweep).
  ctx.one = await startTestService(ctx.env, { dbUri: ctx.db });
  ctx.two = await startTestService(ctx.env, { dbUri: ctx.db });
});
s.after(async (ctx) => {
  await ctx.two?.close();
  await ctx.one?.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.one?.close();
  await ctx.fake?.close();
});

let names = 0;
const webDevice = (ownerID: number, pushToken: string, over: Record<string, unknown> = {}) => ({
  name: `Browser ${++names}`,
  os: 'Web Chrome 131 Android',
  ownerID,
  pushToken,
  pushTokenDevelopment: false,
  active: true,
  ...over,
});
const pat = (user: OrgFixture['member']) => ({ pat: user.token });

/** A member's web device subscribed at the fake, registered by himself (A2). */
async function register(ctx: Ctx, user: OrgFixture['member']): Promise<{ id: number; sub: FakeSubscription }> {
  const sub = ctx.fake.subscribe();
  const res = await client(ctx.one.url, pat(user)).post('/api/v1/app/device', webDevice(user.userId, sub.json));
  assert.is(res.status, 200, JSON.stringify(res.body));
  return { id: res.body.id, sub };
}

const raise = (svc: TestService, org: OrgFixture, body: Record<string, unknown>) =>
  request(svc.url, 'POST', '/api/v1/alarms', {
    auth: { apiKey: org.apiKey },
    body: { organizationID: org.orgId, event: 'B3 Wohnungsbrand', channels: ['app'], ...body },
  });
const alarmOf = async (svc: TestService, org: OrgFixture, id: number) =>
  (await client(svc.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${id}`)).body;

// ---------------------------------------------------------------- W1

s('W1 200 without a credential: the same VAPID key on two processes of one database, a P-256 point', async (ctx) => {
  const [a, b] = await Promise.all([
    request(ctx.one.url, 'GET', '/api/v1/webpush/key'),
    request(ctx.two.url, 'GET', '/api/v1/webpush/key'),
  ]);
  assert.is(a.status, 200, JSON.stringify(a.body));
  assert.is(b.status, 200, JSON.stringify(b.body));
  assert.equal(Object.keys(a.body), ['publicKey']);
  assert.is(a.body.publicKey, b.body.publicKey, 'both processes answer the one key pair');
  const point = Buffer.from(a.body.publicKey, 'base64url');
  assert.is(point.length, 65);
  assert.is(point[0], 0x04);
  assert.not.match(a.body.publicKey, /[=+/]/, 'base64url without padding');
  // Read again after both processes settled: still the same (the first writer's pair).
  const again = await request(ctx.two.url, 'GET', '/api/v1/webpush/key');
  assert.is(again.body.publicKey, a.body.publicKey);
});

/** A P-256 private key as VAPID_PRIVATE_KEY takes it: getPrivateKey() drops leading zero bytes (one key in 256). */
const privateKeyOf = (ecdh: ReturnType<typeof createECDH>) => {
  const raw = ecdh.getPrivateKey();
  return Buffer.concat([Buffer.alloc(32 - raw.length), raw]).toString('base64url');
};

s('W1 answers VAPID_PUBLIC_KEY when the pair is configured; a pair that does not match stops the start', async () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const publicKey = ecdh.getPublicKey().toString('base64url');
  const privateKey = privateKeyOf(ecdh);
  const svc = await startTestService(
    { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey },
    { dbUri: otherDatabase(`web-push-env-${process.pid}`) },
  );
  try {
    const res = await request(svc.url, 'GET', '/api/v1/webpush/key');
    assert.equal(res.body, { publicKey });
  } finally {
    await svc.db.conn.db!.dropDatabase().catch(() => undefined);
    await svc.close();
  }
  const other = createECDH('prime256v1');
  other.generateKeys();
  const never = () => {
    throw new Error('no key is opened for a configured pair');
  };
  try {
    new VapidKeys({} as Database, { publicKey, privateKey: privateKeyOf(other) }, never);
    assert.unreachable('a mismatched pair is refused');
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.match((err as Error).message, 'VAPID_PUBLIC_KEY must be the public key of VAPID_PRIVATE_KEY');
  }
});

// ---------------------------------------------------------------- A2, A4

s('A2 400 naming pushToken for subscriptions that are malformed or whose endpoint is no push service', async (ctx) => {
  const org = await createOrg(ctx.one);
  const c = client(ctx.one.url, pat(org.member));
  const good = ctx.fake.subscribe();
  const wrongPoint = Buffer.from(good.keys.p256dh, 'base64url');
  wrongPoint[64] ^= 1;
  const withEndpoint = (endpoint: string) => JSON.stringify({ endpoint, keys: good.keys });
  const refused: Array<[string, string, RegExp]> = [
    ['not JSON', 'endpoint=https://fcm.googleapis.com/x', /JSON/],
    ['an array', '[]', /JSON object/],
    ['no keys', JSON.stringify({ endpoint: good.endpoint }), /keys/],
    [
      'p256dh too short',
      JSON.stringify({ ...JSON.parse(good.json), keys: { ...good.keys, p256dh: 'BAAA' } }),
      /p256dh/,
    ],
    [
      'p256dh not on the curve',
      JSON.stringify({ endpoint: good.endpoint, keys: { ...good.keys, p256dh: wrongPoint.toString('base64url') } }),
      /p256dh/,
    ],
    [
      'auth of 12 bytes',
      JSON.stringify({ endpoint: good.endpoint, keys: { ...good.keys, auth: 'AAAAAAAAAAAAAAAA' } }),
      /auth/,
    ],
    ['an unknown field', JSON.stringify({ ...JSON.parse(good.json), callback: 'https://x.example' }), /callback/],
    ['a private address', withEndpoint('https://10.0.0.7/push/abc'), /10\.0\.0\.7.*WEB_PUSH_ORIGINS/],
    ['the loopback on another port', withEndpoint('http://127.0.0.1:1/push/abc'), /not https/],
    ['a known service over http', withEndpoint('http://updates.push.services.mozilla.com/wpush/v2/x'), /not https/],
    ['another host', withEndpoint('https://push.evil.example/wpush/x'), /push\.evil\.example/],
    ['a look-alike host', withEndpoint('https://fcm.googleapis.com.evil.example/fcm/send/x'), /evil/],
    ['a known host on another port', withEndpoint('https://web.push.apple.com:8443/x'), /8443/],
    ['user information', withEndpoint('https://user:pw@fcm.googleapis.com/fcm/send/x'), /user information/],
    ['no URL', withEndpoint('fcm.googleapis.com/fcm/send/x'), /not a URL/],
  ];
  for (const [what, pushToken, problem] of refused) {
    const res = await c.post('/api/v1/app/device', webDevice(org.member.userId, pushToken));
    expectBadRequest(res, 'invalid_body', PAYLOAD, 'body', 'pushToken');
    assert.match(res.body.details[0].problem, problem, what);
  }
  // With another mistake in the body, the pushToken's is named in the same answer.
  const both = await c.post('/api/v1/app/device', {
    ...webDevice(org.member.userId, withEndpoint('https://10.0.0.7/x')),
    name: '',
  });
  expectBadRequest(both, 'invalid_body', PAYLOAD, 'body');
  assert.equal(both.body.details.map((d: { path: string }) => d.path).sort(), ['name', 'pushToken']);
  const listed = await c.post('/api/v1/app/device', webDevice(org.member.userId, good.json));
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  assert.is(listed.body.pushToken, good.json);
  assert.is(ctx.fake.received.length, 0, 'registering pushes nothing');
});

s("A2 200 for the browsers' push services; A4 400 naming pushToken when it moves elsewhere", async (ctx) => {
  const org = await createOrg(ctx.one);
  const c = client(ctx.one.url, pat(org.member));
  const { keys } = ctx.fake.subscribe();
  const ids: number[] = [];
  for (const endpoint of [
    'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABn',
    'https://web.push.apple.com/QGuQyavXutnMH',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
  ]) {
    const res = await c.post('/api/v1/app/device', webDevice(org.member.userId, JSON.stringify({ endpoint, keys })));
    assert.is(res.status, 200, `${endpoint}: ${JSON.stringify(res.body)}`);
    ids.push(res.body.id);
  }
  const moved = await c.put(
    `/api/v1/app/device/${ids[0]}`,
    webDevice(org.member.userId, JSON.stringify({ endpoint: 'https://192.168.1.1/x', keys })),
  );
  expectBadRequest(moved, 'invalid_body', PAYLOAD, 'body', 'pushToken');
});

// ---------------------------------------------------------------- an alarm by Web Push

s(
  'AL1 reaches a web device: VAPID valid, TTL, Urgency and Topic set, the payload §11 names; AL3 sent; A11 counts',
  async (ctx) => {
    const org = await createOrg(ctx.one, 'Feuerwehr Nord');
    const { sub } = await register(ctx, org.member);
    const key = (await request(ctx.one.url, 'GET', '/api/v1/webpush/key')).body.publicKey;
    const raised = await raise(ctx.one, org, {
      message: 'Rauch aus Fenster 2. OG',
      address: 'Hauptstraße 40',
    });
    assert.is(raised.status, 201, JSON.stringify(raised.body));
    const alarm = raised.body;
    const [push] = await eventually(
      async () => ctx.fake.delivered(sub.id),
      (list) => list.length === 1,
      'the alarm push at the push service',
    );
    assert.is(push.problem, null);
    assert.equal(push.vapid && { aud: push.vapid.aud, publicKey: push.vapid.publicKey }, {
      aud: ctx.fake.url,
      publicKey: key,
    });
    assert.match(push.vapid!.sub, /^mailto:alarm-hub@/);
    assert.ok(Number(push.headers.ttl) > 0 && Number(push.headers.ttl) <= 300, `TTL ${push.headers.ttl}`);
    assert.is(push.headers.urgency, 'high');
    assert.is(push.headers.topic, String(alarm.id));
    const { answerToken, ...shown } = push.payload;
    assert.equal(shown, {
      type: 'alarm',
      alarmId: alarm.id,
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG',
      address: 'Hauptstraße 40',
      organizationName: 'Feuerwehr Nord',
      startedAt: alarm.startedAt,
    });
    assert.type(answerToken, 'string');

    const sent = await eventually(
      () => alarmOf(ctx.one, org, alarm.id),
      (a) => a.deliveries?.[0]?.status === 'sent',
      'AL3 shows the push sent',
    );
    assert.equal(
      sent.deliveries.map((d: any) => ({ channel: d.channel, to: d.recipientUserId, attempts: d.attempts })),
      [{ channel: 'app', to: org.member.userId, attempts: 1 }],
    );
    // The member answers from the notification's action, with the token the push carried.
    const answered = await client(ctx.one.url, pat(org.member)).post(`/api/v1/app/push/answered/${answerToken}/yes`, {
      duration: 7,
    });
    assert.equal([answered.status, answered.body], [200, { status: 'saved' }]);
    const counted = await eventually(
      () => alarmOf(ctx.one, org, alarm.id),
      (a) => a.responses.positive === 1,
      'his answer counted',
    );
    assert.equal(counted.responses, { positive: 1, negative: 0, awaiting: 0 });
    assert.equal(
      counted.answers.map((a: any) => ({ userId: a.userId, response: a.response, duration: a.duration })),
      [{ userId: org.member.userId, response: true, duration: 7 }],
    );
  },
);

s('a web push of a long message is cut to fit the 4 KiB a push service takes, and still decrypts', async (ctx) => {
  const org = await createOrg(ctx.one);
  const { sub } = await register(ctx, org.member);
  const raised = await raise(ctx.one, org, { message: '€'.repeat(3_000), address: 'Am Markt 1' });
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  const [push] = await eventually(
    async () => ctx.fake.delivered(sub.id),
    (list) => list.length === 1,
    'the long alarm push',
  );
  assert.ok(Buffer.byteLength(JSON.stringify(push.payload)) <= 4096 - 103, 'the payload fits');
  assert.match(push.payload.message, /^€+…$/);
  assert.is(push.payload.address, 'Am Markt 1');
});

s('410 from the push service sets the device inactive and fails its delivery for good', async (ctx) => {
  const org = await createOrg(ctx.one);
  const { id, sub } = await register(ctx, org.member);
  ctx.fake.answer(sub.id, { status: 410 });
  const alarm = (await raise(ctx.one, org, {})).body;
  const failed = await eventually(
    () => alarmOf(ctx.one, org, alarm.id),
    (a) => a.deliveries?.[0]?.status === 'failed',
    'the delivery failed',
  );
  assert.is(failed.deliveries[0].attempts, 1, 'not retried');
  assert.match(failed.deliveries[0].lastError, /no longer valid/);
  const device = await client(ctx.one.url, pat(org.member)).get(`/api/v1/app/device/${id}`);
  assert.is(device.body.active, false);
  assert.is(ctx.fake.received.filter((r) => r.subscriptionId === sub.id).length, 1);
});

s('500, then no answer in time, then 201: the outbox tries again and the push is taken once', async (ctx) => {
  const org = await createOrg(ctx.one);
  const { sub } = await register(ctx, org.member);
  ctx.fake.answer(sub.id, { status: 500 }, { status: 201, delayMs: TIMEOUT_MS * 4 });
  const alarm = (await raise(ctx.one, org, {})).body;
  const done = await eventually(
    () => alarmOf(ctx.one, org, alarm.id),
    (a) => a.deliveries?.[0]?.status === 'sent',
    'the delivery sent after two retries',
  );
  assert.is(done.deliveries[0].attempts, 3);
  const tries = ctx.fake.received.filter((r) => r.subscriptionId === sub.id);
  assert.equal(
    tries.map((r) => r.status),
    [500, 201, 201],
  );
  assert.is(ctx.fake.delivered(sub.id).length, 1, 'taken once: the slow answer came after the service gave up');
  // Each try carried a token of its own; only the one taken is answerable.
  const tokens = new Set(tries.map((r) => r.payload.answerToken));
  assert.is(tokens.size, 3);
});

// ---------------------------------------------------------------- A5

s('A5 200 for a web device: a test push with its confirmation token; 429 is 503 with the Retry-After', async (ctx) => {
  const org = await createOrg(ctx.one);
  const { id, sub } = await register(ctx, org.member);
  const c = client(ctx.one.url, pat(org.member));
  const res = await c.post(`/api/v1/app/device/${id}/test-push`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(
    { ...res.body, confirmToken: undefined },
    { status: 'sent', confirmToken: undefined, deviceActive: true },
  );
  const [push] = ctx.fake.delivered(sub.id);
  assert.equal(push.payload, {
    type: 'test',
    title: 'Test alarm',
    body: 'Test push from alarm-hub: your device receives alarms.',
    answerToken: res.body.confirmToken,
  });
  assert.is(push.headers.urgency, 'high');
  const receipt = await c.post(`/api/v1/app/push/delivered/${push.payload.answerToken}`);
  assert.equal([receipt.status, receipt.body], [200, { status: 'saved' }]);

  ctx.fake.answer(sub.id, { status: 429, retryAfter: 120 });
  const busy = await c.post(`/api/v1/app/device/${id}/test-push`);
  expectError(busy, 503, 'push_unavailable');
  assert.is(busy.headers.get('retry-after'), '120');
  // A refusal's reason is told, bounded: a push service answering a mebibyte is read no further.
  ctx.fake.answer(sub.id, { status: 400, body: `UnauthorizedRegistration ${'x'.repeat(1 << 20)}` });
  const refused = await c.post(`/api/v1/app/device/${id}/test-push`);
  expectError(refused, 502, 'push_failed');
  assert.match(refused.body.message, /400 UnauthorizedRegistration x+$/);
  assert.ok(refused.body.message.length < 400, `${refused.body.message.length} characters`);
});

s('A5 for a web device whose push service says 404: device_deactivated', async (ctx) => {
  const org = await createOrg(ctx.one);
  const { id, sub } = await register(ctx, org.member);
  ctx.fake.answer(sub.id, { status: 404 });
  const res = await client(ctx.one.url, pat(org.member)).post(`/api/v1/app/device/${id}/test-push`);
  assert.equal(res.body, { status: 'device_deactivated', confirmToken: null, deviceActive: false });
});

s(
  'a process whose WEB_PUSH_ORIGINS no longer lists an endpoint: A2 400, and A5 502 checked again at send time',
  async (ctx) => {
    const org = await createOrg(ctx.one);
    const { id, sub } = await register(ctx, org.member);
    // The operator took the fake's origin out of the list (this process only: no alarm is being sent).
    const later = await startTestService({ ...ctx.env, WEB_PUSH_ORIGINS: '' }, { dbUri: ctx.db });
    try {
      const c = client(later.url, pat(org.member));
      const created = await c.post('/api/v1/app/device', webDevice(org.member.userId, ctx.fake.subscribe().json));
      expectBadRequest(created, 'invalid_body', PAYLOAD, 'body', 'pushToken');
      assert.match(created.body.details[0].problem, /not https/);
      const res = await c.post(`/api/v1/app/device/${id}/test-push`);
      expectError(res, 502, 'push_failed');
      assert.match(res.body.message, /not https/);
    } finally {
      await later.close();
    }
    assert.is(ctx.fake.received.filter((r) => r.subscriptionId === sub.id).length, 0, 'nothing was sent');
  },
);

s.run();
