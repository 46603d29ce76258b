// A5 test pushes against local fake gateways (APNs over HTTP/2 with a provider JWT, FCM HTTP v1 with
// OAuth2), the dead-token path, and the confirmation token round trip through push/delivered and A11.
import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { admin, channelSuite, key, member, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';
import { startPushFakes } from './helpers/push-fakes.js';
import { appModels } from '../server/areas/app/models.js';

const BASE = '/api/v1/app';
const DEVICE_ID = 'deviceID missing or in wrong format';
const TOKEN_INVALID = 'token or answer not found or invalid';
const IOS_TOKEN = 'ab'.repeat(32);
const fakes = await startPushFakes();

let n = 0;
async function device(ctx: Ctx, over: Record<string, unknown> = {}) {
  const body = {
    name: `Phone ${++n}`,
    os: 'iOS 17',
    ownerID: ctx.a.member.userId,
    pushToken: IOS_TOKEN,
    pushTokenDevelopment: false,
    active: true,
    ...over,
  };
  const res = await client(ctx.svc.url, member(ctx.a)).post(`${BASE}/device`, body);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body as { id: number; pushToken: string };
}
const testPush = (ctx: Ctx, id: number, auth = member(ctx.a)) =>
  client(ctx.svc.url, auth).post(`${BASE}/device/${id}/test-push`);

// ---------------------------------------------------------------- A5 without configuration
const bare = channelSuite('A5 without push gateways configured');
unauthorizedCases(bare, 'A5', 'POST', () => `${BASE}/device/1/test-push`);

bare('A5 400 when deviceID is not a positive int64', async (ctx) => {
  for (const bad of ['x', '0', ABOVE_MAX_ID])
    expectBadRequest(await testPush(ctx, bad as never), 'invalid_parameter', DEVICE_ID, 'path', 'deviceID');
});

bare("A5 404 for another user's device or one out of the API key's organization", async (ctx) => {
  const d = await device(ctx);
  expectError(await testPush(ctx, d.id, pat(ctx.loner)), 404, 'not_found');
  expectError(await testPush(ctx, d.id, key(ctx.b)), 404, 'not_found');
  expectError(await testPush(ctx, d.id, admin(ctx.a)), 404, 'not_found');
});

bare(
  'A5 503 push_unavailable for iOS and Android when no gateway is configured, and no confirmation token is left',
  async (ctx) => {
    const ids: number[] = [];
    for (const over of [{}, { os: 'Android 14', pushToken: 'fcm-token' }]) {
      const d = await device(ctx, over);
      ids.push(d.id);
      const res = await testPush(ctx, d.id);
      expectError(res, 503, 'push_unavailable');
      assert.match(res.body.message, over.os ? /FCM_SERVICE_ACCOUNT_FILE/ : /APNS_KEY_FILE/);
    }
    // These devices' tokens only: other test files (alarm pushes) share the run's database.
    assert.is(await appModels(ctx.svc.db).PushConfirmation.countDocuments({ deviceId: { $in: ids } }), 0);
  },
);

bare.run();

// ---------------------------------------------------------------- A5 through the fakes
const push = channelSuite('A5 through fake APNs and FCM gateways', async () => fakes.env);

push(
  'A5 200 sends an iOS push to APNs production with a valid provider JWT, topic, push type and payload',
  async (ctx) => {
    const d = await device(ctx);
    const before = fakes.apns.requests.length;
    const res = await testPush(ctx, d.id);
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(Object.keys(res.body).sort(), ['confirmToken', 'deviceActive', 'status']);
    assert.is(res.body.status, 'sent');
    assert.is(res.body.deviceActive, true);
    assert.match(res.body.confirmToken, /^[A-Za-z0-9_-]{43}$/);
    const sent = fakes.apns.requests.slice(before);
    assert.is(sent.length, 1);
    assert.is(sent[0].status, 200);
    assert.is(sent[0].path, `/3/device/${IOS_TOKEN}`);
    assert.is(sent[0].headers['apns-topic'], fakes.topic);
    assert.is(sent[0].headers['apns-push-type'], 'alert');
    assert.is(sent[0].body.confirmToken, res.body.confirmToken);
    assert.type(sent[0].body.aps.alert.body, 'string');
  },
);

push('A5 200 sends a development token to the APNs sandbox host', async (ctx) => {
  const d = await device(ctx, { pushTokenDevelopment: true, pushToken: 'cd'.repeat(40) });
  const before = { prod: fakes.apns.requests.length, sandbox: fakes.apnsSandbox.requests.length };
  const res = await testPush(ctx, d.id, key(ctx.a));
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(fakes.apns.requests.length, before.prod);
  assert.is(fakes.apnsSandbox.requests.at(-1)!.path, `/3/device/${'cd'.repeat(40)}`);
  assert.is(fakes.apnsSandbox.requests.at(-1)!.status, 200);
});

push(
  'A5 200 sends an Android push through FCM with an OAuth2 token from the service account, reused for the next push',
  async (ctx) => {
    const d = await device(ctx, { os: 'Android 15', pushToken: 'fcm:token_1-2.3' });
    const first = await testPush(ctx, d.id);
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.status, 'sent');
    const second = await testPush(ctx, d.id, admin(ctx.a));
    expectError(second, 404, 'not_found');
    const byAdmin = await client(ctx.svc.url, admin(ctx.a)).post(
      `${BASE}/device/${d.id}/test-push?organization_id=${ctx.a.orgId}`,
    );
    assert.is(byAdmin.status, 200);
    assert.is.not(byAdmin.body.confirmToken, first.body.confirmToken);
    const sends = fakes.fcm.requests.filter((r) => r.path.endsWith('messages:send'));
    assert.is(sends.length, 2);
    assert.equal(
      sends.map((r) => r.status),
      [200, 200],
    );
    assert.is(sends[0].body.message.token, 'fcm:token_1-2.3');
    assert.is(sends[0].body.message.data.confirmToken, first.body.confirmToken);
    assert.is(fakes.fcm.tokensIssued.length, 1);
    assert.is(fakes.fcm.requests.filter((r) => r.path === '/token').length, 1);
  },
);

push(
  'A5 200 device_deactivated when APNs says 410 Unregistered: the device turns inactive and any-active says so',
  async (ctx) => {
    const token = 'ef'.repeat(32);
    fakes.apns.dead.add(token);
    const user = ctx.a.member.userId;
    const d = await device(ctx, { pushToken: token, ownerID: user });
    const res = await testPush(ctx, d.id);
    assert.is(res.status, 200);
    assert.equal(res.body, { status: 'device_deactivated', confirmToken: null, deviceActive: false });
    assert.is((await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/device/${d.id}`)).body.active, false);
  },
);

push('A5 200 device_deactivated when FCM answers UNREGISTERED', async (ctx) => {
  fakes.fcm.dead.add('fcm-dead-token');
  const d = await device(ctx, { os: 'android 12', pushToken: 'fcm-dead-token' });
  const res = await testPush(ctx, d.id);
  assert.equal(res.body, { status: 'device_deactivated', confirmToken: null, deviceActive: false });
  assert.is((await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/device/${d.id}`)).body.active, false);
});

push(
  'A5 503 push_unavailable when the gateway answers 5xx, 502 push_failed for other refusals; no pretend success',
  async (ctx) => {
    const d = await device(ctx);
    fakes.apns.failNext.push({ status: 500, body: { reason: 'InternalServerError' } });
    const down = await testPush(ctx, d.id);
    expectError(down, 503, 'push_unavailable');
    assert.ok(down.headers.get('retry-after'));
    fakes.apns.failNext.push({ status: 400, body: { reason: 'BadCollapseId' } });
    const refused = await testPush(ctx, d.id);
    expectError(refused, 502, 'push_failed');
    assert.match(refused.body.message, /BadCollapseId/);
  },
);

push('push/delivered and A11: the confirmation token round trip, answered once', async (ctx) => {
  const d = await device(ctx);
  const { confirmToken } = (await testPush(ctx, d.id)).body;
  const owner = client(ctx.svc.url, member(ctx.a));
  assert.equal((await owner.post(`${BASE}/push/delivered/${confirmToken}`)).body, { status: 'saved' });
  const stored = await appModels(ctx.svc.db)
    .PushConfirmation.findById(createHash('sha256').update(confirmToken).digest('hex'))
    .lean();
  assert.ok(stored?.deliveredAt instanceof Date);
  assert.is((await owner.post(`${BASE}/push/delivered/${confirmToken}`)).status, 200);
  const answered = await owner.post(`${BASE}/push/answered/${confirmToken}/yes`, { distance: 12, duration: 17 });
  assert.is(answered.status, 200, JSON.stringify(answered.body));
  assert.equal(answered.body, { status: 'saved' });
  const answer = await appModels(ctx.svc.db).PushAnswer.findById(stored!._id).lean();
  assert.equal(
    { answer: answer?.answer, distance: answer?.distance, duration: answer?.duration },
    { answer: 'yes', distance: 12, duration: 17 },
  );
  const again = await owner.post(`${BASE}/push/answered/${confirmToken}/no`, {});
  expectBadRequest(again, 'invalid_parameter', TOKEN_INVALID, 'path', 'token');
});

push(
  'A11 and push/delivered: 401 without a credential, 400 for an unknown token, an answer other ' +
    "than yes/no or a wrong body, 403 for anyone but the device's owner",
  async (ctx) => {
    const d = await device(ctx);
    const { confirmToken } = (await testPush(ctx, d.id)).body;
    const owner = client(ctx.svc.url, member(ctx.a));
    expectBadRequest(
      await owner.post(`${BASE}/push/answered/${'A'.repeat(43)}/yes`, {}),
      'invalid_parameter',
      TOKEN_INVALID,
      'path',
      'token',
    );
    expectBadRequest(
      await owner.post(`${BASE}/push/answered/${confirmToken}/maybe`, {}),
      'invalid_parameter',
      TOKEN_INVALID,
      'path',
      'answer',
    );
    expectBadRequest(
      await owner.post(`${BASE}/push/answered/short/yes`, {}),
      'invalid_parameter',
      TOKEN_INVALID,
      'path',
      'token',
    );
    expectBadRequest(
      await owner.post(`${BASE}/push/answered/${confirmToken}/yes`, { distance: -1 }),
      'invalid_body',
      TOKEN_INVALID,
      'body',
      'distance',
    );
    expectBadRequest(
      await owner.post(`${BASE}/push/answered/${confirmToken}/yes`, { speed: 3 }),
      'invalid_body',
      TOKEN_INVALID,
      'body',
      'speed',
    );
    expectBadRequest(
      await owner.post(`${BASE}/push/delivered/${'B'.repeat(43)}`),
      'invalid_parameter',
      TOKEN_INVALID,
      'path',
      'token',
    );
    for (const other of [admin(ctx.a), key(ctx.a), pat(ctx.loner)]) {
      expectError(
        await client(ctx.svc.url, other).post(`${BASE}/push/answered/${confirmToken}/yes`, {}),
        403,
        'forbidden',
      );
      expectError(await client(ctx.svc.url, other).post(`${BASE}/push/delivered/${confirmToken}`), 403, 'forbidden');
    }
    expectError(
      await request(ctx.svc.url, 'POST', `${BASE}/push/answered/${confirmToken}/yes`, { body: {} }),
      401,
      'unauthorized',
    );
    expectError(await request(ctx.svc.url, 'POST', `${BASE}/push/delivered/${confirmToken}`), 401, 'unauthorized');
    assert.is((await owner.post(`${BASE}/push/answered/${confirmToken}/no`, {})).status, 200);
  },
);

push(
  "A11 and push/delivered 403 once the device's owner is no longer a member of the push's organization",
  async (ctx) => {
    const { identity } = ctx.svc;
    const leaving = await identity.createUser('Mitglied, das geht');
    await identity.addMember(ctx.a.orgId, leaving.id, 'member');
    const pat = await identity.createPersonalToken(leaving.id, 'phone');
    const owner = client(ctx.svc.url, { pat: pat.token });
    const d = await owner.post(`${BASE}/device`, {
      name: 'Phone',
      os: 'iOS 17',
      ownerID: leaving.id,
      pushToken: IOS_TOKEN,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(d.status, 200, JSON.stringify(d.body));
    // The organization's key sends the push: it is the organization's, as an alarm's push is.
    const sent = await testPush(ctx, d.body.id, key(ctx.a));
    assert.is(sent.status, 200, JSON.stringify(sent.body));
    await identity.removeMember(ctx.a.orgId, leaving.id);
    const refused = await owner.post(`${BASE}/push/answered/${sent.body.confirmToken}/yes`, {});
    expectError(refused, 403, 'forbidden');
    expectError(await owner.post(`${BASE}/push/delivered/${sent.body.confirmToken}`), 403, 'forbidden');
    const stored = createHash('sha256').update(sent.body.confirmToken).digest('hex');
    assert.is(await appModels(ctx.svc.db).PushAnswer.findById(stored).lean(), null, 'no answer stored');
  },
);

push('A11 answered once when six answers race', async (ctx) => {
  const d = await device(ctx);
  const { confirmToken } = (await testPush(ctx, d.id)).body;
  const owner = client(ctx.svc.url, member(ctx.a));
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      owner.post(`${BASE}/push/answered/${confirmToken}/${i % 2 ? 'yes' : 'no'}`, { duration: i }),
    ),
  );
  assert.equal(results.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400]);
});

push.run();

// ---------------------------------------------------------------- expiry
const expiry = channelSuite('push confirmation tokens expire', async () => ({
  ...fakes.env,
  PUSH_CONFIRM_TTL_SECONDS: '1',
}));

expiry('A11 and push/delivered 400 once the token has expired (PUSH_CONFIRM_TTL_SECONDS)', async (ctx) => {
  const d = await device(ctx);
  const { confirmToken } = (await testPush(ctx, d.id)).body;
  await new Promise((r) => setTimeout(r, 1_100));
  const owner = client(ctx.svc.url, member(ctx.a));
  const res = await owner.post(`${BASE}/push/answered/${confirmToken}/yes`, {});
  expectBadRequest(res, 'invalid_parameter', TOKEN_INVALID, 'path', 'token');
  assert.is(res.body.details[0].problem, 'has expired');
  expectBadRequest(
    await owner.post(`${BASE}/push/delivered/${confirmToken}`),
    'invalid_parameter',
    TOKEN_INVALID,
    'path',
    'token',
  );
});

expiry.after(() => fakes.close());
expiry.run();
