// T7 and T13 over the real wire: bulk requests with good and bad items side by side, the batch size,
// usage, and the record limit under 20 racing bulk requests (rate limits off) and after it was lowered.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { createOrg, type OrgFixture } from './helpers/service.js';
import {
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
} from './helpers/things.js';
import { thingsModels } from '../server/areas/things/models.js';

const BULK_BODY = 'Bulk request in wrong format (at most 1000 records and 1000 deleteIDs)';
const UNKNOWN = '3f0b8c1e-2d4a-4c6b-9e8f-1a2b3c4d5e6f';
const bulkUrl = (ctx: Ctx) => `${BASE}/entities/${ctx.entity.id}/records/bulk`;
const countOf = async (ctx: Ctx, org: OrgFixture) =>
  (await client(ctx.svc.url, key(org)).get(`${BASE}/usage?organization_id=${org.orgId}`)).body;

/** A fresh organization with a limit and an entity of one text field; returns the bulk URL and a client. */
async function limitedOrg(ctx: Ctx, limit: number) {
  const org = await createOrg(ctx.svc);
  await ctx.svc.identity.setRecordLimit(org.orgId, limit);
  const entity = await createEntity(ctx.svc, org, { fields: [{ name: 'n', type: 'text' }] });
  const item = (n: number) => ({ values: [{ fieldID: entity.fields[0].id, value: `item ${n}` }] });
  return { org, entity, item, url: `${BASE}/entities/${entity.id}/records/bulk`, c: client(ctx.svc.url, key(org)) };
}

// ---------------------------------------------------------------- T7
const t7 = area('T7 bulk records');
rejectsWithoutCredential(t7, 'T7', 'POST', bulkUrl, { records: [] });

t7(
  'T7 400 when the request itself is malformed or above the batch size (1000 records, 1000 deleteIDs)',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    expectBadRequest(await c.post(bulkUrl(ctx)), 'invalid_body', BULK_BODY, 'body');
    expectBadRequest(await c.post(bulkUrl(ctx), { records: {} }), 'invalid_body', BULK_BODY, 'body', 'records');
    expectBadRequest(
      await c.post(bulkUrl(ctx), { records: [{ id: UNKNOWN }] }),
      'invalid_body',
      BULK_BODY,
      'body',
      'records.0.values',
    );
    expectBadRequest(await c.post(bulkUrl(ctx), { upserts: [] }), 'invalid_body', BULK_BODY, 'body', 'upserts');
    const tooMany = await c.post(bulkUrl(ctx), { records: Array.from({ length: 1001 }, () => ({ values: [] })) });
    expectBadRequest(tooMany, 'invalid_body', BULK_BODY, 'body', 'records');
    assert.is(tooMany.body.details[0].problem, 'must NOT have more than 1000 items');
    expectBadRequest(
      await c.post(bulkUrl(ctx), { deleteIDs: Array.from({ length: 1001 }, () => UNKNOWN) }),
      'invalid_body',
      BULK_BODY,
      'body',
      'deleteIDs',
    );
    expectBadRequest(
      await c.post(`${BASE}/entities/7/records/bulk`, {}),
      'invalid_parameter',
      'uuid missing or in wrong format',
      'path',
      'uuid',
    );
  },
);

t7('T7 403 for a read-only member and a member the entity does not grant; 404 across organizations', async (ctx) => {
  expectError(await client(ctx.svc.url, pat(ctx.reader)).post(bulkUrl(ctx), { records: [] }), 403, 'forbidden');
  expectError(await client(ctx.svc.url, member(ctx.a)).post(bulkUrl(ctx), { records: [] }), 403, 'forbidden');
  expectError(await client(ctx.svc.url, key(ctx.b)).post(bulkUrl(ctx), { records: [] }), 404, 'not_found');
  expectError(await client(ctx.svc.url, admin(ctx.b)).post(bulkUrl(ctx), { records: [] }), 404, 'not_found');
});

t7('T7 200 applies good creates, updates and deletes and lists every bad one with its reason', async (ctx) => {
  const keep = await createRecord(ctx, { Name: 'keep', Pressure: '1' });
  const change = await createRecord(ctx, { Name: 'change', Pressure: '2' });
  const gone = await createRecord(ctx, { Name: 'gone' });
  const other = await createEntity(ctx.svc, ctx.a, { name: 'Other', fields: [{ name: 'x', type: 'text' }] });
  const foreign = (await client(ctx.svc.url, key(ctx.a)).post(`${BASE}/entities/${other.id}/records`, { values: [] }))
    .body;
  const res = await client(ctx.svc.url, pat(ctx.writer)).post(bulkUrl(ctx), {
    records: [
      { values: byName(ctx, { Name: 'new 1', Working: 'true' }) },
      { values: byName(ctx, { Name: 'new 2', Working: 'maybe' }) },
      { id: change.id, values: byName(ctx, { Pressure: '2.5' }) },
      { id: keep.id, values: byName(ctx, { Checked: '2024-13-01' }) },
      { id: UNKNOWN, values: [] },
      { id: foreign.id, values: [] },
      { values: [{ fieldID: 'nope', value: 'x' }] },
      { id: change.id, values: [] },
      { id: gone.id, values: [] },
      { values: [] },
    ],
    deleteIDs: [gone.id, 'not-a-record', gone.id, foreign.id],
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.createdIDs.length, 2);
  assert.equal(res.body.updatedIDs, [change.id]);
  assert.equal(res.body.deletedIDs, [gone.id]);
  assert.equal(res.body.failedEntries, [
    { id: gone.id, reason: 'listed twice in deleteIDs' },
    { id: 'not-a-record', reason: 'record not found in this entity' },
    { id: foreign.id, reason: 'record not found in this entity' },
    { id: keep.id, reason: 'Invalid value for field "Checked" (date): "2024-13-01" is not a date (YYYY-MM-DD)' },
    { id: UNKNOWN, reason: 'record not found in this entity' },
    { id: foreign.id, reason: 'record not found in this entity' },
    { id: change.id, reason: 'listed twice in records' },
    { id: gone.id, reason: 'deleted by this request' },
    { id: 'records[1]', reason: 'Invalid value for field "Working" (boolean): "maybe" is not true or false' },
    { id: 'records[6]', reason: 'Unknown field "nope": the entity has no field with this ID' },
  ]);
  const c = client(ctx.svc.url, key(ctx.a));
  assert.equal(valuesByName(ctx, (await c.get(`${BASE}/records/${res.body.createdIDs[0]}`)).body), {
    Name: 'new 1',
    Working: 'true',
  });
  assert.equal((await c.get(`${BASE}/records/${res.body.createdIDs[1]}`)).body.values, []);
  assert.equal(valuesByName(ctx, (await c.get(`${BASE}/records/${change.id}`)).body), {
    Name: 'change',
    Pressure: '2.5',
  });
  assert.equal(valuesByName(ctx, (await c.get(`${BASE}/records/${keep.id}`)).body), { Name: 'keep', Pressure: '1' });
  expectError(await c.get(`${BASE}/records/${gone.id}`), 404, 'not_found');
  assert.is((await c.get(`${BASE}/records/${foreign.id}`)).status, 200, "another entity's record is untouched");
});

t7('T7 200 with 1000 creates in one request; deletes run first so their places serve the creates', async (ctx) => {
  const { org, entity, item, url, c } = await limitedOrg(ctx, 1000);
  const full = await c.post(url, { records: Array.from({ length: 1000 }, (_, i) => item(i)) });
  assert.is(full.status, 200);
  assert.equal([full.body.createdIDs.length, full.body.failedEntries], [1000, []]);
  const listed = await c.get(`${BASE}/entities/${entity.id}/records?limit=50&offset=500`);
  assert.equal(
    listed.body.records.map((r: any) => r.id),
    full.body.createdIDs.slice(500, 550),
    'listed in the order sent',
  );
  const swap = await c.post(url, {
    deleteIDs: full.body.createdIDs.slice(0, 3),
    records: [item(1000), item(1001), item(1002)],
  });
  assert.equal([swap.body.deletedIDs.length, swap.body.createdIDs.length, swap.body.failedEntries], [3, 3, []]);
  assert.equal(await countOf(ctx, org), { recordCount: 1000, recordLimit: 1000 });
});

t7('T7 200 creates up to the limit; the rest fail with record_limit_reached', async (ctx) => {
  const { org, item, url, c } = await limitedOrg(ctx, 5);
  const res = await c.post(url, { records: Array.from({ length: 8 }, (_, i) => item(i)) });
  assert.is(res.status, 200);
  assert.is(res.body.createdIDs.length, 5);
  assert.is(res.body.failedEntries.length, 3);
  for (const f of res.body.failedEntries) {
    assert.match(f.id, /^records\[[0-7]\]$/);
    assert.is(f.reason, "record_limit_reached: the organization's limit of 5 records is reached");
  }
  assert.equal(await countOf(ctx, org), { recordCount: 5, recordLimit: 5 });
});

t7.run();

// ---------------------------------------------------------------- T13 and the limit
const t13 = area('T13 usage and the record limit', { THINGS_RECORD_LIMIT: '1234' });
rejectsWithoutCredential(t13, 'T13', 'GET', (ctx) => `${BASE}/usage?organization_id=${ctx.a.orgId}`);

t13('T13 400 when organization_id is missing or wrong', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  for (const query of ['', '?organization_id=x', '?organization_id=0', '?organization_id=9007199254740993']) {
    expectBadRequest(
      await c.get(`${BASE}/usage${query}`),
      'invalid_parameter',
      'organization_id missing or in wrong format',
      'query',
      'organization_id',
    );
  }
});

t13("T13 403 for another organization's key and admin", async (ctx) => {
  expectError(
    await client(ctx.svc.url, key(ctx.b)).get(`${BASE}/usage?organization_id=${ctx.a.orgId}`),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.svc.url, admin(ctx.b)).get(`${BASE}/usage?organization_id=${ctx.a.orgId}`),
    403,
    'forbidden',
  );
});

t13(
  "T13 200 for any member: the exact count and the configured default limit, then the organization's own",
  async (ctx) => {
    await createRecord(ctx, { Name: 'one' });
    const two = await createRecord(ctx, { Name: 'two' });
    const url = `${BASE}/usage?organization_id=${ctx.a.orgId}`;
    assert.equal((await client(ctx.svc.url, member(ctx.a)).get(url)).body, { recordCount: 2, recordLimit: 1234 });
    await client(ctx.svc.url, key(ctx.a)).post(`${BASE}/entities/${ctx.entity.id}/records/bulk`, {
      deleteIDs: [two.id],
    });
    await ctx.svc.identity.setRecordLimit(ctx.a.orgId, 40);
    assert.equal((await client(ctx.svc.url, pat(ctx.reader)).get(url)).body, { recordCount: 1, recordLimit: 40 });
    assert.equal((await client(ctx.svc.url, key(ctx.b)).get(`${BASE}/usage?organization_id=${ctx.b.orgId}`)).body, {
      recordCount: 0,
      recordLimit: 1234,
    });
  },
);

t13(
  'the limit holds when 20 bulk requests and 10 single creates race: exactly the limit is created, ' +
    'recordCount is exact',
  async (ctx) => {
    const { org, entity, item, url, c } = await limitedOrg(ctx, 300);
    const bulks = Array.from({ length: 20 }, (_, r) =>
      c.post(url, { records: Array.from({ length: 40 }, (_, i) => item(r * 100 + i)) }),
    );
    const singles = Array.from({ length: 10 }, (_, i) =>
      c.post(`${BASE}/entities/${entity.id}/records`, item(9000 + i)),
    );
    const [bulkRes, singleRes] = await Promise.all([Promise.all(bulks), Promise.all(singles)]);
    for (const r of bulkRes) assert.is(r.status, 200, JSON.stringify(r.body));
    const created =
      bulkRes.reduce((n, r) => n + r.body.createdIDs.length, 0) + singleRes.filter((r) => r.status === 201).length;
    const refused = bulkRes.reduce(
      (n, r) => n + r.body.failedEntries.filter((f: any) => f.reason.startsWith('record_limit_reached')).length,
      0,
    );
    assert.is(created, 300);
    assert.is(refused + singleRes.filter((r) => r.status === 409).length, 810 - 300);
    for (const r of singleRes)
      assert.ok(
        r.status === 201 || (r.status === 409 && r.body.error === 'record_limit_reached'),
        JSON.stringify(r.body),
      );
    assert.equal(await countOf(ctx, org), { recordCount: 300, recordLimit: 300 });
    assert.is((await c.get(`${BASE}/entities/${entity.id}`)).body.recordCount, 300);
    const slots = await (await thingsModels(ctx.svc.db).records.of(org.orgId)).distinct('slot');
    assert.ok(slots.length === 300 && slots.every((s: number) => s >= 1 && s <= 300));
  },
);

t13(
  'after the limit is lowered below the count nothing is created until deletes bring the count under it',
  async (ctx) => {
    const { org, item, url, c } = await limitedOrg(ctx, 10);
    const made = await c.post(url, { records: Array.from({ length: 6 }, (_, i) => item(i)) });
    assert.is(made.body.createdIDs.length, 6);
    await ctx.svc.identity.setRecordLimit(org.orgId, 3);
    assert.equal((await c.post(url, { records: [item(7)] })).body.failedEntries.length, 1);
    assert.equal(await countOf(ctx, org), { recordCount: 6, recordLimit: 3 });
    await c.post(url, { deleteIDs: made.body.createdIDs.slice(0, 4) });
    const res = await c.post(url, { records: [item(8), item(9)] });
    assert.equal([res.body.createdIDs.length, res.body.failedEntries.length], [1, 1]);
    assert.equal(await countOf(ctx, org), { recordCount: 3, recordLimit: 3 });
    const slots = await (await thingsModels(ctx.svc.db).records.of(org.orgId)).distinct('slot');
    assert.ok(
      slots.every((s: number) => s <= 3),
      `records moved into slots under the limit: ${slots}`,
    );
    // Creators may use random slots again without reading the used ones first.
    assert.is((await thingsModels(ctx.svc.db).ThingSlotCeiling.findById(String(org.orgId)).lean())!.ceiling, 3);
  },
);

t13.run();
