// Disable flags (A8/A9, S5/S6, C5/C6) and any-active (A7, S14, C12): one shape, tested for each channel.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { admin, channelSuite, key, member, newUser, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';

const ORGANIZATION_ID = 'organization_id missing or in wrong format';
const USER_OR_ORGANIZATION = 'user_id or organization_id missing or in wrong format';
const PAYLOAD = 'Payload missing or in wrong format';

const CHANNELS = [
  { channel: 'app', labels: ['A7', 'A8', 'A9'] },
  { channel: 'sms', labels: ['S14', 'S5', 'S6'] },
  { channel: 'call', labels: ['C12', 'C5', 'C6'] },
] as const;

let n = 0;
/** Creates an active or inactive device, mobile or phone number of `ownerID` with the owner's token. */
async function createOwned(ctx: Ctx, channel: string, ownerToken: string, ownerID: number, active: boolean) {
  const c = client(ctx.svc.url, { pat: ownerToken });
  const res =
    channel === 'app'
      ? await c.post('/api/v1/app/device', {
          name: `Device ${++n}`,
          os: 'Android 14',
          ownerID,
          pushToken: 'tok',
          pushTokenDevelopment: false,
          active,
        })
      : await c.post(`/api/v1/${channel}/${channel === 'sms' ? 'mobile' : 'phone'}`, {
          gsm: '004917612345678',
          ownerID,
          active,
        });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.id as number;
}

for (const {
  channel,
  labels: [anyActive, get, set],
} of CHANNELS) {
  const base = `/api/v1/${channel}`;
  const s = channelSuite(`${get}/${set} disable flag and ${anyActive} any-active (${channel})`);
  unauthorizedCases(s, get, 'GET', (ctx) => `${base}/disabled?organization_id=${ctx.a.orgId}`);
  unauthorizedCases(s, set, 'PUT', (ctx) => `${base}/disabled?organization_id=${ctx.a.orgId}`, { isDisabled: true });
  unauthorizedCases(s, anyActive, 'GET', (ctx) => `${base}/any-active?organization_id=${ctx.a.orgId}&user_id=1`);

  s(`${get}/${set} 400 when organization_id is missing or malformed; ${set} 400 for a wrong body`, async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    for (const q of [
      '',
      '?organization_id=',
      '?organization_id=abc',
      '?organization_id=0',
      `?organization_id=${ABOVE_MAX_ID}`,
    ]) {
      expectBadRequest(await c.get(`${base}/disabled${q}`), 'invalid_parameter', ORGANIZATION_ID, 'query');
      expectBadRequest(
        await c.put(`${base}/disabled${q}`, { isDisabled: true }),
        'invalid_parameter',
        ORGANIZATION_ID,
        'query',
      );
    }
    const path = `${base}/disabled?organization_id=${ctx.a.orgId}`;
    expectBadRequest(await c.put(path), 'invalid_body', PAYLOAD, 'body');
    expectBadRequest(await c.put(path, { isDisabled: 'yes' }), 'invalid_body', PAYLOAD, 'body', 'isDisabled');
    expectBadRequest(await c.put(path, {}), 'invalid_body', PAYLOAD, 'body', 'isDisabled');
    expectBadRequest(await c.put(path, { isDisabled: true, extra: 1 }), 'invalid_body', PAYLOAD, 'body', 'extra');
  });

  s(`${get} 403 outside the organization; ${set} 403 for members and outsiders`, async (ctx) => {
    const path = `${base}/disabled?organization_id=${ctx.a.orgId}`;
    for (const auth of [key(ctx.b), admin(ctx.b), pat(ctx.loner)]) {
      expectError(await client(ctx.svc.url, auth).get(path), 403, 'forbidden');
      expectError(await client(ctx.svc.url, auth).put(path, { isDisabled: true }), 403, 'forbidden');
    }
    expectError(await client(ctx.svc.url, member(ctx.a)).put(path, { isDisabled: true }), 403, 'forbidden');
  });

  s(
    `${get}/${set} 200: false until set, then what the admin or API key set, for this channel and organization only`,
    async (ctx) => {
      const path = `${base}/disabled?organization_id=${ctx.a.orgId}`;
      assert.equal((await client(ctx.svc.url, member(ctx.a)).get(path)).body, [{ isDisabled: false }]);
      const put = await client(ctx.svc.url, admin(ctx.a)).put(path, { isDisabled: true });
      assert.is(put.status, 200);
      assert.equal(put.body, { isDisabled: true });
      assert.equal((await client(ctx.svc.url, member(ctx.a)).get(path)).body, [{ isDisabled: true }]);
      assert.equal(
        (await client(ctx.svc.url, key(ctx.b)).get(`${base}/disabled?organization_id=${ctx.b.orgId}`)).body,
        [{ isDisabled: false }],
      );
      const other = CHANNELS.find((c) => c.channel !== channel)!.channel;
      assert.equal(
        (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/${other}/disabled?organization_id=${ctx.a.orgId}`)).body,
        [{ isDisabled: false }],
      );
      assert.equal((await client(ctx.svc.url, key(ctx.a)).put(path, { isDisabled: false })).body, {
        isDisabled: false,
      });
      const raced = await Promise.all(
        [true, false, true, false].map((isDisabled) => client(ctx.svc.url, key(ctx.a)).put(path, { isDisabled })),
      );
      assert.equal(
        raced.map((r) => r.status),
        [200, 200, 200, 200],
      );
      // Racing writes leave one of the values; the last write after them decides.
      assert.equal((await client(ctx.svc.url, key(ctx.a)).put(path, { isDisabled: false })).body, {
        isDisabled: false,
      });
      assert.equal((await client(ctx.svc.url, member(ctx.a)).get(path)).body, [{ isDisabled: false }]);
    },
  );

  s(`${anyActive} 400 when user_id or organization_id is missing or malformed`, async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    for (const q of [
      '',
      `?user_id=1`,
      `?organization_id=${ctx.a.orgId}`,
      `?user_id=x&organization_id=${ctx.a.orgId}`,
      `?user_id=1&organization_id=${ABOVE_MAX_ID}`,
    ]) {
      expectBadRequest(await c.get(`${base}/any-active${q}`), 'invalid_parameter', USER_OR_ORGANIZATION, 'query');
    }
  });

  s(`${anyActive} 403 for callers outside the organization`, async (ctx) => {
    const path = `${base}/any-active?organization_id=${ctx.a.orgId}&user_id=${ctx.a.member.userId}`;
    for (const auth of [key(ctx.b), admin(ctx.b), pat(ctx.loner)])
      expectError(await client(ctx.svc.url, auth).get(path), 403, 'forbidden');
  });

  s(
    `${anyActive} 200: true only for a member with an active ${channel === 'app' ? 'device' : 'number'} ` +
      `while the organization has not disabled ${channel}`,
    async (ctx) => {
      const user = await newUser(ctx.svc, ctx.a);
      const ask = async (userId: number) =>
        (
          await client(ctx.svc.url, member(ctx.a)).get(
            `${base}/any-active?organization_id=${ctx.a.orgId}&user_id=${userId}`,
          )
        ).body;
      assert.equal(await ask(user.userId), { anyActive: false });
      await createOwned(ctx, channel, user.token, user.userId, false);
      assert.equal(await ask(user.userId), { anyActive: false });
      await createOwned(ctx, channel, user.token, user.userId, true);
      assert.equal(await ask(user.userId), { anyActive: true });
      // Disabled in the organization: false; enabled again: true.
      await client(ctx.svc.url, key(ctx.a)).put(`${base}/disabled?organization_id=${ctx.a.orgId}`, {
        isDisabled: true,
      });
      assert.equal(await ask(user.userId), { anyActive: false });
      await client(ctx.svc.url, key(ctx.a)).put(`${base}/disabled?organization_id=${ctx.a.orgId}`, {
        isDisabled: false,
      });
      assert.equal(await ask(user.userId), { anyActive: true });
      // A user with an active one who is not a member: false.
      await createOwned(ctx, channel, ctx.loner.token, ctx.loner.userId, true);
      assert.equal(await ask(ctx.loner.userId), { anyActive: false });
      assert.equal(await ask(999_999), { anyActive: false });
    },
  );

  s.run();
}
