// M6–M10 over the real wire: 401 → 400 → 403 → 404 → 2xx for reading and writing monitor data, its
// ETag versions and incident log.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, MAX_SAFE_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client, request, type Credential, type Reply } from './helpers/http.js';
import {
  BASE,
  MONITOR_ID,
  REQUIRED_PARAMETER,
  admin,
  area,
  createMonitor,
  dataOf,
  key,
  member,
  unauthorizedCases,
  type Ctx,
} from './helpers/monitor.js';

// ---------------------------------------------------------------- M6
const m6 = area('M6 get monitor data');
unauthorizedCases(m6, 'M6', 'GET', (ctx) => `${BASE}/${ctx.monitorId}/data`);

m6('M6 400 when monitor_id is not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const bad of ['abc', '-1', ABOVE_MAX_ID]) {
    expectBadRequest(await c.get(`${BASE}/${bad}/data`), 'invalid_parameter', MONITOR_ID, 'path', 'monitor_id');
  }
});

m6("M6 404 for another organization's monitor and for a missing ID", async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).get(`${BASE}/${ctx.monitorId}/data`), 404, 'not_found');
  expectError(await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${MAX_SAFE_ID}/data`), 404, 'not_found');
});

m6('M6 200 for a new monitor: four empty maps and ETag "0"', async (ctx) => {
  const res = await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${ctx.monitorId}/data`);
  assert.is(res.status, 200);
  assert.equal(res.body, { alarmData: {}, alarmDataList: {}, incidentLog: {}, metaData: {} });
  assert.is(res.headers.get('etag'), '"0"');
});

m6('M6 ETag rises by exactly one per M7–M10 write; If-None-Match with it answers 304', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const id = ctx.monitorId;
  const writes: Array<() => Promise<Reply>> = [
    () => c.post(`${BASE}/${id}/data/alarming`, { eventId: 31, event: 'Brand' }),
    () => c.patch(`${BASE}/${id}/data/alarming`, { positiveResponses: 4 }),
    () => c.post(`${BASE}/${id}/data/meta`, { latestAlarms: ['Brand'] }),
    () => c.patch(`${BASE}/${id}/data/meta`, { pagers: { activePager: 6 } }),
  ];
  let { version } = await dataOf(ctx, id);
  for (const write of writes) {
    const res = await write();
    assert.is(res.status, 200);
    assert.match(res.body.message, `version ${version + 1}`);
    const now = await dataOf(ctx, id);
    assert.is(now.version, version + 1);
    version = now.version;
  }
  const cached = await c.get(`${BASE}/${id}/data`, { 'If-None-Match': `"${version}"` });
  assert.is(cached.status, 304);
  assert.is(cached.body, undefined);
  assert.is(cached.headers.get('etag'), `"${version}"`);
  // RFC 9110: weak comparison and a list of tags (a gzipping proxy turns the ETag weak).
  assert.is((await c.get(`${BASE}/${id}/data`, { 'If-None-Match': `W/"${version}"` })).status, 304);
  assert.is((await c.get(`${BASE}/${id}/data`, { 'If-None-Match': `"${version - 2}", "${version}"` })).status, 304);
  const stale = await c.get(`${BASE}/${id}/data`, { 'If-None-Match': `"${version - 1}"` });
  assert.is(stale.status, 200);
  assert.is(stale.body.metaData.pagers.activePager, 6);
});

m6.run();

// ---------------------------------------------------------------- M7–M10
const writes = [
  {
    label: 'M7',
    method: 'POST',
    section: 'alarming',
    body: { eventId: 5, event: 'Test' },
    field: 'positiveResponses',
    wrong: 'three',
  },
  {
    label: 'M8',
    method: 'PATCH',
    section: 'alarming',
    body: { positiveResponses: 2 },
    field: 'awaitingResponses',
    wrong: -1,
  },
  {
    label: 'M9',
    method: 'POST',
    section: 'meta',
    body: { latestAlarms: ['a'] },
    field: 'latestAlarms',
    wrong: 'not a list',
  },
  {
    label: 'M10',
    method: 'PATCH',
    section: 'meta',
    body: { pagers: { activePager: 1 } },
    field: 'pagers',
    wrong: { activePager: 'x' },
  },
] as const;

const dataWrites = area('M7–M10 write monitor data');
for (const w of writes) {
  const target = (id: number | string) => `${BASE}/${id}/data/${w.section}`;
  const send = (ctx: Ctx, auth: Credential, id: number | string, body: unknown = w.body) =>
    request(ctx.svc.url, w.method, target(id), { auth, body });
  unauthorizedCases(dataWrites, w.label, w.method, (ctx) => target(ctx.monitorId), w.body);

  dataWrites(
    `${w.label} 400 when monitor_id is not a positive int64 (the spec's wording for data writes)`,
    async (ctx) => {
      for (const bad of ['abc', '0', ABOVE_MAX_ID]) {
        expectBadRequest(
          await send(ctx, key(ctx.a), bad),
          'invalid_parameter',
          REQUIRED_PARAMETER,
          'path',
          'monitor_id',
        );
      }
    },
  );

  dataWrites(`${w.label} 400 when the body is missing, has an unknown field or a wrong type`, async (ctx) => {
    const id = ctx.monitorId;
    expectBadRequest(
      await request(ctx.svc.url, w.method, target(id), { auth: key(ctx.a) }),
      'invalid_body',
      REQUIRED_PARAMETER,
      'body',
    );
    expectBadRequest(
      await send(ctx, key(ctx.a), id, { ...w.body, colour: 'red' }),
      'invalid_body',
      REQUIRED_PARAMETER,
      'body',
      'colour',
    );
    const wrong = await send(ctx, key(ctx.a), id, { [w.field]: w.wrong });
    expectBadRequest(wrong, 'invalid_body', REQUIRED_PARAMETER, 'body');
    assert.ok(wrong.body.details[0].path.startsWith(w.field), JSON.stringify(wrong.body.details));
    if (w.method === 'PATCH')
      expectBadRequest(await send(ctx, key(ctx.a), id, {}), 'invalid_body', REQUIRED_PARAMETER, 'body');
  });

  dataWrites(`${w.label} 403 for a member of the organization (members read, admins write)`, async (ctx) => {
    const before = await dataOf(ctx, ctx.monitorId);
    expectError(await send(ctx, member(ctx.a), ctx.monitorId), 403, 'forbidden');
    assert.is((await dataOf(ctx, ctx.monitorId)).version, before.version, 'the refused write left no version');
  });

  dataWrites(`${w.label} 404 for another organization's monitor and for a missing ID`, async (ctx) => {
    expectError(await send(ctx, key(ctx.b), ctx.monitorId), 404, 'not_found');
    expectError(await send(ctx, admin(ctx.b), ctx.monitorId), 404, 'not_found');
    expectError(await send(ctx, key(ctx.a), MAX_SAFE_ID), 404, 'not_found');
  });

  dataWrites(`${w.label} 200 with a message for an admin's personal token`, async (ctx) => {
    const res = await send(ctx, admin(ctx.a), ctx.monitorId);
    assert.is(res.status, 200);
    assert.equal(Object.keys(res.body), ['message']);
    assert.match(res.body.message, /version \d+/);
  });
}

dataWrites(
  'M7 200 sets alarmData; a set with a new eventId adds to alarmDataList, one with a known eventId replaces it',
  async (ctx) => {
    const id = await createMonitor(ctx, ctx.a, { name: 'Split screen' });
    const c = client(ctx.svc.url, key(ctx.a));
    const first = {
      eventId: 4711,
      event: 'Brand in der Halle',
      message: 'Halle 3',
      positiveResponses: 1,
      geo: { address: 'Weg 1', latitude: 50.1, longitude: 6.2 },
    };
    const second = { eventId: 4712, event: 'Wasser im Keller', awaitingResponses: 9 };
    assert.is((await c.post(`${BASE}/${id}/data/alarming`, first)).status, 200);
    let { data } = await dataOf(ctx, id);
    assert.equal(data.alarmData, first);
    assert.equal(data.alarmDataList, { 4711: first });
    assert.is((await c.post(`${BASE}/${id}/data/alarming`, second)).status, 200);
    ({ data } = await dataOf(ctx, id));
    assert.equal(data.alarmData, second, 'a set replaces alarmData completely');
    assert.equal(data.alarmDataList, { 4711: first, 4712: second });
    const replaced = { eventId: 4711, event: 'Großbrand in der Halle' };
    assert.is((await c.post(`${BASE}/${id}/data/alarming`, replaced)).status, 200);
    ({ data } = await dataOf(ctx, id));
    assert.equal(data.alarmDataList, { 4711: replaced, 4712: second });
  },
);

dataWrites(
  'M7 {} clears the whole wall: after events 4720 and 4730, alarmData and alarmDataList are empty',
  async (ctx) => {
    const id = await createMonitor(ctx, ctx.a, { name: 'Two events' });
    const c = client(ctx.svc.url, key(ctx.a));
    assert.is((await c.post(`${BASE}/${id}/data/alarming`, { eventId: 4720, event: 'B3 Wohnungsbrand' })).status, 200);
    assert.is((await c.post(`${BASE}/${id}/data/alarming`, { eventId: 4730, event: 'TH Ölspur' })).status, 200);
    assert.is((await c.post(`${BASE}/${id}/data/alarming`, {})).status, 200);
    const { data } = await dataOf(ctx, id);
    assert.equal(data.alarmData, {});
    assert.equal(data.alarmDataList, {}, 'no event is left to keep the wall red');
    expectError(
      await c.patch(`${BASE}/${id}/data/alarming`, { eventId: 4720, positiveResponses: 2 }),
      409,
      'no_active_alarm',
    );
  },
);

dataWrites('M8 200 merges the given fields into alarmData and its alarmDataList entry', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Patch target' });
  const c = client(ctx.svc.url, key(ctx.a));
  await c.post(`${BASE}/${id}/data/alarming`, {
    eventId: 77,
    event: 'Unfall A4',
    positiveResponses: 0,
    geo: { address: 'A4 km 12', latitude: 50.8 },
  });
  const res = await c.patch(`${BASE}/${id}/data/alarming`, { positiveResponses: 3, geo: { longitude: 6.4 } });
  assert.is(res.status, 200);
  const { data } = await dataOf(ctx, id);
  const expected = {
    eventId: 77,
    event: 'Unfall A4',
    positiveResponses: 3,
    geo: { address: 'A4 km 12', latitude: 50.8, longitude: 6.4 },
  };
  assert.equal(data.alarmData, expected);
  assert.equal(data.alarmDataList['77'], expected);
});

dataWrites('M9 200 replaces the meta data; M10 merge-patches pagers and keeps the other counter', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Meta target' });
  const c = client(ctx.svc.url, key(ctx.a));
  await c.post(`${BASE}/${id}/data/meta`, { latestAlarms: ['old'], tables: { shifts: [1] } });
  const meta = { latestAlarms: ['Brand in Aachen', 'Unfall'], pagers: { activePager: 12, inactivePager: 3 } };
  assert.is((await c.post(`${BASE}/${id}/data/meta`, meta)).status, 200);
  assert.equal((await dataOf(ctx, id)).data.metaData, meta, 'a set replaces metaData (tables gone)');
  assert.is((await c.patch(`${BASE}/${id}/data/meta`, { pagers: { activePager: 8 } })).status, 200);
  assert.equal((await dataOf(ctx, id)).data.metaData, {
    latestAlarms: ['Brand in Aachen', 'Unfall'],
    pagers: { activePager: 8, inactivePager: 3 },
  });
});

dataWrites('M7 and M9 200 with PUT as well as POST', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'PUT target' });
  const c = client(ctx.svc.url, key(ctx.a));
  assert.is((await c.put(`${BASE}/${id}/data/alarming`, { eventId: 901, event: 'Per PUT' })).status, 200);
  assert.is((await c.put(`${BASE}/${id}/data/meta`, { latestAlarms: ['Per PUT'] })).status, 200);
  const { version, data } = await dataOf(ctx, id);
  assert.is(version, 2);
  assert.is(data.alarmData.event, 'Per PUT');
  assert.equal(data.metaData, { latestAlarms: ['Per PUT'] });
});

dataWrites('M7–M10 200: every write adds one incidentLog entry keyed by RFC 3339 time', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Log target' });
  const c = client(ctx.svc.url, key(ctx.a));
  const steps = [
    () => c.post(`${BASE}/${id}/data/alarming`, { eventId: 1, event: 'Brand' }),
    () => c.patch(`${BASE}/${id}/data/alarming`, { negativeResponses: 2 }),
    () => c.post(`${BASE}/${id}/data/meta`, { latestAlarms: ['Brand'] }),
    () => c.patch(`${BASE}/${id}/data/meta`, { latestAlarms: [] }),
  ];
  for (const [i, step] of steps.entries()) {
    assert.is((await step()).status, 200);
    const log = (await dataOf(ctx, id)).data.incidentLog;
    const keys = Object.keys(log);
    assert.is(keys.length, i + 1);
    assert.ok(keys.every((k) => !Number.isNaN(Date.parse(k)) && typeof log[k] === 'string' && log[k].length > 0));
  }
});

dataWrites('M7 200: an event whose eventEndDate has passed is not listed in alarmDataList', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Ended target' });
  const c = client(ctx.svc.url, key(ctx.a));
  await c.post(`${BASE}/${id}/data/alarming`, { eventId: 10, eventEndDate: '2020-01-01T00:00:00Z' });
  await c.post(`${BASE}/${id}/data/alarming`, { eventId: 11, eventEndDate: '2999-01-01T00:00:00Z' });
  assert.equal(Object.keys((await dataOf(ctx, id)).data.alarmDataList), ['11']);
});

dataWrites('M6 200 for a member after writes: members read the data they may not write', async (ctx) => {
  const res = await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${ctx.monitorId}/data`);
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['alarmData', 'alarmDataList', 'incidentLog', 'metaData']);
  assert.ok(Object.keys(res.body.incidentLog).length >= 4);
});

dataWrites.run();
