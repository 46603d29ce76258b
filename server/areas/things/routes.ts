// The things area's operations T1–T13 (CONTRACT.md §2). The interface gives no failure wording for this
// area; the messages below name the parameter or body that was wrong.
import type { RuleInput, RuleParamsInput, T10QueryInput } from '../../../schemas/things-rules.js';
import type { OrganizationQueryInput, RecordBodyInput, T1QueryInput, T2Input, T4Input, T5QueryInput, T7Input, UuidInput } from '../../../schemas/things.js';
import { THINGS_LIMITS } from '../../../schemas/things.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AreaDeps } from '../index.js';
import { BulkCommands } from './bulk.js';
import { EntityCommands } from './entities.js';
import { RecordCommands } from './records.js';
import { RuleRunner } from './rule-engine.js';
import { RuleCommands } from './rules.js';
import { RecordSlots } from './slots.js';

const BASE = '/api/v1/things';
const UUID = { schema: 'ThingsUuidParams', message: 'uuid missing or in wrong format' };
const RULE_PARAMS = { schema: 'ThingsRuleParams', message: 'uuid or ruleUUID missing or in wrong format' };
const ENTITY_BODY = 'Entity in wrong format or required field missing';
const RECORD_BODY = 'Record in wrong format: values missing or invalid';
const RULE_BODY = 'Rule in wrong format or required field missing';
const WRITE_ERRORS = [400, 403, 404, 413, 415];

/** The things area's operation declarations. */
export function thingsOperations(deps: AreaDeps): Operation[] {
  const slots = new RecordSlots(deps.db.models, deps.config.thingsRecordLimit);
  const runner = new RuleRunner(deps.db.models, deps.events, deps.log);
  const entities = new EntityCommands(deps.db);
  const records = new RecordCommands(deps.db, slots, runner);
  const bulk = new BulkCommands(deps.db, slots, runner);
  const rules = new RuleCommands(deps.db);
  const entity = { status: 200, schema: 'ThingsEntity', description: 'The entity with the caller\'s rights and its record count' } as const;
  const record = { status: 200, schema: 'ThingsRecord', description: 'The record; values in the entity\'s field order' } as const;
  const rule = { status: 200, schema: 'ThingsRule', description: 'The rule' } as const;

  return [
    defineOperation<T1QueryInput>({
      label: 'T1',
      method: 'get',
      path: `${BASE}/entities`,
      summary: 'List the entities of an organization the caller can read (by name; search: case-insensitive part of the name)',
      query: { schema: 'T1Query', message: 'organization_id, limit, offset or search missing or in wrong format' },
      response: { status: 200, schema: 'ThingsEntityList', description: 'One page of entities and the total the caller can read' },
      errors: [400, 403],
      handler: ({ actor, query }) => entities.list(actor, query),
    }),
    defineOperation<unknown, unknown, T2Input>({
      label: 'T2',
      method: 'post',
      path: `${BASE}/entities`,
      summary: 'Create entity (organization admins and API keys; field IDs are assigned; granted users must be members)',
      body: { schema: 'T2Body', message: ENTITY_BODY },
      response: { ...entity, status: 201, description: 'The created entity' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => entities.create(actor, body),
    }),
    defineOperation<unknown, UuidInput>({
      label: 'T3',
      method: 'get',
      path: `${BASE}/entities/:uuid`,
      summary: 'Get entity (403 for members the entity does not grant)',
      params: UUID,
      response: entity,
      errors: [400, 403, 404],
      handler: ({ actor, params }) => entities.get(actor, params.uuid),
    }),
    defineOperation<unknown, UuidInput, T4Input>({
      label: 'T4',
      method: 'put',
      path: `${BASE}/entities/:uuid`,
      summary: 'Update entity: given properties replace the stored ones; fields is the complete list (kept by id, new without id, '
        + 'left out: removed with their values). A type change is refused while stored values do not fit it, a change is refused while a rule would not fit',
      params: UUID,
      body: { schema: 'T4Body', message: ENTITY_BODY },
      response: { ...entity, description: 'The updated entity' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => entities.update(actor, params.uuid, body),
    }),
    defineOperation<T5QueryInput, UuidInput>({
      label: 'T5',
      method: 'get',
      path: `${BASE}/entities/:uuid/records`,
      summary: 'List records of an entity: search is plain text in any value (any case); orderby a field ID, ordered by the field\'s type, empty values last; default creation order',
      params: UUID,
      query: { schema: 'T5Query', message: 'limit, offset, search, orderby or orderdir in wrong format' },
      response: { status: 200, schema: 'ThingsRecordList', description: 'One page of records and the total matching' },
      errors: [400, 403, 404],
      handler: ({ actor, params, query }) => records.list(actor, params.uuid, query),
    }),
    defineOperation<unknown, UuidInput, RecordBodyInput>({
      label: 'T6',
      method: 'post',
      path: `${BASE}/entities/:uuid/records`,
      summary: 'Create record; a value that does not fit its field is a 400 naming the field; 409 record_limit_reached at the organization\'s limit',
      params: UUID,
      body: { schema: 'ThingsRecordBody', message: RECORD_BODY },
      response: { ...record, status: 201, description: 'The created record' },
      errors: [...WRITE_ERRORS, 409],
      handler: ({ actor, params, body }) => records.create(actor, params.uuid, body.values),
    }),
    defineOperation<unknown, UuidInput, T7Input>({
      label: 'T7',
      method: 'post',
      path: `${BASE}/entities/:uuid/records/bulk`,
      summary: `Bulk create (items without id), update (items with id) and delete (deleteIDs): at most ${THINGS_LIMITS.bulkRecords} records and `
        + `${THINGS_LIMITS.bulkDeletes} deleteIDs; deletes first, then updates, then creates; every item on its own, failures in failedEntries; always 200 once the request is well-formed`,
      params: UUID,
      body: { schema: 'T7Body', message: `Bulk request in wrong format (at most ${THINGS_LIMITS.bulkRecords} records and ${THINGS_LIMITS.bulkDeletes} deleteIDs)` },
      response: { status: 200, schema: 'ThingsBulkResult', description: 'What was created, updated, deleted, and what failed with its reason' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => bulk.apply(actor, params.uuid, body),
    }),
    defineOperation<unknown, UuidInput>({
      label: 'T8',
      method: 'get',
      path: `${BASE}/records/:uuid`,
      summary: 'Get record',
      params: UUID,
      response: record,
      errors: [400, 403, 404],
      handler: ({ actor, params }) => records.get(actor, params.uuid),
    }),
    defineOperation<unknown, UuidInput, RecordBodyInput>({
      label: 'T9',
      method: 'put',
      path: `${BASE}/records/:uuid`,
      summary: 'Update record: the given fields get the given values ("" clears one), the other values stay',
      params: UUID,
      body: { schema: 'ThingsRecordBody', message: RECORD_BODY },
      response: { ...record, description: 'The updated record' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => records.update(actor, params.uuid, body.values),
    }),
    defineOperation<T10QueryInput, UuidInput>({
      label: 'T10',
      method: 'get',
      path: `${BASE}/entities/:uuid/rules`,
      summary: 'List rules of an entity in creation order',
      params: UUID,
      query: { schema: 'T10Query', message: 'limit or offset in wrong format' },
      response: { status: 200, schema: 'ThingsRuleList', description: 'One page of rules and their total' },
      errors: [400, 403, 404],
      handler: ({ actor, params, query }) => rules.list(actor, params.uuid, query),
    }),
    defineOperation<unknown, UuidInput, RuleInput>({
      label: 'T11',
      method: 'post',
      path: `${BASE}/entities/:uuid/rules`,
      summary: 'Create rule: unknown field IDs, operators that do not fit a field\'s type, comparisons that are no value of it and unknown {{placeholders}} are a 400',
      params: UUID,
      body: { schema: 'ThingsRuleBody', message: RULE_BODY },
      response: { ...rule, status: 201, description: 'The created rule' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => rules.create(actor, params.uuid, body),
    }),
    defineOperation<unknown, RuleParamsInput, RuleInput>({
      label: 'T12',
      method: 'put',
      path: `${BASE}/entities/:uuid/rules/:ruleUUID`,
      summary: 'Update rule (replaces it; checked like T11)',
      params: RULE_PARAMS,
      body: { schema: 'ThingsRuleBody', message: RULE_BODY },
      response: { ...rule, description: 'The updated rule' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => rules.update(actor, params.uuid, params.ruleUUID, body),
    }),
    defineOperation<OrganizationQueryInput>({
      label: 'T13',
      method: 'get',
      path: `${BASE}/usage`,
      summary: 'Record usage of an organization (recordLimit: set per organization by `org limit`, else THINGS_RECORD_LIMIT)',
      query: { schema: 'ThingsOrganizationQuery', message: 'organization_id missing or in wrong format' },
      response: { status: 200, schema: 'ThingsUsage', description: 'Records now and the limit' },
      errors: [400, 403],
      handler: ({ actor, query }) => records.usage(actor, query.organization_id),
    }),
  ];
}
