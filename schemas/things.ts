// JSON Schemas of the things area (T1–T9, T13): entities, records, bulk and usage; rules (T10–T12) are in
// things-rules.ts. The vocabulary the interface leaves open (field types, rule triggers, operators,
// actions) is closed here as enums.
import type { FromSchema } from 'json-schema-to-ts';
import { int64Id } from './common.js';

export const FIELD_TYPES = [
  'text',
  'number',
  'boolean',
  'date',
  'datetime',
  'selection',
  'coordinates',
  'address',
  'url',
  'email',
  'phone',
] as const;
export const RULE_TRIGGERS = ['record_created', 'record_updated', 'record_deleted'] as const;
export const RULE_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'contains', 'empty', 'not_empty'] as const;
export const RULE_ACTIONS = ['alarm'] as const;

/** Limits of the area (also in docs/api.md). */
/** How long a rule raises no second alarm for one record (docs/api.md "Rules"), and the organization's rate. */
export const RULE_COOLDOWN = { defaultSeconds: 600, maxSeconds: 86_400, alarmsPerHour: 30 } as const;

export const THINGS_LIMITS = {
  fields: 100,
  selectionValues: 200,
  userIDs: 1000,
  bulkRecords: 1000,
  bulkDeletes: 1000,
  conditions: 20,
  valueLength: 10_000,
  rulesPerEntity: 50,
} as const;

export const uuid = { type: 'string', format: 'uuid', maxLength: 36 } as const;
/** A client-chosen reference that is checked in code (an unknown one is a per-item failure, not a 400). */
export const reference = { type: 'string', maxLength: 64 } as const;
export const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
export const description = { type: 'string', maxLength: 2000 } as const;
export const page = {
  limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  offset: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
} as const;
/** A response schema for one page of `key` items (schema `ref`) and the total. */
export function pageOf(id: string, key: string, ref: string) {
  return {
    $id: id,
    type: 'object',
    additionalProperties: false,
    required: [key, 'total'],
    properties: { [key]: { type: 'array', items: { $ref: ref } }, total: { type: 'integer', minimum: 0 } },
  };
}

const userIDs = { type: 'array', maxItems: THINGS_LIMITS.userIDs, uniqueItems: true, items: int64Id } as const;

/** Example IDs shared by the things schemas' examples (an entity of hydrants, its fields, a record). */
export const EXAMPLE_IDS = {
  entity: 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601',
  type: 'c1d2e3f4-0a1b-4c2d-8e3f-405162738491',
  place: 'c1d2e3f4-0a1b-4c2d-8e3f-405162738492',
  position: 'c1d2e3f4-0a1b-4c2d-8e3f-405162738493',
  state: 'c1d2e3f4-0a1b-4c2d-8e3f-405162738494',
  checked: 'c1d2e3f4-0a1b-4c2d-8e3f-405162738495',
  record: 'e7b8c9d0-1f2a-4b3c-9d4e-5f6a7b8c9d01',
  record2: 'e7b8c9d0-1f2a-4b3c-9d4e-5f6a7b8c9d02',
  rule: 'b4c5d6e7-8f90-4a1b-8c2d-3e4f5a6b7c81',
} as const;
const X = EXAMPLE_IDS;
const entityInput = {
  name: 'Hydranten',
  description: 'Über- und Unterflurhydranten im Ausrückebereich der Feuerwache 1',
  icon: '💧',
  organizationID: 7,
  fields: [
    { name: 'Typ', type: 'selection', selectionValues: ['H 80', 'H 100', 'U 80', 'U 100'] },
    { name: 'Standort', type: 'address' },
    { name: 'Position', type: 'coordinates' },
    { name: 'Zustand', type: 'selection', selectionValues: ['in Ordnung', 'defekt'] },
    { name: 'Letzte Prüfung', type: 'date' },
  ],
  readOnlyUserIDs: [43],
  readWriteUserIDs: [42],
} as const;
const entityExample = {
  ...entityInput,
  id: X.entity,
  fields: [
    { id: X.type, name: 'Typ', type: 'selection', selectionValues: ['H 80', 'H 100', 'U 80', 'U 100'] },
    { id: X.place, name: 'Standort', type: 'address', selectionValues: [] },
    { id: X.position, name: 'Position', type: 'coordinates', selectionValues: [] },
    { id: X.state, name: 'Zustand', type: 'selection', selectionValues: ['in Ordnung', 'defekt'] },
    { id: X.checked, name: 'Letzte Prüfung', type: 'date', selectionValues: [] },
  ],
  recordCount: 214,
  canRead: true,
  canWrite: true,
} as const;
const recordValues = [
  { fieldID: X.type, value: 'H 80' },
  { fieldID: X.place, value: 'Hauptstraße 38, 63450 Hanau' },
  { fieldID: X.position, value: '50.1334,8.9179' },
  { fieldID: X.state, value: 'in Ordnung' },
  { fieldID: X.checked, value: '2024-10-02' },
] as const;
const recordExample = {
  id: X.record,
  entityID: X.entity,
  values: recordValues.map((v, i) => ({ ...v, id: `f0a1b2c3-d4e5-4f60-8172-83940516273${i}` })),
};

export const ThingsOrganizationQuery = {
  $id: 'ThingsOrganizationQuery',
  type: 'object',
  required: ['organization_id'],
  properties: { organization_id: { ...int64Id, examples: [7] } },
} as const;

export const T1Query = {
  $id: 'T1Query',
  type: 'object',
  required: ['organization_id'],
  properties: {
    organization_id: { ...int64Id, examples: [7] },
    limit: { ...page.limit, examples: [10] },
    offset: { ...page.offset, examples: [0] },
    search: {
      type: 'string',
      maxLength: 200,
      description: 'Case-insensitive part of the name (plain text)',
      examples: ['hydrant'],
    },
  },
} as const;

export const ThingsUuidParams = {
  $id: 'ThingsUuidParams',
  type: 'object',
  required: ['uuid'],
  properties: { uuid: { ...uuid, examples: [X.entity] } },
} as const;

export const T5Query = {
  $id: 'T5Query',
  type: 'object',
  properties: {
    limit: { ...page.limit, examples: [20] },
    offset: { ...page.offset, examples: [0] },
    search: {
      type: 'string',
      maxLength: 200,
      description: 'Case-insensitive plain text found in any value (never a pattern)',
      examples: ['hauptstraße'],
    },
    orderby: {
      ...reference,
      description: "A field ID of the entity; ordered by the field's type, empty values last. Default: creation order",
      examples: [X.checked],
    },
    orderdir: { type: 'string', enum: ['asc', 'desc'], default: 'asc', examples: ['asc'] },
  },
} as const;

const fieldDefinition = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  properties: {
    id: {
      ...reference,
      description: 'Assigned by the service; on T4 it names the field to keep (fields without id are new)',
    },
    name,
    type: { type: 'string', enum: FIELD_TYPES },
    selectionValues: {
      type: 'array',
      maxItems: THINGS_LIMITS.selectionValues,
      uniqueItems: true,
      items: name,
      description: 'The allowed values of a selection field (required there, refused elsewhere)',
    },
  },
} as const;

// An emoji: pictographs with their joiners, variation selectors, skin tones and keycaps; or empty.
const icon = {
  type: 'string',
  maxLength: 32,
  pattern:
    '^$|^(?=.*[\\p{Extended_Pictographic}\\p{Regional_Indicator}])[\\p{Extended_Pictographic}\\p{Emoji_Component}\\u200d\\ufe0f\\u20e3]+$',
  description: 'One emoji (or empty)',
} as const;

const entityFields = {
  name,
  description,
  icon,
  organizationID: int64Id,
  fields: { type: 'array', maxItems: THINGS_LIMITS.fields, items: fieldDefinition },
  readOnlyUserIDs: { ...userIDs, description: 'Members who read the records' },
  readWriteUserIDs: { ...userIDs, description: 'Members who read and write the records' },
} as const;

const readOnly = {
  id: { ...reference, description: 'Read-only: ignored on create, must match the path on update' },
  recordCount: { type: 'integer', minimum: 0, maximum: 1_000_000_000, description: 'Read-only: ignored' },
} as const;

export const T2Body = {
  $id: 'T2Body',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'organizationID'],
  properties: { ...readOnly, ...entityFields },
  examples: [entityInput],
} as const;

export const T4Body = {
  $id: 'T4Body',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description:
    'Given properties replace the stored ones; `fields` is the complete new list (a field left out is removed)',
  properties: {
    ...readOnly,
    ...entityFields,
    canRead: { type: 'boolean', description: 'Read-only: ignored' },
    canWrite: { type: 'boolean', description: 'Read-only: ignored' },
  },
  examples: [{ description: 'Hydranten im Ausrückebereich der Feuerwachen 1 und 2', readWriteUserIDs: [42, 44] }],
} as const;

export const ThingsEntity = {
  $id: 'ThingsEntity',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'description',
    'icon',
    'organizationID',
    'fields',
    'readOnlyUserIDs',
    'readWriteUserIDs',
    'recordCount',
    'canRead',
    'canWrite',
  ],
  properties: {
    ...entityFields,
    id: uuid,
    fields: { type: 'array', items: { ...fieldDefinition, required: ['id', 'name', 'type', 'selectionValues'] } },
    recordCount: { type: 'integer', minimum: 0 },
    canRead: { type: 'boolean' },
    canWrite: { type: 'boolean' },
  },
  examples: [entityExample],
} as const;

export const ThingsEntityList = {
  ...pageOf('ThingsEntityList', 'entities', 'ThingsEntity'),
  examples: [{ entities: [entityExample], total: 1 }],
};

const valueItem = {
  type: 'object',
  additionalProperties: false,
  required: ['fieldID', 'value'],
  properties: {
    fieldID: reference,
    id: { ...reference, description: 'Read-only: assigned by the service, kept while the field has a value' },
    value: {
      type: 'string',
      maxLength: THINGS_LIMITS.valueLength,
      description: 'Text in the field type\'s format; "" clears the field',
    },
  },
} as const;

const values = { type: 'array', maxItems: THINGS_LIMITS.fields, items: valueItem } as const;

export const ThingsRecordBody = {
  $id: 'ThingsRecordBody',
  type: 'object',
  additionalProperties: false,
  required: ['values'],
  properties: { values },
  examples: [{ values: recordValues }],
} as const;

export const ThingsRecord = {
  $id: 'ThingsRecord',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'entityID', 'values'],
  properties: {
    id: uuid,
    entityID: uuid,
    values: { type: 'array', items: { ...valueItem, required: ['fieldID', 'id', 'value'] } },
  },
  examples: [recordExample],
} as const;

export const ThingsRecordList = {
  ...pageOf('ThingsRecordList', 'records', 'ThingsRecord'),
  examples: [{ records: [recordExample], total: 214 }],
};

export const T7Body = {
  $id: 'T7Body',
  type: 'object',
  additionalProperties: false,
  description: `At most ${THINGS_LIMITS.bulkRecords} records and ${THINGS_LIMITS.bulkDeletes} deleteIDs per request`,
  properties: {
    records: {
      type: 'array',
      maxItems: THINGS_LIMITS.bulkRecords,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['values'],
        properties: { id: { ...reference, description: 'Present: update that record; absent: create one' }, values },
      },
    },
    deleteIDs: { type: 'array', maxItems: THINGS_LIMITS.bulkDeletes, items: reference },
  },
  examples: [
    {
      records: [
        {
          values: [
            { fieldID: X.type, value: 'U 100' },
            { fieldID: X.place, value: 'Schulstraße 2, 63450 Hanau' },
          ],
        },
        {
          values: [
            { fieldID: X.type, value: 'H 100' },
            { fieldID: X.checked, value: '31.02.2025' },
          ],
        },
        { id: X.record, values: [{ fieldID: X.state, value: 'defekt' }] },
      ],
      deleteIDs: [X.record2],
    },
  ],
} as const;

const idList = { type: 'array', items: { type: 'string' } } as const;

export const ThingsBulkResult = {
  $id: 'ThingsBulkResult',
  type: 'object',
  additionalProperties: false,
  required: ['createdIDs', 'updatedIDs', 'deletedIDs', 'failedEntries'],
  properties: {
    createdIDs: idList,
    updatedIDs: idList,
    deletedIDs: idList,
    failedEntries: {
      type: 'array',
      description: 'id: the record ID of an update or delete, "records[i]" for the i-th item (0-based) of a create',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'reason'],
        properties: { id: { type: 'string' }, reason: { type: 'string' } },
      },
    },
  },
  examples: [
    {
      createdIDs: ['e7b8c9d0-1f2a-4b3c-9d4e-5f6a7b8c9d03'],
      updatedIDs: [X.record],
      deletedIDs: [X.record2],
      failedEntries: [
        {
          id: 'records[1]',
          reason: `Invalid value for field "Letzte Prüfung" (date): "31.02.2025" is not a date (YYYY-MM-DD)`,
        },
      ],
    },
  ],
} as const;

export const ThingsUsage = {
  $id: 'ThingsUsage',
  type: 'object',
  additionalProperties: false,
  required: ['recordCount', 'recordLimit'],
  properties: { recordCount: { type: 'integer', minimum: 0 }, recordLimit: { type: 'integer', minimum: 0 } },
  examples: [{ recordCount: 1834, recordLimit: 10000 }],
} as const;

export type FieldType = (typeof FIELD_TYPES)[number];
export type RuleTrigger = (typeof RULE_TRIGGERS)[number];
export type RuleOperator = (typeof RULE_OPERATORS)[number];
export type T1QueryInput = FromSchema<typeof T1Query>;
export type T5QueryInput = FromSchema<typeof T5Query>;
export type T2Input = FromSchema<typeof T2Body>;
export type T4Input = FromSchema<typeof T4Body>;
export type ValueInput = FromSchema<typeof ThingsRecordBody>['values'][number];
export type T7Input = FromSchema<typeof T7Body>;
export type FieldInput = NonNullable<T2Input['fields']>[number];
