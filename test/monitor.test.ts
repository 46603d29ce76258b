// M1–M10 over the real wire: 401 → 400 → 403 → 404 → 2xx for every operation, and requests built
// from GroupAlarm's 2019 monitor document.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, MAX_SAFE_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client, request, type Credential, type Reply } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

const BASE = '/api/v1/monitor';
const MONITOR_FORMAT = 'Monitor in wrong format or required field missing';
const MONITOR_ID = 'monitor_id missing or in wrong format';
const REQUIRED_PARAMETER = 'Required parameter missing or in wrong format';
const ORGANIZATION = 'organization missing or in wrong format';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
  /** A monitor of organization A. */
  monitorId: number;
}

const key = (org: OrgFixture): Credential => ({ apiKey: org.apiKey });
const admin = (org: OrgFixture): Credential => ({ pat: org.admin.token });
const member = (org: OrgFixture): Credential => ({ pat: org.member.token });

async function createMonitor(ctx: Ctx, org: OrgFixture, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await client(ctx.svc.url, key(org)).post(BASE, { name: 'Station screen', organizationID: org.orgId, ...fields });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

async function dataOf(ctx: Ctx, id: number): Promise<{ version: number; data: any }> {
  const res = await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${id}/data`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const etag = res.headers.get('etag');
  assert.match(etag ?? '', /^"\d+"$/);
  return { version: Number(etag!.slice(1, -1)), data: res.body };
}

/** A suite with a fresh service, organizations A and B and one monitor of A. */
function area(name: string) {
  const s = suite<Ctx>(name, {} as Ctx);
  s.before(async (ctx) => {
    ctx.svc = await startTestService();
    ctx.a = await createOrg(ctx.svc);
    ctx.b = await createOrg(ctx.svc);
    ctx.monitorId = await createMonitor(ctx, ctx.a, { name: 'Hall A', standbyDelay: 75 });
  });
  s.after(async (ctx) => {
    await ctx.svc.close();
  });
  return s;
}

/** The three 401 cases every operation shares. */
function unauthorizedCases(s: ReturnType<typeof area>, label: string, method: string, target: (ctx: Ctx) => string, body?: unknown) {
  s(`${label} 401 without a credential`, async (ctx) => {
    expectError(await request(ctx.svc.url, method, target(ctx), { body }), 401, 'unauthorized');
  });
  s(`${label} 401 with an unknown token`, async (ctx) => {
    const res = await request(ctx.svc.url, method, target(ctx), { auth: { apiKey: 'ahk_' + 'x'.repeat(43) }, body });
    expectError(res, 401, 'unauthorized');
    expectError(await request(ctx.svc.url, method, target(ctx), { auth: { pat: 'ahp_unknown' }, body }), 401, 'unauthorized');
  });
  s(`${label} 401 with a token under the other scheme's header (API key as Personal-Access-Token and back)`, async (ctx) => {
    expectError(await request(ctx.svc.url, method, target(ctx), { auth: { pat: ctx.a.apiKey }, body }), 401, 'unauthorized');
    expectError(await request(ctx.svc.url, method, target(ctx), { auth: { apiKey: ctx.a.admin.token }, body }), 401, 'unauthorized');
  });
}

// ---------------------------------------------------------------- M1
const m1 = area('M1 list monitors');
unauthorizedCases(m1, 'M1', 'GET', (ctx) => `${BASE}?organization=${ctx.a.orgId}`);

m1('M1 400 when organization is missing or not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(await c.get(BASE), 'invalid_parameter', ORGANIZATION, 'query', 'organization');
  for (const bad of ['abc', '0', '-4', '1.5', '1e2', '', ABOVE_MAX_ID]) {
    expectBadRequest(await c.get(`${BASE}?organization=${bad}`), 'invalid_parameter', ORGANIZATION, 'query', 'organization');
  }
});

m1('M1 403 when listing another organization (API key of B, admin of B)', async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).get(`${BASE}?organization=${ctx.a.orgId}`), 403, 'forbidden');
  expectError(await client(ctx.svc.url, admin(ctx.b)).get(`${BASE}?organization=${ctx.a.orgId}`), 403, 'forbidden');
});

m1('M1 200 lists only the organization\'s monitors in the Monitor shape', async (ctx) => {
  const second = await createMonitor(ctx, ctx.a, { name: 'Hall A2' });
  await createMonitor(ctx, ctx.b, { name: 'Hall B' });
  const res = await client(ctx.svc.url, key(ctx.a)).get(`${BASE}?organization=${ctx.a.orgId}`);
  assert.is(res.status, 200);
  assert.equal(res.body.map((m: any) => m.id), [ctx.monitorId, second]);
  assert.equal(res.body[0], {
    id: ctx.monitorId, name: 'Hall A', organizationID: ctx.a.orgId,
    configuration: {}, configurationSplitScreen: {}, configurationStandby: {}, standbyDelay: 75,
  });
});

m1('M1 200 for a member (members read) and with the trailing slash of the 2019 paths', async (ctx) => {
  const asMember = await client(ctx.svc.url, member(ctx.a)).get(`${BASE}?organization=${ctx.a.orgId}`);
  assert.is(asMember.status, 200);
  assert.ok(asMember.body.some((m: any) => m.id === ctx.monitorId));
  const slash = await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/?organization=${ctx.a.orgId}`);
  assert.is(slash.status, 200);
  assert.equal(slash.body, asMember.body);
});

m1('M1 200 with an empty list for an organization without monitors', async (ctx) => {
  const c = await createOrg(ctx.svc);
  const res = await client(ctx.svc.url, key(c)).get(`${BASE}?organization=${c.orgId}`);
  assert.is(res.status, 200);
  assert.equal(res.body, []);
});

m1.run();

// ---------------------------------------------------------------- M3
const m3 = area('M3 create monitor');
unauthorizedCases(m3, 'M3', 'POST', () => BASE, { name: 'x', organizationID: 1 });

m3('M3 400 when the body is missing, not an object, or a required field is missing', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(await c.post(BASE), 'invalid_body', MONITOR_FORMAT, 'body');
  expectBadRequest(await c.post(BASE, []), 'invalid_body', MONITOR_FORMAT, 'body');
  expectBadRequest(await c.post(BASE, { organizationID: ctx.a.orgId }), 'invalid_body', MONITOR_FORMAT, 'body', 'name');
  expectBadRequest(await c.post(BASE, { name: 'Hall' }), 'invalid_body', MONITOR_FORMAT, 'body', 'organizationID');
});

m3('M3 400 on an unknown field or a wrong type', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const ok = { name: 'Hall', organizationID: ctx.a.orgId };
  expectBadRequest(await c.post(BASE, { ...ok, colour: 'red' }), 'invalid_body', MONITOR_FORMAT, 'body', 'colour');
  expectBadRequest(await c.post(BASE, { ...ok, name: 42 }), 'invalid_body', MONITOR_FORMAT, 'body', 'name');
  expectBadRequest(await c.post(BASE, { ...ok, name: '' }), 'invalid_body', MONITOR_FORMAT, 'body', 'name');
  expectBadRequest(await c.post(BASE, { ...ok, organizationID: '7' }), 'invalid_body', MONITOR_FORMAT, 'body', 'organizationID');
  expectBadRequest(await c.post(BASE, { ...ok, standbyDelay: -1 }), 'invalid_body', MONITOR_FORMAT, 'body', 'standbyDelay');
  expectBadRequest(await c.post(BASE, { ...ok, configuration: [] }), 'invalid_body', MONITOR_FORMAT, 'body', 'configuration');
  expectBadRequest(await c.post(BASE, { ...ok, configuration: { latitude: 123 } }), 'invalid_body', MONITOR_FORMAT, 'body', 'configuration.latitude');
});

m3('M3 400 when an ID in the body is above 2^53-1', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const raw = (fields: string) => request(ctx.svc.url, 'POST', BASE, { auth: key(ctx.a), body: `{"name":"Hall",${fields}}` });
  expectBadRequest(await raw(`"organizationID":${ABOVE_MAX_ID}`), 'invalid_body', MONITOR_FORMAT, 'body', 'organizationID');
  expectBadRequest(await raw(`"organizationID":${ctx.a.orgId},"id":${ABOVE_MAX_ID}`), 'invalid_body', MONITOR_FORMAT, 'body', 'id');
  const list = await c.get(`${BASE}?organization=${ctx.a.orgId}`);
  assert.is(list.body.length, 1, 'nothing was created by the refused requests');
});

m3('M3 403 for a member, and for an API key or admin of another organization', async (ctx) => {
  const body = { name: 'Hall', organizationID: ctx.a.orgId };
  expectError(await client(ctx.svc.url, member(ctx.a)).post(BASE, body), 403, 'forbidden');
  expectError(await client(ctx.svc.url, key(ctx.b)).post(BASE, body), 403, 'forbidden');
  expectError(await client(ctx.svc.url, admin(ctx.b)).post(BASE, body), 403, 'forbidden');
});

m3('M3 201 returns the created monitor with a new ID and every given field', async (ctx) => {
  const body = {
    name: 'Wache Nord',
    organizationID: ctx.a.orgId,
    configuration: { address: 'Hauptstraße 1, Aachen', latitude: 50.7766, longitude: 6.0834, theme: { dark: true } },
    configurationSplitScreen: { columns: 2 },
    configurationStandby: { clock: 'analog', 'key.with.dots': 1, $dollar: 'kept' },
    standbyDelay: 300,
  };
  const res = await client(ctx.svc.url, admin(ctx.a)).post(BASE, body);
  assert.is(res.status, 201);
  assert.ok(Number.isSafeInteger(res.body.id) && res.body.id > ctx.monitorId);
  assert.equal(res.body, { id: res.body.id, ...body });
  const read = await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${res.body.id}`);
  assert.equal(read.body, res.body);
});

m3('M3 201 ignores an id sent in the body (the service assigns IDs)', async (ctx) => {
  const res = await client(ctx.svc.url, key(ctx.a)).post(BASE, { id: ctx.monitorId, name: 'Copy', organizationID: ctx.a.orgId });
  assert.is(res.status, 201);
  assert.not.equal(res.body.id, ctx.monitorId);
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).body.name, 'Hall A');
});

m3('M3 201 and M2 200 store null configuration maps (Go clients send nil maps so) as empty maps', async (ctx) => {
  const api = client(ctx.svc.url, key(ctx.a));
  const created = await api.post(BASE, { name: 'Nil maps', organizationID: ctx.a.orgId, configuration: null, configurationSplitScreen: null, configurationStandby: null });
  assert.is(created.status, 201);
  assert.equal([created.body.configuration, created.body.configurationSplitScreen, created.body.configurationStandby], [{}, {}, {}]);
  await api.put(BASE, { id: created.body.id, configuration: { address: 'Marktplatz 2' } });
  const updated = await api.put(BASE, { id: created.body.id, configuration: null });
  assert.is(updated.status, 200);
  assert.equal(updated.body.configuration, {});
});

m3.run();

// ---------------------------------------------------------------- M4
const m4 = area('M4 get monitor');
unauthorizedCases(m4, 'M4', 'GET', (ctx) => `${BASE}/${ctx.monitorId}`);

m4('M4 400 when monitor_id is not a positive int64 (letters, zero, negative, fraction, above 2^53-1)', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const bad of ['abc', '0', '-3', '1.5', '1.0', '1e1', '1e400', ABOVE_MAX_ID]) {
    expectBadRequest(await c.get(`${BASE}/${bad}`), 'invalid_parameter', MONITOR_ID, 'path', 'monitor_id');
  }
});

m4('M4 404 for another organization\'s monitor (existence does not leak) and for a missing ID', async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).get(`${BASE}/${ctx.monitorId}`), 404, 'not_found');
  expectError(await client(ctx.svc.url, member(ctx.b)).get(`${BASE}/${ctx.monitorId}`), 404, 'not_found');
  expectError(await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${MAX_SAFE_ID}`), 404, 'not_found');
});

m4('M4 200 for the API key, an admin and a member of the organization', async (ctx) => {
  for (const auth of [key(ctx.a), admin(ctx.a), member(ctx.a)]) {
    const res = await client(ctx.svc.url, auth).get(`${BASE}/${ctx.monitorId}`);
    assert.is(res.status, 200);
    assert.is(res.body.id, ctx.monitorId);
    assert.is(res.body.name, 'Hall A');
    assert.is(res.body.organizationID, ctx.a.orgId);
    assert.is(res.body.standbyDelay, 75);
  }
});

m4.run();

// ---------------------------------------------------------------- M2
const m2 = area('M2 update monitor');
unauthorizedCases(m2, 'M2', 'PUT', () => BASE, { id: 1, name: 'x' });

m2('M2 400 when id is missing, not an int64 or above 2^53-1', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(await c.put(BASE), 'invalid_body', MONITOR_FORMAT, 'body');
  expectBadRequest(await c.put(BASE, { name: 'x' }), 'invalid_body', MONITOR_FORMAT, 'body', 'id');
  expectBadRequest(await c.put(BASE, { id: 'one', name: 'x' }), 'invalid_body', MONITOR_FORMAT, 'body', 'id');
  expectBadRequest(await c.put(BASE, { id: 0, name: 'x' }), 'invalid_body', MONITOR_FORMAT, 'body', 'id');
  const above = await request(ctx.svc.url, 'PUT', BASE, { auth: key(ctx.a), body: `{"id":${ABOVE_MAX_ID},"name":"x"}` });
  expectBadRequest(above, 'invalid_body', MONITOR_FORMAT, 'body', 'id');
});

m2('M2 400 on an unknown field, a wrong type, or a change of organizationID', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const id = ctx.monitorId;
  expectBadRequest(await c.put(BASE, { id, nickname: 'x' }), 'invalid_body', MONITOR_FORMAT, 'body', 'nickname');
  expectBadRequest(await c.put(BASE, { id, standbyDelay: 'soon' }), 'invalid_body', MONITOR_FORMAT, 'body', 'standbyDelay');
  expectBadRequest(await c.put(BASE, { id, organizationID: ctx.b.orgId }), 'invalid_body', MONITOR_FORMAT, 'body', 'organizationID');
  assert.is((await c.get(`${BASE}/${id}`)).body.organizationID, ctx.a.orgId);
});

m2('M2 403 for a member of the organization', async (ctx) => {
  expectError(await client(ctx.svc.url, member(ctx.a)).put(BASE, { id: ctx.monitorId, name: 'Hacked' }), 403, 'forbidden');
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).body.name, 'Hall A');
});

m2('M2 404 for another organization\'s monitor and for a missing ID', async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).put(BASE, { id: ctx.monitorId, name: 'Hacked' }), 404, 'not_found');
  expectError(await client(ctx.svc.url, admin(ctx.b)).put(BASE, { id: ctx.monitorId, name: 'Hacked' }), 404, 'not_found');
  expectError(await client(ctx.svc.url, key(ctx.a)).put(BASE, { id: MAX_SAFE_ID, name: 'x' }), 404, 'not_found');
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).body.name, 'Hall A');
});

m2('M2 200 changes only the given fields', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Before', configuration: { address: 'Old road 1' }, configurationStandby: { clock: 'digital' }, standbyDelay: 30 });
  const res = await client(ctx.svc.url, admin(ctx.a)).put(BASE, { id, standbyDelay: 600, configuration: { address: 'New road 2', latitude: 51.5 } });
  assert.is(res.status, 200);
  const expected = {
    id, name: 'Before', organizationID: ctx.a.orgId,
    configuration: { address: 'New road 2', latitude: 51.5 }, configurationSplitScreen: {}, configurationStandby: { clock: 'digital' }, standbyDelay: 600,
  };
  assert.equal(res.body, expected);
  assert.equal((await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${id}`)).body, expected);
});

m2('M2 200 when organizationID is sent unchanged (as generated clients do)', async (ctx) => {
  const res = await client(ctx.svc.url, key(ctx.a)).put(BASE, { id: ctx.monitorId, organizationID: ctx.a.orgId, name: 'Hall A renamed' });
  assert.is(res.status, 200);
  assert.is(res.body.name, 'Hall A renamed');
  assert.is(res.body.organizationID, ctx.a.orgId);
  assert.is(res.body.standbyDelay, 75);
});

m2.run();

// ---------------------------------------------------------------- M5
const m5 = area('M5 delete monitor');
unauthorizedCases(m5, 'M5', 'DELETE', (ctx) => `${BASE}/${ctx.monitorId}`);

m5('M5 400 when monitor_id is not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const bad of ['abc', '0', ABOVE_MAX_ID]) {
    expectBadRequest(await c.delete(`${BASE}/${bad}`), 'invalid_parameter', MONITOR_ID, 'path', 'monitor_id');
  }
});

m5('M5 403 for a member of the organization', async (ctx) => {
  expectError(await client(ctx.svc.url, member(ctx.a)).delete(`${BASE}/${ctx.monitorId}`), 403, 'forbidden');
});

m5('M5 404 for another organization\'s monitor and for a missing ID', async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).delete(`${BASE}/${ctx.monitorId}`), 404, 'not_found');
  expectError(await client(ctx.svc.url, key(ctx.a)).delete(`${BASE}/${MAX_SAFE_ID}`), 404, 'not_found');
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).status, 200, 'still there');
});

m5('M5 200 with a message; afterwards M4 and M6 answer 404 and M1 no longer lists it', async (ctx) => {
  const c = client(ctx.svc.url, admin(ctx.a));
  const id = await createMonitor(ctx, ctx.a, { name: 'Doomed' });
  assert.is((await c.post(`${BASE}/${id}/data/meta`, { latestAlarms: ['x'] })).status, 200);
  const res = await c.delete(`${BASE}/${id}`);
  assert.is(res.status, 200);
  assert.type(res.body.message, 'string');
  assert.equal(Object.keys(res.body), ['message']);
  expectError(await c.get(`${BASE}/${id}`), 404, 'not_found');
  expectError(await c.get(`${BASE}/${id}/data`), 404, 'not_found');
  expectError(await c.delete(`${BASE}/${id}`), 404, 'not_found');
  const list = await c.get(`${BASE}?organization=${ctx.a.orgId}`);
  assert.not.ok(list.body.some((m: any) => m.id === id));
});

m5.run();

// ---------------------------------------------------------------- M6
const m6 = area('M6 get monitor data');
unauthorizedCases(m6, 'M6', 'GET', (ctx) => `${BASE}/${ctx.monitorId}/data`);

m6('M6 400 when monitor_id is not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const bad of ['abc', '-1', ABOVE_MAX_ID]) {
    expectBadRequest(await c.get(`${BASE}/${bad}/data`), 'invalid_parameter', MONITOR_ID, 'path', 'monitor_id');
  }
});

m6('M6 404 for another organization\'s monitor and for a missing ID', async (ctx) => {
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
  { label: 'M7', method: 'POST', section: 'alarming', body: { eventId: 5, event: 'Test' }, field: 'positiveResponses', wrong: 'three' },
  { label: 'M8', method: 'PATCH', section: 'alarming', body: { positiveResponses: 2 }, field: 'awaitingResponses', wrong: -1 },
  { label: 'M9', method: 'POST', section: 'meta', body: { latestAlarms: ['a'] }, field: 'latestAlarms', wrong: 'not a list' },
  { label: 'M10', method: 'PATCH', section: 'meta', body: { pagers: { activePager: 1 } }, field: 'pagers', wrong: { activePager: 'x' } },
] as const;

const dataWrites = area('M7–M10 write monitor data');
for (const w of writes) {
  const target = (id: number | string) => `${BASE}/${id}/data/${w.section}`;
  const send = (ctx: Ctx, auth: Credential, id: number | string, body: unknown = w.body) => request(ctx.svc.url, w.method, target(id), { auth, body });
  unauthorizedCases(dataWrites, w.label, w.method, (ctx) => target(ctx.monitorId), w.body);

  dataWrites(`${w.label} 400 when monitor_id is not a positive int64 (the spec's wording for data writes)`, async (ctx) => {
    for (const bad of ['abc', '0', ABOVE_MAX_ID]) {
      expectBadRequest(await send(ctx, key(ctx.a), bad), 'invalid_parameter', REQUIRED_PARAMETER, 'path', 'monitor_id');
    }
  });

  dataWrites(`${w.label} 400 when the body is missing, has an unknown field or a wrong type`, async (ctx) => {
    const id = ctx.monitorId;
    expectBadRequest(await request(ctx.svc.url, w.method, target(id), { auth: key(ctx.a) }), 'invalid_body', REQUIRED_PARAMETER, 'body');
    expectBadRequest(await send(ctx, key(ctx.a), id, { ...w.body, colour: 'red' }), 'invalid_body', REQUIRED_PARAMETER, 'body', 'colour');
    const wrong = await send(ctx, key(ctx.a), id, { [w.field]: w.wrong });
    expectBadRequest(wrong, 'invalid_body', REQUIRED_PARAMETER, 'body');
    assert.ok(wrong.body.details[0].path.startsWith(w.field), JSON.stringify(wrong.body.details));
    if (w.method === 'PATCH') expectBadRequest(await send(ctx, key(ctx.a), id, {}), 'invalid_body', REQUIRED_PARAMETER, 'body');
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

dataWrites('M7 200 sets alarmData; a set with a new eventId adds to alarmDataList, one with a known eventId replaces it', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Split screen' });
  const c = client(ctx.svc.url, key(ctx.a));
  const first = { eventId: 4711, event: 'Brand in der Halle', message: 'Halle 3', positiveResponses: 1, geo: { address: 'Weg 1', latitude: 50.1, longitude: 6.2 } };
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
});

dataWrites('M8 200 merges the given fields into alarmData and its alarmDataList entry', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Patch target' });
  const c = client(ctx.svc.url, key(ctx.a));
  await c.post(`${BASE}/${id}/data/alarming`, { eventId: 77, event: 'Unfall A4', positiveResponses: 0, geo: { address: 'A4 km 12', latitude: 50.8 } });
  const res = await c.patch(`${BASE}/${id}/data/alarming`, { positiveResponses: 3, geo: { longitude: 6.4 } });
  assert.is(res.status, 200);
  const { data } = await dataOf(ctx, id);
  const expected = { eventId: 77, event: 'Unfall A4', positiveResponses: 3, geo: { address: 'A4 km 12', latitude: 50.8, longitude: 6.4 } };
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
  assert.equal((await dataOf(ctx, id)).data.metaData, { latestAlarms: ['Brand in Aachen', 'Unfall'], pagers: { activePager: 8, inactivePager: 3 } });
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

// ---------------------------------------------------------------- 2019 compatibility
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const referenceFile = path.resolve(repoRoot, '..', 'shared', 'reference', 'groupalarm-2019', 'monitor.openapi.json');

// Copies of the document's request examples, used when ../shared is not beside the repository.
const EMBEDDED_EXAMPLES = {
  'post /{monitor_id}/data/alarming': {
    awaitingResponses: 20, event: 'Brand in der Goethestraße',
    geo: { address: 'Goethestraße 5, 52064 Aachen, Deutschland', latitude: 50.77664, longitude: 6.08342 },
    message: 'Großbrand in der Goethestraße 5', negativeResponses: 1, positiveResponses: 2,
    units: [{
      feedback: [
        { feedback: 1, label: { color: null, name: 'AGT' }, name: 'Hans Peter', position: 'AGT' },
        { feedback: 1, label: { color: null, name: 'AGT' }, name: 'Karl Blau', position: 'AGT' },
        { feedback: 2, label: { color: null, name: 'Helfer' }, name: 'Jörg Schwarz', position: 'Helfer' },
      ],
      name: 'Einheit 1',
    }],
  },
  'patch /{monitor_id}/data/alarming': { awaitingResponses: 5, positiveResponses: 10 },
  'post /{monitor_id}/data/meta': { latestAlarms: ['Brand in Aachen', 'Unfall auf der Autobahn A4'], pagers: { activePager: 10, inactivePager: 0 } },
  'patch /{monitor_id}/data/meta': { pagers: { activePager: 5 } },
} as Record<string, Record<string, unknown>>;

interface Reference {
  basePath: string;
  example(method: string, route: string): Record<string, unknown>;
  has(method: string, route: string): boolean;
}

function loadReference(): Reference {
  if (!fs.existsSync(referenceFile)) {
    return { basePath: BASE, example: (m, r) => EMBEDDED_EXAMPLES[`${m} ${r}`], has: () => true };
  }
  const doc = JSON.parse(fs.readFileSync(referenceFile, 'utf8'));
  return {
    basePath: new URL(doc.servers[0].url).pathname,
    example(method, route) {
      const content = doc.paths[route][method].requestBody.content['application/json'];
      return content.example ?? content.schema.example;
    },
    has: (method, route) => Boolean(doc.paths[route]?.[method]),
  };
}

const compat = area('M1–M10 requests built from the 2019 GroupAlarm monitor document');
const ref = loadReference();
const call = (ctx: Ctx, method: string, route: string, id: number | null, body?: unknown) => {
  assert.ok(ref.has(method, route), `${method} ${route} is in the document`);
  const url = ref.basePath + route.replace('{monitor_id}', String(id));
  // The document's security scheme: header API-TOKEN.
  return request(ctx.svc.url, method.toUpperCase(), url, { headers: { 'API-TOKEN': ctx.a.apiKey }, body });
};

compat('the document is found beside the repository, or the embedded examples are used; both agree', () => {
  assert.is(ref.basePath, BASE);
  for (const [name, body] of Object.entries(EMBEDDED_EXAMPLES)) {
    const [method, route] = name.split(' ');
    assert.equal(ref.example(method, route), body, `embedded copy of ${name} matches the document`);
  }
});

compat('M3 and M1 200: create with the documented fields, list with the organization query', async (ctx) => {
  const created = await call(ctx, 'post', '/', null, { id: 0, name: 'Generated client', organizationID: ctx.a.orgId, configuration: { address: 'Goethestraße 5' } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const listed = await request(ctx.svc.url, 'GET', `${ref.basePath}/?organization=${ctx.a.orgId}`, { headers: { 'API-TOKEN': ctx.a.apiKey } });
  assert.is(listed.status, 200);
  assert.ok(listed.body.some((m: any) => m.id === created.body.id && m.name === 'Generated client'));
  const updated = await call(ctx, 'put', '/', null, { id: created.body.id, name: 'Renamed', organizationID: ctx.a.orgId });
  assert.is(updated.status, 200);
  assert.is(updated.body.name, 'Renamed');
});

compat('M7 and M8 200 with the documented alarming examples (label.color null, float lat/long)', async (ctx) => {
  const set = ref.example('post', '/{monitor_id}/data/alarming');
  const res = await call(ctx, 'post', '/{monitor_id}/data/alarming', ctx.monitorId, set);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const patch = ref.example('patch', '/{monitor_id}/data/alarming');
  assert.is((await call(ctx, 'patch', '/{monitor_id}/data/alarming', ctx.monitorId, patch)).status, 200);
  const data = await call(ctx, 'get', '/{monitor_id}/data', ctx.monitorId);
  assert.is(data.status, 200);
  assert.equal(data.body.alarmData, { ...set, ...patch });
});

compat('M9 and M10 200 with the documented meta examples', async (ctx) => {
  const set = ref.example('post', '/{monitor_id}/data/meta') as { pagers: Record<string, number> };
  assert.is((await call(ctx, 'post', '/{monitor_id}/data/meta', ctx.monitorId, set)).status, 200);
  const patch = ref.example('patch', '/{monitor_id}/data/meta') as { pagers: Record<string, number> };
  assert.is((await call(ctx, 'patch', '/{monitor_id}/data/meta', ctx.monitorId, patch)).status, 200);
  const data = await call(ctx, 'get', '/{monitor_id}/data', ctx.monitorId);
  assert.equal(data.body.metaData, { ...set, pagers: { ...set.pagers, ...patch.pagers } });
});

compat('M4 and M5 200 on the documented paths', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, { name: 'Via document' });
  assert.is((await call(ctx, 'get', '/{monitor_id}', id)).body.name, 'Via document');
  assert.is((await call(ctx, 'delete', '/{monitor_id}', id)).status, 200);
  assert.is((await call(ctx, 'get', '/{monitor_id}', id)).status, 404);
});

compat.run();
