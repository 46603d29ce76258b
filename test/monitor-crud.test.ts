// M1–M5 over the real wire: 401 → 400 → 403 → 404 → 2xx for listing, creating, reading, updating and
// deleting monitors.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, MAX_SAFE_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import {
  BASE,
  MONITOR_FORMAT,
  MONITOR_ID,
  ORGANIZATION,
  admin,
  area,
  createMonitor,
  key,
  member,
  unauthorizedCases,
} from './helpers/monitor.js';
import { createOrg } from './helpers/service.js';

// ---------------------------------------------------------------- M1
const m1 = area('M1 list monitors');
unauthorizedCases(m1, 'M1', 'GET', (ctx) => `${BASE}?organization=${ctx.a.orgId}`);

m1('M1 400 when organization is missing or not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(await c.get(BASE), 'invalid_parameter', ORGANIZATION, 'query', 'organization');
  for (const bad of ['abc', '0', '-4', '1.5', '1e2', '', ABOVE_MAX_ID]) {
    expectBadRequest(
      await c.get(`${BASE}?organization=${bad}`),
      'invalid_parameter',
      ORGANIZATION,
      'query',
      'organization',
    );
  }
});

m1('M1 403 when listing another organization (API key of B, admin of B)', async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).get(`${BASE}?organization=${ctx.a.orgId}`), 403, 'forbidden');
  expectError(await client(ctx.svc.url, admin(ctx.b)).get(`${BASE}?organization=${ctx.a.orgId}`), 403, 'forbidden');
});

m1("M1 200 lists only the organization's monitors in the Monitor shape", async (ctx) => {
  const second = await createMonitor(ctx, ctx.a, { name: 'Hall A2' });
  await createMonitor(ctx, ctx.b, { name: 'Hall B' });
  const res = await client(ctx.svc.url, key(ctx.a)).get(`${BASE}?organization=${ctx.a.orgId}`);
  assert.is(res.status, 200);
  assert.equal(
    res.body.map((m: any) => m.id),
    [ctx.monitorId, second],
  );
  assert.equal(res.body[0], {
    id: ctx.monitorId,
    name: 'Hall A',
    organizationID: ctx.a.orgId,
    configuration: {},
    configurationSplitScreen: {},
    configurationStandby: {},
    standbyDelay: 75,
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
  expectBadRequest(
    await c.post(BASE, { ...ok, organizationID: '7' }),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'organizationID',
  );
  expectBadRequest(
    await c.post(BASE, { ...ok, standbyDelay: -1 }),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'standbyDelay',
  );
  expectBadRequest(
    await c.post(BASE, { ...ok, configuration: [] }),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'configuration',
  );
  expectBadRequest(
    await c.post(BASE, { ...ok, configuration: { latitude: 123 } }),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'configuration.latitude',
  );
});

m3('M3 400 when an ID in the body is above 2^53-1', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const raw = (fields: string) =>
    request(ctx.svc.url, 'POST', BASE, { auth: key(ctx.a), body: `{"name":"Hall",${fields}}` });
  expectBadRequest(
    await raw(`"organizationID":${ABOVE_MAX_ID}`),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'organizationID',
  );
  expectBadRequest(
    await raw(`"organizationID":${ctx.a.orgId},"id":${ABOVE_MAX_ID}`),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'id',
  );
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
  const res = await client(ctx.svc.url, key(ctx.a)).post(BASE, {
    id: ctx.monitorId,
    name: 'Copy',
    organizationID: ctx.a.orgId,
  });
  assert.is(res.status, 201);
  assert.not.equal(res.body.id, ctx.monitorId);
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).body.name, 'Hall A');
});

m3('M3 201 and M2 200 store null configuration maps (Go clients send nil maps so) as empty maps', async (ctx) => {
  const api = client(ctx.svc.url, key(ctx.a));
  const created = await api.post(BASE, {
    name: 'Nil maps',
    organizationID: ctx.a.orgId,
    configuration: null,
    configurationSplitScreen: null,
    configurationStandby: null,
  });
  assert.is(created.status, 201);
  assert.equal(
    [created.body.configuration, created.body.configurationSplitScreen, created.body.configurationStandby],
    [{}, {}, {}],
  );
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

m4("M4 404 for another organization's monitor (existence does not leak) and for a missing ID", async (ctx) => {
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
  const above = await request(ctx.svc.url, 'PUT', BASE, {
    auth: key(ctx.a),
    body: `{"id":${ABOVE_MAX_ID},"name":"x"}`,
  });
  expectBadRequest(above, 'invalid_body', MONITOR_FORMAT, 'body', 'id');
});

m2('M2 400 on an unknown field, a wrong type, or a change of organizationID', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const id = ctx.monitorId;
  expectBadRequest(await c.put(BASE, { id, nickname: 'x' }), 'invalid_body', MONITOR_FORMAT, 'body', 'nickname');
  expectBadRequest(
    await c.put(BASE, { id, standbyDelay: 'soon' }),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'standbyDelay',
  );
  expectBadRequest(
    await c.put(BASE, { id, organizationID: ctx.b.orgId }),
    'invalid_body',
    MONITOR_FORMAT,
    'body',
    'organizationID',
  );
  assert.is((await c.get(`${BASE}/${id}`)).body.organizationID, ctx.a.orgId);
});

m2('M2 403 for a member of the organization', async (ctx) => {
  expectError(
    await client(ctx.svc.url, member(ctx.a)).put(BASE, { id: ctx.monitorId, name: 'Hacked' }),
    403,
    'forbidden',
  );
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).body.name, 'Hall A');
});

m2("M2 404 for another organization's monitor and for a missing ID", async (ctx) => {
  expectError(await client(ctx.svc.url, key(ctx.b)).put(BASE, { id: ctx.monitorId, name: 'Hacked' }), 404, 'not_found');
  expectError(
    await client(ctx.svc.url, admin(ctx.b)).put(BASE, { id: ctx.monitorId, name: 'Hacked' }),
    404,
    'not_found',
  );
  expectError(await client(ctx.svc.url, key(ctx.a)).put(BASE, { id: MAX_SAFE_ID, name: 'x' }), 404, 'not_found');
  assert.is((await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${ctx.monitorId}`)).body.name, 'Hall A');
});

m2('M2 200 changes only the given fields', async (ctx) => {
  const id = await createMonitor(ctx, ctx.a, {
    name: 'Before',
    configuration: { address: 'Old road 1' },
    configurationStandby: { clock: 'digital' },
    standbyDelay: 30,
  });
  const res = await client(ctx.svc.url, admin(ctx.a)).put(BASE, {
    id,
    standbyDelay: 600,
    configuration: { address: 'New road 2', latitude: 51.5 },
  });
  assert.is(res.status, 200);
  const expected = {
    id,
    name: 'Before',
    organizationID: ctx.a.orgId,
    configuration: { address: 'New road 2', latitude: 51.5 },
    configurationSplitScreen: {},
    configurationStandby: { clock: 'digital' },
    standbyDelay: 600,
  };
  assert.equal(res.body, expected);
  assert.equal((await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/${id}`)).body, expected);
});

m2('M2 200 when organizationID is sent unchanged (as generated clients do)', async (ctx) => {
  const res = await client(ctx.svc.url, key(ctx.a)).put(BASE, {
    id: ctx.monitorId,
    organizationID: ctx.a.orgId,
    name: 'Hall A renamed',
  });
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

m5("M5 404 for another organization's monitor and for a missing ID", async (ctx) => {
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
