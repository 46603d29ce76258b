// Concurrent writes of one record (issue 20, item 2): every acknowledged field change survives, within
// one process and across two service instances on one database (FerretDB here, whose updates are
// read-modify-write without a lock). Rate limits are off (test service).
import * as assert from 'uvu/assert';
import { Revisions } from '../server/db/revisions.js';
import { client } from './helpers/http.js';
import { startTestService, type TestService } from './helpers/service.js';
import { BASE, area, createEntity, key, type Ctx } from './helpers/things.js';
import { thingsModels } from '../server/areas/things/models.js';

const FIELDS = Array.from({ length: 20 }, (_, i) => ({ name: `F${i + 1}`, type: 'text' }));

const race = area('things records under concurrent writes');
// A second service instance on the same database: another process's queues and caches.
let other: TestService;
race.before(async () => {
  other = await startTestService();
});
race.after(async () => {
  await other.close();
});

/** An entity of A with 20 text fields and one record of it with F1 set; field IDs in order. */
async function target(ctx: Ctx): Promise<{ entityId: string; recordId: string; fields: string[] }> {
  const entity = await createEntity(ctx.svc, ctx.a, { name: `Wide ${Math.random()}`, fields: FIELDS });
  const fields = entity.fields.map((f: any) => f.id as string);
  const res = await client(ctx.svc.url, key(ctx.a)).post(`${BASE}/entities/${entity.id}/records`, {
    values: [{ fieldID: fields[0], value: 'start' }],
  });
  assert.is(res.status, 201);
  return { entityId: entity.id, recordId: res.body.id, fields };
}

/** The record's values by field ID, read back through T8. */
async function valuesOf(ctx: Ctx, recordId: string): Promise<Record<string, string>> {
  const res = await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/records/${recordId}`);
  assert.is(res.status, 200);
  return Object.fromEntries(res.body.values.map((v: any) => [v.fieldID, v.value]));
}

race('20 parallel T9s on one record, each setting another field: all 200 and all 20 values kept', async (ctx) => {
  const { recordId, fields } = await target(ctx);
  const c = client(ctx.svc.url, key(ctx.a));
  const answers = await Promise.all(
    fields.map((id, i) => c.put(`${BASE}/records/${recordId}`, { values: [{ fieldID: id, value: `v${i + 1}` }] })),
  );
  for (const r of answers) assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(await valuesOf(ctx, recordId), Object.fromEntries(fields.map((id, i) => [id, `v${i + 1}`])));
});

race('20 parallel T9s spread over two service instances: all 20 values kept, in 3 rounds', async (ctx) => {
  for (let round = 0; round < 3; round++) {
    const { recordId, fields } = await target(ctx);
    const answers = await Promise.all(
      fields.map((id, i) =>
        client((i % 2 ? other : ctx.svc).url, key(ctx.a)).put(`${BASE}/records/${recordId}`, {
          values: [{ fieldID: id, value: `r${round}-${i + 1}` }],
        }),
      ),
    );
    for (const r of answers) assert.is(r.status, 200, JSON.stringify(r.body));
    assert.equal(
      await valuesOf(ctx, recordId),
      Object.fromEntries(fields.map((id, i) => [id, `r${round}-${i + 1}`])),
      `round ${round}`,
    );
  }
});

race('T7 updates racing T9s on one record (two instances): every acknowledged field change kept', async (ctx) => {
  for (let round = 0; round < 3; round++) {
    const { entityId, recordId, fields } = await target(ctx);
    const bulk = (svc: TestService, i: number) =>
      client(svc.url, key(ctx.a)).post(`${BASE}/entities/${entityId}/records/bulk`, {
        records: [{ id: recordId, values: [{ fieldID: fields[i], value: `bulk${i}` }] }],
      });
    const put = (svc: TestService, i: number) =>
      client(svc.url, key(ctx.a)).put(`${BASE}/records/${recordId}`, {
        values: [{ fieldID: fields[i], value: `put${i}` }],
      });
    const answers = await Promise.all(fields.map((_, i) => (i % 2 ? bulk : put)(i % 4 < 2 ? ctx.svc : other, i)));
    for (const [i, r] of answers.entries()) {
      assert.is(r.status, 200, JSON.stringify(r.body));
      if (i % 2) assert.equal([r.body.updatedIDs, r.body.failedEntries], [[recordId], []]);
    }
    assert.equal(
      await valuesOf(ctx, recordId),
      Object.fromEntries(fields.map((id, i) => [id, i % 2 ? `bulk${i}` : `put${i}`])),
      `round ${round}`,
    );
  }
});

race(
  'a claim left by a crashed writer does not wedge the record: it is skipped once seen unchanged for the stale time',
  async (ctx) => {
    const { recordId, fields } = await target(ctx);
    // The organization's record collection (things_records_<organization ID>).
    const ThingRecord = await thingsModels(ctx.svc.db).records.of(ctx.a.orgId);
    const { RevisionClaim } = ctx.svc.db.system;
    const collection = `things_records_${ctx.a.orgId}`;
    // The record was never revised (rev 0): a writer that crashed after claiming revision 1.
    await RevisionClaim.create({ _id: `${collection}:${recordId}:1`, token: 'crashed', at: new Date() });
    // Short times stand in for the service's (45 s stale, 10 s wait), which a test should not sit through.
    const impatient = new Revisions(RevisionClaim, ctx.svc.db.generation, { staleMs: 60_000, waitMs: 300 });
    const err = await impatient
      .change(ThingRecord, recordId, () => ({ updatedAt: new Date() }))
      .catch((e: unknown) => e);
    assert.equal(
      [(err as any)?.status, (err as any)?.code],
      [503, 'unavailable'],
      'a held claim is waited for, not overwritten',
    );
    const recovering = new Revisions(RevisionClaim, ctx.svc.db.generation, { staleMs: 300, waitMs: 20_000 });
    const written = await recovering.change(ThingRecord, recordId, (doc) => ({
      values: doc.values.replace('"start"', '"recovered"'),
    }));
    assert.is(written?.rev, 2, 'revision 1 was passed over');
    assert.is((await valuesOf(ctx, recordId))[fields[0]], 'recovered');
    // The service itself writes on from there.
    const res = await client(ctx.svc.url, key(ctx.a)).put(`${BASE}/records/${recordId}`, {
      values: [{ fieldID: fields[1], value: 'after' }],
    });
    assert.is(res.status, 200);
    assert.equal(await valuesOf(ctx, recordId), { [fields[0]]: 'recovered', [fields[1]]: 'after' });
    assert.is((await ThingRecord.findById(recordId).lean())?.rev, 3);
    // The passed-over claim and the writers' own claims are removed after the writes.
    const claims = [1, 2, 3].map((n) => `${collection}:${recordId}:${n}`);
    for (let until = Date.now() + 10_000; (await RevisionClaim.countDocuments({ _id: { $in: claims } })) > 0;) {
      assert.ok(Date.now() < until, 'claims removed');
      await new Promise((r) => setTimeout(r, 20));
    }
  },
);

race.run();
