// Escalation (W4; docs/alarms.md "Escalation") over the real wire: the policy read and set; an alarm's SMS
// and calls to members whose push is under way wait until the alarm's start plus the window, are skipped
// for a member who confirms his push or answers, and go then for the others; members without a device
// get them at once; a process killed while they wait leaves them to another, which sends each once.
// Times are asserted against the `dueAt` the service reports (the gateway's recorded times on the same
// clock), never against how fast the machine is.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client, type Credential } from './helpers/http.js';
import {
  admin,
  channelSuite,
  key,
  member,
  newUser,
  unauthorizedCases,
  type Ctx,
  type User,
} from './helpers/channels.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { spawnService } from './helpers/processes.js';
import { startPushFakes, type PushFakes } from './helpers/push-fakes.js';
import { WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, testDbUri, type OrgFixture } from './helpers/service.js';

let sms: FakeGateway;
let call: FakeGateway;
let push: PushFakes;
const gatewayEnv = () => ({
  ...push.env,
  SMS_GATEWAY_URL: sms.url,
  CALL_GATEWAY_URL: call.url,
  GATEWAY_TOKEN: 'gw-token',
  ALARM_OUTBOX_SWEEP_MS: '200',
});

const s = channelSuite('W4 escalation', async () => {
  sms = await startGateway();
  call = await startGateway();
  push = await startPushFakes();
  return gatewayEnv();
});
s.after(async () => {
  await sms.close();
  await call.close();
  await push.close();
});

const path = (org: OrgFixture) => `/api/v1/organizations/${org.orgId}/escalation`;
const WINDOW_S = 10;

let n = 0;

interface Member extends User {
  apnsToken: string | null;
  deviceId: number | null;
  /** His mobile and phone as the gateway sees them (+49…). */
  mobile: string;
  phone: string | null;
}

/** A member with his own mobile and, as asked, an iOS device (its APNs token kept) and a phone. */
async function memberOf(ctx: Ctx, url: string, org: OrgFixture, want: { device: boolean; phone?: boolean }) {
  const user = await newUser(ctx.svc, org);
  const own = client(url, { pat: user.token });
  const number = async (kind: 'sms' | 'call') => {
    const gsm = `0049176${String(2_000_000 + ++n)}`;
    const res = await own.post(`/api/v1/${kind}/${kind === 'sms' ? 'mobile' : 'phone'}`, {
      gsm,
      name: 'Mobil',
      ownerID: user.userId,
      active: true,
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return `+${gsm.slice(2)}`;
  };
  let apnsToken: string | null = null;
  let deviceId: number | null = null;
  if (want.device) {
    apnsToken = (++n).toString(16).padStart(64, 'a');
    const res = await own.post('/api/v1/app/device', {
      name: `iPhone ${n}`,
      os: 'iOS 18',
      ownerID: user.userId,
      pushToken: apnsToken,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    deviceId = res.body.id;
  }
  const mobile = await number('sms');
  const phone = want.phone ? await number('call') : null;
  return { ...user, apnsToken, deviceId, mobile, phone } satisfies Member;
}

const raise = async (url: string, org: OrgFixture) => {
  const res = await client(url, key(org)).post('/api/v1/alarms', {
    organizationID: org.orgId,
    event: 'B3 Wohnungsbrand',
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  // AL1 answers before the deliveries are built: they are read once stored (every alarm here has some).
  await eventually(
    async () => (await client(url, key(org)).get(`/api/v1/alarms/${res.body.id}`)).body,
    (d) => d.deliveries.length > 0,
    'the deliveries built',
  );
  return res.body as { id: number; startedAt: string };
};
const detail = async (url: string, org: OrgFixture, alarmId: number) =>
  (await client(url, key(org)).get(`/api/v1/alarms/${alarmId}`)).body;
const of = (d: any, userId: number, channel: string) =>
  d.deliveries.filter((x: any) => x.recipientUserId === userId && x.channel === channel);
const at = (gateway: FakeGateway, alarmId: number, to: string | null) =>
  gateway.requests.filter((r) => r.body.alarmId === alarmId && r.body.to === to);
const setPolicy = async (url: string, org: OrgFixture, body: unknown, auth: Credential = key(org)) => {
  const res = await client(url, auth).put(path(org), body);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
/** The confirmation token of the alarm's push to this APNs device token, once the fake received it. */
const pushTo = async (alarmId: number, token: string) =>
  (
    await eventually(
      async () => push.apns.requests.filter((r) => r.body.alarmId === alarmId && r.path === `/3/device/${token}`),
      (list) => list.length === 1,
      'the push at APNs',
    )
  )[0].body.confirmToken as string;

unauthorizedCases(s, 'W4', 'PUT', (ctx) => path(ctx.a), { pushReceiptWithinSeconds: 60, channels: ['sms'] });
unauthorizedCases(s, 'W4 (GET)', 'GET', (ctx) => path(ctx.a));

s('W4 400 names the field that is wrong', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const FORMAT = 'Escalation policy in wrong format or required field missing';
  const bad = async (body: unknown, field: string) =>
    expectBadRequest(await c.put(path(ctx.a), body), 'invalid_body', FORMAT, 'body', field);
  await bad({ pushReceiptWithinSeconds: 9, channels: ['sms'] }, 'pushReceiptWithinSeconds');
  await bad({ pushReceiptWithinSeconds: 601, channels: ['sms'] }, 'pushReceiptWithinSeconds');
  await bad({ pushReceiptWithinSeconds: 30.5, channels: ['sms'] }, 'pushReceiptWithinSeconds');
  await bad({ pushReceiptWithinSeconds: '60', channels: ['sms'] }, 'pushReceiptWithinSeconds');
  await bad({ channels: ['sms'] }, 'pushReceiptWithinSeconds');
  await bad({ pushReceiptWithinSeconds: 60 }, 'channels');
  await bad({ pushReceiptWithinSeconds: 60, channels: [] }, 'channels');
  await bad({ pushReceiptWithinSeconds: 60, channels: ['sms', 'sms'] }, 'channels');
  await bad({ pushReceiptWithinSeconds: 60, channels: ['app'] }, 'channels.0');
  await bad({ pushReceiptWithinSeconds: 60, channels: ['sms'], $where: '1' }, '$where');
  expectBadRequest(
    await c.put('/api/v1/organizations/abc/escalation', { pushReceiptWithinSeconds: 60, channels: ['sms'] }),
    'invalid_parameter',
    'organizationId missing or in wrong format',
    'path',
    'organizationId',
  );
  // Nothing of it was stored.
  assert.is((await c.get(path(ctx.a))).body.pushReceiptWithinSeconds, null);
});

s('W4 403 for a member setting it and for another organization setting or reading it', async (ctx) => {
  const body = { pushReceiptWithinSeconds: 60, channels: ['sms'] };
  expectError(await client(ctx.svc.url, member(ctx.a)).put(path(ctx.a), body), 403, 'forbidden');
  expectError(await client(ctx.svc.url, key(ctx.b)).put(path(ctx.a), body), 403, 'forbidden');
  expectError(await client(ctx.svc.url, admin(ctx.b)).put(path(ctx.a), body), 403, 'forbidden');
  expectError(await client(ctx.svc.url, key(ctx.b)).get(path(ctx.a)), 403, 'forbidden');
  expectError(await client(ctx.svc.url, { pat: ctx.loner.token }).get(path(ctx.a)), 403, 'forbidden');
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(path(ctx.a))).body.pushReceiptWithinSeconds, null);
});

s('W4 200: none until set; set by an admin or the API key, read by members, cleared with null', async (ctx) => {
  const org = await createOrg(ctx.svc);
  const read = async (auth: Credential) => {
    const res = await client(ctx.svc.url, auth).get(path(org));
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  assert.equal(await read(member(org)), {
    organizationId: org.orgId,
    pushReceiptWithinSeconds: null,
    channels: ['sms', 'call'],
  });
  assert.equal(
    await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: 90, channels: ['call', 'sms'] }, admin(org)),
    {
      organizationId: org.orgId,
      pushReceiptWithinSeconds: 90,
      channels: ['sms', 'call'],
    },
  );
  assert.equal(await read(member(org)), {
    organizationId: org.orgId,
    pushReceiptWithinSeconds: 90,
    channels: ['sms', 'call'],
  });
  await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: 600, channels: ['call'] });
  assert.equal(await read(key(org)), { organizationId: org.orgId, pushReceiptWithinSeconds: 600, channels: ['call'] });
  await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: null, channels: ['sms'] });
  assert.equal(await read(admin(org)), {
    organizationId: org.orgId,
    pushReceiptWithinSeconds: null,
    channels: ['sms'],
  });
});

s(
  'without a policy every channel goes at once: nothing waits, a member with a device gets his SMS too',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const withDevice = await memberOf(ctx, ctx.svc.url, org, { device: true });
    const alarm = await raise(ctx.svc.url, org);
    const first = await detail(ctx.svc.url, org, alarm.id);
    assert.ok(
      first.deliveries.every((d: any) => d.status !== 'waiting' && d.dueAt === undefined),
      JSON.stringify(first.deliveries),
    );
    await eventually(
      async () => at(sms, alarm.id, withDevice.mobile),
      (list) => list.length === 1,
      'his SMS at the gateway',
    );
  },
);

s(
  'with a policy: a confirmed push or an answer skips the SMS and call, an unconfirmed one gets them at ' +
    'dueAt and not before, a member without a device at once, one whose push failed at once',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: WINDOW_S, channels: ['sms', 'call'] });
    const confirms = await memberOf(ctx, ctx.svc.url, org, { device: true, phone: true });
    const answers = await memberOf(ctx, ctx.svc.url, org, { device: true, phone: true });
    const silent = await memberOf(ctx, ctx.svc.url, org, { device: true, phone: true });
    const deviceless = await memberOf(ctx, ctx.svc.url, org, { device: false, phone: true });
    const dead = await memberOf(ctx, ctx.svc.url, org, { device: true });
    push.apns.dead.add(dead.apnsToken!);
    const alarm = await raise(ctx.svc.url, org);
    const dueAt = Date.parse(alarm.startedAt) + WINDOW_S * 1000;

    // AL3 at once: the SMS and calls of members with a device wait, with the policy's due time.
    const first = await detail(ctx.svc.url, org, alarm.id);
    for (const m of [confirms, answers, silent])
      for (const channel of ['sms', 'call'])
        assert.equal(
          of(first, m.userId, channel).map((d: any) => ({ status: d.status, dueAt: d.dueAt, attempts: d.attempts })),
          [{ status: 'waiting', dueAt: new Date(dueAt).toISOString(), attempts: 0 }],
          `${channel} of member ${m.userId}`,
        );
    assert.ok(
      [...of(first, deviceless.userId, 'sms'), ...of(first, deviceless.userId, 'call')].every(
        (d: any) => d.status !== 'waiting' && d.dueAt === undefined,
      ),
      'no device: nothing waits',
    );

    // One confirms his push, one answers (A10 from his app): their waiting deliveries are skipped.
    const token = await pushTo(alarm.id, confirms.apnsToken!);
    assert.is(
      (await client(ctx.svc.url, { pat: confirms.token }).post(`/api/v1/app/push/delivered/${token}`)).status,
      200,
    );
    const answered = await client(ctx.svc.url, { pat: answers.token }).post(
      `/api/v1/app/feedback?organization_id=${org.orgId}`,
      { alarmID: alarm.id, deviceID: answers.deviceId, response: true, answerData: {} },
    );
    assert.is(answered.status, 200, JSON.stringify(answered.body));
    const skipped = await detail(ctx.svc.url, org, alarm.id);
    for (const [m, reason] of [
      [confirms, 'push confirmed'],
      [answers, 'answered'],
    ] as const)
      for (const channel of ['sms', 'call'])
        assert.equal(
          of(skipped, m.userId, channel).map((d: any) => [d.status, d.reason, d.dueAt]),
          [['skipped', reason, new Date(dueAt).toISOString()]],
          `${channel} of member ${m.userId}`,
        );

    // The member without a device, and the one whose only push failed, are not held until dueAt.
    const [early] = await eventually(
      async () => at(sms, alarm.id, deviceless.mobile),
      (list) => list.length === 1,
      'the SMS of the member without a device',
    );
    assert.ok(early.at < dueAt, `sent ${dueAt - early.at} ms before dueAt`);
    assert.is(
      (
        await eventually(
          async () => at(call, alarm.id, deviceless.phone),
          (l) => l.length === 1,
          'his call',
        )
      ).length,
      1,
    );
    const [rescued] = await eventually(
      async () => at(sms, alarm.id, dead.mobile),
      (list) => list.length === 1,
      'the SMS of the member whose push failed',
    );
    assert.ok(rescued.at < dueAt, `sent ${dueAt - rescued.at} ms before dueAt`);

    // The silent member gets both at dueAt, not before.
    const late = await eventually(
      async () => [...at(sms, alarm.id, silent.mobile), ...at(call, alarm.id, silent.phone)],
      (list) => list.length === 2,
      'the silent member SMS and call',
      dueAt - Date.now() + WAIT_MS,
    );
    for (const r of late) assert.ok(r.at >= dueAt, `sent ${dueAt - r.at} ms before dueAt`);
    const done = await eventually(
      () => detail(ctx.svc.url, org, alarm.id),
      (d) => d.deliveries.every((x: any) => ['sent', 'delivered', 'failed', 'skipped'].includes(x.status)),
      'every delivery final',
    );
    assert.equal(
      [...of(done, silent.userId, 'sms'), ...of(done, silent.userId, 'call')].map((d: any) => [
        d.status,
        d.attempts,
        d.dueAt,
      ]),
      [
        ['sent', 1, new Date(dueAt).toISOString()],
        ['sent', 1, new Date(dueAt).toISOString()],
      ],
    );
    // Every delivery is final: the skipped members' messages can no longer go; none went.
    for (const m of [confirms, answers]) {
      assert.is(at(sms, alarm.id, m.mobile).length, 0, `no SMS for member ${m.userId}`);
      assert.is(at(call, alarm.id, m.phone).length, 0, `no call for member ${m.userId}`);
    }
    assert.equal(done.recipients.sms, { targets: 5, sent: 3, delivered: 0, failed: 0 });
  },
);

s('channels the policy leaves out go at once', async (ctx) => {
  const org = await createOrg(ctx.svc);
  await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: WINDOW_S, channels: ['call'] });
  const m = await memberOf(ctx, ctx.svc.url, org, { device: true, phone: true });
  const alarm = await raise(ctx.svc.url, org);
  const dueAt = Date.parse(alarm.startedAt) + WINDOW_S * 1000;
  const first = await detail(ctx.svc.url, org, alarm.id);
  assert.equal(of(first, m.userId, 'call')[0].status, 'waiting');
  assert.ok(of(first, m.userId, 'sms')[0].dueAt === undefined, 'the SMS is not held');
  const [text] = await eventually(
    async () => at(sms, alarm.id, m.mobile),
    (l) => l.length === 1,
    'his SMS',
  );
  assert.ok(text.at < dueAt, `sent ${dueAt - text.at} ms before dueAt`);
});

s('an alarm ended while its SMS and calls wait: at dueAt they are skipped ("alarm ended"), none goes', async (ctx) => {
  const org = await createOrg(ctx.svc);
  await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: WINDOW_S, channels: ['sms', 'call'] });
  const m = await memberOf(ctx, ctx.svc.url, org, { device: true, phone: true });
  const alarm = await raise(ctx.svc.url, org);
  const dueAt = Date.parse(alarm.startedAt) + WINDOW_S * 1000;
  assert.is((await client(ctx.svc.url, key(org)).post(`/api/v1/alarms/${alarm.id}/end`)).status, 200);
  const done = await eventually(
    () => detail(ctx.svc.url, org, alarm.id),
    (d) => [...of(d, m.userId, 'sms'), ...of(d, m.userId, 'call')].every((x: any) => x.status === 'skipped'),
    'his SMS and call skipped',
    dueAt - Date.now() + WAIT_MS,
  );
  assert.equal(
    [...of(done, m.userId, 'sms'), ...of(done, m.userId, 'call')].map((d: any) => d.reason),
    ['alarm ended', 'alarm ended'],
  );
  assert.ok(Date.now() >= dueAt, 'skipped before dueAt');
  assert.is(at(sms, alarm.id, m.mobile).length + at(call, alarm.id, m.phone).length, 0);
});

s(
  "a receipt while a dead process holds the alarm's lock: answered 200, and at dueAt his SMS is skipped all the same",
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: WINDOW_S, channels: ['sms', 'call'] });
    const m = await memberOf(ctx, ctx.svc.url, org, { device: true });
    const alarm = await raise(ctx.svc.url, org);
    const token = await pushTo(alarm.id, m.apnsToken!);
    // A process killed while it held the alarm's lock leaves it for 30 s (server/db/claim-lock.ts): here it
    // was taken 18 s ago, so it is broken 12 s from now, after dueAt. Until then nothing writes the
    // alarm's deliveries; the receipt used to wait 10 s for the lock and answer 503 (lost, unless the
    // app sends it again before dueAt).
    // Taken as soon as the live process lets go of it.
    await eventually(
      () =>
        ctx.svc.db.system.Lock.create({
          _id: `lock:alarm-deliveries:${alarm.id}`,
          at: new Date(Date.now() - 18_000),
          owner: 'a process that was killed',
        }).then(
          () => true,
          () => false,
        ),
      (taken) => taken,
      "the alarm's lock taken",
    );
    const receipt = await client(ctx.svc.url, { pat: m.token }).post(`/api/v1/app/push/delivered/${token}`);
    assert.is(receipt.status, 200, JSON.stringify(receipt.body));
    const done = await eventually(
      () => detail(ctx.svc.url, org, alarm.id),
      (d) => of(d, m.userId, 'sms').every((x: any) => x.status === 'skipped'),
      'his SMS skipped once the lock was broken',
      30_000 + WAIT_MS,
    );
    assert.equal(
      of(done, m.userId, 'sms').map((d: any) => d.reason),
      ['push confirmed'],
    );
    assert.equal(of(done, m.userId, 'app')[0].status, 'delivered');
    assert.is(at(sms, alarm.id, m.mobile).length, 0, 'no SMS went to him');
  },
);

s('a process killed while deliveries wait: the other processes release them at dueAt, each SMS once', async (ctx) => {
  const org = await createOrg(ctx.svc);
  // A longer window here: the processes must start and the pushes go out before it ends.
  const window = 2 * WINDOW_S;
  await setPolicy(ctx.svc.url, org, { pushReceiptWithinSeconds: window, channels: ['sms', 'call'] });
  const doomed = await spawnService({ ...gatewayEnv(), MONGODB_URI: testDbUri(), RATE_LIMIT_PER_SECOND: '0' });
  const second = await startTestService(gatewayEnv());
  try {
    const members = [];
    for (let i = 0; i < 3; i++) members.push(await memberOf(ctx, doomed.url, org, { device: true }));
    const alarm = await raise(doomed.url, org);
    const dueAt = Date.parse(alarm.startedAt) + window * 1000;
    // Killed once its pushes are recorded and while every SMS waits.
    await eventually(
      () => detail(ctx.svc.url, org, alarm.id),
      (d) =>
        d.deliveries.filter((x: any) => x.channel === 'app' && x.status === 'sent').length === 3 &&
        d.deliveries.filter((x: any) => x.channel === 'sms' && x.status === 'waiting').length === 3,
      'the pushes sent and the SMS waiting',
    );
    assert.ok(Date.now() < dueAt, 'killed before dueAt (the machine was too slow to test this)');
    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    const done = await eventually(
      () => detail(ctx.svc.url, org, alarm.id),
      (d) => d.recipients.sms.sent === 3,
      'the SMS sent by the surviving processes',
      dueAt - Date.now() + WAIT_MS,
    );
    assert.is(done.recipients.sms.failed, 0);
    for (const m of members) {
      const texts = at(sms, alarm.id, m.mobile);
      assert.is(texts.length, 1, `one SMS for member ${m.userId}: ${JSON.stringify(texts)}`);
      assert.ok(texts[0].at >= dueAt, `sent ${dueAt - texts[0].at} ms before dueAt`);
    }
  } finally {
    if (doomed.child.exitCode === null && doomed.child.signalCode === null) await doomed.stop();
    await second.close();
  }
});

s.run();
