// Things records live in a collection per organization (docs/storage.md "Partitioned by organization"):
// records of an installation from before the partitions (one things_records collection) are moved into
// them on first use, and every operation finds them there.
import { randomUUID } from 'node:crypto';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
}

const BASE = '/api/v1/things';
const moved = suite<Ctx>('things: records from before the partitions', {} as Ctx);

moved.after(async (ctx) => {
  await ctx.svc?.close();
});

moved("are moved into their organizations' collections on first use and found by every operation", async (ctx) => {
  // Entities made through one service (T2 reads no records); records written as the old layout held
  // them before another service, started on the same database, first uses records.
  const setup = await startTestService();
  ctx.a = await createOrg(setup);
  ctx.b = await createOrg(setup);
  const entityOf = async (org: OrgFixture) => {
    const res = await client(setup.url, { apiKey: org.apiKey }).post(`${BASE}/entities`, {
      organizationID: org.orgId,
      name: 'Hydranten',
      fields: [{ name: 'nummer', type: 'text' }],
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    return { id: res.body.id as string, fieldID: res.body.fields[0].id as string };
  };
  const ea = await entityOf(ctx.a);
  const eb = await entityOf(ctx.b);
  await setup.close();
  const at = new Date('2024-05-01T10:00:00Z');
  const old = (org: OrgFixture, entity: { id: string; fieldID: string }, n: number) => ({
    _id: randomUUID(),
    organizationID: org.orgId,
    entityID: entity.id,
    slot: n + 1,
    values: JSON.stringify({ [entity.fieldID]: { i: randomUUID(), v: `H${n}` } }),
    createdAt: new Date(at.getTime() + n),
    seq: 0,
    updatedAt: at,
  });
  const docsA = [0, 1, 2].map((n) => old(ctx.a, ea, n));
  const docsB = Array.from({ length: 1203 }, (_, n) => old(ctx.b, eb, n));
  ctx.svc = await startTestService({ THINGS_RECORD_LIMIT: '2000' });
  const raw = ctx.svc.db.conn.getClient().db(ctx.svc.db.conn.name);
  await raw.collection('things_records').insertMany([...docsA, ...docsB] as never[]);

  const api = client(ctx.svc.url, { apiKey: ctx.a.apiKey });
  assert.equal((await api.get(`${BASE}/usage?organization_id=${ctx.a.orgId}`)).body.recordCount, 3);
  const listed = await api.get(`${BASE}/entities/${ea.id}/records`);
  assert.equal(
    listed.body.records.map((r: { id: string }) => r.id),
    docsA.map((d) => d._id),
  );
  const one = await api.get(`${BASE}/records/${docsA[1]._id}`);
  assert.is(one.status, 200);
  assert.is(one.body.values[0].value, 'H1');
  // Every record moved, in batches; none is left behind, none doubled.
  assert.is(await raw.collection('things_records').countDocuments({}), 0);
  assert.is(await raw.collection(`things_records_${ctx.a.orgId}`).countDocuments({}), 3);
  assert.is(await raw.collection(`things_records_${ctx.b.orgId}`).countDocuments({}), 1203);
  const apiB = client(ctx.svc.url, { apiKey: ctx.b.apiKey });
  assert.is((await apiB.get(`${BASE}/records/${docsB[1202]._id}`)).body.values[0].value, 'H1202');
  // Another organization's record is still 404, and writes go on where the old slots left off.
  assert.is((await api.get(`${BASE}/records/${docsB[0]._id}`)).status, 404);
  assert.is(
    (await api.put(`${BASE}/records/${docsA[0]._id}`, { values: [{ fieldID: ea.fieldID, value: 'H0 neu' }] })).status,
    200,
  );
  const created = await api.post(`${BASE}/entities/${ea.id}/records`, {
    values: [{ fieldID: ea.fieldID, value: 'H3' }],
  });
  assert.is(created.status, 201);
  assert.equal((await api.get(`${BASE}/usage?organization_id=${ctx.a.orgId}`)).body.recordCount, 4);
});

moved.run();
