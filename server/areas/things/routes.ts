// The things area's operations T1–T13 (docs/api.md "REST API") and T12-delete, which the interface lacks: without
// it a rule could never go, and an entity holds at most THINGS_LIMITS.rulesPerEntity. The interface
// gives no failure wording for this area; the messages below name the parameter or body that was wrong.
import { DeleteResult } from '../../../schemas/channels.js';
import {
  T1Query,
  T2Body,
  T4Body,
  T5Query,
  T7Body,
  ThingsBulkResult,
  ThingsEntity,
  ThingsEntityList,
  ThingsOrganizationQuery,
  ThingsRecord,
  ThingsRecordBody,
  ThingsRecordList,
  ThingsUsage,
  ThingsUuidParams,
} from '../../../schemas/things.js';
import {
  T10Query,
  ThingsRule,
  ThingsRuleBody,
  ThingsRuleList,
  ThingsRuleParams,
} from '../../../schemas/things-rules.js';
import { THINGS_LIMITS } from '../../../schemas/things.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { BulkCommands } from './bulk.js';
import type { EntityCommands } from './entities.js';
import type { RecordCommands } from './records.js';
import type { RuleCommands } from './rules.js';

const BASE = '/api/v1/things';
const UUID = { schema: ThingsUuidParams, message: 'uuid missing or in wrong format' };
const RULE_PARAMS = { schema: ThingsRuleParams, message: 'uuid or ruleUUID missing or in wrong format' };
const ENTITY_BODY = 'Entity in wrong format or required field missing';
const RECORD_BODY = 'Record in wrong format: values missing or invalid';
const RULE_BODY = 'Rule in wrong format or required field missing';
const WRITE_ERRORS = [400, 403, 404, 413, 415];
const RULE_LIMIT = THINGS_LIMITS.rulesPerEntity;

/** The things area's commands (built in server/areas/index.ts). */
export interface ThingsCommands {
  entities: EntityCommands;
  records: RecordCommands;
  bulk: BulkCommands;
  rules: RuleCommands;
}

/** The things area's operation declarations. */
export function thingsOperations({ entities, records, bulk, rules }: ThingsCommands): Operation[] {
  const entity = {
    status: 200,
    schema: ThingsEntity,
    description: "The entity with the caller's rights and its record count",
  } as const;
  const record = {
    status: 200,
    schema: ThingsRecord,
    description: "The record; values in the entity's field order",
  } as const;
  const rule = { status: 200, schema: ThingsRule, description: 'The rule' } as const;

  return [
    defineOperation({
      label: 'T1',
      operationId: 'listEntities',
      method: 'get',
      path: `${BASE}/entities`,
      summary:
        'List the entities of an organization the caller can read (by name; search: case-insensitive part of the name)',
      description:
        'Members see the entities that grant them reading (readOnlyUserIDs or readWriteUserIDs); admins ' +
        'and the API key see all. Ordered by name; limit (1–50, default 10) and offset page, total counts every match.',
      query: { schema: T1Query, message: 'organization_id, limit, offset or search missing or in wrong format' },
      response: {
        status: 200,
        schema: ThingsEntityList,
        description: 'One page of entities and the total the caller can read',
      },
      errors: [400, 403],
      handler: ({ actor, query }) => entities.list(actor, query),
    }),
    defineOperation({
      label: 'T2',
      operationId: 'createEntity',
      method: 'post',
      path: `${BASE}/entities`,
      summary:
        'Create entity (organization admins and API keys; field IDs are assigned; granted users must be members)',
      description:
        'Organization admins and the API key. Field IDs are assigned (the answer carries them); selection ' +
        'fields need selectionValues. Users in readOnlyUserIDs and readWriteUserIDs must be members ' +
        'of the organization (400 otherwise). Answers 201.',
      body: { schema: T2Body, message: ENTITY_BODY },
      response: { ...entity, status: 201, description: 'The created entity' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => entities.create(actor, body),
    }),
    defineOperation({
      label: 'T3',
      operationId: 'getEntity',
      method: 'get',
      path: `${BASE}/entities/:uuid`,
      summary: 'Get entity (403 for members the entity does not grant)',
      description:
        'Users the entity grants reading, admins and the API key; other members get 403, and an entity ' +
        'of another organization is 404. canRead and canWrite tell what the caller may do with its records.',
      params: UUID,
      response: entity,
      errors: [400, 403, 404],
      handler: ({ actor, params }) => entities.get(actor, params.uuid),
    }),
    defineOperation({
      label: 'T4',
      operationId: 'updateEntity',
      method: 'put',
      path: `${BASE}/entities/:uuid`,
      summary:
        'Update entity: given properties replace the stored ones; fields is the complete list (kept ' +
        'by id, new without id, ' +
        ('left out: removed with their values). A type change is refused while stored values do not fit ' +
          'it, a change is refused while a rule would not fit'),
      description:
        'Organization admins and the API key. fields is the complete new list: fields with id are kept, ' +
        'without id are new, left out are removed with their values. A type change is refused (400) ' +
        'while stored values do not fit it, and any change while a saved rule would no longer fit.',
      params: UUID,
      body: { schema: T4Body, message: ENTITY_BODY },
      response: { ...entity, description: 'The updated entity' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => entities.update(actor, params.uuid, body),
    }),
    defineOperation({
      label: 'T5',
      operationId: 'listRecords',
      method: 'get',
      path: `${BASE}/entities/:uuid/records`,
      summary:
        'List records of an entity: search is plain text in any value (any case); orderby a field ID, ' +
        "ordered by the field's type, empty values last; default creation order",
      description:
        'Users the entity grants reading, admins and the API key. search finds plain text in any value ' +
        "regardless of case; orderby a field ID orders by the field's type with empty values last (default " +
        'creation order). limit (1–50, default 10) and offset page; total counts every match.',
      params: UUID,
      query: { schema: T5Query, message: 'limit, offset, search, orderby or orderdir in wrong format' },
      response: { status: 200, schema: ThingsRecordList, description: 'One page of records and the total matching' },
      errors: [400, 403, 404],
      handler: ({ actor, params, query }) => records.list(actor, params.uuid, query),
    }),
    defineOperation({
      label: 'T6',
      operationId: 'createRecord',
      method: 'post',
      path: `${BASE}/entities/:uuid/records`,
      summary:
        'Create record; a value that does not fit its field is a 400 naming the field; 409 record_limit_reached ' +
        "at the organization's limit",
      description:
        'Users in readWriteUserIDs, admins and the API key. A value that does not fit its field is a ' +
        "400 naming the field; at the organization's record limit (T13) 409 record_limit_reached. The " +
        "entity's rules with trigger record_created run afterwards; a failing rule does not fail the request.",
      params: UUID,
      body: { schema: ThingsRecordBody, message: RECORD_BODY },
      response: { ...record, status: 201, description: 'The created record' },
      errors: [...WRITE_ERRORS, 409],
      handler: ({ actor, params, body }) => records.create(actor, params.uuid, body.values),
    }),
    defineOperation({
      label: 'T7',
      operationId: 'bulkRecords',
      method: 'post',
      path: `${BASE}/entities/:uuid/records/bulk`,
      summary:
        `Bulk create (items without id), update (items with id) and delete (deleteIDs): at most ${THINGS_LIMITS.bulkRecords} records and ` +
        (`${THINGS_LIMITS.bulkDeletes} deleteIDs; deletes first, then updates, then creates; every item ` +
          `on its own, failures in failedEntries; always 200 once the request is well-formed`),
      description:
        'Writers as in T6. Deletes run first, then updates, then creates; each item succeeds or fails ' +
        'on its own, and failures (an unknown ID, a value that does not fit, the record limit) are listed ' +
        'in failedEntries with their reason. The answer is 200 whenever the request itself is well-formed.',
      params: UUID,
      body: {
        schema: T7Body,
        message: `Bulk request in wrong format (at most ${THINGS_LIMITS.bulkRecords} records and ${THINGS_LIMITS.bulkDeletes} deleteIDs)`,
      },
      response: {
        status: 200,
        schema: ThingsBulkResult,
        description: 'What was created, updated, deleted, and what failed with its reason',
      },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => bulk.apply(actor, params.uuid, body),
    }),
    defineOperation({
      label: 'T8',
      operationId: 'getRecord',
      method: 'get',
      path: `${BASE}/records/:uuid`,
      summary: 'Get record',
      description:
        'Users the entity grants reading, admins and the API key; a record of another organization is ' +
        "404. Values come in the entity's field order.",
      params: UUID,
      response: record,
      errors: [400, 403, 404],
      handler: ({ actor, params }) => records.get(actor, params.uuid),
    }),
    defineOperation({
      label: 'T9',
      operationId: 'updateRecord',
      method: 'put',
      path: `${BASE}/records/:uuid`,
      summary: 'Update record: the given fields get the given values ("" clears one), the other values stay',
      description:
        'Writers as in T6. Only the given fields change ("" clears one); a value that does not fit its ' +
        'field is a 400 naming the field. Rules with trigger record_updated run afterwards.',
      params: UUID,
      body: { schema: ThingsRecordBody, message: RECORD_BODY },
      response: { ...record, description: 'The updated record' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => records.update(actor, params.uuid, body.values),
    }),
    defineOperation({
      label: 'T10',
      operationId: 'listRules',
      method: 'get',
      path: `${BASE}/entities/:uuid/rules`,
      summary: 'List rules of an entity in creation order',
      description:
        "Anyone who may read the entity's records. limit (1–50, default 10) and offset page; total counts all rules.",
      params: UUID,
      query: { schema: T10Query, message: 'limit or offset in wrong format' },
      response: { status: 200, schema: ThingsRuleList, description: 'One page of rules and their total' },
      errors: [400, 403, 404],
      handler: ({ actor, params, query }) => rules.list(actor, params.uuid, query),
    }),
    defineOperation({
      label: 'T11',
      operationId: 'createRule',
      method: 'post',
      path: `${BASE}/entities/:uuid/rules`,
      summary:
        `Create rule: unknown field IDs, operators that do not fit a field's type, comparisons that ` +
        `are no value of it and unknown {{placeholders}} are a 400; at most ${RULE_LIMIT} rules per ` +
        `entity (409 conflict beyond)`,
      description:
        `Organization admins and the API key. Every condition must hold for the rule to fire on its ` +
        `triggers; field IDs, operators that fit each field's type, comparisons in the field's format ` +
        `and {{fieldID}} placeholders are checked (400). An entity has at most ${RULE_LIMIT} rules: ` +
        `one more is 409 conflict until one is deleted (T12-delete); the limit holds for concurrent ` +
        `creates too. Answers 201.`,
      params: UUID,
      body: { schema: ThingsRuleBody, message: RULE_BODY },
      response: { ...rule, status: 201, description: 'The created rule' },
      errors: [...WRITE_ERRORS, 409],
      handler: ({ actor, params, body }) => rules.create(actor, params.uuid, body),
    }),
    defineOperation({
      label: 'T12',
      operationId: 'updateRule',
      method: 'put',
      path: `${BASE}/entities/:uuid/rules/:ruleUUID`,
      summary: 'Update rule (replaces it; checked like T11)',
      description:
        'Organization admins and the API key. The rule is replaced as a whole and checked like T11; ' +
        'id and entityID, when given, must match the path.',
      params: RULE_PARAMS,
      body: { schema: ThingsRuleBody, message: RULE_BODY },
      response: { ...rule, description: 'The updated rule' },
      errors: WRITE_ERRORS,
      handler: ({ actor, params, body }) => rules.update(actor, params.uuid, params.ruleUUID, body),
    }),
    defineOperation({
      label: 'T12-delete',
      operationId: 'deleteRule',
      method: 'delete',
      path: `${BASE}/entities/:uuid/rules/:ruleUUID`,
      summary:
        'Delete rule (not in the interface; organization admins and the API key, as T12): it fires no ' +
        'more and frees its place under the limit',
      description:
        `Organization admins and the API key. The rule is removed at once: record writes after the answer ` +
        `no longer run it, and the entity may have another of its ${RULE_LIMIT} rules. An unknown rule, ` +
        `one of another entity, or an entity of another organization is 404.`,
      params: RULE_PARAMS,
      response: { status: 200, schema: DeleteResult, description: 'Deleted' },
      errors: [400, 403, 404],
      handler: ({ actor, params }) => rules.remove(actor, params.uuid, params.ruleUUID),
    }),
    defineOperation({
      label: 'T13',
      operationId: 'getRecordUsage',
      method: 'get',
      path: `${BASE}/usage`,
      summary:
        'Record usage of an organization (recordLimit: set per organization by `org limit`, else THINGS_RECORD_LIMIT)',
      description:
        'Any member of the organization reads it. recordLimit is set per organization (admin command ' +
        'org limit) or else THINGS_RECORD_LIMIT; creates beyond it are 409 record_limit_reached.',
      query: { schema: ThingsOrganizationQuery, message: 'organization_id missing or in wrong format' },
      response: { status: 200, schema: ThingsUsage, description: 'Records now and the limit' },
      errors: [400, 403],
      handler: ({ actor, query }) => records.usage(actor, query.organization_id),
    }),
  ];
}
