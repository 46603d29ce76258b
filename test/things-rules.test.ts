// T10–T12 over the real wire, and rules at work: a rule whose conditions hold emits
// things:rule-triggered to the organization's hub room (received here by socket.io-client) and is stored
// as an execution; one whose conditions do not hold stays silent.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { connectScreen, type Screen, WAIT_MS } from './helpers/screen.js';
import {
  BASE,
  admin,
  area,
  createRecord,
  key,
  member,
  pat,
  rejectsWithoutCredential,
  type Ctx,
} from './helpers/things.js';
import { thingsModels } from '../server/areas/things/models.js';

const RULE_BODY = 'Rule in wrong format or required field missing';
const UNKNOWN = '3f0b8c1e-2d4a-4c6b-9e8f-1a2b3c4d5e6f';
const rulesUrl = (ctx: Ctx) => `${BASE}/entities/${ctx.entity.id}/rules`;

/** A sound rule on the entity of A: low pressure on a hydrant that does not work. */
function lowPressure(ctx: Ctx, extra: Record<string, unknown> = {}) {
  return {
    name: 'Low pressure',
    description: 'Hydrant out of order',
    action: 'alarm',
    triggers: ['record_created', 'record_updated'],
    conditions: [
      { fieldID: ctx.field.Pressure, operator: 'lt', comparison: '2' },
      { fieldID: ctx.field.Working, operator: 'eq', comparison: 'false' },
      { fieldID: ctx.field.Name, operator: 'not_empty' },
    ],
    actionAlarmTemplate: {
      alarmMessage: `Hydrant {{${ctx.field.Name}}} at {{ ${ctx.field.Address} }}: {{${ctx.field.Pressure}}} bar`,
      eventName: `H1 {{${ctx.field.Kind}}}`,
      alarmTemplateID: 17,
      positionFieldID: ctx.field.Position,
      documentKeysFieldID: ctx.field.Name,
    },
    ...extra,
  };
}

// ---------------------------------------------------------------- T10–T12
const crud = area('T10–T12 rules');
rejectsWithoutCredential(crud, 'T10', 'GET', rulesUrl);
rejectsWithoutCredential(crud, 'T11', 'POST', rulesUrl, { name: 'x', action: 'alarm', triggers: ['record_created'] });
rejectsWithoutCredential(crud, 'T12', 'PUT', (ctx) => `${rulesUrl(ctx)}/${UNKNOWN}`, {
  name: 'x',
  action: 'alarm',
  triggers: ['record_created'],
});

crud('T10/T11/T12 400 for malformed parameters and bodies (vocabulary outside the enums included)', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const ok = lowPressure(ctx);
  expectBadRequest(
    await c.get(`${rulesUrl(ctx)}?limit=51`),
    'invalid_parameter',
    'limit or offset in wrong format',
    'query',
    'limit',
  );
  expectBadRequest(
    await c.get(`${BASE}/entities/x/rules`),
    'invalid_parameter',
    'uuid missing or in wrong format',
    'path',
    'uuid',
  );
  expectBadRequest(
    await c.put(`${rulesUrl(ctx)}/x`, ok),
    'invalid_parameter',
    'uuid or ruleUUID missing or in wrong format',
    'path',
    'ruleUUID',
  );
  expectBadRequest(await c.post(rulesUrl(ctx)), 'invalid_body', RULE_BODY, 'body');
  for (const key of ['name', 'action', 'triggers']) {
    const { [key]: _, ...rest } = ok as Record<string, unknown>;
    expectBadRequest(await c.post(rulesUrl(ctx), rest), 'invalid_body', RULE_BODY, 'body', key);
  }
  expectBadRequest(
    await c.post(rulesUrl(ctx), { ...ok, action: 'email' }),
    'invalid_body',
    RULE_BODY,
    'body',
    'action',
  );
  expectBadRequest(await c.post(rulesUrl(ctx), { ...ok, triggers: [] }), 'invalid_body', RULE_BODY, 'body', 'triggers');
  expectBadRequest(
    await c.post(rulesUrl(ctx), { ...ok, triggers: ['record_viewed'] }),
    'invalid_body',
    RULE_BODY,
    'body',
    'triggers.0',
  );
  expectBadRequest(
    await c.post(rulesUrl(ctx), { ...ok, conditions: [{ fieldID: ctx.field.Name, operator: 'like' }] }),
    'invalid_body',
    RULE_BODY,
    'body',
    'conditions.0.operator',
  );
  expectBadRequest(
    await c.post(rulesUrl(ctx), { ...ok, actionAlarmTemplate: {} }),
    'invalid_body',
    RULE_BODY,
    'body',
    'actionAlarmTemplate.alarmMessage',
  );
});

crud('T11/T12 400 for rules that do not fit the entity: fields, operators, comparisons, placeholders', async (ctx) => {
  const c = client(ctx.svc.url, key(ctx.a));
  const ok = lowPressure(ctx);
  const cond = (fieldID: string, operator: string, comparison?: string) => ({
    ...ok,
    conditions: [{ fieldID, operator, ...(comparison === undefined ? {} : { comparison }) }],
  });
  const template = (t: Record<string, unknown>) => ({
    ...ok,
    actionAlarmTemplate: { ...ok.actionAlarmTemplate, ...t },
  });
  const cases: Array<[unknown, string, string]> = [
    [cond('nope', 'eq', 'x'), 'Condition 1 names the unknown field "nope"', 'conditions.0.fieldID'],
    [
      cond(ctx.field.Name, 'gt', 'a'),
      'Operator gt does not fit field "Name" (text); allowed: eq, ne, contains, empty, not_empty',
      'conditions.0.operator',
    ],
    [
      cond(ctx.field.Pressure, 'contains', '1'),
      'Operator contains does not fit field "Pressure" (number); allowed: eq, ne, lt, lte, gt, gte, empty, not_empty',
      'conditions.0.operator',
    ],
    [
      cond(ctx.field.Working, 'lt', 'true'),
      'Operator lt does not fit field "Working" (boolean); allowed: eq, ne, empty, not_empty',
      'conditions.0.operator',
    ],
    [
      cond(ctx.field.Position, 'eq', '1,1'),
      'Operator eq does not fit field "Position" (coordinates); allowed: empty, not_empty',
      'conditions.0.operator',
    ],
    [
      cond(ctx.field.Pressure, 'gte', 'high'),
      'Comparison of condition 1 for field "Pressure" (number): "high" is not a number (digits, optional ' +
        'sign, decimal point and exponent)',
      'conditions.0.comparison',
    ],
    [
      cond(ctx.field.Kind, 'eq', 'tree'),
      'Comparison of condition 1 for field "Kind" (selection): "tree" is not one of "underground", "pillar", "wall"',
      'conditions.0.comparison',
    ],
    [
      cond(ctx.field.Checked, 'lt', '2024-02-30'),
      'Comparison of condition 1 for field "Checked" (date): "2024-02-30" is not a date (YYYY-MM-DD)',
      'conditions.0.comparison',
    ],
    [cond(ctx.field.Name, 'eq'), 'Operator eq needs a comparison', 'conditions.0.comparison'],
    [cond(ctx.field.Name, 'empty', 'x'), 'Operator empty takes no comparison', 'conditions.0.comparison'],
    [{ ...ok, actionAlarmTemplate: undefined }, 'The action alarm needs an actionAlarmTemplate', 'actionAlarmTemplate'],
    [
      template({ alarmMessage: 'Fire at {{street}}' }),
      'The alarmMessage placeholder {{street}} names no field of the entity',
      'actionAlarmTemplate.alarmMessage',
    ],
    [
      template({ eventName: '{{}}' }),
      'The eventName placeholder {{}} names no field of the entity',
      'actionAlarmTemplate.eventName',
    ],
    [
      template({ positionFieldID: ctx.field.Name }),
      `positionFieldID "${ctx.field.Name}" must name a coordinates or address field`,
      'actionAlarmTemplate.positionFieldID',
    ],
    [
      template({ documentKeysFieldID: 'nope' }),
      'documentKeysFieldID "nope" names no field of the entity',
      'actionAlarmTemplate.documentKeysFieldID',
    ],
    [{ ...ok, entityID: UNKNOWN }, 'entityID does not match the entity in the path', 'entityID'],
  ];
  const saved = (await c.post(rulesUrl(ctx), ok)).body;
  for (const [body, message, path] of cases) {
    expectBadRequest(await c.post(rulesUrl(ctx), body), 'invalid_body', message, 'body', path);
    expectBadRequest(await c.put(`${rulesUrl(ctx)}/${saved.id}`, body), 'invalid_body', message, 'body', path);
  }
  expectBadRequest(
    await c.put(`${rulesUrl(ctx)}/${saved.id}`, { ...ok, id: UNKNOWN }),
    'invalid_body',
    'id does not match the rule in the path',
    'body',
    'id',
  );
});

crud('T10 403 for a member the entity does not grant; T11/T12 403 for members, granted or not', async (ctx) => {
  const rule = lowPressure(ctx);
  expectError(await client(ctx.svc.url, member(ctx.a)).get(rulesUrl(ctx)), 403, 'forbidden');
  for (const auth of [member(ctx.a), pat(ctx.reader), pat(ctx.writer)]) {
    expectError(await client(ctx.svc.url, auth).post(rulesUrl(ctx), rule), 403, 'forbidden');
    expectError(await client(ctx.svc.url, auth).put(`${rulesUrl(ctx)}/${UNKNOWN}`, rule), 403, 'forbidden');
  }
});

crud(
  'T10–T12 404 across organizations, for unknown entities, unknown rules and rules of another entity',
  async (ctx) => {
    const rule = lowPressure(ctx);
    for (const auth of [key(ctx.b), admin(ctx.b)]) {
      expectError(await client(ctx.svc.url, auth).get(rulesUrl(ctx)), 404, 'not_found');
      expectError(await client(ctx.svc.url, auth).post(rulesUrl(ctx), rule), 404, 'not_found');
    }
    const c = client(ctx.svc.url, key(ctx.a));
    expectError(await c.post(`${BASE}/entities/${UNKNOWN}/rules`, rule), 404, 'not_found');
    expectError(await c.put(`${rulesUrl(ctx)}/${UNKNOWN}`, rule), 404, 'not_found', 'Rule not found');
    const other = (await c.post(`${BASE}/entities`, { name: 'Other', organizationID: ctx.a.orgId })).body;
    const foreign = (
      await c.post(`${BASE}/entities/${other.id}/rules`, {
        name: 'x',
        action: 'alarm',
        triggers: ['record_created'],
        actionAlarmTemplate: { alarmMessage: 'x' },
      })
    ).body;
    expectError(await c.put(`${rulesUrl(ctx)}/${foreign.id}`, rule), 404, 'not_found', 'Rule not found');
  },
);

crud('T11 201, T10 200 and T12 200 with the full rule shape, paged in creation order', async (ctx) => {
  const c = client(ctx.svc.url, admin(ctx.a));
  const created = await c.post(rulesUrl(ctx), lowPressure(ctx, { id: 'ignored' }));
  assert.is(created.status, 201, JSON.stringify(created.body));
  const sent = lowPressure(ctx);
  // A condition without comparison is answered with comparison "".
  const conditions = sent.conditions.map((c) => ({ comparison: '', ...c }));
  // Without a cooldown given, the default (10 minutes) is shown.
  assert.equal(created.body, {
    id: created.body.id,
    entityID: ctx.entity.id,
    ...sent,
    conditions,
    cooldownSeconds: 600,
  });
  const second = (
    await c.post(rulesUrl(ctx), {
      name: 'Any delete',
      action: 'alarm',
      triggers: ['record_deleted'],
      actionAlarmTemplate: { alarmMessage: 'gone' },
    })
  ).body;
  assert.equal(second, {
    id: second.id,
    entityID: ctx.entity.id,
    name: 'Any delete',
    description: '',
    action: 'alarm',
    conditions: [],
    triggers: ['record_deleted'],
    actionAlarmTemplate: { alarmMessage: 'gone', documentKeysFieldID: '', eventName: '', positionFieldID: '' },
    cooldownSeconds: 600,
  });
  const all = (await c.get(`${rulesUrl(ctx)}?limit=50`)).body;
  assert.equal(
    all.rules.slice(-2).map((r: any) => r.id),
    [created.body.id, second.id],
  );
  assert.is(all.total, all.rules.length);
  const listed = await client(ctx.svc.url, pat(ctx.reader)).get(`${rulesUrl(ctx)}?limit=1&offset=${all.total - 1}`);
  assert.equal(listed.body, { rules: [second], total: all.total });
  const updated = await c.put(`${rulesUrl(ctx)}/${second.id}`, {
    ...second,
    name: 'Renamed',
    triggers: ['record_deleted', 'record_updated'],
    cooldownSeconds: 0,
  });
  assert.is(updated.status, 200, JSON.stringify(updated.body));
  assert.equal(updated.body, {
    ...second,
    name: 'Renamed',
    triggers: ['record_deleted', 'record_updated'],
    cooldownSeconds: 0,
  });
});

crud.run();

// ---------------------------------------------------------------- rules at work
const work = area('rules trigger: things:rule-triggered on the hub');
let screens: Screen[] = [];
work.after.each(() => {
  for (const s of screens) s.close();
  screens = [];
});

const triggered = (s: Screen) => s.events.filter((e) => e.name === 'things:rule-triggered').map((e) => e.payload);

work(
  'a rule whose conditions hold emits things:rule-triggered with the rendered alarm and stores ' +
    'the execution; one whose conditions fail does not',
  async (ctx) => {
    const rule = (await client(ctx.svc.url, key(ctx.a)).post(rulesUrl(ctx), lowPressure(ctx))).body;
    const [staff, outsider] = [
      await connectScreen(ctx.svc.url, ctx.a.apiKey),
      await connectScreen(ctx.svc.url, ctx.b.apiKey),
    ];
    screens.push(staff, outsider);
    // Conditions fail: pressure too high, then working, then no name.
    await createRecord(ctx, { Name: 'H2', Pressure: '3', Working: 'false' });
    await createRecord(ctx, { Name: 'H3', Pressure: '1', Working: 'true' });
    await createRecord(ctx, { Pressure: '1', Working: 'false' });
    const hit = await createRecord(ctx, {
      Name: 'H7, H7a',
      Pressure: '1.5',
      Working: 'false',
      Kind: 'pillar',
      Position: '50.77664, 6.08342',
      Address: 'Goethestraße 5',
    });
    await staff.waitFor(() => triggered(staff).length >= 1, WAIT_MS, 'things:rule-triggered');
    const events = triggered(staff);
    assert.is(events.length, 1, 'only the record whose conditions hold fired');
    const [event] = events;
    assert.equal(event, {
      executionID: event.executionID,
      ruleID: rule.id,
      ruleName: 'Low pressure',
      entityID: ctx.entity.id,
      recordID: hit.id,
      trigger: 'record_created',
      at: event.at,
      alarm: {
        message: 'Hydrant H7, H7a at Goethestraße 5: 1.5 bar',
        eventName: 'H1 pillar',
        alarmTemplateID: 17,
        position: { latitude: 50.77664, longitude: 6.08342 },
        documentKeys: ['H7', 'H7a'],
      },
    });
    assert.ok(!Number.isNaN(Date.parse(event.at)));
    const stored = await thingsModels(ctx.svc.db).ThingRuleExecution.findById(event.executionID).lean();
    assert.equal(
      [stored!.ruleID, stored!.recordID, stored!.trigger, JSON.parse(stored!.alarm)],
      [rule.id, hit.id, 'record_created', event.alarm],
    );
    assert.equal(triggered(outsider), [], 'another organization hears nothing');
  },
);

work(
  'updates and bulk changes trigger rules by their triggers; a delete carries the values the record had',
  async (ctx) => {
    const c = client(ctx.svc.url, key(ctx.a));
    const entity = (
      await c.post(`${BASE}/entities`, {
        name: 'Vehicles',
        organizationID: ctx.a.orgId,
        fields: [
          { name: 'Status', type: 'selection', selectionValues: ['ready', 'broken'] },
          { name: 'Base', type: 'address' },
        ],
      })
    ).body;
    const [status, base] = entity.fields;
    const rule = (extra: Record<string, unknown>) =>
      c.post(`${BASE}/entities/${entity.id}/rules`, {
        action: 'alarm',
        actionAlarmTemplate: { alarmMessage: `Vehicle {{${status.id}}}`, positionFieldID: base.id },
        ...extra,
      });
    const broken = (
      await rule({
        name: 'Broken',
        triggers: ['record_updated'],
        conditions: [{ fieldID: status.id, operator: 'eq', comparison: 'broken' }],
      })
    ).body;
    const removed = (await rule({ name: 'Removed', triggers: ['record_deleted'] })).body;
    const staff = await connectScreen(ctx.svc.url, ctx.a.admin.token);
    screens.push(staff);
    const records = `${BASE}/entities/${entity.id}/records`;
    const v = (s: string) => ({
      values: [
        { fieldID: status.id, value: s },
        { fieldID: base.id, value: 'Wache Nord' },
      ],
    });
    const car = (await c.post(records, v('broken'))).body; // created: no rule listens
    await c.put(`${BASE}/records/${car.id}`, { values: [{ fieldID: status.id, value: 'ready' }] }); // updated, condition fails
    await c.put(`${BASE}/records/${car.id}`, { values: [{ fieldID: status.id, value: 'broken' }] }); // fires Broken
    const bulk = (
      await c.post(`${records}/bulk`, { records: [{ id: car.id, ...v('broken') }, v('broken')], deleteIDs: [] })
    ).body; // update fires Broken
    await c.post(`${records}/bulk`, { deleteIDs: [car.id, bulk.createdIDs[0]] }); // two deletes fire Removed
    await staff.waitFor(() => triggered(staff).length >= 4, WAIT_MS, 'four rule events');
    const events = triggered(staff);
    assert.equal(
      events.map((e: any) => [e.ruleID, e.trigger, e.recordID]),
      [
        [broken.id, 'record_updated', car.id],
        [broken.id, 'record_updated', car.id],
        [removed.id, 'record_deleted', car.id],
        [removed.id, 'record_deleted', bulk.createdIDs[0]],
      ],
    );
    assert.equal(events[2].alarm, {
      message: 'Vehicle broken',
      eventName: '',
      alarmTemplateID: null,
      position: { address: 'Wache Nord' },
      documentKeys: [],
    });
    assert.is(await thingsModels(ctx.svc.db).ThingRuleExecution.countDocuments({ entityID: entity.id }), 4);
  },
);

work.run();
