// Alarm inputs over the real wire (IP1–IP6, IN3; docs/inputs.md): inputs made, read, replaced and removed
// by the right people only, the IMAP password never answered; documents sent (text, PDF) raising alarms
// through the profile, one incident one alarm (a later document merges, nobody is rung twice); what
// raises nothing noted with its reason; "try it"; pager codes raising and merging, FMS statuses to the room.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client, request, type Credential } from './helpers/http.js';
import { admin, channelSuite, key, member, newUser, unauthorizedCases, type Ctx } from './helpers/channels.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { createDocumentInput, FAX_PROFILE } from './helpers/inputs.js';
import { connectScreen } from './helpers/screen.js';

const INBOUND = 'inbound-secret';
const INPUT = 'Input in wrong format or required field missing';
let sms: FakeGateway;

const s = channelSuite('IP1–IP6, IN3 alarm inputs', async () => {
  sms = await startGateway();
  return { SMS_GATEWAY_URL: sms.url, INBOUND_GATEWAY_TOKEN: INBOUND, ALARM_OUTBOX_SWEEP_MS: '200' };
});
s.after(async () => {
  await sms.close();
});

const PROFILE = FAX_PROFILE;
const fax = (lines: Record<string, string>) =>
  Object.entries(lines)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

let n = 0;
async function documentInput(ctx: Ctx, over: Record<string, unknown> = {}, org = ctx.a) {
  return { id: await createDocumentInput(ctx.svc, org, { name: `Fax ${++n}`, channels: ['sms'], ...over }) };
}

/** IP4 with a raw body. */
async function send(ctx: Ctx, inputId: number, body: string | Buffer, type: string, auth: Credential = key(ctx.a)) {
  const headers: Record<string, string> = { 'Content-Type': type };
  if (auth && 'apiKey' in auth) headers['API-TOKEN'] = auth.apiKey;
  if (auth && 'pat' in auth) headers['Personal-Access-Token'] = auth.pat;
  const res = await fetch(`${ctx.svc.url}/api/v1/inputs/${inputId}/documents`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
const documents = async (ctx: Ctx, inputId: number) =>
  (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/inputs/${inputId}/documents`)).body;
const alarm = async (ctx: Ctx, id: number) => (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/alarms/${id}`)).body;

unauthorizedCases(s, 'IP1', 'POST', () => '/api/v1/inputs', { organizationID: 1 });
unauthorizedCases(s, 'IP2', 'GET', (ctx) => `/api/v1/inputs?organization_id=${ctx.a.orgId}`);

s('IP1 400 names what is wrong: a profile that does not compile, a missing password, a pager code', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const base = { organizationID: ctx.a.orgId, name: 'Mail', active: true };
  expectBadRequest(
    await c.post('/api/v1/inputs', { ...base, kind: 'document', settings: {}, profile: { fields: { event: '(' } } }),
    'invalid_body',
    INPUT,
    'body',
    'profile.fields.event',
  );
  expectBadRequest(
    await c.post('/api/v1/inputs', { ...base, kind: 'document', settings: {} }),
    'invalid_body',
    INPUT,
    'body',
    'profile',
  );
  const imap = { host: 'imap.example.org', user: 'alarm', allowedSenders: ['@leitstelle.example.org'] };
  expectBadRequest(
    await c.post('/api/v1/inputs', { ...base, kind: 'imap', settings: imap, profile: PROFILE }),
    'invalid_body',
    INPUT,
    'body',
    'settings.password',
  );
  const noSenders = await c.post('/api/v1/inputs', {
    ...base,
    kind: 'imap',
    settings: { ...imap, password: 'x', allowedSenders: [] },
    profile: PROFILE,
  });
  expectError(noSenders, 400, 'invalid_body');
  assert.ok(JSON.stringify(noSenders.body.details).includes('allowedSenders'), JSON.stringify(noSenders.body));
  // Only the ports the operator allows, and never a link-local address.
  for (const [settings, path] of [
    [{ ...imap, password: 'x', port: 6379 }, 'settings.port'],
    [{ ...imap, password: 'x', host: '169.254.169.254' }, 'settings.host'],
  ] as const)
    expectBadRequest(
      await c.post('/api/v1/inputs', { ...base, kind: 'imap', settings, profile: PROFILE }),
      'invalid_body',
      INPUT,
      'body',
      path,
    );
  const badCode = await c.post('/api/v1/inputs', {
    ...base,
    kind: 'pager',
    settings: { codes: [{ event: 'B3' }] },
  });
  expectError(badCode, 400, 'invalid_body');
  assert.ok(JSON.stringify(badCode.body.details).includes('settings.codes.0.ric'), JSON.stringify(badCode.body));
});

s('IP1–IP3: the password is stored encrypted and never answered; members read; others are refused', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const made = await c.post('/api/v1/inputs', {
    organizationID: ctx.a.orgId,
    name: 'Leitstelle',
    kind: 'imap',
    settings: { host: 'imap.example.org', user: 'alarm', password: 'geheim-4711', allowedSenders: ['@ils.example'] },
    profile: PROFILE,
    active: false,
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  assert.equal(made.body.settings, {
    host: 'imap.example.org',
    user: 'alarm',
    password: '********',
    allowedSenders: ['@ils.example'],
    tls: true,
    port: 993,
    folder: 'INBOX',
  });
  assert.equal([made.body.lastReceivedAt, made.body.lastError], [null, null]);
  const stored = await ctx.svc.db.conn.collection('inputs').findOne({ _id: String(made.body.id) } as never);
  assert.not.ok(JSON.stringify(stored).includes('geheim-4711'), 'the password is stored in clear');
  const id = made.body.id;
  assert.equal((await client(ctx.svc.url, member(ctx.a)).get(`/api/v1/inputs/${id}`)).body, made.body);
  const listed = (await client(ctx.svc.url, member(ctx.a)).get(`/api/v1/inputs?organization_id=${ctx.a.orgId}`)).body;
  assert.ok(listed.some((i: { id: number }) => i.id === id));
  // A PUT without the password keeps it.
  const put = await c.put(`/api/v1/inputs/${id}`, {
    organizationID: ctx.a.orgId,
    name: 'Leitstelle Nord',
    kind: 'imap',
    settings: { host: 'imap.example.org', user: 'alarm', allowedSenders: ['@ils.example'] },
    profile: PROFILE,
    active: false,
  });
  assert.is(put.status, 200, JSON.stringify(put.body));
  const after = await ctx.svc.db.conn.collection('inputs').findOne({ _id: String(id) } as never);
  assert.equal(after!.secret, stored!.secret);
  // The stored password goes only to the server it was given for.
  const moved = await c.put(`/api/v1/inputs/${id}`, {
    organizationID: ctx.a.orgId,
    name: 'Leitstelle Nord',
    kind: 'imap',
    settings: { host: 'mail.attacker.example', user: 'alarm', password: '********', allowedSenders: ['@ils.example'] },
    profile: PROFILE,
    active: false,
  });
  expectBadRequest(moved, 'invalid_body', INPUT, 'body', 'settings.password');
  assert.match(moved.body.details[0].problem, /host/);
  expectBadRequest(
    await c.put(`/api/v1/inputs/${id}`, {
      organizationID: ctx.a.orgId,
      name: 'Leitstelle',
      kind: 'document',
      settings: {},
      profile: PROFILE,
      active: false,
    }),
    'invalid_body',
    INPUT,
    'body',
    'kind',
  );
  // Another organization: not found; a member writes nothing; a stranger lists nothing.
  expectError(await client(ctx.svc.url, key(ctx.b)).get(`/api/v1/inputs/${id}`), 404, 'not_found');
  expectError(await client(ctx.svc.url, key(ctx.b)).delete(`/api/v1/inputs/${id}`), 404, 'not_found');
  expectError(await client(ctx.svc.url, member(ctx.a)).delete(`/api/v1/inputs/${id}`), 403, 'forbidden');
  expectError(
    await client(ctx.svc.url, key(ctx.b)).get(`/api/v1/inputs?organization_id=${ctx.a.orgId}`),
    403,
    'forbidden',
  );
  assert.equal((await c.delete(`/api/v1/inputs/${id}`)).body, { status: 'deleted' });
  expectError(await c.get(`/api/v1/inputs/${id}`), 404, 'not_found');
});

s('IP5 tries the profile on a text or a document and raises nothing', async (ctx) => {
  const input = await documentInput(ctx);
  const text = fax({
    Einsatznummer: '7001-2026',
    Stichwort: 'B3 Wohnungsbrand',
    Einsatzort: 'Goethestraße 5, 52064 Aachen',
    Koordinaten: '50,7766, 6,0834',
    Einsatzmittel: 'HLF20, DLK 23',
  });
  const tried = await client(ctx.svc.url, admin(ctx.a)).post(`/api/v1/inputs/${input.id}/try`, { text });
  assert.is(tried.status, 200, JSON.stringify(tried.body));
  assert.equal(tried.body.alarm, {
    event: 'B3 Wohnungsbrand',
    message: '',
    address: 'Goethestraße 5, 52064 Aachen',
    latitude: 50.7766,
    longitude: 6.0834,
    units: ['HLF20', 'DLK 23'],
    dispatchNumber: '7001-2026',
    keyword: null,
  });
  assert.is(tried.body.reason, null);
  const raw = await fetch(`${ctx.svc.url}/api/v1/inputs/${input.id}/try`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', 'API-TOKEN': ctx.a.apiKey },
    body: 'Keine Alarmierung',
  });
  const none = await raw.json();
  assert.equal([raw.status, none.alarm, none.text], [200, null, 'Keine Alarmierung']);
  assert.match(none.reason, /event/);
  // A pattern that backtracks without end costs this try, not the service.
  const slow = await documentInput(ctx, { profile: { fields: { event: '^(a+)+$' } } });
  const stuck = await client(ctx.svc.url, key(ctx.a)).post(`/api/v1/inputs/${slow.id}/try`, {
    text: `${'a'.repeat(40)}!`,
  });
  assert.is(stuck.status, 200);
  assert.match(stuck.body.reason, /took longer/);
  assert.is((await documents(ctx, input.id)).length, 0, 'a try notes nothing');
});

s(
  'IP4: a document raises its alarm; a later one of the same incident merges (fields it lacked, a source), rung once',
  async (ctx) => {
    const gsm = `0049176${String(3_000_000 + ++n)}`;
    const crew = await newUser(ctx.svc, ctx.a);
    const own = await client(ctx.svc.url, { pat: crew.token }).post('/api/v1/sms/mobile', {
      gsm,
      ownerID: crew.userId,
      active: true,
    });
    assert.is(own.status, 200, JSON.stringify(own.body));
    const mailIn = await documentInput(ctx, { name: 'Mail' });
    const faxIn = await documentInput(ctx, { name: 'Fax' });
    const first = await send(
      ctx,
      mailIn.id,
      fax({ Einsatznummer: '8001-2026', Stichwort: 'TH1 Baum auf Straße' }),
      'text/plain',
    );
    assert.is(first.status, 202, JSON.stringify(first.body));
    const [raised] = await documents(ctx, mailIn.id);
    assert.equal([raised.id, raised.outcome, raised.reason], [first.body.documentId, 'raised', null]);
    const second = await send(
      ctx,
      faxIn.id,
      fax({
        Einsatznummer: '8001/2026',
        Stichwort: 'TH1 Baum auf Straße',
        Einsatzort: 'Lindenweg 3, Aachen',
        Bemerkung: 'Fahrbahn blockiert',
      }),
      'text/plain; charset=utf-8',
    );
    assert.is(second.status, 202, JSON.stringify(second.body));
    const [merged] = await documents(ctx, faxIn.id);
    assert.equal([merged.outcome, merged.alarmId], ['merged', raised.alarmId]);
    const shown = await alarm(ctx, raised.alarmId);
    assert.equal(
      [shown.event, shown.address, shown.message, shown.source],
      ['TH1 Baum auf Straße', 'Lindenweg 3, Aachen', 'Fahrbahn blockiert', 'input'],
    );
    assert.equal(
      shown.sources.map((x: { kind: string; name: string }) => [x.kind, x.name]),
      [
        ['document', 'Mail'],
        ['document', 'Fax'],
      ],
    );
    await eventually(
      async () => sms.requests.filter((r) => r.body.to === `+${gsm.slice(2)}`),
      (list) => list.length >= 1,
      'his SMS',
    );
    // The merge rang nobody: one SMS, and only this alarm's.
    const his = sms.requests.filter((r) => r.body.to === `+${gsm.slice(2)}`);
    assert.equal(
      his.map((r) => r.body.alarmId),
      [raised.alarmId],
    );
  },
);

s('IP4: what raises nothing is noted with why; wrong types, kinds and callers are refused', async (ctx) => {
  const input = await documentInput(ctx);
  assert.is((await send(ctx, input.id, 'Hallo Wache', 'text/plain')).status, 202);
  assert.is((await send(ctx, input.id, Buffer.from('%PDF-1.4\nnonsense'), 'application/pdf')).status, 202);
  const [broken, nothing] = await documents(ctx, input.id);
  assert.equal([nothing.outcome, nothing.text], ['ignored', 'Hallo Wache']);
  assert.match(nothing.reason, /event/);
  assert.is(broken.outcome, 'failed');
  assert.match(broken.reason, /PDF/);
  const got = await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/inputs/${input.id}`);
  assert.is(got.body.lastError, broken.reason);
  const jpeg = await send(ctx, input.id, Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg');
  assert.equal([jpeg.status, jpeg.body.error], [415, 'unsupported_media_type']);
  assert.is((await send(ctx, input.id, 'x', 'text/plain', member(ctx.a))).status, 403);
  assert.is((await send(ctx, input.id, 'x', 'text/plain', key(ctx.b))).status, 404);
  // Switched off: noted, raises nothing.
  const off = await documentInput(ctx, { active: false });
  assert.is((await send(ctx, off.id, fax({ Stichwort: 'B1' }), 'text/plain')).status, 202);
  assert.equal(
    (await documents(ctx, off.id)).map((d: { outcome: string; reason: string }) => [d.outcome, d.reason]),
    [['ignored', 'the input is switched off']],
  );
  const pagerIn = await client(ctx.svc.url, key(ctx.a)).post('/api/v1/inputs', {
    organizationID: ctx.a.orgId,
    name: 'Funk',
    kind: 'pager',
    settings: {},
    active: true,
  });
  expectError(await send(ctx, pagerIn.body.id, 'x', 'text/plain'), 409, 'wrong_input_kind');
});

s('IN3: a known RIC raises its alarm, its repeat merges, an FMS status reaches the room', async (ctx) => {
  const made = await client(ctx.svc.url, key(ctx.a)).post('/api/v1/inputs', {
    organizationID: ctx.a.orgId,
    name: 'Funkmeldeempfänger',
    kind: 'pager',
    settings: {
      codes: [
        { ric: '1234567', subric: 'a', event: 'Vollalarm' },
        { zvei: '25832', event: 'Sirenenalarm' },
      ],
      vehicles: [{ fms: '6112A111', name: 'HLF 20' }],
    },
    channels: ['app'],
    active: true,
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  // Its codes are this organization's: another cannot take them and read its telegrams.
  const taken = await client(ctx.svc.url, key(ctx.b)).post('/api/v1/inputs', {
    organizationID: ctx.b.orgId,
    name: 'Fremd',
    kind: 'pager',
    settings: { codes: [{ ric: '1234567', event: 'Mitlesen' }] },
    active: true,
  });
  expectError(taken, 409, 'pager_code_taken');
  const pager = (body: Record<string, unknown>, token = INBOUND) =>
    request(ctx.svc.url, 'POST', '/api/v1/inbound/pager', { body, headers: { 'Gateway-Token': token } });
  expectError(await pager({ type: 'pocsag', ric: '1234567' }, 'wrong'), 401, 'unauthorized');
  expectBadRequest(
    await pager({ type: 'pocsag' }),
    'invalid_body',
    'Pager telegram in wrong format or required field missing',
    'body',
  );
  const screen = await connectScreen(ctx.svc.url, ctx.a.apiKey);
  try {
    assert.equal((await pager({ type: 'pocsag', ric: '1234567', subric: '1', message: 'Feuer' })).body, {
      accepted: true,
    });
    assert.is((await pager({ type: 'pocsag', ric: '1234567', subric: 'a', message: 'Feuer' })).status, 202);
    assert.is((await pager({ type: 'pocsag', ric: '7654321', subric: 'a' })).status, 202);
    const entries = await eventually(
      async () => (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/inputs/${made.body.id}/documents`)).body,
      (list) => list.length === 2,
      'both telegrams noted',
    );
    assert.equal(
      entries.map((d: { outcome: string; from: string }) => [d.outcome, d.from]),
      [
        ['merged', 'RIC 1234567a'],
        ['raised', 'RIC 12345671'],
      ],
    );
    assert.is(entries[0].alarmId, entries[1].alarmId);
    const raised = await alarm(ctx, entries[1].alarmId);
    assert.equal([raised.event, raised.message, raised.source], ['Vollalarm', 'Feuer', 'input']);
    assert.is((await pager({ type: 'fms', fms: '6112a111', status: '3' })).status, 202);
    assert.is((await pager({ type: 'fms', fms: '99999999', status: '3' })).status, 202);
    await screen.waitFor(() => screen.events.some((e) => e.name === 'vehicle:status'), 30_000, 'vehicle:status');
    // BOSWatch 3's http plugin can only call a URL: the same telegram as a GET, the token in the query.
    const url = (token: string) =>
      `${ctx.svc.url}/api/v1/inbound/pager?type=zvei&zvei=25832&message=Probealarm&token=${token}`;
    assert.is((await fetch(url('wrong'))).status, 401);
    const byUrl = await fetch(url(INBOUND));
    assert.equal([byUrl.status, await byUrl.json()], [202, { accepted: true }]);
    const zvei = await eventually(
      async () => (await client(ctx.svc.url, key(ctx.a)).get(`/api/v1/inputs/${made.body.id}/documents`)).body,
      (list) => list.length === 3,
      'the ZVEI telegram noted',
    );
    assert.equal([zvei[0].from, zvei[0].outcome], ['ZVEI 25832', 'raised']);
    assert.equal((await alarm(ctx, zvei[0].alarmId)).event, 'Sirenenalarm');
    const statuses = screen.events.filter((e) => e.name === 'vehicle:status').map((e) => e.payload);
    assert.equal(
      statuses.map((e) => [e.organizationId, e.fms, e.name, e.status]),
      [[ctx.a.orgId, '6112A111', 'HLF 20', 3]],
    );
  } finally {
    screen.close();
  }
});

s.run();
