// Members without the app answer too (docs/alarms.md "Answering without the app"), over the real wire:
// the alarm SMS at the fake gateway ends with its answer link and fits one GSM-7 segment; the link's
// operations (AN1, AN2) read the alarm and take the answer; a reply SMS (IN1) and the keys of the alarm
// call (IN2) from the member's number answer his latest running alarm; his latest answer counts,
// whichever way it came; bad and spent tokens are 404s; the token never reaches the log.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';
import { pino } from 'pino';
import { LINK_TTL_MS } from '../server/areas/alarms/answer-links.js';
import { LatestAlarms } from '../server/areas/alarms/member-latest.js';
import { CALL_KEYS, readKeys, readReply } from '../server/areas/alarms/replies.js';
import { formatSms } from '../server/areas/sms/formatters.js';
import { gsm7Units, segmentsOf } from '../server/areas/sms/gsm7.js';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { client, request } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite, test } from './helpers/suite.js';

const INBOUND = 'inbound-secret';
const LINK = /\n(http:\/\/localhost:\d+\/a\/([A-Za-z0-9_-]+))$/;

interface Ctx {
  svc: TestService;
  sms: FakeGateway;
  call: FakeGateway;
  org: OrgFixture;
  other: OrgFixture;
  logLines: string[];
  /** The member's mobile and phone (as stored: 0049…). */
  mobile: string;
  phone: string;
}

const s = suite<Ctx>('answering without the app: answer links, reply SMS, call keys', {} as Ctx);

let n = 0;
const nextGsm = () => `0049176${String(2_000_000 + ++n)}`;

s.before(async (ctx) => {
  ctx.sms = await startGateway();
  ctx.call = await startGateway();
  ctx.logLines = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void ctx.logLines.push(line) });
  ctx.svc = await startTestService(
    {
      SMS_GATEWAY_URL: ctx.sms.url,
      CALL_GATEWAY_URL: ctx.call.url,
      GATEWAY_TOKEN: 'gw',
      INBOUND_GATEWAY_TOKEN: INBOUND,
      ALARM_OUTBOX_SWEEP_MS: '200',
    },
    { log },
  );
  ctx.org = await createOrg(ctx.svc, 'FF Antwortstadt');
  ctx.other = await createOrg(ctx.svc);
  const own = client(ctx.svc.url, { pat: ctx.org.member.token });
  ctx.mobile = nextGsm();
  ctx.phone = nextGsm();
  for (const [path, gsm] of [
    ['/api/v1/sms/mobile', ctx.mobile],
    ['/api/v1/call/phone', ctx.phone],
  ]) {
    const res = await own.post(path, { gsm, name: 'Handy', ownerID: ctx.org.member.userId, active: true });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
});
s.after(async (ctx) => {
  await ctx.svc.close();
  await ctx.sms.close();
  await ctx.call.close();
});

const key = (org: OrgFixture) => ({ apiKey: org.apiKey });
async function raise(ctx: Ctx, body: Record<string, unknown>): Promise<number> {
  const res = await client(ctx.svc.url, key(ctx.org)).post('/api/v1/alarms', {
    organizationID: ctx.org.orgId,
    event: 'B3 Wohnungsbrand',
    channels: ['sms', 'call'],
    ...body,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as number;
}
/** The SMS of the alarm to the member, once the fake gateway has it. */
async function smsOf(ctx: Ctx, alarmId: number): Promise<string> {
  const [sent] = await eventually(
    async () => ctx.sms.requests.filter((r) => r.body.alarmId === alarmId),
    (list) => list.length === 1,
    `the SMS of alarm ${alarmId}`,
  );
  assert.is(sent.body.to, `+${ctx.mobile.slice(2)}`);
  await noted(ctx, ctx.mobile, alarmId);
  return sent.body.text;
}
/**
 * Until the number names the alarm: its note is written beside the SMS or call, not before it
 * (answering.ts), so a reply sent the moment the gateway has the SMS may come before it; a member's
 * reply comes seconds later.
 */
async function noted(ctx: Ctx, number: string, alarmId: number): Promise<void> {
  const latest = new LatestAlarms(ctx.svc.db);
  await eventually(
    () => latest.ofNumber(number),
    (found) => found !== null && found !== 'shared' && found.alarmId === alarmId,
    `the note of alarm ${alarmId} at ${number}`,
  );
}
async function tokenOf(ctx: Ctx, alarmId: number): Promise<string> {
  const found = LINK.exec(await smsOf(ctx, alarmId));
  assert.ok(found, 'the SMS ends with its answer link');
  return found[2];
}
/** The member's answers to the alarm as AL3 shows them. */
async function answersOf(ctx: Ctx, alarmId: number) {
  const res = await client(ctx.svc.url, { pat: ctx.org.admin.token }).get(`/api/v1/alarms/${alarmId}`);
  assert.is(res.status, 200);
  return res.body.answers as Array<{ userId: number; name: string; response: boolean; duration: number | null }>;
}
const inbound = (ctx: Ctx, door: 'sms' | 'call', body: Record<string, string>) =>
  request(ctx.svc.url, 'POST', `/api/v1/inbound/${door}`, { body, headers: { 'Gateway-Token': INBOUND } });
const answerLink = (ctx: Ctx, token: string, body?: unknown) =>
  request(ctx.svc.url, body === undefined ? 'GET' : 'POST', `/api/v1/answer/${token}`, { body });

s(
  'the alarm SMS ends with its answer link and fits one GSM-7 segment; the call says which keys answer',
  async (ctx) => {
    const message = `Rauch aus Fenster 2. OG 🔥, Person vermisst. ${'Lage unklar, Zufahrt über Hof. '.repeat(8)}`;
    const alarmId = await raise(ctx, { message, address: 'Hauptstraße 40, 12345 Musterstadt' });
    const text = await smsOf(ctx, alarmId);
    const link = LINK.exec(text);
    assert.ok(link, `an answer link at the end: ${text}`);
    assert.ok(link[1].startsWith(`http://localhost:${ctx.svc.port}/a/`), link[1]);
    assert.ok(gsm7Units(text) <= 160, `${gsm7Units(text)} units: ${text}`);
    assert.is(segmentsOf(text), 1);
    // The alarm text was cut to make room, the link never.
    assert.ok(text.startsWith('B3 Wohnungsbrand\nHauptstraße 40, 12345 Musterstadt\nRauch aus Fenster 2. OG ?'), text);
    assert.match(text, /\.\.\.\nhttp/);
    const [call] = await eventually(
      async () => ctx.call.requests.filter((r) => r.body.alarmId === alarmId),
      (list) => list.length === 1,
      'the call',
    );
    assert.ok(call.body.text.endsWith(`\n${CALL_KEYS}`), call.body.text);
    assert.not.match(call.body.text, '/a/');
    // A short alarm keeps its whole text beside the link.
    const short = await smsOf(ctx, await raise(ctx, { event: 'H1 Tür öffnen', message: 'Person hilflos' }));
    assert.match(short, /^H1 Tür öffnen\nPerson hilflos\nhttp:\/\/localhost:\d+\/a\/[A-Za-z0-9_-]+$/);
  },
);

s(
  'AN1 shows the alarm of the link and AN2 takes his answer: AL3 and the wall count it, his latest wins',
  async (ctx) => {
    const monitor = await client(ctx.svc.url, key(ctx.org)).post('/api/v1/monitor', {
      name: 'Wache',
      organizationID: ctx.org.orgId,
    });
    assert.is(monitor.status, 201);
    const alarmId = await raise(ctx, { address: 'Goethestraße 5', message: 'Rauch', monitorIds: [monitor.body.id] });
    const token = await tokenOf(ctx, alarmId);
    const shown = await answerLink(ctx, token);
    assert.is(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(
      { ...shown.body, startedAt: typeof shown.body.startedAt },
      {
        event: 'B3 Wohnungsbrand',
        message: 'Rauch',
        address: 'Goethestraße 5',
        startedAt: 'string',
        endedAt: null,
        organizationName: 'FF Antwortstadt',
        name: 'member of FF Antwortstadt',
        answer: null,
      },
    );
    const coming = await answerLink(ctx, token, { response: true, duration: 10 });
    assert.is(coming.status, 200, JSON.stringify(coming.body));
    assert.equal({ ...coming.body.answer, at: undefined }, { response: true, duration: 10, at: undefined });
    const [answer] = await answersOf(ctx, alarmId);
    assert.equal(
      { userId: answer.userId, name: answer.name, response: answer.response, duration: answer.duration },
      { userId: ctx.org.member.userId, name: 'member of FF Antwortstadt', response: true, duration: 10 },
    );
    // The wall counts him as any answer.
    await eventually(
      async () =>
        (await client(ctx.svc.url, key(ctx.org)).get(`/api/v1/monitor/${monitor.body.id}/data`)).body.alarmData,
      (data) => data.eventId === alarmId && data.positiveResponses === 1,
      'the wall counting his answer',
    );
    // Changed: his latest counts, once; travel minutes mean nothing with "not coming".
    const not = await answerLink(ctx, token, { response: false, duration: 5 });
    assert.is(not.status, 200);
    assert.equal({ ...not.body.answer, at: undefined }, { response: false, duration: null, at: undefined });
    const answers = await answersOf(ctx, alarmId);
    assert.is(answers.length, 1);
    assert.equal([answers[0].response, answers[0].duration], [false, null]);
    assert.is((await answerLink(ctx, token)).body.answer.response, false);
  },
);

s(
  'bad tokens: 400 naming the token or the field, 404 invalid_code for unknown, expired and spent ones',
  async (ctx) => {
    const alarmId = await raise(ctx, {});
    const token = await tokenOf(ctx, alarmId);
    const FORMAT = 'token missing or in wrong format';
    for (const bad of ['a.b', '%00', 'x'.repeat(65), '%F0%9F%94%A5'])
      expectBadRequest(await answerLink(ctx, bad), 'invalid_parameter', FORMAT, 'path', 'token');
    for (const unknown of ['A'.repeat(22), 'x', token.slice(0, -1), `${token}A`]) {
      expectError(await answerLink(ctx, unknown), 404, 'invalid_code');
      expectError(await answerLink(ctx, unknown, { response: true }), 404, 'invalid_code');
    }
    const BODY = 'Answer in wrong format or required field missing';
    expectBadRequest(await answerLink(ctx, token, {}), 'invalid_body', BODY, 'body', 'response');
    expectBadRequest(await answerLink(ctx, token, { response: 'yes' }), 'invalid_body', BODY, 'body', 'response');
    expectBadRequest(
      await answerLink(ctx, token, { response: true, duration: -1 }),
      'invalid_body',
      BODY,
      'body',
      'duration',
    );
    expectBadRequest(
      await answerLink(ctx, token, { response: true, duration: 1441 }),
      'invalid_body',
      BODY,
      'body',
      'duration',
    );
    expectBadRequest(await answerLink(ctx, token, { response: true, userId: 1 }), 'invalid_body', BODY, 'body');
    assert.is((await answersOf(ctx, alarmId)).length, 0, 'nothing refused was recorded');
    // Ended: still shown, no answer taken; an hour after its end, or past the link's day: 404 alike.
    assert.is((await client(ctx.svc.url, key(ctx.org)).post(`/api/v1/alarms/${alarmId}/end`)).status, 200);
    const ended = await answerLink(ctx, token);
    assert.is(ended.status, 200);
    assert.type(ended.body.endedAt, 'string');
    expectError(await answerLink(ctx, token, { response: true }), 409, 'alarm_ended');
    const alarms = ctx.svc.db.conn.collection(`alarms_${ctx.org.orgId}`);
    await alarms.updateOne({ _id: String(alarmId) } as never, { $set: { endedAt: new Date(Date.now() - 3_600_001) } });
    expectError(await answerLink(ctx, token), 404, 'invalid_code');
    // A day after the alarm began, though it still runs: the alarm's start moved back, and the link of
    // that start signed with the database's key (the SMS's own no longer matches it).
    const secondId = await raise(ctx, {});
    await tokenOf(ctx, secondId);
    const linkSecret = await linkKey(ctx);
    const user = ctx.org.member.userId;
    const startedAt = async (msAgo: number) => {
      const at = new Date(Date.now() - msAgo);
      await alarms.updateOne({ _id: String(secondId) } as never, { $set: { startedAt: at } });
      return signed(linkSecret, { id: secondId, organizationId: ctx.org.orgId, startedAt: at }, user);
    };
    assert.is((await answerLink(ctx, await startedAt(LINK_TTL_MS - 60_000))).status, 200, 'within its day');
    expectError(await answerLink(ctx, await startedAt(LINK_TTL_MS + 1)), 404, 'invalid_code');
  },
);

s("a link answers its own alarm only: a used token of another alarm leaves this one's answers alone", async (ctx) => {
  const first = await raise(ctx, { event: 'Erster Alarm' });
  const firstToken = await tokenOf(ctx, first);
  const second = await raise(ctx, { event: 'Zweiter Alarm' });
  await tokenOf(ctx, second);
  assert.is((await answerLink(ctx, firstToken, { response: true, duration: 5 })).status, 200);
  assert.is((await answerLink(ctx, firstToken, { response: false })).status, 200);
  assert.is((await answersOf(ctx, second)).length, 0);
  assert.equal(
    (await answersOf(ctx, first)).map((a) => [a.userId, a.response]),
    [[ctx.org.member.userId, false]],
  );
});

// A link's token as docs/alarms.md "Answering without the app" specifies it, made here on its own.
const leb128 = (n: number): number[] => (n < 128 ? [n] : [(n % 128) | 128, ...leb128(Math.floor(n / 128))]);
function signed(key: Buffer, alarm: { id: number; organizationId: number; startedAt: Date }, userId: number) {
  const claims = [...leb128(alarm.id), ...leb128(userId)];
  const input = [1, ...claims, ...leb128(alarm.organizationId), ...leb128(alarm.startedAt.getTime())];
  const mac = createHmac('sha256', key).update(Buffer.from(input)).digest().subarray(0, 12);
  return Buffer.concat([Buffer.from(claims), mac]).toString('base64url');
}
/** The database's key of the answer links. */
async function linkKey(ctx: Ctx): Promise<Buffer> {
  const doc = await ctx.svc.db.conn.collection('alarm_link_keys').findOne({ _id: 'answer-links' } as never);
  assert.ok(doc, 'the key is made with the first link');
  return Buffer.from(doc.key as string, 'base64');
}
async function alarmDoc(ctx: Ctx, alarmId: number) {
  const doc = await ctx.svc.db.conn.collection(`alarms_${ctx.org.orgId}`).findOne({ _id: String(alarmId) } as never);
  return { id: alarmId, organizationId: ctx.org.orgId, startedAt: doc!.startedAt as Date };
}

s(
  'a token is signed: other IDs, another key or a cut signature are 404s; a stored link of before answers',
  async (ctx) => {
    const alarmId = await raise(ctx, { event: 'Signierter Alarm' });
    const token = await tokenOf(ctx, alarmId);
    const key = await linkKey(ctx);
    const alarm = await alarmDoc(ctx, alarmId);
    const { userId } = ctx.org.member;
    assert.is(token, signed(key, alarm, userId), 'the SMS carries the link as specified');
    const otherId = await raise(ctx, { event: 'Anderer Alarm' });
    await tokenOf(ctx, otherId);
    const bytes = Buffer.from(token, 'base64url');
    const claims = Buffer.from([...leb128(alarmId), ...leb128(userId)]);
    const mac = bytes.subarray(claims.length);
    const spell = (...parts: Buffer[]) => Buffer.concat(parts).toString('base64url');
    const forged = [
      // The admin (a member of the same organization) or the other alarm, under the member's signature.
      spell(Buffer.from([...leb128(alarmId), ...leb128(ctx.org.admin.userId)]), mac),
      spell(Buffer.from([...leb128(otherId), ...leb128(userId)]), mac),
      // Signed as specified, but with a key of its own; or with the key, for an alarm there is not.
      signed(randomBytes(32), alarm, userId),
      signed(key, { ...alarm, id: otherId + 1_000 }, userId),
      // The signature cut, or a byte more.
      spell(claims, mac.subarray(1)),
      spell(claims, mac, Buffer.from([0])),
    ];
    for (const other of forged) {
      expectError(await answerLink(ctx, other), 404, 'invalid_code');
      expectError(await answerLink(ctx, other, { response: true }), 404, 'invalid_code');
    }
    assert.is((await answersOf(ctx, alarmId)).length, 0, 'no forged token answered');
    assert.is((await answersOf(ctx, otherId)).length, 0);
    // Another process on the database, with another secrets key, verifies it with the database's key (its
    // sweep idle: the alarms here are this process's to send).
    const process2 = await startTestService({
      SECRETS_KEY: randomBytes(32).toString('base64'),
      SMS_GATEWAY_URL: ctx.sms.url,
      CALL_GATEWAY_URL: ctx.call.url,
      GATEWAY_TOKEN: 'gw',
      ALARM_OUTBOX_SWEEP_MS: '3600000',
    });
    try {
      const view = await request(process2.url, 'GET', `/api/v1/answer/${token}`);
      assert.is(view.status, 200, JSON.stringify(view.body));
      assert.is(view.body.event, 'Signierter Alarm');
    } finally {
      await process2.close();
    }
    // An SMS sent before signed links (2026-12-02) carries a stored one: it answers until its day is out.
    const stored = randomBytes(16).toString('base64url');
    await ctx.svc.db.conn.collection('alarm_answer_links').insertOne({
      _id: createHash('sha256').update(stored).digest('hex'),
      alarmId,
      organizationId: ctx.org.orgId,
      userId,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 3_600_000),
    } as never);
    const viaStored = await answerLink(ctx, stored, { response: true, duration: 7 });
    assert.is(viaStored.status, 200, JSON.stringify(viaStored.body));
    assert.equal(
      (await answersOf(ctx, alarmId)).map((a) => [a.userId, a.response, a.duration]),
      [[userId, true, 7]],
    );
    // The signed one answers beside it, his latest counting.
    assert.is((await answerLink(ctx, token, { response: false })).status, 200);
    assert.equal(
      (await answersOf(ctx, alarmId)).map((a) => [a.userId, a.response]),
      [[userId, false]],
    );
  },
);

s('a reply SMS from his mobile answers his latest running alarm, "+49…" and "0049…" alike', async (ctx) => {
  const alarmId = await raise(ctx, { event: 'Antwort per SMS' });
  await smsOf(ctx, alarmId);
  const res = await inbound(ctx, 'sms', { from: `+${ctx.mobile.slice(2)}`, text: 'ja' });
  assert.equal([res.status, res.body], [202, { accepted: true }]);
  await eventually(
    () => answersOf(ctx, alarmId),
    (a) => a.length === 1 && a[0].response === true,
    'his "ja"',
  );
  assert.is((await inbound(ctx, 'sms', { from: ctx.mobile, text: ' N. ' })).status, 202);
  await eventually(
    () => answersOf(ctx, alarmId),
    (a) => a.length === 1 && a[0].response === false,
    'his "N" from 0049…',
  );
  assert.is((await inbound(ctx, 'sms', { from: `+49 ${ctx.mobile.slice(4)}`, text: 'Komme 12' })).status, 202);
  await eventually(
    () => answersOf(ctx, alarmId),
    (a) => a.length === 1 && a[0].response === true && a[0].duration === 12,
    'his "Komme 12"',
  );
  const metrics = await (await fetch(`${ctx.svc.url}/metrics`)).text();
  assert.ok(Number(/alarmhub_alarm_replies_answered_total (\d+)/.exec(metrics)?.[1]) >= 3, metrics);
});

s(
  'a reply from an unknown number, with no recent alarm, or to an ended alarm changes nothing and is still a 202',
  async (ctx) => {
    const alarmId = await raise(ctx, { event: 'Keine Antwort' });
    await smsOf(ctx, alarmId);
    await noted(ctx, ctx.phone, alarmId);
    const before = await answersOf(ctx, alarmId);
    for (const body of [
      { from: '+4915199999999', text: 'J' },
      { from: 'not a number', text: 'J' },
      { from: `+${ctx.mobile.slice(2)}`, text: 'Ja bitte, später' },
    ]) {
      const res = await inbound(ctx, 'sms', body);
      assert.equal([res.status, res.body], [202, { accepted: true }]);
    }
    // His latest alarm started more than two hours ago: nothing to answer.
    const notes = ctx.svc.db.conn.collection('alarm_reached');
    const ofAlarm = { _id: { $in: [`${ctx.mobile}@${alarmId}`, `${ctx.phone}@${alarmId}`] } } as never;
    const started = { $set: { startedAt: new Date(Date.now() - 2 * 3_600_000 - 1_000) } };
    assert.is((await notes.updateMany(ofAlarm, started)).modifiedCount, 2);
    assert.is((await inbound(ctx, 'sms', { from: ctx.mobile, text: 'J' })).status, 202);
    assert.is((await inbound(ctx, 'call', { from: ctx.phone, digits: '1' })).status, 202);
    // Ended (and back within the window): nothing either.
    const back = { $set: { startedAt: new Date() } };
    await notes.updateMany(ofAlarm, back);
    assert.is((await client(ctx.svc.url, key(ctx.org)).post(`/api/v1/alarms/${alarmId}/end`)).status, 200);
    assert.is((await inbound(ctx, 'sms', { from: ctx.mobile, text: 'J' })).status, 202);
    assert.equal(await answersOf(ctx, alarmId), before);
    // Without the gateway's token: 401 as ever.
    expectError(
      await request(ctx.svc.url, 'POST', '/api/v1/inbound/sms', { body: { from: ctx.mobile, text: 'J' } }),
      401,
      'unauthorized',
    );
  },
);

s('keys 1 and 2 on the alarm call answer it; his latest answer counts whichever way it came', async (ctx) => {
  const alarmId = await raise(ctx, { event: 'Antwort per Anruf' });
  const token = await tokenOf(ctx, alarmId);
  await eventually(
    async () => ctx.call.requests.filter((r) => r.body.alarmId === alarmId),
    (list) => list.length === 1,
    'the call',
  );
  await noted(ctx, ctx.phone, alarmId);
  const last = async (what: string, response: boolean, duration: number | null) =>
    eventually(
      () => answersOf(ctx, alarmId),
      (a) => a.length === 1 && a[0].response === response && a[0].duration === duration,
      what,
    );
  assert.is((await inbound(ctx, 'call', { from: `+${ctx.phone.slice(2)}`, digits: '1' })).status, 202);
  await last('key 1', true, null);
  assert.is((await inbound(ctx, 'call', { from: ctx.phone, digits: '2' })).status, 202);
  await last('key 2', false, null);
  assert.is((await answerLink(ctx, token, { response: true, duration: 15 })).status, 200);
  await last('the link', true, 15);
  assert.is((await inbound(ctx, 'sms', { from: ctx.mobile, text: 'Nein' })).status, 202);
  await last('the reply SMS', false, null);
  assert.is((await inbound(ctx, 'call', { from: ctx.phone, digits: '1' })).status, 202);
  await last('key 1 again', true, null);
  // A PIN is 4–8 digits: keys 1 and 2 never raise an alarm.
  const total = async () =>
    (await client(ctx.svc.url, key(ctx.org)).get(`/api/v1/alarms?organization_id=${ctx.org.orgId}`)).body.total;
  const before = await total();
  assert.is((await inbound(ctx, 'call', { from: ctx.phone, digits: '2' })).status, 202);
  assert.is(await total(), before);
});

s('across his organizations a reply answers the latest alarm that reached his number', async (ctx) => {
  const first = await raise(ctx, { event: 'Alarm in A' });
  await smsOf(ctx, first);
  await ctx.svc.identity.addMember(ctx.other.orgId, ctx.org.member.userId, 'member');
  const raised = await client(ctx.svc.url, key(ctx.other)).post('/api/v1/alarms', {
    organizationID: ctx.other.orgId,
    event: 'Alarm in B',
    channels: ['sms'],
  });
  assert.is(raised.status, 201);
  await smsOf(ctx, raised.body.id);
  assert.is((await inbound(ctx, 'sms', { from: ctx.mobile, text: 'Ja' })).status, 202);
  const theirs = async () =>
    (await client(ctx.svc.url, key(ctx.other)).get(`/api/v1/alarms/${raised.body.id}`)).body.answers;
  await eventually(theirs, (a) => a.length === 1 && a[0].userId === ctx.org.member.userId, "B's alarm answered");
  assert.is((await answersOf(ctx, first)).length, 0, "A's earlier alarm is not");
  await ctx.svc.identity.removeMember(ctx.other.orgId, ctx.org.member.userId);
});

s(
  "a number two organizations' members share answers neither by reply; each one's answer link still works",
  async (ctx) => {
    // Organization H gives its member the number of organization V's member (a household landline, or
    // a hostile admin): a reply from it must not answer H's alarm for him, nor tell H what he said.
    const [v, h] = [await createOrg(ctx.svc), await createOrg(ctx.svc)];
    const gsm = nextGsm();
    for (const org of [v, h]) {
      const res = await client(ctx.svc.url, { pat: org.member.token }).post('/api/v1/sms/mobile', {
        gsm,
        ownerID: org.member.userId,
        active: true,
      });
      assert.is(res.status, 200, JSON.stringify(res.body));
    }
    const smsTo = async (org: OrgFixture, event: string) => {
      const raised = await client(ctx.svc.url, key(org)).post('/api/v1/alarms', {
        organizationID: org.orgId,
        event,
        channels: ['sms'],
      });
      assert.is(raised.status, 201, JSON.stringify(raised.body));
      const [sent] = await eventually(
        async () =>
          ctx.sms.requests.filter((r) => r.body.alarmId === raised.body.id && r.body.to === `+${gsm.slice(2)}`),
        (list) => list.length === 1,
        `the SMS of ${event}`,
      );
      return { id: raised.body.id as number, token: LINK.exec(sent.body.text)![2] };
    };
    const inV = await smsTo(v, 'Alarm in V');
    const inH = await smsTo(h, 'Alarm in H');
    const unmatched = async () =>
      Number(
        /alarmhub_alarm_replies_unmatched_total (\d+)/.exec(
          await (await fetch(`${ctx.svc.url}/metrics`)).text(),
        )?.[1] ?? 0,
      );
    const before = await unmatched();
    assert.is((await inbound(ctx, 'sms', { from: gsm, text: 'J' })).status, 202);
    await eventually(unmatched, (count) => count === before + 1, 'the reply counted as unmatched');
    const answers = async (org: OrgFixture, alarmId: number) =>
      (await client(ctx.svc.url, key(org)).get(`/api/v1/alarms/${alarmId}`)).body.answers;
    assert.equal(await answers(v, inV.id), []);
    assert.equal(await answers(h, inH.id), []);
    assert.is((await answerLink(ctx, inV.token, { response: true, duration: 5 })).status, 200);
    assert.equal(
      (await answers(v, inV.id)).map((a: any) => [a.userId, a.response]),
      [[v.member.userId, true]],
    );
    assert.equal(await answers(h, inH.id), []);
  },
);

s('at one number, an older alarm noted late by another process does not replace the later one', async (ctx) => {
  const [one, two] = [new LatestAlarms(ctx.svc.db), new LatestAlarms(ctx.svc.db)];
  const number = nextGsm();
  const item = { channel: 'sms' as const, recipientUserId: 900_001, target: number };
  // Alarm IDs grow with time: an older alarm started earlier.
  const start = Date.now() - 60_000;
  const alarm = (id: number) => ({ id, organizationId: 900_000, startedAt: new Date(start + (id - 900_000) * 1_000) });
  await one.sending(item, alarm(900_002));
  await two.sending(item, alarm(900_001));
  assert.equal(await one.ofNumber(number), { userId: 900_001, alarmId: 900_002, organizationId: 900_000 });
  await two.sending(item, alarm(900_003));
  assert.equal(await one.ofNumber(number), { userId: 900_001, alarmId: 900_003, organizationId: 900_000 });
  // Another member's alarm at the number within the window: a reply from it is nobody's.
  await one.sending({ ...item, recipientUserId: 900_009 }, alarm(900_004));
  assert.is(await two.ofNumber(number), 'shared');
});

s('a member who left the organization answers nothing more by link or reply', async (ctx) => {
  const leaver = await ctx.svc.identity.createUser('Leaver');
  await ctx.svc.identity.addMember(ctx.org.orgId, leaver.id, 'member');
  const pat = await ctx.svc.identity.createPersonalToken(leaver.id, 'phone');
  const gsm = nextGsm();
  await client(ctx.svc.url, { pat: pat.token }).post('/api/v1/sms/mobile', { gsm, ownerID: leaver.id, active: true });
  const alarmId = await raise(ctx, { event: 'Austritt', channels: ['sms'] });
  const sent = await eventually(
    async () => ctx.sms.requests.find((r) => r.body.alarmId === alarmId && r.body.to === `+${gsm.slice(2)}`),
    Boolean,
    "the leaver's SMS",
  );
  const token = LINK.exec(sent!.body.text)![2];
  assert.is((await answerLink(ctx, token)).status, 200);
  await ctx.svc.identity.removeMember(ctx.org.orgId, leaver.id);
  expectError(await answerLink(ctx, token), 404, 'invalid_code');
  assert.is((await inbound(ctx, 'sms', { from: gsm, text: 'J' })).status, 202);
  assert.not.ok((await answersOf(ctx, alarmId)).some((a) => a.userId === leaver.id));
});

s('the token in the path never reaches the log: the access log names the route', async (ctx) => {
  const token = await tokenOf(ctx, await raise(ctx, {}));
  await answerLink(ctx, token);
  await answerLink(ctx, token, { response: true });
  await request(ctx.svc.url, 'GET', `/a/${token}`);
  await eventually(
    async () => ctx.logLines.filter((line) => line.includes('"route":"/api/v1/answer/:token"')).length,
    (count) => count >= 2,
    'the access log lines',
  );
  assert.ok(ctx.logLines.some((line) => line.includes('"route":"/a/:token"')));
  assert.not.ok(
    ctx.logLines.some((line) => line.includes(token)),
    'the token is in a log line',
  );
});

s('the page /a/<token> is the console served with no referrer and the console policy', async (ctx) => {
  const res = await fetch(`${ctx.svc.url}/a/${'B'.repeat(22)}`);
  assert.is(res.status, 200);
  assert.is(res.headers.get('referrer-policy'), 'no-referrer');
  assert.match(res.headers.get('content-security-policy') ?? '', "frame-ancestors 'none'");
  assert.match(await res.text(), '/console/app.js');
});

s.run();

test('formatSms with an answer link: never cut; standard and compact one segment, detailed as long as it needs', () => {
  const link = 'https://alarm.ff-musterstadt.de/a/Yq3ZbV8mN1xT0rL6yK2wC9h7Ks';
  const data = {
    event: 'B3 Wohnungsbrand',
    message: `Rauch aus Fenster … 🔥 ${'Lage unklar. '.repeat(30)}`,
    geo: { address: 'Hauptstraße 40', latitude: 52.52, longitude: 13.41 },
    eventStartDate: '2026-11-22T14:00:00Z',
  };
  for (const name of ['standard', 'compact'] as const) {
    const { text, segments } = formatSms(name, data, link);
    assert.ok(text.endsWith(`\n${link}`), text);
    assert.is(segments, 1, name);
    assert.ok(gsm7Units(text) <= 160);
    assert.match(text, /\.\.\.\nhttps/);
  }
  const detailed = formatSms('detailed', data, link);
  assert.ok(detailed.text.endsWith(`\n${link}`));
  assert.match(detailed.text, 'Map: https://www.openstreetmap.org/');
  assert.ok(detailed.segments > 1 && detailed.segments <= 6, String(detailed.segments));
  // Text outside GSM-7 is transliterated, never UCS-2: "…" becomes "...", the emoji "?".
  assert.match(formatSms('standard', { event: 'Brand 🔥 …' }, link).text, /^Brand \? \.\.\.\n/);
  // A PUBLIC_URL too long to leave 40 units for the alarm: two segments, the alarm's start kept.
  const long = `https://${'x'.repeat(110)}.example/a/Yq3ZbV8mN1xT0rL6yK2wC9h7Ks`;
  const two = formatSms('compact', data, long);
  assert.ok(two.text.endsWith(`\n${long}`));
  assert.is(two.segments, 2);
  assert.ok(two.text.startsWith('B3 Wohnungsbrand | Hauptstraße 40 | Rauch'), two.text);
  // Without a link, as before.
  assert.not.match(formatSms('standard', data).text, '/a/');
});

test('readReply: yes and no words in any case, punctuation and spaces ignored; minutes after a yes', () => {
  for (const yes of ['J', 'ja', ' Ja! ', '1', 'KOMME', 'komme.', 'Ja, '])
    assert.equal(readReply(yes), { response: true, duration: null }, yes);
  for (const no of ['N', 'nein', 'Nein.', '2', 'Komme nicht', ' komme   NICHT! '])
    assert.equal(readReply(no), { response: false, duration: null }, no);
  assert.equal(readReply('Ja 10'), { response: true, duration: 10 });
  assert.equal(readReply('komme 5 min'), { response: true, duration: 5 });
  assert.equal(readReply('Komme, 15 Minuten.'), { response: true, duration: 15 });
  for (const other of ['', 'Jaa', 'Ja bitte', '4711 J', 'J 4711', 'nicht', '12', 'N 10', 'komme nicht 5'])
    assert.is(readReply(other), null, other);
  assert.equal(
    [readKeys('1'), readKeys('2'), readKeys('12'), readKeys('#'), readKeys('')],
    [{ response: true, duration: null }, { response: false, duration: null }, null, null, null],
  );
});

test.run();
