// Alarms over the real wire (AL1–AL4, IN1, IN2): raised, shown on the monitors, delivered through fake
// SMS and voice gateways (real HTTP servers), retried, ended, and refused to other organizations.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { admin, channelSuite, key, member, newUser, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';
import { alarmModels } from '../server/areas/alarms/models.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { startPushFakes, type PushFakes } from './helpers/push-fakes.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { deliveriesOf } from '../server/areas/alarms/delivery-store.js';

const TOKEN = 'gw-secret-token';
const INBOUND = 'inbound-secret';
let sms: FakeGateway;
let call: FakeGateway;
let push: PushFakes;

const s = channelSuite('AL1–AL4, IN1, IN2 alarms', async () => {
  sms = await startGateway();
  call = await startGateway();
  push = await startPushFakes();
  return {
    ...push.env,
    SMS_GATEWAY_URL: sms.url,
    CALL_GATEWAY_URL: call.url,
    GATEWAY_TOKEN: TOKEN,
    INBOUND_GATEWAY_TOKEN: INBOUND,
    ALARM_OUTBOX_SWEEP_MS: '200',
  };
});
s.after(async () => {
  await sms.close();
  await call.close();
  await push.close();
});

let n = 0;
const nextGsm = () => `0049176${String(1_000_000 + ++n)}`;
async function number(ctx: Ctx, channel: 'sms' | 'call', ownerID: number, token: string, active = true) {
  const gsm = nextGsm();
  const res = await client(ctx.svc.url, pat({ userId: ownerID, token })).post(
    `/api/v1/${channel}/${channel === 'sms' ? 'mobile' : 'phone'}`,
    { gsm, name: 'Mobile', ownerID, active },
  );
  assert.is(res.status, 200, JSON.stringify(res.body));
  return gsm;
}
async function monitor(ctx: Ctx, org = ctx.a) {
  const res = await client(ctx.svc.url, key(org)).post('/api/v1/monitor', {
    name: `Wall ${++n}`,
    organizationID: org.orgId,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as number;
}
const raise = (ctx: Ctx, body: Record<string, unknown>, headers: Record<string, string> = {}, org = ctx.a) =>
  request(ctx.svc.url, 'POST', '/api/v1/alarms', {
    auth: key(org),
    body: { organizationID: org.orgId, event: 'B3 Wohnungsbrand', ...body },
    headers,
  });
const detail = async (ctx: Ctx, id: number) =>
  (await client(ctx.svc.url, member(ctx.a)).get(`/api/v1/alarms/${id}`)).body;
const sentTo = (gateway: FakeGateway, alarmId: number) => gateway.requests.filter((r) => r.body.alarmId === alarmId);

unauthorizedCases(s, 'AL1', 'POST', () => '/api/v1/alarms', { organizationID: 1, event: 'x' });
unauthorizedCases(s, 'AL2', 'GET', (ctx) => `/api/v1/alarms?organization_id=${ctx.a.orgId}`);

s(
  'AL1 400 for a wrong body and for monitors of another organization; 403 for members and other organizations',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const FORMAT = 'Alarm in wrong format or required field missing';
    expectBadRequest(
      await c.post('/api/v1/alarms', { organizationID: ctx.a.orgId }),
      'invalid_body',
      FORMAT,
      'body',
      'event',
    );
    expectBadRequest(
      await c.post('/api/v1/alarms', { organizationID: ctx.a.orgId, event: 'x', channels: ['fax'] }),
      'invalid_body',
      FORMAT,
      'body',
      'channels.0',
    );
    expectBadRequest(
      await c.post('/api/v1/alarms', { organizationID: ctx.a.orgId, event: 'x', latitude: 91 }),
      'invalid_body',
      FORMAT,
      'body',
      'latitude',
    );
    expectBadRequest(
      await c.post('/api/v1/alarms', { organizationID: ctx.a.orgId, event: 'x', $where: '1' }),
      'invalid_body',
      FORMAT,
      'body',
      '$where',
    );
    const foreign = await monitor(ctx, ctx.b);
    expectBadRequest(
      await c.post('/api/v1/alarms', { organizationID: ctx.a.orgId, event: 'x', monitorIds: [foreign] }),
      'invalid_body',
      FORMAT,
      'body',
      'monitorIds',
    );
    expectError(
      await client(ctx.svc.url, member(ctx.a)).post('/api/v1/alarms', { organizationID: ctx.a.orgId, event: 'x' }),
      403,
      'forbidden',
    );
    expectError(
      await client(ctx.svc.url, key(ctx.b)).post('/api/v1/alarms', { organizationID: ctx.a.orgId, event: 'x' }),
      403,
      'forbidden',
    );
    expectBadRequest(
      await raise(ctx, {}, { 'Idempotency-Key': 'k'.repeat(201) }),
      'invalid_parameter',
      'Idempotency-Key in wrong format',
      'header',
      'Idempotency-Key',
    );
    // Nothing of it was stored.
    assert.is(
      (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}`)).body.total,
      0,
    );
  },
);

s(
  'AL1 201 shows the alarm on every monitor of the organization, announces it, and delivers to ' +
    'active targets of members only',
  async (ctx) => {
    const walls = [await monitor(ctx), await monitor(ctx)];
    const otherWall = await monitor(ctx, ctx.b);
    const mobile = await number(ctx, 'sms', ctx.a.member.userId, ctx.a.member.token);
    await number(ctx, 'sms', ctx.a.member.userId, ctx.a.member.token, false);
    const phone = await number(ctx, 'call', ctx.a.admin.userId, ctx.a.admin.token);
    const stranger = await newUser(ctx.svc, ctx.b);
    await number(ctx, 'sms', stranger.userId, stranger.token);
    const staff = await connectScreen(ctx.svc.url, ctx.a.apiKey);
    const foreignStaff = await connectScreen(ctx.svc.url, ctx.b.apiKey);
    try {
      const res = await raise(ctx, {
        message: 'Person vermisst',
        address: 'Hauptstraße 40',
        latitude: 52.52,
        longitude: 13.41,
        units: ['HLF 20'],
      });
      assert.is(res.status, 201, JSON.stringify(res.body));
      const alarm = res.body;
      assert.equal(
        { ...alarm, id: 0, startedAt: '' },
        {
          id: 0,
          organizationId: ctx.a.orgId,
          event: 'B3 Wohnungsbrand',
          message: 'Person vermisst',
          source: 'api',
          templateId: null,
          address: 'Hauptstraße 40',
          latitude: 52.52,
          longitude: 13.41,
          units: ['HLF 20'],
          monitorIds: walls,
          channels: ['app', 'sms', 'call'],
          startedAt: '',
          endedAt: null,
          // AL1 answers before its deliveries are built: none counted yet (docs/alarms.md "Delivered").
          recipients: {
            app: { targets: 0, sent: 0, delivered: 0, failed: 0 },
            sms: { targets: 0, sent: 0, delivered: 0, failed: 0 },
            call: { targets: 0, sent: 0, delivered: 0, failed: 0 },
          },
          responses: { positive: 0, negative: 0, awaiting: 0 },
        },
      );
      const built = await eventually(
        () => detail(ctx, alarm.id),
        (d) => d.recipients.sms.targets + d.recipients.call.targets === 2,
        'the deliveries built',
      );
      assert.equal(built.recipients.app, { targets: 0, sent: 0, delivered: 0, failed: 0 });
      assert.is(built.recipients.sms.targets, 1);
      assert.is(built.responses.awaiting, 2);
      for (const wall of walls) {
        // The alarm is shown at once; the alerted members follow once their deliveries are stored.
        const data = await eventually(
          async () => (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/monitor/${wall}/data`)).body,
          (d) => d.alarmData.awaitingResponses === 2,
          'the alerted members on the wall',
        );
        assert.equal(
          {
            eventId: data.alarmData.eventId,
            event: data.alarmData.event,
            awaiting: data.alarmData.awaitingResponses,
            geo: data.alarmData.geo,
            units: data.alarmData.units.map((u: any) => ({
              name: u.name,
              feedback: u.feedback.map((m: any) => m.feedback),
            })),
          },
          {
            eventId: alarm.id,
            event: 'B3 Wohnungsbrand',
            awaiting: 2,
            geo: { address: 'Hauptstraße 40', latitude: 52.52, longitude: 13.41 },
            // The alerted members, awaiting their answers: no unit of theirs is the alarm's, so they are listed apart.
            units: [
              { name: 'HLF 20', feedback: [] },
              { name: '', feedback: [2, 2] },
            ],
          },
        );
      }
      assert.equal((await client(ctx.svc.url, key(ctx.b)).get(`/api/v1/monitor/${otherWall}/data`)).body.alarmData, {});
      await staff.waitFor(
        () => staff.events.some((e) => e.name === 'alarm:created' && e.payload.alarm.id === alarm.id),
        WAIT_MS,
        'alarm:created',
      );
      await eventually(
        async () => [sentTo(sms, alarm.id).length, sentTo(call, alarm.id).length],
        ([a, b]) => a === 1 && b === 1,
        'one SMS and one call',
      );
      const [text] = sentTo(sms, alarm.id);
      assert.is(text.authorization, `Bearer ${TOKEN}`);
      assert.equal(
        { ...text.body, text: undefined },
        { to: `+${mobile.slice(2)}`, alarmId: alarm.id, deliveryId: text.body.deliveryId, text: undefined },
      );
      assert.match(text.body.text, 'B3 Wohnungsbrand');
      assert.is(sentTo(call, alarm.id)[0].body.to, `+${phone.slice(2)}`);
      const done = await eventually(
        () => detail(ctx, alarm.id),
        (d) => d.recipients.sms.sent === 1 && d.recipients.call.sent === 1,
        'deliveries recorded as sent',
      );
      assert.equal(
        done.deliveries.map((d: any) => ({ ...d })).sort((x: any, y: any) => x.channel.localeCompare(y.channel)),
        [
          {
            channel: 'call',
            recipientUserId: ctx.a.admin.userId,
            target: `…${phone.slice(-3)}`,
            status: 'sent',
            attempts: 1,
            lastError: null,
          },
          {
            channel: 'sms',
            recipientUserId: ctx.a.member.userId,
            target: `…${mobile.slice(-3)}`,
            status: 'sent',
            attempts: 1,
            lastError: null,
          },
        ],
      );
      assert.not.ok(JSON.stringify(done).includes(mobile.slice(2)), 'AL3 never shows a number in full');
      assert.not.ok(
        foreignStaff.events.some((e) => e.name === 'alarm:created'),
        'another organization hears nothing',
      );
    } finally {
      staff.close();
      foreignStaff.close();
    }
  },
);

s('AL1 sends nothing over a disabled channel nor over channels the alarm leaves out', async (ctx) => {
  await number(ctx, 'sms', ctx.a.member.userId, ctx.a.member.token);
  await number(ctx, 'call', ctx.a.member.userId, ctx.a.member.token);
  assert.is(
    (
      await client(ctx.svc.url, key(ctx.a)).put(`/api/v1/sms/disabled?organization_id=${ctx.a.orgId}`, {
        isDisabled: true,
      })
    ).status,
    200,
  );
  try {
    const built = (id: number) =>
      eventually(
        () => deliveriesOf(alarmModels(ctx.svc.db)).read(id),
        (doc) => doc !== null,
        'the deliveries built',
      );
    const all = (await raise(ctx, {})).body;
    const smsOnly = (await raise(ctx, { channels: ['sms'] })).body;
    // AL1 answers before its deliveries are built: they are counted once stored.
    assert.is((await built(all.id))!.items.filter((i) => i.channel === 'sms').length, 0);
    assert.is((await built(smsOnly.id))!.items.length, 0);
    const counted = await detail(ctx, all.id);
    assert.is(counted.recipients.sms.targets, 0);
    assert.ok(counted.recipients.call.targets >= 1);
    assert.equal((await detail(ctx, smsOnly.id)).recipients, {
      app: { targets: 0, sent: 0, delivered: 0, failed: 0 },
      sms: { targets: 0, sent: 0, delivered: 0, failed: 0 },
      call: { targets: 0, sent: 0, delivered: 0, failed: 0 },
    });
    await eventually(
      async () => sentTo(call, all.id).length,
      (k) => k === counted.recipients.call.targets,
      'the calls',
    );
    assert.is(sentTo(sms, all.id).length + sentTo(sms, smsOnly.id).length + sentTo(call, smsOnly.id).length, 0);
  } finally {
    await client(ctx.svc.url, key(ctx.a)).put(`/api/v1/sms/disabled?organization_id=${ctx.a.orgId}`, {
      isDisabled: false,
    });
  }
});

s(
  "AL1 with one Idempotency-Key raises one alarm, also when the requests race; another organization's " +
    'same key is its own',
  async (ctx) => {
    const first = await raise(ctx, {}, { 'Idempotency-Key': 'dispatch-4711' });
    assert.is(first.status, 201);
    const again = await raise(ctx, { event: 'changed' }, { 'Idempotency-Key': 'dispatch-4711' });
    assert.is(again.status, 200);
    assert.is(again.body.id, first.body.id);
    assert.is(again.body.event, 'B3 Wohnungsbrand');
    const raced = await Promise.all(
      Array.from({ length: 6 }, () => raise(ctx, {}, { 'Idempotency-Key': 'dispatch-race' })),
    );
    const ids = new Set(raced.filter((r) => r.status === 200 || r.status === 201).map((r) => r.body.id));
    assert.is(ids.size, 1, JSON.stringify(raced.map((r) => [r.status, r.body.id])));
    assert.is(raced.filter((r) => r.status === 201).length, 1);
    for (const r of raced) assert.ok([200, 201, 409].includes(r.status), `${r.status}`);
    const theirs = await raise(ctx, {}, { 'Idempotency-Key': 'dispatch-4711' }, ctx.b);
    assert.is(theirs.status, 201);
    assert.is.not(theirs.body.id, first.body.id);
    assert.is(theirs.body.organizationId, ctx.b.orgId);
  },
);

s(
  'a gateway answering 500 then 200 ends sent after a retry; one answering 400 ends failed with the reason',
  async (ctx) => {
    await number(ctx, 'sms', ctx.a.member.userId, ctx.a.member.token);
    const tries = new Map<string, number>();
    sms.answer = (r) => {
      const k = (tries.get(r.body.deliveryId) ?? 0) + 1;
      tries.set(r.body.deliveryId, k);
      return k === 1 ? 500 : 200;
    };
    try {
      const alarm = (await raise(ctx, { channels: ['sms'] })).body;
      const done = await eventually(
        () => detail(ctx, alarm.id),
        (d) => d.recipients.sms.targets > 0 && d.recipients.sms.sent === d.recipients.sms.targets,
        'every SMS sent after its retry',
      );
      for (const d of done.deliveries)
        assert.equal({ status: d.status, attempts: d.attempts }, { status: 'sent', attempts: 2 });
      sms.answer = () => 400;
      const refused = (await raise(ctx, { channels: ['sms'] })).body;
      const failed = await eventually(
        () => detail(ctx, refused.id),
        (d) => d.recipients.sms.targets > 0 && d.recipients.sms.failed === d.recipients.sms.targets,
        'every SMS failed',
      );
      for (const d of failed.deliveries)
        assert.equal(
          { status: d.status, attempts: d.attempts, lastError: d.lastError },
          { status: 'failed', attempts: 1, lastError: 'gateway answered 400' },
        );
    } finally {
      sms.answer = () => 200;
    }
  },
);

s(
  'AL2 lists newest first with total and the active filter; AL4 ends an alarm on its monitors ' +
    'once; AL3 and AL4 of another organization 404',
  async (ctx) => {
    const wall = await monitor(ctx);
    const older = (await raise(ctx, { event: 'older', monitorIds: [wall], channels: [] })).body;
    const newer = (await raise(ctx, { event: 'newer', monitorIds: [wall], channels: [] })).body;
    const c = client(ctx.svc.url, member(ctx.a));
    const page = (await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=2`)).body;
    assert.equal(
      page.alarms.map((a: any) => a.id),
      [newer.id, older.id],
    );
    const total = page.total;
    assert.ok(total >= 2);
    expectError(await c.post(`/api/v1/alarms/${older.id}/end`), 403, 'forbidden');
    expectError(await client(ctx.svc.url, key(ctx.b)).post(`/api/v1/alarms/${older.id}/end`), 404, 'not_found');
    expectError(await client(ctx.svc.url, key(ctx.b)).get(`/api/v1/alarms/${older.id}`), 404, 'not_found');
    expectError(await client(ctx.svc.url, pat(ctx.loner)).get(`/api/v1/alarms/${older.id}`), 404, 'not_found');
    expectError(
      await client(ctx.svc.url, key(ctx.b)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}`),
      403,
      'forbidden',
    );
    expectBadRequest(
      await c.get('/api/v1/alarms/abc'),
      'invalid_parameter',
      'alarmId missing or in wrong format',
      'path',
      'alarmId',
    );
    const ended = await client(ctx.svc.url, admin(ctx.a)).post(`/api/v1/alarms/${older.id}/end`);
    assert.is(ended.status, 200);
    assert.ok(ended.body.endedAt);
    const twice = await client(ctx.svc.url, key(ctx.a)).post(`/api/v1/alarms/${older.id}/end`);
    assert.equal(twice.body, ended.body);
    const data = (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/monitor/${wall}/data`)).body;
    assert.is(data.alarmData.eventId, newer.id, 'the running alarm stays shown');
    assert.not.ok(String(older.id) in data.alarmDataList, 'the ended one left the monitor');
    const active = (await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&active=true&limit=50`)).body;
    const endedOnly = (await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&active=false&limit=50`)).body;
    assert.ok(active.alarms.some((a: any) => a.id === newer.id) && !active.alarms.some((a: any) => a.id === older.id));
    assert.ok(
      endedOnly.alarms.every((a: any) => a.endedAt !== null) && endedOnly.alarms.some((a: any) => a.id === older.id),
    );
    assert.is(active.total + endedOnly.total, total);
    expectBadRequest(
      await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=51`),
      'invalid_parameter',
      'organization_id missing or in wrong format',
      'query',
      'limit',
    );
  },
);

s(
  "IN1 raises an alarm for the sender's number with the PIN; a wrong PIN or an unknown number " +
    'answers the same 202 and raises nothing; no Gateway-Token 401',
  async (ctx) => {
    const gsm = nextGsm();
    assert.is(
      (
        await client(ctx.svc.url, key(ctx.a)).post('/api/v1/sms/alarming', {
          gsm,
          organizationID: ctx.a.orgId,
          pin: '4711',
        })
      ).status,
      200,
    );
    const inbound = (body: unknown, token: string | null = INBOUND) =>
      request(ctx.svc.url, 'POST', '/api/v1/inbound/sms', {
        body,
        headers: token === null ? {} : { 'Gateway-Token': token },
      });
    const count = async () =>
      (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}`)).body.total as number;
    const before = await count();
    expectError(await inbound({ from: `+${gsm.slice(2)}`, text: '4711 Brand' }, null), 401, 'unauthorized');
    expectError(await inbound({ from: `+${gsm.slice(2)}`, text: '4711 Brand' }, 'wrong'), 401, 'unauthorized');
    for (const body of [
      { from: `+${gsm.slice(2)}`, text: '4712 Brand' },
      { from: '+4917699999999', text: '4711 Brand' },
      { from: 'nonsense', text: '4711' },
    ]) {
      const res = await inbound(body);
      assert.equal([res.status, res.body], [202, { accepted: true }]);
    }
    assert.is(await count(), before);
    const res = await inbound({
      from: `+${gsm.slice(2)}`,
      text: 'Alarm 4711 B3 Wohnungsbrand\nHauptstraße 40\nDLK nachalarmiert',
    });
    assert.equal([res.status, res.body], [202, { accepted: true }]);
    const [raised] = (
      await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=1`)
    ).body.alarms;
    assert.equal(
      { source: raised.source, event: raised.event, message: raised.message },
      { source: 'sms', event: 'Alarm B3 Wohnungsbrand', message: 'Hauptstraße 40\nDLK nachalarmiert' },
    );
    assert.is(await count(), before + 1);
    // 0049… is the same sender.
    assert.is((await inbound({ from: gsm, text: '4711' })).status, 202);
    assert.is(await count(), before + 2);
  },
);

s(
  "IN2 raises an alarm with the call configuration's template for the caller's digits; a sender's " +
    'wrong PINs are limited',
  async (ctx) => {
    const gsm = nextGsm();
    assert.is(
      (
        await client(ctx.svc.url, key(ctx.a)).post('/api/v1/call/alarming', {
          gsm,
          organizationID: ctx.a.orgId,
          pin: '1234',
          alarmTemplateID: 99,
        })
      ).status,
      200,
    );
    const inbound = (digits: string, from = `+${gsm.slice(2)}`) =>
      request(ctx.svc.url, 'POST', '/api/v1/inbound/call', {
        body: { from, digits },
        headers: { 'Gateway-Token': INBOUND },
      });
    expectBadRequest(await inbound('12a4'), 'invalid_body', 'Inbound message in wrong format', 'body', 'digits');
    assert.is((await inbound('1234')).status, 202);
    const [raised] = (
      await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=1`)
    ).body.alarms;
    // Template 99 is no template of the organization (the 2019 clients send any number): the fallback keyword.
    assert.equal(
      { source: raised.source, templateId: raised.templateId, event: raised.event },
      { source: 'call', templateId: 99, event: 'Alarm per Telefon' },
    );
    const count = async () =>
      (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}`)).body.total as number;
    const before = await count();
    for (let i = 0; i < 5; i++) assert.is((await inbound('0000')).status, 202);
    // The limit is spent: the right PIN from this sender is ignored now, and answered alike.
    assert.is((await inbound('1234')).status, 202);
    assert.is(await count(), before);
    const metrics = (await request(ctx.svc.url, 'GET', '/metrics')).body as string;
    assert.match(metrics, /alarmhub_inbound_wrong_pins_total \d+/);
    assert.ok(Number(/alarmhub_inbound_throttled_total (\d+)/.exec(metrics)?.[1]) >= 1);
  },
);

s(
  'IN2 with a template of the organization raises what the template says: keyword, message, units, channels, its monitors',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const monitor = (await c.post('/api/v1/monitor', { name: 'Halle', organizationID: ctx.a.orgId })).body.id;
    const template = await c.post('/api/v1/alarm-templates', {
      organizationID: ctx.a.orgId,
      name: 'Vollalarm',
      event: 'Vollalarm Löschzug',
      message: 'Alle Kräfte zum Gerätehaus',
      units: ['ELW 1', 'HLF 20/1'],
      channels: ['app'],
      monitorIds: [monitor, 999_999],
    });
    assert.is(template.status, 201, JSON.stringify(template.body));
    // Another organization's template of that ID would not count: B's key cannot even read it.
    const gsm = nextGsm();
    await c.post('/api/v1/call/alarming', {
      gsm,
      organizationID: ctx.a.orgId,
      pin: '4321',
      alarmTemplateID: template.body.id,
    });
    const res = await request(ctx.svc.url, 'POST', '/api/v1/inbound/call', {
      body: { from: `+${gsm.slice(2)}`, digits: '4321' },
      headers: { 'Gateway-Token': INBOUND },
    });
    assert.is(res.status, 202);
    const [raised] = (await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=1`)).body.alarms;
    assert.equal(
      [raised.event, raised.message, raised.units, raised.channels, raised.monitorIds, raised.templateId],
      ['Vollalarm Löschzug', 'Alle Kräfte zum Gerätehaus', ['ELW 1', 'HLF 20/1'], ['app'], [monitor], template.body.id],
      'the monitor that does not exist is left out',
    );
    const data = (await c.get(`/api/v1/monitor/${monitor}/data`)).body.alarmData;
    assert.equal([data.event, data.eventKind], ['Vollalarm Löschzug', undefined]);
  },
);

s(
  "a things rule whose action is alarm raises one with its rendered event, message, template and the record's position",
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const entity = (
      await c.post('/api/v1/things/entities', {
        name: 'Hydranten',
        organizationID: ctx.a.orgId,
        fields: [
          { name: 'Nummer', type: 'text' },
          { name: 'Lage', type: 'coordinates' },
        ],
      })
    ).body;
    const [nummer, lage] = entity.fields.map((f: any) => f.id);
    const rule = await c.post(`/api/v1/things/entities/${entity.id}/rules`, {
      name: 'Hydrant defekt',
      action: 'alarm',
      triggers: ['record_created'],
      conditions: [{ fieldID: nummer, operator: 'not_empty' }],
      actionAlarmTemplate: {
        alarmMessage: `Hydrant {{${nummer}}} meldet Störung`,
        eventName: 'H1 Hydrant',
        alarmTemplateID: 12,
        positionFieldID: lage,
      },
    });
    assert.is(rule.status, 201, JSON.stringify(rule.body));
    const record = await c.post(`/api/v1/things/entities/${entity.id}/records`, {
      values: [
        { fieldID: nummer, value: 'H-17' },
        { fieldID: lage, value: '52.5,13.4' },
      ],
    });
    assert.is(record.status, 201, JSON.stringify(record.body));
    const [raised] = (await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=1`)).body.alarms;
    assert.equal(
      {
        source: raised.source,
        event: raised.event,
        message: raised.message,
        templateId: raised.templateId,
        latitude: raised.latitude,
        longitude: raised.longitude,
      },
      {
        source: 'rule',
        event: 'H1 Hydrant',
        message: 'Hydrant H-17 meldet Störung',
        templateId: 12,
        latitude: 52.5,
        longitude: 13.4,
      },
    );
  },
);

s(
  "an alarm's push reaches the member's device with the alarm id and a token that confirms delivery " +
    'and answers for the alarm',
  async (ctx) => {
    const token = 'cd'.repeat(32);
    const device = await client(ctx.svc.url, member(ctx.a)).post('/api/v1/app/device', {
      name: `iPhone ${++n}`,
      os: 'iOS 18',
      ownerID: ctx.a.member.userId,
      pushToken: token,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(device.status, 200, JSON.stringify(device.body));
    const alarm = (await raise(ctx, { channels: ['app'], message: 'Rauch aus Fenster' })).body;
    const [sent] = await eventually(
      async () => push.apns.requests.filter((r) => r.body.alarmId === alarm.id),
      (list) => list.length === 1,
      'the push at APNs',
    );
    assert.equal(
      { path: sent.path, status: sent.status, title: sent.body.aps.alert.title, body: sent.body.aps.alert.body },
      { path: `/3/device/${token}`, status: 200, title: 'B3 Wohnungsbrand', body: 'Rauch aus Fenster' },
    );
    await eventually(
      () => detail(ctx, alarm.id),
      (d) => d.recipients.app.sent === 1,
      'the push recorded as sent',
    );
    const owner = client(ctx.svc.url, member(ctx.a));
    assert.is((await owner.post(`/api/v1/app/push/delivered/${sent.body.confirmToken}`)).status, 200);
    assert.is((await detail(ctx, alarm.id)).recipients.app.delivered, 1);
    assert.is(
      (await owner.post(`/api/v1/app/push/answered/${sent.body.confirmToken}/yes`, { distance: 4, duration: 7 }))
        .status,
      200,
    );
    const answered = await detail(ctx, alarm.id);
    assert.equal(answered.responses, { positive: 1, negative: 0, awaiting: 0 });
    assert.equal(
      answered.answers.map((a: any) => [a.userId, a.response, a.distance, a.duration, a.enteredBy]),
      [[ctx.a.member.userId, true, 4, 7, null]],
    );
    const [delivery] = answered.deliveries;
    assert.equal(
      { ...delivery },
      {
        channel: 'app',
        recipientUserId: ctx.a.member.userId,
        target: `…${String(device.body.id).slice(-3)}`,
        status: 'delivered',
        attempts: 1,
        lastError: null,
      },
    );
  },
);

s(
  'a things rule raises one alarm per record within its cooldown however often a member flips the record, ' +
    "and the organization's rule alarms are limited per hour",
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const entity = (
      await c.post('/api/v1/things/entities', {
        name: 'Tore',
        organizationID: ctx.a.orgId,
        fields: [{ name: 'Zustand', type: 'text' }],
        readWriteUserIDs: [ctx.a.member.userId],
      })
    ).body;
    const [zustand] = entity.fields.map((f: any) => f.id);
    const rule = (cooldownSeconds?: number) =>
      c.post(`/api/v1/things/entities/${entity.id}/rules`, {
        name: cooldownSeconds === undefined ? 'Tor defekt' : 'Tor defekt (jede Meldung)',
        action: 'alarm',
        triggers: ['record_created', 'record_updated'],
        conditions: [{ fieldID: zustand, operator: 'eq', comparison: 'defekt' }],
        actionAlarmTemplate: { alarmMessage: 'Tor meldet Störung', eventName: `Tor ${cooldownSeconds ?? 'default'}` },
        ...(cooldownSeconds === undefined ? {} : { cooldownSeconds }),
      });
    const created = await rule();
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.is(created.body.cooldownSeconds, 600, 'the default, visible in the definition');
    const ruleAlarmsOf = async () => {
      const list: any[] = [];
      for (let offset = 0; ; offset += 50) {
        const page = (await c.get(`/api/v1/alarms?organization_id=${ctx.a.orgId}&limit=50&offset=${offset}`)).body;
        list.push(...page.alarms);
        if (page.alarms.length < 50) return list.filter((a) => a.source === 'rule');
      }
    };
    const ruleAlarms = async (event: string) => (await ruleAlarmsOf()).filter((a) => a.event === event).length;
    const flipper = client(ctx.svc.url, member(ctx.a));
    const record = await flipper.post(`/api/v1/things/entities/${entity.id}/records`, {
      values: [{ fieldID: zustand, value: 'defekt' }],
    });
    assert.is(record.status, 201, JSON.stringify(record.body));
    for (let i = 0; i < 10; i++) {
      const res = await flipper.put(`/api/v1/things/records/${record.body.id}`, {
        values: [{ fieldID: zustand, value: i % 2 ? 'defekt' : 'ok' }],
      });
      assert.is(res.status, 200, JSON.stringify(res.body));
    }
    assert.is(await ruleAlarms('Tor default'), 1, 'six firings for one record, one alarm');
    // Without a cooldown every firing alarms, until the organization's hour is spent.
    const eager = await rule(0);
    assert.is(eager.status, 201, JSON.stringify(eager.body));
    const started = Date.now();
    for (let i = 0; i < 35; i++) {
      const res = await flipper.post(`/api/v1/things/entities/${entity.id}/records`, {
        values: [{ fieldID: zustand, value: 'defekt' }],
      });
      assert.is(res.status, 201, JSON.stringify(res.body));
    }
    const all = (await ruleAlarmsOf()).length;
    const refilled = Math.ceil(((Date.now() - started) / 3_600_000) * 30) + 1;
    // 35 new records fire both rules (each record is new to the first): 70 firings, an hour's 30 alarms.
    assert.ok(all >= 30 && all <= 30 + refilled, `${all} rule alarms in the organization`);
    assert.ok((await ruleAlarms('Tor 0')) >= 10, 'the rule without a cooldown alarmed while the hour allowed');
  },
);

s(
  "A10 entered for a member by the organization's key or an admin counts as his answer and says who " +
    'entered it; his own app answering again clears it',
  async (ctx) => {
    const device = await client(ctx.svc.url, member(ctx.a)).post('/api/v1/app/device', {
      name: `Android ${++n}`,
      os: 'Android 15',
      ownerID: ctx.a.member.userId,
      pushToken: `tok-${n}`,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(device.status, 200, JSON.stringify(device.body));
    const alarm = (await raise(ctx, { channels: ['app'] })).body;
    const answer = (auth: Parameters<typeof client>[1], response: boolean) =>
      client(ctx.svc.url, auth).post(`/api/v1/app/feedback?organization_id=${ctx.a.orgId}`, {
        alarmID: alarm.id,
        deviceID: device.body.id,
        response,
        answerData: {},
      });
    const enteredBy = async () =>
      (await detail(ctx, alarm.id)).answers.map((a: any) => [a.userId, a.response, a.enteredBy]);
    assert.is((await answer(key(ctx.a), true)).status, 200);
    assert.equal(await enteredBy(), [[ctx.a.member.userId, true, { kind: 'apikey', id: ctx.a.apiKeyId }]]);
    assert.is((await answer(admin(ctx.a), false)).status, 200);
    assert.equal(await enteredBy(), [[ctx.a.member.userId, false, { kind: 'user', id: ctx.a.admin.userId }]]);
    assert.is((await answer(member(ctx.a), true)).status, 200);
    assert.equal(await enteredBy(), [[ctx.a.member.userId, true, null]]);
  },
);

s(
  'IN1 counts every 4–8 digit word as a try: a text listing many numbers matches nothing, even ' +
    "with the PIN among them, and spends the sender's limit",
  async (ctx) => {
    const gsm = nextGsm();
    assert.is(
      (
        await client(ctx.svc.url, key(ctx.a)).post('/api/v1/sms/alarming', {
          gsm,
          organizationID: ctx.a.orgId,
          pin: '2468',
        })
      ).status,
      200,
    );
    const inbound = (text: string) =>
      request(ctx.svc.url, 'POST', '/api/v1/inbound/sms', {
        body: { from: `+${gsm.slice(2)}`, text },
        headers: { 'Gateway-Token': INBOUND },
      });
    const count = async () =>
      (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms?organization_id=${ctx.a.orgId}`)).body.total as number;
    const before = await count();
    assert.is((await inbound('1111 2222 3333 2468 4444 5555 Brand')).status, 202);
    assert.is(await count(), before, 'six candidates: no match');
    assert.is((await inbound('2468 Brand')).status, 202);
    assert.is(await count(), before, 'the limit is spent: the right PIN alone is ignored now');
  },
);

s.run();
