// The storage rule of docs/storage.md, held by a test: on the embedded database only a filter that is
// exactly { _id: <string> } is answered through an index, so the operations another organization's
// size must not slow read and write by exact string _id only. Every command the service sends to the
// database while these operations run is watched through the driver's command monitoring.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
}

const rule = suite<Ctx>('storage: hot paths read and write by exact string _id only', {} as Ctx);

rule.before(async (ctx) => {
  // Credentials are read on every request unless cached; with the cache off their reads are watched too.
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '0', CREDENTIAL_CACHE_MS: '0' });
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
    if (name === 'find') seen.push({ command: name, collection, filter: command.filter ?? {} });
    else if (name === 'update') for (const u of command.updates ?? []) seen.push({ command: name, collection, filter: u.q });
    else if (name === 'delete') for (const d of command.deletes ?? []) seen.push({ command: name, collection, filter: d.q });
    else if (name === 'findAndModify') seen.push({ command: name, collection, filter: command.query });
    else if (['aggregate', 'count', 'distinct'].includes(name)) seen.push({ command: name, collection, filter: command.query ?? command.pipeline ?? {} });
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
    assert.is((await api.post(`/api/v1/monitor/${id}/data/alarming`, { eventId: 1, event: 'B3', eventStartDate: new Date().toISOString() })).status, 200);
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
    organizationID: ctx.org.orgId, name: 'Hydranten', fields: [{ name: 'nummer', type: 'text' }],
  });
  assert.is(entity.status, 201, JSON.stringify(entity.body));
  const fieldID = entity.body.fields[0].id as string;
  const record = await api.post(`/api/v1/things/entities/${entity.body.id}/records`, { values: [{ fieldID, value: 'H1' }] });
  assert.is(record.status, 201, JSON.stringify(record.body));
  const seen = await watch(ctx.svc, async () => {
    assert.is((await api.get(`/api/v1/things/records/${record.body.id}`)).status, 200);
    assert.is((await api.put(`/api/v1/things/records/${record.body.id}`, { values: [{ fieldID, value: 'H2' }] })).status, 200);
  });
  assert.ok(seen.length > 0, 'the commands were watched');
  assert.equal(offRule(seen), [], JSON.stringify(offRule(seen)));
});

rule.run();
