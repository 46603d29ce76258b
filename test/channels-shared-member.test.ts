// A member of two organizations (volunteers in two fire services): what one organization entered for
// him belongs to it, and no organization reads, redirects or silences what another sends
// (server/areas/channels/owned.ts; docs/api.md "The app, sms and call areas").
import * as assert from 'uvu/assert';
import { eventually } from './helpers/fleet.js';
import { expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { channelSuite, key, newUser, pat, type Ctx, type User } from './helpers/channels.js';
import { smsModels } from '../server/areas/sms/models.js';

const s = channelSuite('a member of two organizations: mobiles, phones and devices');

let n = 0;
const gsm = () => `0049176${String(5_000_000 + ++n)}`;

async function sharedMember(ctx: Ctx): Promise<User> {
  const user = await newUser(ctx.svc, ctx.a);
  await ctx.svc.identity.addMember(ctx.b.orgId, user.userId, 'member');
  return user;
}

for (const [noun, base] of [
  ['mobile', '/api/v1/sms/mobile'],
  ['phone', '/api/v1/call/phone'],
] as const) {
  s(
    `${noun}: another organization cannot change, silence or delete his own, nor see or reach what the first entered`,
    async (ctx) => {
      const user = await sharedMember(ctx);
      const own = await client(ctx.svc.url, pat(user)).post(base, {
        gsm: gsm(),
        ownerID: user.userId,
        name: 'Eigenes',
      });
      assert.is(own.status, 200, JSON.stringify(own.body));
      const byA = await client(ctx.svc.url, key(ctx.a)).post(base, { gsm: gsm(), ownerID: user.userId, name: 'Von A' });
      assert.is(byA.status, 200, JSON.stringify(byA.body));
      const b = client(ctx.svc.url, key(ctx.b));
      // His own: B reads it (its alarms use it too) but cannot redirect or silence it.
      const redirect = noun === 'phone' ? `${base}/${own.body.id}` : base;
      const body = (fields: Record<string, unknown>) => (noun === 'phone' ? fields : { id: own.body.id, ...fields });
      expectError(await b.put(redirect, body({ gsm: gsm(), ownerID: user.userId })), 403, 'forbidden');
      expectError(await b.put(redirect, body({ active: false, ownerID: user.userId })), 403, 'forbidden');
      expectError(await b.delete(`${base}/${own.body.id}`), 403, 'forbidden');
      // A's entry: not B's to see or touch (404, as one that does not exist).
      const aPath = noun === 'phone' ? `${base}/${byA.body.id}` : base;
      const aBody = (fields: Record<string, unknown>) => (noun === 'phone' ? fields : { id: byA.body.id, ...fields });
      expectError(await b.put(aPath, aBody({ gsm: gsm(), ownerID: user.userId })), 404, 'not_found');
      expectError(await b.delete(`${base}/${byA.body.id}`), 404, 'not_found');
      const listed = await b.get(`${base}?owner_id=${user.userId}`);
      assert.is(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(
        listed.body.map((x: { id: number }) => x.id),
        [own.body.id],
      );
      // Nothing changed; the owner still sees and changes both.
      const mine = await client(ctx.svc.url, pat(user)).get(`${base}?owner_id=${user.userId}`);
      assert.equal(
        mine.body.map((x: any) => [x.id, x.gsm, x.active]),
        [
          [own.body.id, own.body.gsm, true],
          [byA.body.id, byA.body.gsm, true],
        ],
      );
      const renamed = await client(ctx.svc.url, pat(user)).put(aPath, aBody({ name: 'Meins jetzt' }));
      assert.is(renamed.status, 200, JSON.stringify(renamed.body));
    },
  );
}

s("an alarm of one organization goes to the member's own numbers and its own, never to another's", async (ctx) => {
  const user = await sharedMember(ctx);
  const own = gsm();
  const ofA = gsm();
  const ofB = gsm();
  assert.is(
    (await client(ctx.svc.url, pat(user)).post('/api/v1/sms/mobile', { gsm: own, ownerID: user.userId })).status,
    200,
  );
  assert.is(
    (await client(ctx.svc.url, key(ctx.a)).post('/api/v1/sms/mobile', { gsm: ofA, ownerID: user.userId })).status,
    200,
  );
  // B enters a number of its choosing for him: A's alarm text must never reach it.
  assert.is(
    (await client(ctx.svc.url, key(ctx.b)).post('/api/v1/sms/mobile', { gsm: ofB, ownerID: user.userId })).status,
    200,
  );
  const alarm = await client(ctx.svc.url, key(ctx.a)).post('/api/v1/alarms', {
    organizationID: ctx.a.orgId,
    event: 'B3 Wohnungsbrand',
    channels: ['sms'],
  });
  assert.is(alarm.status, 201, JSON.stringify(alarm.body));
  // AL1 answers before its deliveries are built: read once they are stored.
  const detail = await eventually(
    async () => (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms/${alarm.body.id}`)).body,
    (d) => d.deliveries.length > 0,
    'the deliveries built',
  );
  const his = detail.deliveries
    .filter((d: { recipientUserId: number }) => d.recipientUserId === user.userId)
    .map((d: { target: string }) => d.target)
    .sort();
  assert.equal(his, [`…${own.slice(-3)}`, `…${ofA.slice(-3)}`].sort());
  // A7 for B answers from his own and B's only: with his own set inactive by himself and B's removed, none.
  const anyActive = async (org: typeof ctx.a) =>
    (
      await client(ctx.svc.url, key(org)).get(
        `/api/v1/sms/any-active?organization_id=${org.orgId}&user_id=${user.userId}`,
      )
    ).body;
  const mine = (await client(ctx.svc.url, pat(user)).get(`/api/v1/sms/mobile?owner_id=${user.userId}`)).body;
  const [ownId, , bId] = mine.map((x: { id: number }) => x.id);
  assert.is((await client(ctx.svc.url, pat(user)).put('/api/v1/sms/mobile', { id: ownId, active: false })).status, 200);
  assert.is((await client(ctx.svc.url, key(ctx.b)).delete(`/api/v1/sms/mobile/${bId}`)).status, 200);
  assert.equal(await anyActive(ctx.b), { anyActive: false });
  assert.equal(await anyActive(ctx.a), { anyActive: true });
});

s('device: another organization cannot re-point his push token or deactivate it', async (ctx) => {
  const user = await sharedMember(ctx);
  const device = await client(ctx.svc.url, pat(user)).post('/api/v1/app/device', {
    name: 'Telefon',
    os: 'Android 15',
    ownerID: user.userId,
    pushToken: 'tok-own',
    pushTokenDevelopment: false,
    active: true,
  });
  assert.is(device.status, 200, JSON.stringify(device.body));
  const b = client(ctx.svc.url, key(ctx.b));
  expectError(
    await b.put(`/api/v1/app/device/${device.body.id}`, { ...device.body, pushToken: 'tok-of-b' }),
    403,
    'forbidden',
  );
  expectError(await b.put(`/api/v1/app/device/${device.body.id}`, { ...device.body, active: false }), 403, 'forbidden');
  expectError(await b.delete(`/api/v1/app/device/${device.body.id}`), 403, 'forbidden');
  const now = (await client(ctx.svc.url, pat(user)).get(`/api/v1/app/device/${device.body.id}`)).body;
  assert.equal([now.pushToken, now.active], ['tok-own', true]);
  // Names are unique among what one party entered: B's "Telefon" neither collides with his own nor
  // with A's (a 409 would tell B of them), but with B's own second one.
  const named = (org: typeof ctx.a, name: string) =>
    client(ctx.svc.url, key(org)).post('/api/v1/app/device', {
      name,
      os: 'Android 15',
      ownerID: user.userId,
      pushToken: `tok-${org.orgId}-${name.trim()}`,
      pushTokenDevelopment: false,
      active: true,
    });
  assert.is((await named(ctx.b, 'Telefon')).status, 200);
  assert.is((await named(ctx.a, 'Telefon')).status, 200);
  expectError(await named(ctx.b, ' telefon '), 409, 'conflict');
  const renamed = await client(ctx.svc.url, pat(user)).put(`/api/v1/app/device/${device.body.id}`, {
    ...device.body,
    name: 'TELEFON',
  });
  assert.is(renamed.status, 200, 'his own rename to his own name (another case) is his');
});

s(
  'a number stored before numbers recorded who entered them: the organization of an owner in no other ' +
    'still manages it; with two organizations, neither does',
  async (ctx) => {
    const { Mobile } = smsModels(ctx.svc.db);
    const legacy = async (user: User) => {
      const res = await client(ctx.svc.url, pat(user)).post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId });
      assert.is(res.status, 200, JSON.stringify(res.body));
      // As an earlier version stored it: no organizationID at all.
      await Mobile.collection.updateOne({ _id: String(res.body.id) } as never, { $unset: { organizationID: '' } });
      return res.body.id as number;
    };
    const single = await newUser(ctx.svc, ctx.a);
    const one = await legacy(single);
    const byA = await client(ctx.svc.url, key(ctx.a)).put('/api/v1/sms/mobile', { id: one, active: false });
    assert.is(byA.status, 200, JSON.stringify(byA.body));
    const shared = await sharedMember(ctx);
    const two = await legacy(shared);
    expectError(
      await client(ctx.svc.url, key(ctx.a)).put('/api/v1/sms/mobile', { id: two, active: false }),
      403,
      'forbidden',
    );
    expectError(await client(ctx.svc.url, key(ctx.b)).delete(`/api/v1/sms/mobile/${two}`), 403, 'forbidden');
  },
);

s.run();
