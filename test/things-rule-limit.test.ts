// Rules per entity (issue 20, item 5): at most 50, also under concurrent T11s on two service instances;
// T12-delete; and the storage rule that keeps one organization's rules from slowing another's writes —
// a record write and T10 read the entity's rules by one exact _id lookup, never by a scan.
import * as assert from 'uvu/assert';
import type { CommandStartedEvent } from 'mongodb';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { startTestService, type TestService } from './helpers/service.js';
import {
  BASE,
  admin,
  area,
  createEntity,
  createRecord,
  key,
  member,
  pat,
  rejectsWithoutCredential,
  type Ctx,
} from './helpers/things.js';
import { thingsModels } from '../server/areas/things/models.js';

const LIMIT = 50;
const UNKNOWN = '3f0b8c1e-2d4a-4c6b-9e8f-1a2b3c4d5e6f';
const LIMIT_MESSAGE =
  `The entity has reached its limit of ${LIMIT} rules; delete one (DELETE …/rules/{ruleUUID}) ` +
  `before creating another`;
const rulesUrl = (entityId: string) => `${BASE}/entities/${entityId}/rules`;
const rule = (name: string) => ({
  name,
  action: 'alarm',
  triggers: ['record_updated'],
  actionAlarmTemplate: { alarmMessage: name },
});

const s = area('rules per entity: the limit, T12-delete, exact lookups', {}, { monitorCommands: true });
// A second service instance on the same database: another process's queues and caches.
let other: TestService;
s.before(async () => {
  other = await startTestService();
});
s.after(async () => {
  await other.close();
});

/** A new entity of A with `count` rules; the rules as T11 answered. */
async function withRules(ctx: Ctx, count: number): Promise<{ entity: any; rules: any[] }> {
  const entity = await createEntity(ctx.svc, ctx.a, { name: `Rules ${Math.random()}` });
  const c = client(ctx.svc.url, key(ctx.a));
  const rules = [];
  for (let i = 0; i < count; i++) {
    const res = await c.post(rulesUrl(entity.id), rule(`Rule ${i}`));
    assert.is(res.status, 201, JSON.stringify(res.body));
    rules.push(res.body);
  }
  return { entity, rules };
}

rejectsWithoutCredential(s, 'T12-delete', 'DELETE', (ctx) => `${rulesUrl(ctx.entity.id)}/${UNKNOWN}`);

s(`T11 409 conflict for the ${LIMIT + 1}st rule of an entity; other entities are not affected`, async (ctx) => {
  const { entity } = await withRules(ctx, LIMIT);
  const c = client(ctx.svc.url, key(ctx.a));
  expectError(await c.post(rulesUrl(entity.id), rule('one too many')), 409, 'conflict', LIMIT_MESSAGE);
  assert.is((await c.get(rulesUrl(entity.id))).body.total, LIMIT);
  assert.is((await c.post(rulesUrl(ctx.entity.id), rule('elsewhere'))).status, 201);
});

s(
  `60 concurrent T11s on one entity over two instances create exactly ${LIMIT}; the rest are 409 conflict`,
  async (ctx) => {
    const entity = await createEntity(ctx.svc, ctx.a, { name: 'Raced' });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        client((i % 2 ? other : ctx.svc).url, key(ctx.a)).post(rulesUrl(entity.id), rule(`Race ${i}`)),
      ),
    );
    assert.is(
      answers.filter((r) => r.status === 201).length,
      LIMIT,
      JSON.stringify(answers.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body)),
    );
    for (const r of answers.filter((a) => a.status !== 201)) expectError(r, 409, 'conflict', LIMIT_MESSAGE);
    const listed = (await client(ctx.svc.url, key(ctx.a)).get(`${rulesUrl(entity.id)}?limit=50`)).body;
    assert.is(listed.total, LIMIT);
    assert.equal(
      new Set(listed.rules.map((r: any) => r.id)),
      new Set(answers.filter((r) => r.status === 201).map((r) => r.body.id)),
    );
    assert.is(
      await thingsModels(ctx.svc.db).ThingRule.countDocuments({ entityID: entity.id }),
      LIMIT,
      'refused rules are not kept',
    );
  },
);

s('T12-delete 400 for a malformed uuid or ruleUUID; 403 for members, granted or not', async (ctx) => {
  const { entity, rules } = await withRules(ctx, 1);
  const c = client(ctx.svc.url, key(ctx.a));
  expectBadRequest(
    await c.delete(`${BASE}/entities/x/rules/${rules[0].id}`),
    'invalid_parameter',
    'uuid or ruleUUID missing or in wrong format',
    'path',
    'uuid',
  );
  expectBadRequest(
    await c.delete(`${rulesUrl(entity.id)}/x`),
    'invalid_parameter',
    'uuid or ruleUUID missing or in wrong format',
    'path',
    'ruleUUID',
  );
  for (const auth of [member(ctx.a), pat(ctx.reader), pat(ctx.writer)]) {
    expectError(await client(ctx.svc.url, auth).delete(`${rulesUrl(entity.id)}/${rules[0].id}`), 403, 'forbidden');
  }
  assert.is((await c.get(rulesUrl(entity.id))).body.total, 1);
});

s(
  "T12-delete 404 for another organization's rule, an unknown entity or rule, and a rule of another entity",
  async (ctx) => {
    const { entity, rules } = await withRules(ctx, 1);
    const url = `${rulesUrl(entity.id)}/${rules[0].id}`;
    for (const auth of [key(ctx.b), admin(ctx.b)])
      expectError(await client(ctx.svc.url, auth).delete(url), 404, 'not_found', 'Entity not found');
    const c = client(ctx.svc.url, key(ctx.a));
    expectError(await c.delete(`${rulesUrl(UNKNOWN)}/${rules[0].id}`), 404, 'not_found', 'Entity not found');
    expectError(await c.delete(`${rulesUrl(entity.id)}/${UNKNOWN}`), 404, 'not_found', 'Rule not found');
    expectError(await c.delete(`${rulesUrl(ctx.entity.id)}/${rules[0].id}`), 404, 'not_found', 'Rule not found');
    assert.equal(
      (await c.get(rulesUrl(entity.id))).body.rules.map((r: any) => r.id),
      [rules[0].id],
    );
  },
);

s(
  'T12-delete 200 {"status":"deleted"}: the rule is gone (T10, T12, a second delete 404) and at ' +
    'the limit a new one fits',
  async (ctx) => {
    const { entity, rules } = await withRules(ctx, LIMIT);
    const c = client(ctx.svc.url, admin(ctx.a));
    const gone = rules[7];
    const res = await c.delete(`${rulesUrl(entity.id)}/${gone.id}`);
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body, { status: 'deleted' });
    const listed = (await c.get(`${rulesUrl(entity.id)}?limit=50`)).body;
    assert.equal(
      listed.rules.map((r: any) => r.id),
      rules.filter((r) => r !== gone).map((r) => r.id),
      'the others in creation order',
    );
    expectError(await c.put(`${rulesUrl(entity.id)}/${gone.id}`, rule('back')), 404, 'not_found', 'Rule not found');
    expectError(await c.delete(`${rulesUrl(entity.id)}/${gone.id}`), 404, 'not_found', 'Rule not found');
    const again = await c.post(rulesUrl(entity.id), rule('new'));
    assert.is(again.status, 201, JSON.stringify(again.body));
    expectError(await c.post(rulesUrl(entity.id), rule('over')), 409, 'conflict', LIMIT_MESSAGE);
    assert.equal((await c.get(`${rulesUrl(entity.id)}?limit=1&offset=${LIMIT - 1}`)).body, {
      rules: [again.body],
      total: LIMIT,
    });
  },
);

s('a deleted rule no longer fires; the others still do', async (ctx) => {
  const entity = await createEntity(ctx.svc, ctx.a, { name: 'Firing' });
  const c = client(ctx.svc.url, key(ctx.a));
  const keep = (await c.post(rulesUrl(entity.id), rule('keep'))).body;
  const drop = (await c.post(rulesUrl(entity.id), rule('drop'))).body;
  assert.is((await c.delete(`${rulesUrl(entity.id)}/${drop.id}`)).status, 200);
  const record = await createRecord(ctx, {}, entity);
  assert.is((await c.put(`${BASE}/records/${record.id}`, { values: [] })).status, 200);
  const executions = await thingsModels(ctx.svc.db).ThingRuleExecution.find({ recordID: record.id }).lean();
  assert.equal(
    executions.map((e) => e.ruleID),
    [keep.id],
  );
});

s(
  "a record write (T9) and T10 read the entity's rules by exact _id lookups only, never by a filter on other fields",
  async (ctx) => {
    const { entity, rules } = await withRules(ctx, 3);
    const record = await createRecord(ctx, {}, entity);
    const seen: Array<{ collection: string; name: string; command: Record<string, any> }> = [];
    const spy = (ev: CommandStartedEvent) => {
      const collection = ev.command[ev.commandName];
      if (typeof collection === 'string' && /^things_(rule_sets|entity_rules|rules)$/.test(collection))
        seen.push({ collection, name: ev.commandName, command: ev.command });
    };
    const driver = ctx.svc.db.conn.getClient();
    driver.on('commandStarted', spy);
    try {
      const c = client(ctx.svc.url, key(ctx.a));
      assert.is((await c.put(`${BASE}/records/${record.id}`, { values: [] })).status, 200);
      assert.is((await c.get(rulesUrl(entity.id))).status, 200);
    } finally {
      driver.off('commandStarted', spy);
    }
    // Per request the entity's set; each rule version is read once by its _id, after that this process keeps it.
    assert.ok(seen.length >= 2, JSON.stringify(seen.map((q) => [q.collection, q.name])));
    for (const q of seen) {
      assert.is(q.name, 'find');
      assert.equal(Object.keys(q.command.filter), ['_id'], JSON.stringify(q.command));
      const id = String(q.command.filter._id);
      assert.ok(
        q.collection === 'things_rule_sets' ? id === entity.id : rules.some((r) => id.startsWith(`${r.id}:`)),
        JSON.stringify(q.command),
      );
    }
    assert.is(seen.filter((q) => q.collection === 'things_rule_sets').length, 2);
  },
);

s('a rule saved (T12) or deleted on one instance is what record writes on the other run next', async (ctx) => {
  const entity = await createEntity(ctx.svc, ctx.a, { name: 'Versions' });
  const c = client(ctx.svc.url, key(ctx.a));
  const elsewhere = client(other.url, key(ctx.a));
  const saved = (await c.post(rulesUrl(entity.id), rule('old text'))).body;
  const doomed = (await c.post(rulesUrl(entity.id), rule('doomed'))).body;
  const record = await createRecord(ctx, {}, entity);
  const fired = async () =>
    (await thingsModels(ctx.svc.db).ThingRuleExecution.find({ recordID: record.id }).lean()).map((e) => [
      e.ruleID,
      JSON.parse(e.alarm).message,
    ]);
  assert.is((await elsewhere.put(`${BASE}/records/${record.id}`, { values: [] })).status, 200);
  assert.equal(
    new Set(await fired()),
    new Set([
      [saved.id, 'old text'],
      [doomed.id, 'doomed'],
    ]),
  );
  assert.is((await c.put(`${rulesUrl(entity.id)}/${saved.id}`, rule('new text'))).status, 200);
  assert.is((await c.delete(`${rulesUrl(entity.id)}/${doomed.id}`)).status, 200);
  await thingsModels(ctx.svc.db).ThingRuleExecution.deleteMany({ recordID: record.id });
  assert.is((await elsewhere.put(`${BASE}/records/${record.id}`, { values: [] })).status, 200);
  assert.equal(await fired(), [[saved.id, 'new text']]);
  assert.equal(
    (await elsewhere.get(rulesUrl(entity.id))).body.rules.map((r: any) => r.actionAlarmTemplate.alarmMessage),
    ['new text'],
  );
  assert.is(
    await thingsModels(ctx.svc.db).ThingRule.countDocuments({ entityID: entity.id }),
    1,
    'replaced and deleted versions are removed',
  );
});

s(
  "rules stored one per document by an earlier version are moved into their entity's set when a process starts",
  async (ctx) => {
    const entity = await createEntity(ctx.svc, ctx.a, { name: 'Legacy' });
    const legacy = ctx.svc.db.conn.collection<{ _id: string } & Record<string, unknown>>('things_rules');
    const old = (id: string, name: string, createdAt: string) => ({
      _id: id,
      organizationID: ctx.a.orgId,
      entityID: entity.id,
      name,
      description: '',
      action: 'alarm',
      actionAlarmTemplate: {
        alarmMessage: name,
        alarmTemplateID: null,
        documentKeysFieldID: '',
        eventName: '',
        positionFieldID: '',
      },
      conditions: [],
      triggers: ['record_updated'],
      createdAt: new Date(createdAt),
      updatedAt: new Date(createdAt),
    });
    const ids = ['8b0c6a52-1d6f-4c7e-9a43-0f1e2d3c4b5a', '2e4f6a8c-0b1d-4e3f-8a5c-7e9f1b3d5c7e'];
    await legacy.insertMany([
      old(ids[0], 'later', '2025-02-01T00:00:00Z'),
      old(ids[1], 'earlier', '2025-01-01T00:00:00Z'),
    ]);
    const restarted = await startTestService();
    try {
      const listed = (await client(restarted.url, key(ctx.a)).get(rulesUrl(entity.id))).body;
      assert.equal(
        listed.rules.map((r: any) => [r.id, r.name]),
        [
          [ids[1], 'earlier'],
          [ids[0], 'later'],
        ],
      );
      assert.is(await legacy.countDocuments({ _id: { $in: ids } }), 0, 'moved, not copied');
      assert.is((await client(ctx.svc.url, key(ctx.a)).delete(`${rulesUrl(entity.id)}/${ids[0]}`)).status, 200);
    } finally {
      await restarted.close();
    }
  },
);

s.run();
