// T5, T6, T8, T9 over the real wire: access for every kind of caller, each field type's validation and
// ordering, plain-text search, paging, and updates that keep what they do not name.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { createOrg } from './helpers/service.js';
import {
  ALL_FIELDS,
  BASE,
  admin,
  area,
  byName,
  createEntity,
  createRecord,
  key,
  member,
  pat,
  rejectsWithoutCredential,
  valuesByName,
  type Ctx,
  type FieldName,
} from './helpers/things.js';

const RECORD_BODY = 'Record in wrong format: values missing or invalid';
const UUID_WORDING = 'uuid missing or in wrong format';
const T5_QUERY = 'limit, offset, search, orderby or orderdir in wrong format';
const UNKNOWN = '3f0b8c1e-2d4a-4c6b-9e8f-1a2b3c4d5e6f';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Values each field type refuses and accepts. */
const SAMPLES: Record<FieldName, { bad: string[]; good: string[] }> = {
  Name: { bad: [], good: ['Hydrant 7 – Nord', '  spaces kept  '] },
  Pressure: { bad: ['abc', '1,5', '0x10', ' 1', 'NaN', 'Infinity', '1e999'], good: ['0', '-12.75', '3e2'] },
  Working: { bad: ['yes', 'TRUE', '1'], good: ['true', 'false'] },
  Checked: { bad: ['2024-02-30', '24-01-01', '2024-1-1', '2024-01-01T00:00:00Z'], good: ['2024-02-29'] },
  'Last use': {
    bad: ['2024-01-01', '2024-01-01T25:00:00Z', 'yesterday', '2024-01-01T10:00:00'],
    good: ['2024-01-01T10:00:00Z', '2024-01-01T10:00:00.5+02:00'],
  },
  Kind: { bad: ['Wall', 'tree'], good: ['pillar'] },
  Position: { bad: ['50.7', '91,0', '0,181', 'a,b'], good: ['50.77664,6.08342', '-33.9, 151.2'] },
  Address: { bad: ['x'.repeat(501)], good: ['Goethestraße 5, 52064 Aachen'] },
  Plan: { bad: ['ftp://x.de/plan', 'not a url', 'javascript:alert(1)'], good: ['https://example.org/plan.pdf'] },
  Contact: { bad: ['a@b', 'no-at.example', 'a b@c.de'], good: ['leitstelle@feuerwehr.example'] },
  Phone: { bad: ['12', 'call me', '1'.repeat(21)], good: ['+49 241 123456', '(0241) 12-34'] },
};

const typeOf = (name: FieldName) => ALL_FIELDS.find((f) => f.name === name)!.type;
const recordsUrl = (ctx: Ctx) => `${BASE}/entities/${ctx.entity.id}/records`;

// ---------------------------------------------------------------- T6
const t6 = area('T6 create record');
rejectsWithoutCredential(t6, 'T6', 'POST', recordsUrl, { values: [] });

t6('T6 400 when the body, values or a value item is missing or of the wrong shape', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(await c.post(recordsUrl(ctx)), 'invalid_body', RECORD_BODY, 'body');
  expectBadRequest(await c.post(recordsUrl(ctx), {}), 'invalid_body', RECORD_BODY, 'body', 'values');
  expectBadRequest(await c.post(recordsUrl(ctx), { values: {} }), 'invalid_body', RECORD_BODY, 'body', 'values');
  expectBadRequest(
    await c.post(recordsUrl(ctx), { values: [{ fieldID: ctx.field.Pressure, value: 5 }] }),
    'invalid_body',
    RECORD_BODY,
    'body',
    'values.0.value',
  );
  expectBadRequest(
    await c.post(recordsUrl(ctx), { values: [{ value: '5' }] }),
    'invalid_body',
    RECORD_BODY,
    'body',
    'values.0.fieldID',
  );
  expectBadRequest(
    await c.post(recordsUrl(ctx), { values: [{ fieldID: ctx.field.Name, value: 'x'.repeat(10_001) }] }),
    'invalid_body',
    RECORD_BODY,
    'body',
    'values.0.value',
  );
  expectBadRequest(
    await c.post(`${BASE}/entities/x/records`, { values: [] }),
    'invalid_parameter',
    UUID_WORDING,
    'path',
    'uuid',
  );
});

t6('T6 400 names the field for an unknown field ID and a field given twice', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(
    await c.post(recordsUrl(ctx), { values: [{ fieldID: 'nope', value: '1' }] }),
    'invalid_body',
    'Unknown field "nope": the entity has no field with this ID',
    'body',
    'values.0.fieldID',
  );
  const twice = [
    { fieldID: ctx.field.Name, value: 'a' },
    { fieldID: ctx.field.Name, value: 'b' },
  ];
  expectBadRequest(
    await c.post(recordsUrl(ctx), { values: twice }),
    'invalid_body',
    `Field "Name" (${ctx.field.Name}) is given twice`,
    'body',
    'values.1.fieldID',
  );
});

t6("T6 400 for every field type's wrong values, naming the field, its type and the problem", async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const [name, { bad }] of Object.entries(SAMPLES) as Array<[FieldName, { bad: string[] }]>) {
    for (const value of bad) {
      const res = await c.post(recordsUrl(ctx), {
        values: [
          { fieldID: ctx.field.Name, value: 'ok' },
          { fieldID: ctx.field[name], value },
        ],
      });
      expectBadRequest(res, 'invalid_body', res.body.message, 'body', 'values.1.value');
      const echo = value.length > 40 ? '' : ` "${value}"`;
      assert.ok(
        res.body.message.startsWith(`Invalid value for field "${name}" (${typeOf(name)}):${echo}`),
        `${name} ${value}: ${res.body.message}`,
      );
    }
  }
  assert.is((await c.get(recordsUrl(ctx))).body.total, 0, 'nothing was stored');
});

t6(
  'T6 201 for every field type\'s valid values, values in field order with value item IDs, "" leaves a field empty',
  async (ctx) => {
    const c = client(ctx.svc.url, pat(ctx.writer));
    for (const [name, { good }] of Object.entries(SAMPLES) as Array<[FieldName, { good: string[] }]>) {
      for (const value of good) {
        const res = await c.post(recordsUrl(ctx), { values: [{ fieldID: ctx.field[name], value }] });
        assert.is(res.status, 201, `${name} ${value}: ${JSON.stringify(res.body)}`);
        assert.equal(
          res.body.values.map((v: any) => [v.fieldID, v.value]),
          [[ctx.field[name], value]],
        );
      }
    }
    const res = await c.post(recordsUrl(ctx), {
      values: [
        { fieldID: ctx.field.Phone, value: '112' },
        { fieldID: ctx.field.Address, value: '' },
        { fieldID: ctx.field.Name, value: 'H9', id: 'ignored' },
      ],
    });
    assert.is(res.status, 201);
    assert.match(res.body.id, UUID_RE);
    assert.equal(res.body, {
      id: res.body.id,
      entityID: ctx.entity.id,
      values: [
        { fieldID: ctx.field.Name, id: res.body.values[0].id, value: 'H9' },
        { fieldID: ctx.field.Phone, id: res.body.values[1].id, value: '112' },
      ],
    });
    assert.ok(res.body.values.every((v: any) => UUID_RE.test(v.id)));
  },
);

t6(
  'T6 403 for a read-only member and a member the entity does not grant; 404 for another organization',
  async (ctx) => {
    const body = { values: [] };
    expectError(
      await client(ctx.svc.url, pat(ctx.reader)).post(recordsUrl(ctx), body),
      403,
      'forbidden',
      'Not allowed to write the records of this entity',
    );
    expectError(await client(ctx.svc.url, member(ctx.a)).post(recordsUrl(ctx), body), 403, 'forbidden');
    expectError(await client(ctx.svc.url, key(ctx.b)).post(recordsUrl(ctx), body), 404, 'not_found');
    expectError(await client(ctx.svc.url, admin(ctx.b)).post(recordsUrl(ctx), body), 404, 'not_found');
    expectError(
      await client(ctx.svc.url, key(ctx.a)).post(`${BASE}/entities/${UNKNOWN}/records`, body),
      404,
      'not_found',
    );
  },
);

t6("T6 409 record_limit_reached at the organization's limit; a delete frees a place again", async (ctx) => {
  const org = await createOrg(ctx.svc);
  await ctx.svc.identity.setRecordLimit(org.orgId, 2);
  const entity = await createEntity(ctx.svc, org, { fields: [{ name: 'n', type: 'text' }] });
  const c = client(ctx.svc.url, key(org));
  const url = `${BASE}/entities/${entity.id}/records`;
  const first = await c.post(url, { values: [] });
  assert.is((await c.post(url, { values: [] })).status, 201);
  expectError(
    await c.post(url, { values: [] }),
    409,
    'record_limit_reached',
    'The organization has reached its record limit of 2 records',
  );
  assert.is((await c.post(`${url}/bulk`, { deleteIDs: [first.body.id] })).body.deletedIDs.length, 1);
  assert.is((await c.post(url, { values: [] })).status, 201);
  expectError(await c.post(url, { values: [] }), 409, 'record_limit_reached');
});

t6.run();

// ---------------------------------------------------------------- T8 and T9
const t8 = area('T8 get record, T9 update record');
let recordId = UNKNOWN;
const recordUrl = () => `${BASE}/records/${recordId}`;
t8.before(async (ctx) => {
  recordId = (await createRecord(ctx, { Name: 'H1', Pressure: '6.5', Kind: 'wall' })).id;
});
rejectsWithoutCredential(t8, 'T8', 'GET', recordUrl);
rejectsWithoutCredential(t8, 'T9', 'PUT', recordUrl, { values: [] });

t8('T8/T9 400 when uuid is not a UUID; T9 400 for a body without values or with a wrong value', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(await c.get(`${BASE}/records/1`), 'invalid_parameter', UUID_WORDING, 'path', 'uuid');
  expectBadRequest(await c.put(`${BASE}/records/1`, { values: [] }), 'invalid_parameter', UUID_WORDING, 'path', 'uuid');
  expectBadRequest(await c.put(recordUrl(), { id: 'x' }), 'invalid_body', RECORD_BODY, 'body', 'values');
  expectBadRequest(await c.put(recordUrl(), { id: 'x', values: [] }), 'invalid_body', RECORD_BODY, 'body', 'id');
  const res = await c.put(recordUrl(), { values: [{ fieldID: ctx.field.Pressure, value: 'high' }] });
  expectBadRequest(
    res,
    'invalid_body',
    'Invalid value for field "Pressure" (number): "high" is not a number (digits, optional sign, ' +
      'decimal point and exponent)',
    'body',
    'values.0.value',
  );
});

t8('T8/T9 403 for a member the entity does not grant; T9 403 for a read-only member', async (ctx) => {
  expectError(await client(ctx.svc.url, member(ctx.a)).get(recordUrl()), 403, 'forbidden');
  expectError(await client(ctx.svc.url, member(ctx.a)).put(recordUrl(), { values: [] }), 403, 'forbidden');
  expectError(
    await client(ctx.svc.url, pat(ctx.reader)).put(recordUrl(), { values: [] }),
    403,
    'forbidden',
    'Not allowed to write the records of this entity',
  );
});

t8("T8/T9 404 for an unknown record and for another organization's key and admin", async (ctx) => {
  for (const auth of [key(ctx.b), admin(ctx.b)]) {
    expectError(await client(ctx.svc.url, auth).get(recordUrl()), 404, 'not_found', 'Record not found');
    expectError(await client(ctx.svc.url, auth).put(recordUrl(), { values: [] }), 404, 'not_found', 'Record not found');
  }
  expectError(await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/records/${UNKNOWN}`), 404, 'not_found');
  expectError(
    await client(ctx.svc.url, key(ctx.a)).put(`${BASE}/records/${UNKNOWN}`, { values: [] }),
    404,
    'not_found',
  );
});

t8('T8 200 for the read-only member with the full record', async (ctx) => {
  const res = await client(ctx.svc.url, pat(ctx.reader)).get(recordUrl());
  assert.is(res.status, 200);
  assert.is(res.body.id, recordId);
  assert.is(res.body.entityID, ctx.entity.id);
  assert.equal(valuesByName(ctx, res.body), { Name: 'H1', Pressure: '6.5', Kind: 'wall' });
});

t8('T9 200 sets the given fields, clears those given "", keeps the rest and the value item IDs', async (ctx) => {
  const c = client(ctx.svc.url, pat(ctx.writer));
  const before = (await c.get(recordUrl())).body;
  const res = await c.put(recordUrl(), {
    values: byName(ctx, { Pressure: '7', Kind: '', Contact: 'wache@example.org' }),
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(valuesByName(ctx, res.body), { Name: 'H1', Pressure: '7', Contact: 'wache@example.org' });
  const ids = (body: any) => Object.fromEntries(body.values.map((v: any) => [v.fieldID, v.id]));
  assert.is(ids(res.body)[ctx.field.Name], ids(before)[ctx.field.Name]);
  assert.is(ids(res.body)[ctx.field.Pressure], ids(before)[ctx.field.Pressure]);
  assert.match(ids(res.body)[ctx.field.Contact], UUID_RE);
  assert.equal((await c.get(recordUrl())).body, res.body);
});

t8.run();

// ---------------------------------------------------------------- T5
const t5 = area('T5 list records');
rejectsWithoutCredential(t5, 'T5', 'GET', recordsUrl);

// Three filled records whose typed order differs from their text order, and one empty record.
const ROWS: Array<Partial<Record<FieldName, string>>> = [
  {
    Name: 'banana',
    Pressure: '10',
    Working: 'true',
    Checked: '2024-03-01',
    'Last use': '2024-03-01T10:00:00+02:00',
    Kind: 'wall',
    Position: '50.1,6.1',
    Address: 'Bahnhofstr. 2',
    Plan: 'https://b.example',
    Contact: 'b@x.example',
    Phone: '+49 241 2',
  },
  {
    Name: 'Apple',
    Pressure: '9',
    Working: 'false',
    Checked: '2023-12-31',
    'Last use': '2024-03-01T09:00:00Z',
    Kind: 'underground',
    Position: '50.1,5.9',
    Address: 'Am Markt 1',
    Plan: 'https://a.example',
    Contact: 'a@x.example',
    Phone: '+49 241 1',
  },
  {
    Name: 'cherry',
    Pressure: '-1.5',
    Checked: '2024-01-15',
    'Last use': '2024-03-01T07:30:00Z',
    Kind: 'pillar',
    Position: '-10,100',
    Address: 'Zur Mühle 3',
    Plan: 'https://c.example',
    Contact: 'c@x.example',
    Phone: '+49 241 3',
  },
  {},
];

/** Ascending order of ROWS per field (indexes); empty values last. */
const ASC: Record<FieldName, number[]> = {
  Name: [1, 0, 2, 3],
  Pressure: [2, 1, 0, 3],
  Working: [1, 0, 2, 3],
  Checked: [1, 2, 0, 3],
  'Last use': [2, 0, 1, 3],
  Kind: [1, 2, 0, 3],
  Position: [2, 1, 0, 3],
  Address: [1, 0, 2, 3],
  Plan: [1, 0, 2, 3],
  Contact: [1, 0, 2, 3],
  Phone: [1, 0, 2, 3],
};

let ids: string[] = [];
t5.before(async (ctx) => {
  ids = [];
  for (const row of ROWS) ids.push((await createRecord(ctx, row)).id);
});

t5(
  'T5 400 for a limit, offset or orderdir out of bounds and an orderby that is no field of the entity',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['offset=-1', 'offset'],
      ['orderdir=up', 'orderdir'],
      [`search=${'s'.repeat(201)}`, 'search'],
    ]) {
      expectBadRequest(await c.get(`${recordsUrl(ctx)}?${query}`), 'invalid_parameter', T5_QUERY, 'query', path);
    }
    expectBadRequest(
      await c.get(`${recordsUrl(ctx)}?orderby=nope`),
      'invalid_parameter',
      'orderby "nope" is not a field ID of this entity',
      'query',
      'orderby',
    );
  },
);

t5('T5 403 for a member the entity does not grant; 404 for another organization and unknown entities', async (ctx) => {
  expectError(await client(ctx.svc.url, member(ctx.a)).get(recordsUrl(ctx)), 403, 'forbidden');
  expectError(await client(ctx.svc.url, key(ctx.b)).get(recordsUrl(ctx)), 404, 'not_found');
  expectError(await client(ctx.svc.url, admin(ctx.b)).get(recordsUrl(ctx)), 404, 'not_found');
  expectError(await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/entities/${UNKNOWN}/records`), 404, 'not_found');
});

t5('T5 200 in creation order by default, paged with limit and offset, total of all', async (ctx) => {
  const c = client(ctx.svc.url, pat(ctx.reader));
  const all = await c.get(recordsUrl(ctx));
  assert.is(all.status, 200);
  assert.equal({ total: all.body.total, ids: all.body.records.map((r: any) => r.id) }, { total: 4, ids });
  assert.equal(valuesByName(ctx, all.body.records[1]), ROWS[1]);
  assert.equal(all.body.records[3], { id: ids[3], entityID: ctx.entity.id, values: [] });
  const page = await c.get(`${recordsUrl(ctx)}?limit=2&offset=1`);
  assert.equal(
    { total: page.body.total, ids: page.body.records.map((r: any) => r.id) },
    { total: 4, ids: ids.slice(1, 3) },
  );
});

t5(
  'T5 200 orders by every field type (numbers as numbers, dates as dates, selections as listed) with empty values last',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    for (const [name, asc] of Object.entries(ASC) as Array<[FieldName, number[]]>) {
      const up = await c.get(`${recordsUrl(ctx)}?orderby=${ctx.field[name]}`);
      assert.equal(
        up.body.records.map((r: any) => ids.indexOf(r.id)),
        asc,
        `${name} asc`,
      );
      const filled = asc.filter((i) => ROWS[i][name] !== undefined);
      const empty = asc.filter((i) => ROWS[i][name] === undefined);
      const down = await c.get(`${recordsUrl(ctx)}?orderby=${ctx.field[name]}&orderdir=desc`);
      assert.equal(
        down.body.records.map((r: any) => ids.indexOf(r.id)),
        [...filled.reverse(), ...empty],
        `${name} desc`,
      );
    }
    const paged = await c.get(`${recordsUrl(ctx)}?orderby=${ctx.field.Pressure}&orderdir=desc&limit=1&offset=1`);
    assert.equal(
      { total: paged.body.total, ids: paged.body.records.map((r: any) => r.id) },
      { total: 4, ids: [ids[1]] },
    );
  },
);

t5('T5 200 searches plain text in any value without case; pattern characters are literal', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const search = async (text: string) => (await c.get(`${recordsUrl(ctx)}?search=${encodeURIComponent(text)}`)).body;
  const apple = await search('APPLE');
  assert.equal({ total: apple.total, ids: apple.records.map((r: any) => r.id) }, { total: 1, ids: [ids[1]] });
  assert.equal(
    (await search('mühle')).records.map((r: any) => r.id),
    [ids[2]],
  );
  assert.equal(
    (await search('x.example')).records.map((r: any) => r.id),
    ids.slice(0, 3),
  );
  assert.is((await search('.*')).total, 0);
  assert.is((await search('a[')).total, 0);
  const combined = await c.get(`${recordsUrl(ctx)}?search=example&orderby=${ctx.field.Pressure}&limit=2`);
  assert.equal(
    { total: combined.body.total, ids: combined.body.records.map((r: any) => r.id) },
    { total: 3, ids: [ids[2], ids[1]] },
  );
});

t5.run();
