// A1–A4 and A6 over the real wire: owner-scoped devices with a unique name per owner.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError, expectSameAnswer } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { admin, channelSuite, key, member, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';

const BASE = '/api/v1/app/device';
const PAYLOAD = 'Payload missing or in wrong format';
const OWNER_ID = 'owner_id missing or in wrong format';
const DEVICE_ID = 'deviceID missing or in wrong format';
const APNS_TOKEN = '0f'.repeat(32);

let names = 0;
/** A valid Android device body of `ownerID`, with a fresh name. */
const android = (ownerID: number, over: Record<string, unknown> = {}) => ({
  name: `Pixel ${++names}`,
  os: 'Android 14',
  ownerID,
  pushToken: 'fcm:APA91b_x-y.z',
  pushTokenDevelopment: false,
  active: true,
  ...over,
});

async function createDevice(ctx: Ctx, ownerID: number, over: Record<string, unknown> = {}) {
  const res = await client(ctx.svc.url, key(ctx.a)).post(BASE, android(ownerID, over));
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

// ---------------------------------------------------------------- A2
const a2 = channelSuite('A2 create device');
unauthorizedCases(a2, 'A2', 'POST', () => BASE, android(1));

a2('A2 400 when the body is missing, incomplete, has unknown fields or wrong types', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  const ok = android(ctx.a.member.userId);
  expectBadRequest(await c.post(BASE), 'invalid_body', PAYLOAD, 'body');
  expectBadRequest(await c.post(BASE, { ...ok, name: undefined }), 'invalid_body', PAYLOAD, 'body', 'name');
  expectBadRequest(await c.post(BASE, { ...ok, colour: 'red' }), 'invalid_body', PAYLOAD, 'body', 'colour');
  expectBadRequest(await c.post(BASE, { ...ok, active: 'yes' }), 'invalid_body', PAYLOAD, 'body', 'active');
  expectBadRequest(await c.post(BASE, { ...ok, name: '' }), 'invalid_body', PAYLOAD, 'body', 'name');
  expectBadRequest(await c.post(BASE, { ...ok, name: 'n'.repeat(101) }), 'invalid_body', PAYLOAD, 'body', 'name');
  expectBadRequest(await c.post(BASE, { ...ok, pushToken: '../../x?y' }), 'invalid_body', PAYLOAD, 'body', 'pushToken');
  expectBadRequest(await c.post(BASE, `{"ownerID":${ABOVE_MAX_ID}}`), 'invalid_body', PAYLOAD, 'body');
});

a2('A2 400 names every problem at once: three missing fields and a wrong type in one answer', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  const { active: _a, pushTokenDevelopment: _p, name: _n, ...rest } = android(ctx.a.member.userId);
  const res = await c.post(BASE, { ...rest, os: 7 });
  expectBadRequest(res, 'invalid_body', PAYLOAD, 'body');
  const named = res.body.details.map((d: { path: string; problem: string }) => `${d.path} ${d.problem}`).sort();
  for (const wanted of ['active is required', 'pushTokenDevelopment is required', 'name is required'])
    assert.ok(named.includes(wanted), `${wanted} missing from ${JSON.stringify(named)}`);
  assert.ok(
    named.some((d: string) => d.startsWith('os ')),
    `the wrong type of os missing from ${JSON.stringify(named)}`,
  );
});

a2('A2 400 lists at most 20 problems, and a body over 16 KiB only its first', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  const extra = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, i]));
  const many = await c.post(BASE, { ...android(ctx.a.member.userId), ...extra });
  expectBadRequest(many, 'invalid_body', PAYLOAD, 'body');
  assert.is(many.body.details.length, 20);
  const large = await c.post(BASE, { ...extra, padding: 'x'.repeat(17 * 1024) });
  expectBadRequest(large, 'invalid_body', PAYLOAD, 'body');
  assert.is(large.body.details.length, 1);
});

a2('A2 400 when os names neither or both platforms, naming both keywords; 400 for a non-hex iOS token', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  for (const os of ['Windows Phone 8', 'HarmonyOS 4', 'Android or iOS']) {
    const res = await c.post(BASE, android(ctx.a.member.userId, { os }));
    expectBadRequest(res, 'invalid_body', PAYLOAD, 'body', 'os');
    assert.match(res.body.details[0].problem, /"android".*"ios"/);
  }
  const res = await c.post(BASE, android(ctx.a.member.userId, { os: 'iOS 17.2', pushToken: 'not-hex' }));
  expectBadRequest(res, 'invalid_body', PAYLOAD, 'body', 'pushToken');
});

a2("A2 403 when the owner is out of the caller's reach", async (ctx) => {
  const target = ctx.a.member.userId;
  // Another user, without naming an organization.
  expectError(await client(ctx.svc.url, pat(ctx.loner)).post(BASE, android(target)), 403, 'forbidden');
  // A plain member of the organization cannot write for other members.
  expectError(
    await client(ctx.svc.url, member(ctx.a)).post(
      `${BASE}?organization_id=${ctx.a.orgId}`,
      android(ctx.a.admin.userId),
    ),
    403,
    'forbidden',
  );
  // B's key and admin: the owner is not a member of B; naming A is not theirs to do.
  expectError(await client(ctx.svc.url, key(ctx.b)).post(BASE, android(target)), 403, 'forbidden');
  expectError(
    await client(ctx.svc.url, admin(ctx.b)).post(`${BASE}?organization_id=${ctx.b.orgId}`, android(target)),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.svc.url, key(ctx.b)).post(`${BASE}?organization_id=${ctx.a.orgId}`, android(target)),
    403,
    'forbidden',
  );
});

a2(
  'A2 409 for a name the owner already uses (case and surrounding spaces ignored); another owner may use it',
  async (ctx) => {
    const first = await createDevice(ctx, ctx.a.member.userId, { name: 'Work Phone' });
    assert.is(first.name, 'Work Phone');
    // Names are unique among what one party entered for the owner (here the organization's key).
    const dup = await client(ctx.svc.url, key(ctx.a)).post(
      BASE,
      android(ctx.a.member.userId, { name: '  work phone ' }),
    );
    expectError(dup, 409, 'conflict');
    assert.match(dup.body.message, /work phone/);
    const own = await client(ctx.svc.url, member(ctx.a)).post(
      BASE,
      android(ctx.a.member.userId, { name: 'Work Phone' }),
    );
    assert.is(own.status, 200, "his own devices' names are his own");
    expectError(
      await client(ctx.svc.url, member(ctx.a)).post(BASE, android(ctx.a.member.userId, { name: 'WORK PHONE' })),
      409,
      'conflict',
    );
    assert.is(
      (await client(ctx.svc.url, admin(ctx.a)).post(BASE, android(ctx.a.admin.userId, { name: 'Work Phone' }))).status,
      200,
    );
  },
);

a2('A2 409 for all but one of eight concurrent creates with one name', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  const body = android(ctx.a.member.userId, { name: 'Raced name' });
  const results = await Promise.all(Array.from({ length: 8 }, () => c.post(BASE, body)));
  assert.equal(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
  const list = await c.get(`${BASE}?owner_id=${ctx.a.member.userId}`);
  assert.is(list.body.filter((d: any) => d.name === 'Raced name').length, 1);
});

a2(
  'A2 200 for the owner himself, the API key (its organization implied) and an admin naming the organization',
  async (ctx) => {
    const own = await client(ctx.svc.url, member(ctx.a)).post(
      BASE,
      android(ctx.a.member.userId, {
        name: 'iPad',
        os: 'iPadOS 17.1',
        pushToken: APNS_TOKEN,
        pushTokenDevelopment: true,
        active: false,
        id: 0,
      }),
    );
    assert.is(own.status, 200, JSON.stringify(own.body));
    assert.type(own.body.id, 'number');
    assert.equal(own.body, {
      id: own.body.id,
      name: 'iPad',
      os: 'iPadOS 17.1',
      ownerID: ctx.a.member.userId,
      pushToken: APNS_TOKEN,
      pushTokenDevelopment: true,
      active: false,
    });
    const byKey = await client(ctx.svc.url, key(ctx.a)).post(BASE, android(ctx.a.member.userId, { os: 'ANDROID 13' }));
    assert.is(byKey.status, 200);
    assert.ok(byKey.body.id > own.body.id);
    const byAdmin = await client(ctx.svc.url, admin(ctx.a)).post(
      `${BASE}?organization_id=${ctx.a.orgId}`,
      android(ctx.a.member.userId),
    );
    assert.is(byAdmin.status, 200);
    assert.is(byAdmin.body.ownerID, ctx.a.member.userId);
  },
);

a2.run();

// ---------------------------------------------------------------- A1
const a1 = channelSuite('A1 list devices');
unauthorizedCases(a1, 'A1', 'GET', (ctx) => `${BASE}?owner_id=${ctx.a.member.userId}`);

a1('A1 400 when owner_id is missing or not a positive int64, or organization_id is malformed', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  expectBadRequest(await c.get(BASE), 'invalid_parameter', OWNER_ID, 'query', 'owner_id');
  for (const bad of ['abc', '0', '-3', '1.5', ABOVE_MAX_ID]) {
    expectBadRequest(await c.get(`${BASE}?owner_id=${bad}`), 'invalid_parameter', OWNER_ID, 'query', 'owner_id');
  }
  expectBadRequest(
    await c.get(`${BASE}?owner_id=${ctx.a.member.userId}&organization_id=x`),
    'invalid_parameter',
    OWNER_ID,
    'query',
    'organization_id',
  );
});

a1(
  "A1 403 for another user's devices without an organization, as a plain member, or through another organization",
  async (ctx) => {
    const target = ctx.a.member.userId;
    expectError(await client(ctx.svc.url, pat(ctx.loner)).get(`${BASE}?owner_id=${target}`), 403, 'forbidden');
    expectError(await client(ctx.svc.url, admin(ctx.a)).get(`${BASE}?owner_id=${target}`), 403, 'forbidden');
    expectError(
      await client(ctx.svc.url, member(ctx.a)).get(
        `${BASE}?owner_id=${ctx.a.admin.userId}&organization_id=${ctx.a.orgId}`,
      ),
      403,
      'forbidden',
    );
    expectError(await client(ctx.svc.url, key(ctx.b)).get(`${BASE}?owner_id=${target}`), 403, 'forbidden');
    expectError(
      await client(ctx.svc.url, admin(ctx.b)).get(`${BASE}?owner_id=${target}&organization_id=${ctx.a.orgId}`),
      403,
      'forbidden',
    );
  },
);

a1(
  "A1 200 lists the owner's devices in ID order for himself, the API key and an admin naming the organization",
  async (ctx) => {
    const one = await createDevice(ctx, ctx.a.member.userId);
    const two = await createDevice(ctx, ctx.a.member.userId, { active: false });
    await createDevice(ctx, ctx.a.admin.userId);
    for (const [auth, query] of [
      [member(ctx.a), ''],
      [key(ctx.a), ''],
      [admin(ctx.a), `&organization_id=${ctx.a.orgId}`],
    ] as const) {
      const res = await client(ctx.svc.url, auth).get(`${BASE}?owner_id=${ctx.a.member.userId}${query}`);
      assert.is(res.status, 200);
      assert.equal(res.body, [one, two]);
    }
    const empty = await client(ctx.svc.url, pat(ctx.loner)).get(`${BASE}?owner_id=${ctx.loner.userId}`);
    assert.equal(empty.body, []);
  },
);

a1.run();

// ---------------------------------------------------------------- A3, A4, A6
const byId = channelSuite('A3, A4, A6 one device');
unauthorizedCases(byId, 'A3', 'GET', () => `${BASE}/1`);
unauthorizedCases(byId, 'A4', 'PUT', () => `${BASE}/1`, android(1));
unauthorizedCases(byId, 'A6', 'DELETE', () => `${BASE}/1`);

byId('A3, A4, A6 400 when deviceID is not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, member(ctx.a));
  for (const bad of ['abc', '0', '1.0', ABOVE_MAX_ID, '{deviceID}']) {
    expectBadRequest(await c.get(`${BASE}/${bad}`), 'invalid_parameter', DEVICE_ID, 'path', 'deviceID');
    expectBadRequest(
      await c.put(`${BASE}/${bad}`, android(ctx.a.member.userId)),
      'invalid_parameter',
      DEVICE_ID,
      'path',
      'deviceID',
    );
    expectBadRequest(await c.delete(`${BASE}/${bad}`), 'invalid_parameter', DEVICE_ID, 'path', 'deviceID');
  }
});

byId(
  "A3, A4, A6 404 for an unknown device, for another user's device out of reach, and when naming " +
    'an organization the caller does not administer',
  async (ctx) => {
    const device = await createDevice(ctx, ctx.a.member.userId);
    const path = `${BASE}/${device.id}`;
    for (const c of [
      client(ctx.svc.url, pat(ctx.loner)),
      client(ctx.svc.url, admin(ctx.a)),
      client(ctx.svc.url, key(ctx.b)),
    ]) {
      expectError(await c.get(path), 404, 'not_found');
      expectError(await c.put(path, android(ctx.a.member.userId)), 404, 'not_found');
      expectError(await c.delete(path), 404, 'not_found');
    }
    expectError(await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/999999`), 404, 'not_found');
    const plain = client(ctx.svc.url, member(ctx.b));
    expectError(await plain.get(`${path}?organization_id=${ctx.b.orgId}`), 404, 'not_found');
    expectError(
      await client(ctx.svc.url, admin(ctx.b)).get(`${path}?organization_id=${ctx.b.orgId}`),
      404,
      'not_found',
    );
  },
);

byId(
  'A3–A6: an existing device out of reach is answered exactly as one that does not exist, whatever ' +
    'organization_id names',
  async (ctx) => {
    const device = await createDevice(ctx, ctx.a.member.userId);
    const absent = device.id + 1_000_000;
    const ops = (id: number, org: string) =>
      [
        ['A3', (c: ReturnType<typeof client>) => c.get(`${BASE}/${id}${org}`)],
        ['A4', (c: ReturnType<typeof client>) => c.put(`${BASE}/${id}${org}`, android(ctx.a.member.userId))],
        ['A5', (c: ReturnType<typeof client>) => c.post(`${BASE}/${id}/test-push${org}`)],
        ['A6', (c: ReturnType<typeof client>) => c.delete(`${BASE}/${id}${org}`)],
      ] as const;
    for (const auth of [admin(ctx.b), member(ctx.b), key(ctx.b), pat(ctx.loner)]) {
      const c = client(ctx.svc.url, auth);
      for (const org of [
        '',
        `?organization_id=${ctx.a.orgId}`,
        `?organization_id=${ctx.b.orgId}`,
        '?organization_id=1',
        '?organization_id=999999',
      ]) {
        const existing = ops(device.id, org);
        const missing = ops(absent, org);
        for (let i = 0; i < existing.length; i++) {
          const [label, call] = existing[i];
          const there = await call(c);
          const notThere = await missing[i][1](c);
          assert.is(there.status, 404, `${label}${org}: ${JSON.stringify(there.body)}`);
          expectSameAnswer(there, notThere, `${label}${org}`);
        }
      }
    }
    assert.is(
      (await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${device.id}`)).status,
      200,
      'nothing was changed or deleted',
    );
  },
);

byId('A3 200 for the owner, the API key and an admin naming the organization', async (ctx) => {
  const device = await createDevice(ctx, ctx.a.member.userId, { active: false });
  for (const [auth, query] of [
    [member(ctx.a), ''],
    [key(ctx.a), ''],
    [admin(ctx.a), `?organization_id=${ctx.a.orgId}`],
  ] as const) {
    const res = await client(ctx.svc.url, auth).get(`${BASE}/${device.id}${query}`);
    assert.is(res.status, 200);
    assert.equal(res.body, device);
  }
});

byId("A4 400 for a wrong body, an id other than the path's, or a changed ownerID", async (ctx) => {
  const device = await createDevice(ctx, ctx.a.member.userId);
  const c = client(ctx.svc.url, member(ctx.a));
  const path = `${BASE}/${device.id}`;
  expectBadRequest(await c.put(path), 'invalid_body', PAYLOAD, 'body');
  expectBadRequest(await c.put(path, { name: 'x' }), 'invalid_body', PAYLOAD, 'body');
  expectBadRequest(await c.put(path, { ...device, id: device.id + 1 }), 'invalid_body', PAYLOAD, 'body', 'id');
  expectBadRequest(
    await c.put(path, { ...device, ownerID: ctx.a.admin.userId }),
    'invalid_body',
    PAYLOAD,
    'body',
    'ownerID',
  );
  expectBadRequest(await c.put(path, { ...device, os: 'Symbian' }), 'invalid_body', PAYLOAD, 'body', 'os');
});

byId("A4 409 when renaming to another device's name of the owner, also for two racing renames", async (ctx) => {
  const one = await createDevice(ctx, ctx.a.member.userId, { name: 'Alpha' });
  const two = await createDevice(ctx, ctx.a.member.userId, { name: 'Beta' });
  const c = client(ctx.svc.url, member(ctx.a));
  expectError(await c.put(`${BASE}/${two.id}`, { ...two, name: 'ALPHA' }), 409, 'conflict');
  const raced = await Promise.all([
    c.put(`${BASE}/${one.id}`, { ...one, name: 'Gamma' }),
    c.put(`${BASE}/${two.id}`, { ...two, name: 'gamma' }),
  ]);
  assert.equal(raced.map((r) => r.status).sort(), [200, 409]);
});

byId('A4 200 replaces the fields (the same name in other case is fine) and the change is stored', async (ctx) => {
  const device = await createDevice(ctx, ctx.a.member.userId, { name: 'Old name' });
  const changed = {
    id: device.id,
    name: 'OLD NAME',
    os: 'iOS 18',
    ownerID: device.ownerID,
    pushToken: APNS_TOKEN,
    pushTokenDevelopment: true,
    active: false,
  };
  const res = await client(ctx.svc.url, key(ctx.a)).put(`${BASE}/${device.id}`, changed);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, changed);
  assert.equal((await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${device.id}`)).body, changed);
});

byId('A6 200 deletes; the device is gone and its name free again', async (ctx) => {
  const device = await createDevice(ctx, ctx.a.member.userId, { name: 'To delete' });
  const c = client(ctx.svc.url, member(ctx.a));
  const res = await c.delete(`${BASE}/${device.id}`);
  assert.is(res.status, 200);
  assert.equal(res.body, { status: 'deleted' });
  expectError(await c.get(`${BASE}/${device.id}`), 404, 'not_found');
  expectError(await c.delete(`${BASE}/${device.id}`), 404, 'not_found');
  assert.is((await c.post(BASE, android(ctx.a.member.userId, { name: 'To delete' }))).status, 200);
});

byId.run();
