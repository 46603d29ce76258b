// T1–T4 over the real wire: 401 → 400 → 403 → 404 → 2xx for listing, creating, reading and updating
// entities, field IDs across updates, and updates that would corrupt records or rules being refused.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { createOrg } from './helpers/service.js';
import {
  ALL_FIELDS,
  BASE,
  addMember,
  admin,
  area,
  createEntity,
  createRecord,
  key,
  member,
  pat,
  rejectsWithoutCredential,
} from './helpers/things.js';

const ENTITY_BODY = 'Entity in wrong format or required field missing';
const UUID_WORDING = 'uuid missing or in wrong format';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UNKNOWN = '3f0b8c1e-2d4a-4c6b-9e8f-1a2b3c4d5e6f';

// ---------------------------------------------------------------- T1
const t1 = area('T1 list entities');
rejectsWithoutCredential(t1, 'T1', 'GET', (ctx) => `${BASE}/entities?organization_id=${ctx.a.orgId}`);

t1('T1 400 when organization_id is missing or wrong, or limit, offset or search are out of bounds', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const message = 'organization_id, limit, offset or search missing or in wrong format';
  expectBadRequest(await c.get(`${BASE}/entities`), 'invalid_parameter', message, 'query', 'organization_id');
  for (const bad of ['abc', '0', '1.5', ABOVE_MAX_ID]) {
    expectBadRequest(
      await c.get(`${BASE}/entities?organization_id=${bad}`),
      'invalid_parameter',
      message,
      'query',
      'organization_id',
    );
  }
  const org = `organization_id=${ctx.a.orgId}`;
  for (const [query, path] of [
    ['limit=0', 'limit'],
    ['limit=51', 'limit'],
    ['limit=x', 'limit'],
    ['offset=-1', 'offset'],
    [`search=${'s'.repeat(201)}`, 'search'],
  ]) {
    expectBadRequest(await c.get(`${BASE}/entities?${org}&${query}`), 'invalid_parameter', message, 'query', path);
  }
});

t1("T1 403 for another organization's API key or admin, and for a user of no organization", async (ctx) => {
  const url = `${BASE}/entities?organization_id=${ctx.a.orgId}`;
  expectError(await client(ctx.svc.url, key(ctx.b)).get(url), 403, 'forbidden');
  expectError(await client(ctx.svc.url, admin(ctx.b)).get(url), 403, 'forbidden');
  const loner = await ctx.svc.identity.createUser('loner');
  const token = (await ctx.svc.identity.createPersonalToken(loner.id, 'x')).token;
  expectError(await client(ctx.svc.url, { pat: token }).get(url), 403, 'forbidden');
});

t1(
  'T1 200 lists every entity for the API key and admins, only granted ones for members, with canRead/canWrite',
  async (ctx) => {
    const hidden = await createEntity(ctx.svc, ctx.a, { name: 'Vehicles', fields: [] });
    await createEntity(ctx.svc, ctx.b, { name: 'Other org' });
    const url = `${BASE}/entities?organization_id=${ctx.a.orgId}`;
    const asKey = await client(ctx.svc.url, key(ctx.a)).get(url);
    assert.is(asKey.status, 200);
    assert.is(asKey.body.total, 2);
    assert.equal(
      asKey.body.entities.map((e: any) => e.name),
      ['Hydrants', 'Vehicles'],
    );
    assert.equal(asKey.body.entities[1], {
      id: hidden.id,
      name: 'Vehicles',
      description: '',
      icon: '',
      organizationID: ctx.a.orgId,
      fields: [],
      readOnlyUserIDs: [],
      readWriteUserIDs: [],
      recordCount: 0,
      canRead: true,
      canWrite: true,
    });
    const asAdmin = await client(ctx.svc.url, admin(ctx.a)).get(url);
    assert.equal(
      asAdmin.body.entities.map((e: any) => [e.name, e.canRead, e.canWrite]),
      [
        ['Hydrants', true, true],
        ['Vehicles', true, true],
      ],
    );
    const asReader = await client(ctx.svc.url, pat(ctx.reader)).get(url);
    assert.equal(
      { total: asReader.body.total, rights: asReader.body.entities.map((e: any) => [e.id, e.canRead, e.canWrite]) },
      { total: 1, rights: [[ctx.entity.id, true, false]] },
    );
    const asWriter = await client(ctx.svc.url, pat(ctx.writer)).get(url);
    assert.equal(
      asWriter.body.entities.map((e: any) => [e.id, e.canRead, e.canWrite]),
      [[ctx.entity.id, true, true]],
    );
    const asMember = await client(ctx.svc.url, member(ctx.a)).get(url);
    assert.equal(asMember.body, { entities: [], total: 0 });
  },
);

t1('T1 200 pages with limit/offset (default 10) and searches part of the name in any case', async (ctx) => {
  const org = await createOrg(ctx.svc);
  for (let i = 1; i <= 12; i++) await createEntity(ctx.svc, org, { name: `Station ${i}`, fields: [] });
  await createEntity(ctx.svc, org, { name: 'Hose reels', fields: [] });
  const c = client(ctx.svc.url, key(org));
  const first = await c.get(`${BASE}/entities?organization_id=${org.orgId}`);
  assert.is(first.body.total, 13);
  assert.is(first.body.entities.length, 10);
  assert.is(first.body.entities[0].name, 'Hose reels');
  const page = await c.get(`${BASE}/entities?organization_id=${org.orgId}&limit=3&offset=4`);
  assert.equal(
    page.body.entities.map((e: any) => e.name),
    ['Station 4', 'Station 5', 'Station 6'],
  );
  const found = await c.get(`${BASE}/entities?organization_id=${org.orgId}&search=sTaTiOn%201`);
  assert.equal(
    { total: found.body.total, names: found.body.entities.map((e: any) => e.name) },
    { total: 4, names: ['Station 1', 'Station 10', 'Station 11', 'Station 12'] },
  );
  // Plain text: pattern characters match themselves only.
  assert.is((await c.get(`${BASE}/entities?organization_id=${org.orgId}&search=.*`)).body.total, 0);
});

t1('T1 200 recordCount per listed entity is exact', async (ctx) => {
  const org = await createOrg(ctx.svc);
  const e1 = await createEntity(ctx.svc, org, { name: 'A', fields: [{ name: 'n', type: 'text' }] });
  const e2 = await createEntity(ctx.svc, org, { name: 'B', fields: [{ name: 'n', type: 'text' }] });
  const c = client(ctx.svc.url, key(org));
  for (let i = 0; i < 3; i++)
    assert.is((await c.post(`${BASE}/entities/${e1.id}/records`, { values: [] })).status, 201);
  assert.is((await c.post(`${BASE}/entities/${e2.id}/records`, { values: [] })).status, 201);
  const res = await c.get(`${BASE}/entities?organization_id=${org.orgId}`);
  assert.equal(
    res.body.entities.map((e: any) => e.recordCount),
    [3, 1],
  );
});

t1.run();

// ---------------------------------------------------------------- T2
const t2 = area('T2 create entity');
rejectsWithoutCredential(t2, 'T2', 'POST', () => `${BASE}/entities`, { name: 'x', organizationID: 1 });

t2('T2 400 when the body is missing or a required field is missing, unknown or of the wrong type', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const ok = { name: 'Vehicles', organizationID: ctx.a.orgId };
  expectBadRequest(await c.post(`${BASE}/entities`), 'invalid_body', ENTITY_BODY, 'body');
  expectBadRequest(
    await c.post(`${BASE}/entities`, { organizationID: ctx.a.orgId }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'name',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities`, { name: 'x' }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'organizationID',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities`, { ...ok, colour: 'red' }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'colour',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities`, { ...ok, canRead: true }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'canRead',
  );
  expectBadRequest(await c.post(`${BASE}/entities`, { ...ok, name: '' }), 'invalid_body', ENTITY_BODY, 'body', 'name');
  expectBadRequest(
    await c.post(`${BASE}/entities`, { ...ok, fields: [{ name: 'f', type: 'colour' }] }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'fields.0.type',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities`, {
      ...ok,
      fields: Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, type: 'text' })),
    }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'fields',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities`, { ...ok, icon: 'truck' }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'icon',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities`, { ...ok, readWriteUserIDs: [Number(ABOVE_MAX_ID)] }),
    'invalid_body',
    ENTITY_BODY,
    'body',
    'readWriteUserIDs.0',
  );
});

t2(
  'T2 400 naming the problem for selection values, duplicate field names and users who are not members',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const ok = { name: 'Vehicles', organizationID: ctx.a.orgId };
    let res = await c.post(`${BASE}/entities`, { ...ok, fields: [{ name: 'Kind', type: 'selection' }] });
    expectBadRequest(
      res,
      'invalid_body',
      'Field "Kind" of type selection needs selectionValues',
      'body',
      'fields.0.selectionValues',
    );
    res = await c.post(`${BASE}/entities`, {
      ...ok,
      fields: [{ name: 'Seats', type: 'number', selectionValues: ['1'] }],
    });
    expectBadRequest(
      res,
      'invalid_body',
      'Field "Seats" of type number takes no selectionValues',
      'body',
      'fields.0.selectionValues',
    );
    res = await c.post(`${BASE}/entities`, {
      ...ok,
      fields: [
        { name: 'Seats', type: 'number' },
        { name: 'seats ', type: 'text' },
      ],
    });
    expectBadRequest(
      res,
      'invalid_body',
      'Two fields are named "seats " (names are compared without case)',
      'body',
      'fields.1.name',
    );
    res = await c.post(`${BASE}/entities`, { ...ok, readOnlyUserIDs: [ctx.reader.userId, ctx.b.admin.userId] });
    expectBadRequest(
      res,
      'invalid_body',
      `User ${ctx.b.admin.userId} in readOnlyUserIDs is not a member of the organization`,
      'body',
      'readOnlyUserIDs.1',
    );
  },
);

t2("T2 403 for members (granted or not) and for another organization's key or admin", async (ctx) => {
  const body = { name: 'Vehicles', organizationID: ctx.a.orgId };
  for (const auth of [member(ctx.a), pat(ctx.writer), key(ctx.b), admin(ctx.b)]) {
    expectError(await client(ctx.svc.url, auth).post(`${BASE}/entities`, body), 403, 'forbidden');
  }
});

t2('T2 201 with the full entity: new field UUIDs (sent ones ignored), defaults, rights, recordCount 0', async (ctx) => {
  const body = {
    id: 'ignored',
    recordCount: 99,
    name: 'Vehicles',
    description: 'Our fleet',
    icon: '🚒',
    organizationID: ctx.a.orgId,
    fields: [
      { id: 'mine', name: 'Call sign', type: 'text' },
      { name: 'Status', type: 'selection', selectionValues: ['ready', 'away'] },
    ],
    readOnlyUserIDs: [ctx.reader.userId],
    readWriteUserIDs: [ctx.writer.userId],
  };
  const res = await client(ctx.svc.url, admin(ctx.a)).post(`${BASE}/entities`, body);
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.match(res.body.id, UUID_RE);
  assert.ok(res.body.fields.every((f: any) => UUID_RE.test(f.id)));
  assert.equal(res.body, {
    id: res.body.id,
    name: 'Vehicles',
    description: 'Our fleet',
    icon: '🚒',
    organizationID: ctx.a.orgId,
    fields: [
      { id: res.body.fields[0].id, name: 'Call sign', type: 'text', selectionValues: [] },
      { id: res.body.fields[1].id, name: 'Status', type: 'selection', selectionValues: ['ready', 'away'] },
    ],
    readOnlyUserIDs: [ctx.reader.userId],
    readWriteUserIDs: [ctx.writer.userId],
    recordCount: 0,
    canRead: true,
    canWrite: true,
  });
  const flag = await client(ctx.svc.url, key(ctx.a)).post(`${BASE}/entities`, {
    name: 'Flags',
    organizationID: ctx.a.orgId,
    icon: '🇩🇪',
  });
  assert.is(flag.status, 201);
});

t2.run();

// ---------------------------------------------------------------- T3
const t3 = area('T3 get entity');
rejectsWithoutCredential(t3, 'T3', 'GET', (ctx) => `${BASE}/entities/${ctx.entity.id}`);

t3('T3 400 when uuid is not a UUID', async (ctx) => {
  for (const bad of ['abc', '12', `${UNKNOWN}0`]) {
    expectBadRequest(
      await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/entities/${bad}`),
      'invalid_parameter',
      UUID_WORDING,
      'path',
      'uuid',
    );
  }
});

t3('T3 403 for a member the entity does not grant', async (ctx) => {
  expectError(
    await client(ctx.svc.url, member(ctx.a)).get(`${BASE}/entities/${ctx.entity.id}`),
    403,
    'forbidden',
    'Not allowed to read the records of this entity',
  );
});

t3("T3 404 for an unknown entity and for another organization's key and admin", async (ctx) => {
  expectError(
    await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/entities/${UNKNOWN}`),
    404,
    'not_found',
    'Entity not found',
  );
  expectError(
    await client(ctx.svc.url, key(ctx.b)).get(`${BASE}/entities/${ctx.entity.id}`),
    404,
    'not_found',
    'Entity not found',
  );
  expectError(
    await client(ctx.svc.url, admin(ctx.b)).get(`${BASE}/entities/${ctx.entity.id}`),
    404,
    'not_found',
    'Entity not found',
  );
});

t3('T3 200 with rights per caller and the exact recordCount', async (ctx) => {
  await createRecord(ctx, { Name: 'H1' });
  await createRecord(ctx, { Name: 'H2' });
  const url = `${BASE}/entities/${ctx.entity.id}`;
  const asKey = await client(ctx.svc.url, key(ctx.a)).get(url);
  assert.equal(asKey.body, { ...ctx.entity, recordCount: 2 });
  const asReader = await client(ctx.svc.url, pat(ctx.reader)).get(url);
  assert.equal([asReader.body.canRead, asReader.body.canWrite, asReader.body.recordCount], [true, false, 2]);
  const asWriter = await client(ctx.svc.url, pat(ctx.writer)).get(url);
  assert.equal([asWriter.body.canRead, asWriter.body.canWrite], [true, true]);
});

t3.run();

// ---------------------------------------------------------------- T4
const t4 = area('T4 update entity');
rejectsWithoutCredential(t4, 'T4', 'PUT', (ctx) => `${BASE}/entities/${ctx.entity.id}`, { name: 'x' });

t4(
  'T4 400 for an empty body, a wrong type, another id or organizationID, an unknown or repeated field id',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const url = `${BASE}/entities/${ctx.entity.id}`;
    expectBadRequest(await c.put(url, {}), 'invalid_body', ENTITY_BODY, 'body');
    expectBadRequest(await c.put(url, { name: 7 }), 'invalid_body', ENTITY_BODY, 'body', 'name');
    expectBadRequest(
      await c.put(`${BASE}/entities/nope`, { name: 'x' }),
      'invalid_parameter',
      UUID_WORDING,
      'path',
      'uuid',
    );
    expectBadRequest(
      await c.put(url, { id: UNKNOWN, name: 'x' }),
      'invalid_body',
      'id does not match the entity in the path',
      'body',
      'id',
    );
    expectBadRequest(
      await c.put(url, { organizationID: ctx.b.orgId }),
      'invalid_body',
      'organizationID cannot be changed',
      'body',
      'organizationID',
    );
    expectBadRequest(
      await c.put(url, { fields: [{ id: 'made-up', name: 'x', type: 'text' }] }),
      'invalid_body',
      'Field ID "made-up" is not a field of this entity (leave id out to add a field)',
      'body',
      'fields.0.id',
    );
    const f = ctx.entity.fields[0];
    expectBadRequest(
      await c.put(url, { fields: [f, { ...f, name: 'Again' }] }),
      'invalid_body',
      `Field ID "${f.id}" is given twice`,
      'body',
      'fields.1.id',
    );
  },
);

t4('T4 403 for members, granted or not; 404 for another organization and unknown entities', async (ctx) => {
  const url = `${BASE}/entities/${ctx.entity.id}`;
  for (const auth of [member(ctx.a), pat(ctx.reader), pat(ctx.writer)])
    expectError(await client(ctx.svc.url, auth).put(url, { name: 'x' }), 403, 'forbidden');
  expectError(await client(ctx.svc.url, key(ctx.b)).put(url, { name: 'x' }), 404, 'not_found');
  expectError(await client(ctx.svc.url, admin(ctx.b)).put(url, { name: 'x' }), 404, 'not_found');
  expectError(
    await client(ctx.svc.url, key(ctx.a)).put(`${BASE}/entities/${UNKNOWN}`, { name: 'x' }),
    404,
    'not_found',
  );
});

t4(
  'T4 200 replaces the given properties, keeps field IDs, adds fields without id, accepts a GET answer back',
  async (ctx) => {
    const c = client(ctx.svc.url, admin(ctx.a));
    const url = `${BASE}/entities/${ctx.entity.id}`;
    const newcomer = await addMember(ctx.svc, ctx.a, 'newcomer');
    const fields = [
      ...ctx.entity.fields.map((f: any) => (f.name === 'Name' ? { ...f, name: 'Label' } : f)),
      { name: 'Depth', type: 'number' },
    ];
    const res = await c.put(url, {
      description: 'Every hydrant',
      icon: '🧯',
      fields,
      readOnlyUserIDs: [newcomer.userId],
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.name, 'Hydrants');
    assert.is(res.body.description, 'Every hydrant');
    assert.is(res.body.icon, '🧯');
    assert.equal(res.body.readOnlyUserIDs, [newcomer.userId]);
    assert.equal(res.body.readWriteUserIDs, [ctx.writer.userId]);
    assert.equal(
      res.body.fields.slice(0, ALL_FIELDS.length).map((f: any) => f.id),
      ctx.entity.fields.map((f: any) => f.id),
    );
    assert.is(res.body.fields[0].name, 'Label');
    assert.match(res.body.fields[ALL_FIELDS.length].id, UUID_RE);
    // The reader lost his grant, the newcomer got one.
    expectError(await client(ctx.svc.url, pat(ctx.reader)).get(url), 403, 'forbidden');
    assert.is((await client(ctx.svc.url, pat(newcomer)).get(url)).status, 200);
    const roundTrip = await c.put(url, (await c.get(url)).body);
    assert.is(roundTrip.status, 200, JSON.stringify(roundTrip.body));
    assert.equal(roundTrip.body, res.body);
  },
);

t4(
  'T4 removing a field drops its values from records; a field added again gets a new ID and no old values',
  async (ctx) => {
    const entity = await createEntity(ctx.svc, ctx.a, {
      name: 'Removal',
      fields: [
        { name: 'Keep', type: 'text' },
        { name: 'Drop', type: 'text' },
      ],
    });
    const [keep, drop] = entity.fields;
    const c = client(ctx.svc.url, key(ctx.a));
    const rec = (
      await c.post(`${BASE}/entities/${entity.id}/records`, {
        values: [
          { fieldID: keep.id, value: 'stays' },
          { fieldID: drop.id, value: 'secret' },
        ],
      })
    ).body;
    const res = await c.put(`${BASE}/entities/${entity.id}`, { fields: [keep, { name: 'Drop', type: 'text' }] });
    assert.is(res.status, 200);
    assert.is.not(res.body.fields[1].id, drop.id);
    const after = await c.get(`${BASE}/records/${rec.id}`);
    assert.equal(
      after.body.values.map((v: any) => [v.fieldID, v.value]),
      [[keep.id, 'stays']],
    );
    assert.is((await c.get(`${BASE}/entities/${entity.id}/records?search=secret`)).body.total, 0);
    const old = await c.put(`${BASE}/records/${rec.id}`, { values: [{ fieldID: drop.id, value: 'x' }] });
    expectBadRequest(
      old,
      'invalid_body',
      `Unknown field "${drop.id}": the entity has no field with this ID`,
      'body',
      'values.0.fieldID',
    );
  },
);

t4('T4 400 for a type change while stored values do not fit it; 200 once they do', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const entity = await createEntity(ctx.svc, ctx.a, {
    name: 'Retype',
    fields: [
      { name: 'Size', type: 'text' },
      { name: 'Kind', type: 'selection', selectionValues: ['a', 'b'] },
    ],
  });
  const [size, kind] = entity.fields;
  const r1 = (
    await c.post(`${BASE}/entities/${entity.id}/records`, {
      values: [
        { fieldID: size.id, value: '42' },
        { fieldID: kind.id, value: 'b' },
      ],
    })
  ).body;
  await c.post(`${BASE}/entities/${entity.id}/records`, { values: [{ fieldID: size.id, value: 'large' }] });
  const url = `${BASE}/entities/${entity.id}`;
  let res = await c.put(url, { fields: [{ ...size, type: 'number' }, kind] });
  expectBadRequest(
    res,
    'invalid_body',
    'Field "Size" cannot become number: 1 record(s) hold values that do not fit (e.g. "large" is ' +
      'not a number (digits, optional sign, decimal point and exponent)); change or clear them first',
    'body',
    'fields',
  );
  res = await c.put(url, { fields: [size, { ...kind, selectionValues: ['a', 'c'] }] });
  assert.is(res.status, 400);
  assert.match(res.body.message, /^Field "Kind" cannot become selection with these values: 1 record\(s\)/);
  assert.equal((await c.get(url)).body.fields, entity.fields, 'nothing changed');
  const records = (await c.get(`${url}/records`)).body.records;
  const large = records.find((r: any) => r.values.some((v: any) => v.value === 'large'));
  assert.is((await c.put(`${BASE}/records/${large.id}`, { values: [{ fieldID: size.id, value: '7.5' }] })).status, 200);
  res = await c.put(url, {
    fields: [
      { ...size, type: 'number' },
      { ...kind, selectionValues: ['b', 'a', 'c'] },
    ],
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const ordered = await c.get(`${url}/records?orderby=${size.id}&orderdir=desc`);
  assert.equal(
    ordered.body.records.map((r: any) => r.values[0].value),
    ['42', '7.5'],
    'ordered as numbers now',
  );
  assert.is(ordered.body.records[0].id, r1.id);
});

t4('T4 400 when removing or retyping a field a rule relies on', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const entity = await createEntity(ctx.svc, ctx.a, {
    name: 'Ruled',
    fields: [
      { name: 'Level', type: 'number' },
      { name: 'Note', type: 'text' },
    ],
  });
  const [level, note] = entity.fields;
  const rule = await c.post(`${BASE}/entities/${entity.id}/rules`, {
    name: 'High',
    action: 'alarm',
    triggers: ['record_created'],
    conditions: [{ fieldID: level.id, operator: 'gt', comparison: '5' }],
    actionAlarmTemplate: { alarmMessage: 'Level {{' + level.id + '}} {{' + note.id + '}}' },
  });
  assert.is(rule.status, 201, JSON.stringify(rule.body));
  let res = await c.put(`${BASE}/entities/${entity.id}`, { fields: [level] });
  assert.is(res.status, 400);
  assert.is(
    res.body.message,
    `Rule "High" (${rule.body.id}) would no longer fit the entity: The alarmMessage placeholder ` +
      `{{${note.id}}} names no field of the entity`,
  );
  res = await c.put(`${BASE}/entities/${entity.id}`, { fields: [{ ...level, type: 'text' }, note] });
  assert.is(res.status, 400);
  assert.match(res.body.message, /Operator gt does not fit field "Level" \(text\)/);
});

t4.run();

// ---------------------------------------------------------------- OpenAPI
const doc = area('things in /openapi.json');

doc(
  'every things operation is in /openapi.json with its x-label, and the vocabulary is documented as enums',
  async (ctx) => {
    const res = await request(ctx.svc.url, 'GET', '/openapi.json');
    const labels = Object.values(res.body.paths as Record<string, Record<string, any>>).flatMap((p) =>
      Object.values(p).map((o) => o['x-label']),
    );
    for (let i = 1; i <= 13; i++) assert.ok(labels.includes(`T${i}`), `T${i} documented`);
    const schemas = res.body.components.schemas;
    assert.equal(
      schemas.T2Body.properties.fields.items.properties.type.enum,
      ALL_FIELDS.map((f) => f.type),
    );
    assert.equal(schemas.ThingsRuleBody.properties.triggers.items.enum, [
      'record_created',
      'record_updated',
      'record_deleted',
    ]);
    assert.equal(schemas.ThingsRuleBody.properties.conditions.items.properties.operator.enum, [
      'eq',
      'ne',
      'lt',
      'lte',
      'gt',
      'gte',
      'contains',
      'empty',
      'not_empty',
    ]);
    assert.equal(schemas.ThingsRuleBody.properties.action.enum, ['alarm']);
    assert.is(schemas.T7Body.properties.records.maxItems, 1000);
  },
);

doc.run();
