// What a member and an organization may cost the gateway every organization shares: numbers are
// capped per member (and per organization for him), premium-rate and other service numbers are refused,
// and SMS and calls are held to a quota per organization and 24 hours, counted on /metrics
// (docs/alarms.md "Quotas", docs/api.md "The app, sms and call areas").
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { channelSuite, key, newUser, pat, type Ctx } from './helpers/channels.js';
import { eventually } from './helpers/fleet.js';
import { createOrg } from './helpers/service.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';

const PAYLOAD = 'Payload missing or in wrong format';
let sms: FakeGateway;

const s = channelSuite('numbers and quotas', async () => {
  sms = await startGateway();
  return {
    SMS_GATEWAY_URL: sms.url,
    GATEWAY_TOKEN: 'gw-token',
    SMS_QUOTA_PER_DAY: '3',
    ALARM_OUTBOX_SWEEP_MS: '200',
  };
});
s.after(async () => {
  await sms.close();
});

let n = 0;
const gsm = () => `0049176${String(6_000_000 + ++n)}`;

for (const [noun, path] of [
  ['mobile', '/api/v1/sms/mobile'],
  ['phone', '/api/v1/call/phone'],
] as const) {
  s(
    `${noun}: premium-rate, shared-cost, toll-free and personal (0700) numbers are refused, naming gsm`,
    async (ctx) => {
      const user = await newUser(ctx.svc, ctx.a);
      for (const [number, type] of [
        ['00499001234567', 'premium-rate'],
        ['+499001234567', 'premium-rate'],
        ['004918012345678', 'shared-cost'],
        ['00498001234567', 'toll-free'],
        ['004970012345678', 'personal-number'],
      ]) {
        const res = await client(ctx.svc.url, pat(user)).post(path, { gsm: number, ownerID: user.userId });
        expectBadRequest(res, 'invalid_body', PAYLOAD, 'body', 'gsm');
        assert.match(res.body.details[0].problem, type);
      }
      // A mobile and a landline are what a member has.
      for (const number of ['004915112345678', '004930123456'])
        assert.is((await client(ctx.svc.url, pat(user)).post(path, { gsm: number, ownerID: user.userId })).status, 200);
    },
  );

  s(`${noun}: five of his own, five the organization entered for him; the sixth is a 409`, async (ctx) => {
    const user = await newUser(ctx.svc, ctx.a);
    const add = (auth: Parameters<typeof client>[1]) =>
      client(ctx.svc.url, auth).post(path, { gsm: gsm(), ownerID: user.userId });
    for (let i = 0; i < 5; i++) assert.is((await add(pat(user))).status, 200);
    expectError(await add(pat(user)), 409, 'limit_reached');
    // The organization's share is its own: his five do not block it, nor its five him.
    for (let i = 0; i < 5; i++) assert.is((await add(key(ctx.a))).status, 200);
    expectError(await add(key(ctx.a)), 409, 'limit_reached');
    const listed = (await client(ctx.svc.url, pat(user)).get(`${path}?owner_id=${user.userId}`)).body;
    assert.is(listed.length, 10);
  });
}

s(
  "SMS beyond the organization's quota fail with the quota as their reason and are counted; another organization's quota is its own",
  async (ctx: Ctx) => {
    // An organization of its own: the members above have numbers in A.
    const a = await createOrg(ctx.svc);
    for (let i = 0; i < 5; i++) {
      const user = await newUser(ctx.svc, a);
      assert.is(
        (await client(ctx.svc.url, pat(user)).post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId })).status,
        200,
      );
    }
    const metric = async (name: string) => {
      const text = String((await request(ctx.svc.url, 'GET', '/metrics')).body);
      return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    };
    const alarm = (org = a) =>
      client(ctx.svc.url, key(org)).post('/api/v1/alarms', {
        organizationID: org.orgId,
        event: 'B3 Wohnungsbrand',
        channels: ['sms'],
      });
    const raised = await alarm();
    assert.is(raised.status, 201, JSON.stringify(raised.body));
    const detail = await eventually(
      async () => (await client(ctx.svc.url, key(a)).get(`/api/v1/alarms/${raised.body.id}`)).body,
      (d) =>
        d.deliveries.length > 0 &&
        d.deliveries.every((x: { status: string }) => x.status === 'sent' || x.status === 'failed'),
      'every SMS sent or failed',
    );
    const statuses = detail.deliveries.map((x: { status: string }) => x.status).sort();
    assert.equal(statuses, ['failed', 'failed', 'sent', 'sent', 'sent'], JSON.stringify(detail.deliveries));
    for (const failed of detail.deliveries.filter((x: { status: string }) => x.status === 'failed'))
      assert.match(failed.lastError, "the organization's quota of 3 SMS in 24 hours is spent (SMS_QUOTA_PER_DAY)");
    assert.is(sms.requests.filter((r) => r.body.alarmId === raised.body.id).length, 3, 'three at the gateway');
    assert.is(await metric('alarmhub_alarm_sms_sent_total'), 3);
    assert.is(await metric('alarmhub_alarm_sms_over_quota_total'), 2);
    // Organization B has its own three.
    const other = await newUser(ctx.svc, ctx.b);
    await client(ctx.svc.url, pat(other)).post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: other.userId });
    const b = await alarm(ctx.b);
    await eventually(
      async () => (await client(ctx.svc.url, key(ctx.b)).get(`/api/v1/alarms/${b.body.id}`)).body,
      (d) => d.deliveries.length === 1 && d.deliveries[0].status === 'sent',
      "B's SMS sent",
    );
  },
);

s.run();
