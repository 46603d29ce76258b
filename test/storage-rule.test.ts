// The storage rule of docs/storage.md, held by a test: on the embedded database only a filter that is
// exactly { _id: <string> } is answered through an index, so the operations another organization's
// size must not slow read and write by exact string _id only. Every command the service sends to the
// database while these operations run is watched through the driver's command monitoring.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { client, request } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
}

const rule = suite<Ctx>('storage: hot paths read and write by exact string _id only', {} as Ctx);

rule.before(async (ctx) => {
  // Credentials are read on every request unless cached; with the cache off their reads are watched too.
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '0', CREDENTIAL_CACHE_MS: '0' }, { monitorCommands: true });
  ctx.org = await createOrg(ctx.svc);
});
rule.after(async (ctx) => {
  await ctx.svc.close();
});

interface Seen {
  command: string;
  collection: string;
  filter: unknown;
}

/** The filters of the reads, updates and deletes the database is sent while `run` runs. */
async function watch(svc: TestService, run: () => Promise<void>): Promise<Seen[]> {
  const seen: Seen[] = [];
  const listener = (event: { commandName: string; command: Record<string, any> }) => {
    const { commandName: name, command } = event;
    const collection = String(command[name]);
    // Background work, not a request's path: the alarm outbox's sweep reads its collection of
    // unfinished deliveries whole on its own timer (docs/alarms.md "Delivered").
    if (collection === 'alarm_outbox') return;
    if (name === 'find') seen.push({ command: name, collection, filter: command.filter ?? {} });
    else if (name === 'update')
      for (const u of command.updates ?? []) seen.push({ command: name, collection, filter: u.q });
    else if (name === 'delete')
      for (const d of command.deletes ?? []) seen.push({ command: name, collection, filter: d.q });
    else if (name === 'findAndModify') seen.push({ command: name, collection, filter: command.query });
    else if (['aggregate', 'count', 'distinct'].includes(name))
      seen.push({ command: name, collection, filter: command.query ?? command.pipeline ?? {} });
  };
  const driver = svc.db.conn.getClient();
  driver.on('commandStarted', listener);
  try {
    await run();
  } finally {
    driver.off('commandStarted', listener);
  }
  return seen;
}

/** The commands whose filter is not exactly { _id: <string> }. */
const offRule = (seen: Seen[]) =>
  seen.filter(({ command, filter }) => {
    if (!['find', 'update', 'delete', 'findAndModify'].includes(command)) return true;
    const keys = Object.keys(filter as object);
    return !(keys.length === 1 && keys[0] === '_id' && typeof (filter as { _id: unknown })._id === 'string');
  });

rule('monitor: M4, M6, M7, M8 and M10 of a monitor', async (ctx) => {
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  const made = await api.post('/api/v1/monitor', { name: 'Wache', organizationID: ctx.org.orgId });
  assert.is(made.status, 201);
  const id = made.body.id as number;
  const seen = await watch(ctx.svc, async () => {
    assert.is((await api.get(`/api/v1/monitor/${id}`)).status, 200);
    assert.is(
      (
        await api.post(`/api/v1/monitor/${id}/data/alarming`, {
          eventId: 1,
          event: 'B3',
          eventStartDate: new Date().toISOString(),
        })
      ).status,
      200,
    );
    assert.is((await api.patch(`/api/v1/monitor/${id}/data/alarming`, { positiveResponses: 3 })).status, 200);
    assert.is((await api.patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: 37 } })).status, 200);
    assert.is((await api.get(`/api/v1/monitor/${id}/data`)).status, 200);
  });
  assert.ok(seen.length > 0, 'the commands were watched');
  assert.equal(offRule(seen), [], JSON.stringify(offRule(seen)));
});

rule('things: T8 and T9 of a record', async (ctx) => {
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  const entity = await api.post('/api/v1/things/entities', {
    organizationID: ctx.org.orgId,
    name: 'Hydranten',
    fields: [{ name: 'nummer', type: 'text' }],
  });
  assert.is(entity.status, 201, JSON.stringify(entity.body));
  const fieldID = entity.body.fields[0].id as string;
  const record = await api.post(`/api/v1/things/entities/${entity.body.id}/records`, {
    values: [{ fieldID, value: 'H1' }],
  });
  assert.is(record.status, 201, JSON.stringify(record.body));
  const seen = await watch(ctx.svc, async () => {
    assert.is((await api.get(`/api/v1/things/records/${record.body.id}`)).status, 200);
    assert.is(
      (await api.put(`/api/v1/things/records/${record.body.id}`, { values: [{ fieldID, value: 'H2' }] })).status,
      200,
    );
  });
  assert.ok(seen.length > 0, 'the commands were watched');
  assert.equal(offRule(seen), [], JSON.stringify(offRule(seen)));
});

rule(
  "things: lists and counts of records read only their organization's collection, however many another holds",
  async (ctx) => {
    const other = await createOrg(ctx.svc);
    const fill = async (org: OrgFixture, count: number) => {
      const api = client(ctx.svc.url, { apiKey: org.apiKey });
      const entity = await api.post('/api/v1/things/entities', {
        organizationID: org.orgId,
        name: 'Hydranten',
        fields: [{ name: 'nummer', type: 'text' }],
      });
      assert.is(entity.status, 201, JSON.stringify(entity.body));
      const fieldID = entity.body.fields[0].id as string;
      const bulk = await api.post(`/api/v1/things/entities/${entity.body.id}/records/bulk`, {
        records: Array.from({ length: count }, (_, i) => ({ values: [{ fieldID, value: `H${i}` }] })),
      });
      assert.is(bulk.body.createdIDs.length, count);
      return { api, entityId: entity.body.id as string, fieldID, recordIds: bulk.body.createdIDs as string[] };
    };
    const small = await fill(ctx.org, 3);
    await fill(other, 50);
    const seen = await watch(ctx.svc, async () => {
      const listed = (await small.api.get(`/api/v1/things/entities?organization_id=${ctx.org.orgId}`)).body.entities;
      assert.is(listed.find((e: { id: string }) => e.id === small.entityId).recordCount, 3);
      assert.is((await small.api.get(`/api/v1/things/entities/${small.entityId}`)).body.recordCount, 3);
      assert.is((await small.api.get(`/api/v1/things/entities/${small.entityId}/records`)).body.total, 3);
      assert.is((await small.api.get(`/api/v1/things/entities/${small.entityId}/records?search=h1`)).body.total, 1);
      assert.is(
        (
          await small.api.get(
            `/api/v1/things/entities/${small.entityId}/records?orderby=${small.fieldID}&orderdir=desc`,
          )
        ).body.records[0].values[0].value,
        'H2',
      );
      // With the record of the test before.
      assert.equal((await small.api.get(`/api/v1/things/usage?organization_id=${ctx.org.orgId}`)).body.recordCount, 4);
      const bulk = await small.api.post(`/api/v1/things/entities/${small.entityId}/records/bulk`, {
        records: [{ id: small.recordIds[0], values: [{ fieldID: small.fieldID, value: 'H9' }] }],
        deleteIDs: [small.recordIds[1]],
      });
      assert.equal([bulk.body.updatedIDs.length, bulk.body.deletedIDs.length], [1, 1]);
    });
    const records = seen.filter((s) => s.collection.startsWith('things_record'));
    assert.ok(
      records.some((s) => s.collection === `things_records_${ctx.org.orgId}`),
      'its own collection was read',
    );
    // Besides its own records, only exact lookups of homes (T7's deletes remove theirs by _id).
    const foreign = records.filter(
      (s) => s.collection !== `things_records_${ctx.org.orgId}` && offRule([s]).length > 0,
    );
    assert.equal(foreign, [], JSON.stringify(foreign));
    assert.not.ok(
      seen.some((s) => s.collection === `things_records_${other.orgId}` || s.collection === 'things_records'),
    );
  },
);

rule('lists: M1, F4, J1, S1, C1, T1 and E3 read their index and each listed document by exact _id', async (ctx) => {
  const org = await createOrg(ctx.svc);
  const api = client(ctx.svc.url, { apiKey: org.apiKey });
  const monitor = (await api.post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id as number;
  const started = await request(ctx.svc.url, 'POST', '/api/v1/screens/pairing');
  assert.is(
    (await api.post(`/api/v1/monitor/${monitor}/screens`, { code: started.body.code, name: 'Halle' })).status,
    201,
  );
  assert.is(
    (await api.post('/api/v1/journal/categories', { organizationId: org.orgId, name: 'Lage', description: '' })).status,
    201,
  );
  assert.is(
    (await api.post('/api/v1/sms/alarming', { organizationID: org.orgId, gsm: '004917612345678', pin: '4711' })).status,
    200,
  );
  assert.is(
    (
      await api.post('/api/v1/call/alarming', {
        organizationID: org.orgId,
        gsm: '00496181904711',
        pin: '1122',
        alarmTemplateID: 3,
      })
    ).status,
    200,
  );
  assert.is(
    (await api.post('/api/v1/things/entities', { organizationID: org.orgId, name: 'Fahrzeuge', fields: [] })).status,
    201,
  );
  assert.is(
    (
      await api.put(`/api/v1/els-cobra/credentials/${org.orgId}?serviceName=fax`, {
        serviceName: 'fax',
        username: 'wache',
        password: 'geheim',
        url: 'https://fax.example.org',
      })
    ).status,
    200,
  );
  const seen = await watch(ctx.svc, async () => {
    assert.is((await api.get(`/api/v1/monitor?organization=${org.orgId}`)).body.length, 1);
    assert.is((await api.get(`/api/v1/monitor/${monitor}/screens`)).body.length, 1);
    assert.is((await api.get(`/api/v1/journal/categories?organization_id=${org.orgId}`)).body.length, 1);
    assert.is((await api.get(`/api/v1/sms/alarming?organization_id=${org.orgId}`)).body.length, 1);
    assert.is((await api.get(`/api/v1/call/alarming?organization_id=${org.orgId}`)).body.length, 1);
    assert.is((await api.get(`/api/v1/things/entities?organization_id=${org.orgId}`)).body.total, 1);
    assert.is((await api.get(`/api/v1/els-cobra/credentials/${org.orgId}`)).body.length, 1);
  });
  assert.ok(seen.length >= 14, `the commands were watched: ${seen.length}`);
  // T1 counts each listed entity's records in the organization's own record collection.
  const off = offRule(seen.filter((s) => s.collection !== `things_records_${org.orgId}`));
  assert.equal(off, [], JSON.stringify(off));
});

rule.run();
