// A10 alarm feedback over the real wire, and its app:feedback event on the organization's hub room.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { admin, channelSuite, key, member, newUser, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { appModels } from '../server/areas/app/models.js';

const PATH = '/api/v1/app/feedback';
const NOT_SET = 'organizationID or alarmID not set';
const PAYLOAD = 'Payload missing or in wrong format';

let n = 0;
async function device(ctx: Ctx, token = ctx.a.member.token, ownerID = ctx.a.member.userId) {
  const res = await client(ctx.svc.url, { pat: token }).post('/api/v1/app/device', {
    name: `Phone ${++n}`,
    os: 'Android 14',
    ownerID,
    pushToken: 'tok',
    pushTokenDevelopment: false,
    active: true,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.id as number;
}
const feedback = (deviceID: number, over: Record<string, unknown> = {}) => ({
  alarmID: 77,
  deviceID,
  response: true,
  answerData: { distance: 4, duration: 9 },
  ...over,
});

const s = channelSuite('A10 alarm feedback');
unauthorizedCases(s, 'A10', 'POST', (ctx) => `${PATH}?organization_id=${ctx.a.orgId}`, feedback(1));

s(
  'A10 400 "organizationID or alarmID not set" without alarmID or, for a personal token, without organization_id',
  async (ctx) => {
    const d = await device(ctx);
    const c = client(ctx.svc.url, member(ctx.a));
    expectBadRequest(
      await c.post(`${PATH}?organization_id=${ctx.a.orgId}`, feedback(d, { alarmID: undefined })),
      'invalid_body',
      NOT_SET,
      'body',
      'alarmID',
    );
    expectBadRequest(await c.post(PATH, feedback(d)), 'invalid_body', NOT_SET, 'query', 'organization_id');
    expectBadRequest(
      await c.post(`${PATH}?organization_id=abc`, feedback(d)),
      'invalid_parameter',
      NOT_SET,
      'query',
      'organization_id',
    );
    expectBadRequest(
      await c.post(`${PATH}?organization_id=${ABOVE_MAX_ID}`, feedback(d)),
      'invalid_parameter',
      NOT_SET,
      'query',
      'organization_id',
    );
  },
);

s('A10 400 for a missing or wrong payload', async (ctx) => {
  const d = await device(ctx);
  const c = client(ctx.svc.url, member(ctx.a));
  const path = `${PATH}?organization_id=${ctx.a.orgId}`;
  expectBadRequest(await c.post(path), 'invalid_body', PAYLOAD, 'body');
  expectBadRequest(
    await c.post(path, feedback(d, { answerData: undefined })),
    'invalid_body',
    PAYLOAD,
    'body',
    'answerData',
  );
  expectBadRequest(
    await c.post(path, feedback(d, { deviceID: undefined })),
    'invalid_body',
    PAYLOAD,
    'body',
    'deviceID',
  );
  expectBadRequest(
    await c.post(path, feedback(d, { answerData: { distance: 'far' } })),
    'invalid_body',
    PAYLOAD,
    'body',
    'answerData.distance',
  );
  expectBadRequest(await c.post(path, feedback(d, { mood: 'ok' })), 'invalid_body', PAYLOAD, 'body', 'mood');
});

s("A10 403 outside the organization; 404 for a device the caller does not reach, another member's too", async (ctx) => {
  const d = await device(ctx);
  expectError(
    await client(ctx.svc.url, pat(ctx.loner)).post(`${PATH}?organization_id=${ctx.a.orgId}`, feedback(d)),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.svc.url, key(ctx.b)).post(`${PATH}?organization_id=${ctx.a.orgId}`, feedback(d)),
    403,
    'forbidden',
  );
  expectError(await client(ctx.svc.url, key(ctx.b)).post(PATH, feedback(d)), 404, 'not_found');
  // Another member's device: a plain member does not configure the organization, and is told no more
  // than that there is no such device.
  const other = await newUser(ctx.svc, ctx.a);
  expectError(
    await client(ctx.svc.url, pat(other)).post(`${PATH}?organization_id=${ctx.a.orgId}`, feedback(d)),
    404,
    'not_found',
  );
  expectError(
    await client(ctx.svc.url, member(ctx.a)).post(`${PATH}?organization_id=${ctx.a.orgId}`, feedback(999_999)),
    404,
    'not_found',
  );
});

s(
  'A10 200 records feedback per organization, alarm and device (a later answer replaces it) and publishes app:feedback',
  async (ctx) => {
    const d = await device(ctx);
    const staff = await connectScreen(ctx.svc.url, ctx.a.apiKey);
    const stranger = await connectScreen(ctx.svc.url, ctx.b.apiKey);
    try {
      const c = client(ctx.svc.url, member(ctx.a));
      const first = await c.post(`${PATH}?organization_id=${ctx.a.orgId}`, feedback(d, { response: false }));
      assert.is(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body, { success: true });
      const second = await client(ctx.svc.url, key(ctx.a)).post(PATH, feedback(d, { answerData: { distance: 2 } }));
      assert.is(second.status, 200);
      const stored = await appModels(ctx.svc.db)
        .AlarmFeedback.find({ organizationID: ctx.a.orgId, alarmID: 77 })
        .lean();
      assert.is(stored.length, 1);
      assert.equal(
        {
          response: stored[0].response,
          distance: stored[0].distance,
          duration: stored[0].duration,
          ownerID: stored[0].ownerID,
        },
        { response: true, distance: 2, duration: null, ownerID: ctx.a.member.userId },
      );
      await staff.waitFor(
        () => staff.events.filter((e) => e.name === 'app:feedback').length === 2,
        WAIT_MS,
        'two feedback events',
      );
      const [event] = staff.events.filter((e) => e.name === 'app:feedback').map((e) => e.payload);
      assert.equal(
        { ...event, updatedAt: undefined },
        {
          organizationID: ctx.a.orgId,
          alarmID: 77,
          deviceID: d,
          ownerID: ctx.a.member.userId,
          response: false,
          answerData: { distance: 4, duration: 9 },
          updatedAt: undefined,
        },
      );
      assert.ok(!Number.isNaN(Date.parse(event.updatedAt)));
      assert.not.ok(stranger.events.some((e) => e.name === 'app:feedback'));
      // An admin may report for a member's device by naming the organization.
      assert.is(
        (
          await client(ctx.svc.url, admin(ctx.a)).post(
            `${PATH}?organization_id=${ctx.a.orgId}`,
            feedback(d, { alarmID: 78 }),
          )
        ).status,
        200,
      );
    } finally {
      staff.close();
      stranger.close();
    }
  },
);

s.run();
