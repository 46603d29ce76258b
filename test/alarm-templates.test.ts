// TP1–TP3 over the real wire: 401 → 400 → 403 → 404 → 2xx for alarm templates (docs/api.md "Alarm
// templates (TP1–TP3)"); another organization's templates are never listed, read or changed.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { as, journalSuite as orgSuite, matchesSchema, rejectsUnauthenticated } from './helpers/journal.js';

const BASE = '/api/v1/alarm-templates';
const TEMPLATE = 'Alarm template in wrong format or required field missing';
const body = (organizationID: number, over: Record<string, unknown> = {}) => ({
  organizationID,
  name: 'Vollalarm',
  event: 'Vollalarm Feuerwehr',
  message: 'Alle Einheiten zum Gerätehaus',
  units: ['ELW 1', 'HLF 20/1'],
  ...over,
});

const s = orgSuite('TP1–TP3 alarm templates');
rejectsUnauthenticated(s, 'TP1', 'POST', () => BASE, { organizationID: 1, name: 'x', event: 'x' });
rejectsUnauthenticated(s, 'TP2', 'GET', (ctx) => `${BASE}?organization_id=${ctx.a.orgId}`);
rejectsUnauthenticated(s, 'TP3', 'GET', () => `${BASE}/1`);

s(
  'TP1 400 names the field: missing event, unknown field, empty name, a channel that is none, IDs out of range',
  async (ctx) => {
    const c = client(ctx.svc.url, as.key(ctx.a));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ organizationID: ctx.a.orgId, name: 'x' }, 'event'],
      [{ ...body(ctx.a.orgId), colour: 'red' }, 'colour'],
      [body(ctx.a.orgId, { name: '' }), 'name'],
      [body(ctx.a.orgId, { channels: ['fax'] }), 'channels.0'],
      [body(ctx.a.orgId, { monitorIds: [ABOVE_MAX_ID] }), 'monitorIds.0'],
      [body(ctx.a.orgId, { event: 'x'.repeat(501) }), 'event'],
    ];
    for (const [bad, path] of cases) {
      const res = await c.post(BASE, bad);
      expectBadRequest(res, 'invalid_body', TEMPLATE, 'body', path);
    }
    expectBadRequest(
      await c.get(`${BASE}/abc`),
      'invalid_parameter',
      'templateId missing or in wrong format',
      'path',
      'templateId',
    );
  },
);

s('TP1 403 for a member, and for another organization (its API key, its admin)', async (ctx) => {
  for (const auth of [as.member(ctx.a), as.key(ctx.b), as.admin(ctx.b)]) {
    const res = await client(ctx.svc.url, auth).post(BASE, body(ctx.a.orgId));
    expectError(res, 403, 'forbidden');
  }
  const list = await client(ctx.svc.url, as.key(ctx.a)).get(`${BASE}?organization_id=${ctx.a.orgId}`);
  assert.equal(list.body, []);
});

s('TP1 201 → TP2 lists it (members too) → TP3 reads, replaces and deletes it; 404 after', async (ctx) => {
  const admin = client(ctx.svc.url, as.admin(ctx.a));
  const created = await admin.post(BASE, body(ctx.a.orgId, { channels: ['app', 'sms'] }));
  assert.is(created.status, 201, JSON.stringify(created.body));
  matchesSchema('AlarmTemplate', created.body);
  const { id } = created.body;
  assert.equal(
    { ...created.body, updatedAt: undefined },
    {
      id,
      organizationId: ctx.a.orgId,
      name: 'Vollalarm',
      event: 'Vollalarm Feuerwehr',
      message: 'Alle Einheiten zum Gerätehaus',
      units: ['ELW 1', 'HLF 20/1'],
      channels: ['app', 'sms'],
      monitorIds: null,
      updatedAt: undefined,
    },
  );
  const second = await admin.post(BASE, body(ctx.a.orgId, { name: 'Kleinalarm', event: 'TH 1' }));
  const listed = await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}?organization_id=${ctx.a.orgId}`);
  assert.is(listed.status, 200);
  matchesSchema('AlarmTemplateList', listed.body);
  assert.equal(
    listed.body.map((t: { id: number }) => t.id),
    [id, second.body.id],
  );

  const replaced = await admin.put(`${BASE}/${id}`, body(ctx.a.orgId, { event: 'Vollalarm', message: '' }));
  assert.is(replaced.status, 200);
  assert.equal([replaced.body.event, replaced.body.message, replaced.body.channels], ['Vollalarm', '', null]);
  assert.is((await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}/${id}`)).body.event, 'Vollalarm');

  assert.equal((await admin.delete(`${BASE}/${id}`)).body, { status: 'deleted' });
  expectError(await admin.get(`${BASE}/${id}`), 404, 'not_found', 'Alarm template not found');
  expectError(await admin.delete(`${BASE}/${id}`), 404, 'not_found');
});

s("another organization's template is 404 to read, replace and delete, and a PUT cannot move it", async (ctx) => {
  const mine = await client(ctx.svc.url, as.key(ctx.a)).post(BASE, body(ctx.a.orgId));
  const theirs = client(ctx.svc.url, as.key(ctx.b));
  expectError(await theirs.get(`${BASE}/${mine.body.id}`), 404, 'not_found');
  expectError(await theirs.put(`${BASE}/${mine.body.id}`, body(ctx.b.orgId)), 404, 'not_found');
  expectError(await theirs.delete(`${BASE}/${mine.body.id}`), 404, 'not_found');
  expectError(await theirs.get(`${BASE}?organization_id=${ctx.a.orgId}`), 403, 'forbidden');
  const moved = await client(ctx.svc.url, as.key(ctx.a)).put(`${BASE}/${mine.body.id}`, body(ctx.b.orgId));
  expectBadRequest(moved, 'invalid_body', TEMPLATE, 'body', 'organizationID');
  const member = client(ctx.svc.url, as.member(ctx.a));
  expectError(await member.put(`${BASE}/${mine.body.id}`, body(ctx.a.orgId)), 403, 'forbidden');
  expectError(await member.delete(`${BASE}/${mine.body.id}`), 403, 'forbidden');
  assert.is((await member.get(`${BASE}/${mine.body.id}`)).body.name, 'Vollalarm');
});

s('the other spelling of the organization (organizationId) is taken; both at once are a 400', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  const { organizationID, ...rest } = body(ctx.a.orgId);
  const other = await c.post(BASE, { ...rest, organizationId: organizationID });
  assert.is(other.status, 201, JSON.stringify(other.body));
  assert.is(other.body.organizationId, ctx.a.orgId);
  expectBadRequest(
    await c.post(BASE, { ...body(ctx.a.orgId), organizationId: ctx.a.orgId }),
    'invalid_body',
    TEMPLATE,
    'body',
    'organizationId',
  );
  // And the other way round: a journal category spelled organizationID.
  const category = await c.post('/api/v1/journal/categories', {
    name: 'Lage',
    description: '',
    organizationID: ctx.a.orgId,
  });
  assert.is(category.status, 201, JSON.stringify(category.body));
});

s.run();
