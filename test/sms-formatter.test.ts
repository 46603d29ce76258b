// S7/S8 text formatter over the real wire, and every formatter's text from the monitor's alarming data.
import * as assert from 'uvu/assert';
import { suite } from './helpers/suite.js';
import { FORMATTER_NAMES } from '../schemas/sms.js';
import { formatSms } from '../server/areas/sms/formatters.js';
import { gsm7Units, segmentsOf, toGsm7 } from '../server/areas/sms/gsm7.js';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { admin, channelSuite, key, member, pat, unauthorizedCases } from './helpers/channels.js';

const PATH = '/api/v1/sms/formatter';
const ORGANIZATION = 'organization missing or in wrong format';
const BODY = 'Body missing or in wrong format';

const s = channelSuite('S7/S8 sms text formatter');
unauthorizedCases(s, 'S7', 'GET', (ctx) => `${PATH}?organization=${ctx.a.orgId}`);
unauthorizedCases(s, 'S8', 'PUT', () => PATH, { organizationID: 1, textFormatterName: 'compact' });

s('S7 400 when organization is missing or malformed; S8 400 for a wrong body or an unknown formatter', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const q of [
    '',
    '?organization=x',
    '?organization=0',
    `?organization=${ABOVE_MAX_ID}`,
    `?organization_id=${ctx.a.orgId}`,
  ]) {
    expectBadRequest(await c.get(`${PATH}${q}`), 'invalid_parameter', ORGANIZATION, 'query', 'organization');
  }
  expectBadRequest(await c.put(PATH), 'invalid_body', BODY, 'body');
  expectBadRequest(
    await c.put(PATH, { organizationID: ctx.a.orgId }),
    'invalid_body',
    BODY,
    'body',
    'textFormatterName',
  );
  expectBadRequest(
    await c.put(PATH, { organizationID: ctx.a.orgId, textFormatterName: 'fancy' }),
    'invalid_body',
    BODY,
    'body',
    'textFormatterName',
  );
  expectBadRequest(await c.put(PATH, { textFormatterName: 'compact' }), 'invalid_body', BODY, 'body', 'organizationID');
});

s('S7 403 outside the organization; S8 403 for members and other organizations', async (ctx) => {
  for (const auth of [key(ctx.b), admin(ctx.b), pat(ctx.loner)]) {
    expectError(await client(ctx.svc.url, auth).get(`${PATH}?organization=${ctx.a.orgId}`), 403, 'forbidden');
    expectError(
      await client(ctx.svc.url, auth).put(PATH, { organizationID: ctx.a.orgId, textFormatterName: 'compact' }),
      403,
      'forbidden',
    );
  }
  expectError(
    await client(ctx.svc.url, member(ctx.a)).put(PATH, { organizationID: ctx.a.orgId, textFormatterName: 'compact' }),
    403,
    'forbidden',
  );
});

s('S7 200 answers standard until set; S8 200 sets it for that organization only', async (ctx) => {
  const read = async (auth = member(ctx.a)) =>
    (await client(ctx.svc.url, auth).get(`${PATH}?organization=${ctx.a.orgId}`)).body;
  assert.equal(await read(), { organizationID: ctx.a.orgId, textFormatterName: 'standard' });
  const set = await client(ctx.svc.url, admin(ctx.a)).put(PATH, {
    organizationID: ctx.a.orgId,
    textFormatterName: 'detailed',
  });
  assert.is(set.status, 200);
  assert.equal(set.body, { organizationID: ctx.a.orgId, textFormatterName: 'detailed' });
  assert.equal(await read(), set.body);
  assert.equal(
    (await client(ctx.svc.url, key(ctx.a)).put(PATH, { organizationID: ctx.a.orgId, textFormatterName: 'compact' }))
      .body.textFormatterName,
    'compact',
  );
  assert.equal(await read(key(ctx.a)), { organizationID: ctx.a.orgId, textFormatterName: 'compact' });
  assert.equal((await client(ctx.svc.url, key(ctx.b)).get(`${PATH}?organization=${ctx.b.orgId}`)).body, {
    organizationID: ctx.b.orgId,
    textFormatterName: 'standard',
  });
});

s('S8 enum in /openapi.json lists exactly the implemented formatters', async (ctx) => {
  const doc = (await client(ctx.svc.url, null).get('/openapi.json')).body;
  assert.equal(doc.components.schemas.TextFormatter.properties.textFormatterName.enum, [...FORMATTER_NAMES]);
});

s.run();

// ---------------------------------------------------------------- the formatters themselves
const f = suite('sms formatters');

// The example of docs/api.md (the monitor area's alarming data, as M7 takes it).
const ALARM = {
  eventId: 4711,
  event: 'B3 Wohnungsbrand',
  message: 'Rauch aus Fenster 2. OG – Person vermisst',
  eventStartDate: '2026-11-22T14:00:00Z',
  geo: { address: 'Goethestraße 5, 52064 Aachen', latitude: 50.77664, longitude: 6.08342 },
  positiveResponses: 2,
  negativeResponses: 0,
  awaitingResponses: 5,
};

f('standard: event, address and message on their own lines, in GSM-7 (the dash transliterated)', () => {
  assert.equal(formatSms('standard', ALARM), {
    text: 'B3 Wohnungsbrand\nGoethestraße 5, 52064 Aachen\nRauch aus Fenster 2. OG - Person vermisst',
    segments: 1,
  });
});

f('compact: one line, cut to one segment of 160 units with "..."', () => {
  assert.equal(
    formatSms('compact', ALARM).text,
    'B3 Wohnungsbrand | Goethestraße 5, 52064 Aachen | Rauch aus Fenster 2. OG - Person vermisst',
  );
  const long = formatSms('compact', { ...ALARM, message: 'Lage: '.repeat(60) });
  assert.is(long.segments, 1);
  assert.is(gsm7Units(long.text), 160);
  assert.ok(long.text.endsWith('...'));
});

f('detailed: adds start time in UTC, a map link and the responses; says it needs two segments', () => {
  const out = formatSms('detailed', ALARM);
  assert.is(
    out.text,
    [
      'B3 Wohnungsbrand',
      'Goethestraße 5, 52064 Aachen',
      'Rauch aus Fenster 2. OG - Person vermisst',
      'Start: 2026-11-22 14:00 UTC',
      'Map: https://www.openstreetmap.org/?mlat=50.77664&mlon=6.08342#map=17/50.77664/6.08342',
      'Responses: 2 yes, 0 no, 5 open',
    ].join('\n'),
  );
  assert.is(out.segments, 2);
});

f('every formatter copes with empty alarming data and caps long texts at six segments', () => {
  for (const name of FORMATTER_NAMES) {
    assert.is(formatSms(name, {}).text, 'Alarm');
    const huge = formatSms(name, { message: 'x'.repeat(5_000) });
    assert.ok(huge.segments <= 6, `${name}: ${huge.segments} segments`);
  }
});

f('GSM-7: extension characters count twice, segments of 160 then 153, foreign letters transliterated', () => {
  assert.is(gsm7Units('a€[b'), 6);
  assert.is(segmentsOf('x'.repeat(160)), 1);
  assert.is(segmentsOf('x'.repeat(161)), 2);
  assert.is(segmentsOf('x'.repeat(307)), 3);
  assert.is(toGsm7('Łódź „Nord“ — 50°'), 'Lodz "Nord" - 50o');
  assert.is(toGsm7('Straße Ärztin ñ 🚒'), 'Straße Ärztin ñ ?');
});

f.run();
