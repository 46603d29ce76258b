// JSON Schemas of the things area's rules (T10–T12). Triggers, operators and actions are the enums of
// things.ts; which operator fits which field type is checked in code (server/areas/things/rule-check.ts).
import type { FromSchema } from 'json-schema-to-ts';
import { int64Id } from './common.js';
import {
  EXAMPLE_IDS as X,
  RULE_ACTIONS,
  RULE_COOLDOWN,
  RULE_OPERATORS,
  RULE_TRIGGERS,
  THINGS_LIMITS,
  description,
  name,
  page,
  pageOf,
  reference,
  uuid,
} from './things.js';

// A rule that alarms the station when a hydrant is reported broken.
const ruleInput = {
  name: 'Hydrant defekt melden',
  description: 'Meldet der Wache jeden als defekt markierten Hydranten',
  action: 'alarm',
  actionAlarmTemplate: {
    alarmMessage: `Hydrant {{${X.type}}} an {{${X.place}}} ist defekt`,
    alarmTemplateID: 12,
    eventName: 'Hydrant defekt',
    positionFieldID: X.position,
  },
  conditions: [{ fieldID: X.state, operator: 'eq', comparison: 'defekt' }],
  triggers: ['record_created', 'record_updated'],
  cooldownSeconds: 600,
} as const;
const ruleExample = { ...ruleInput, id: X.rule, entityID: X.entity } as const;

export const ThingsRuleParams = {
  $id: 'ThingsRuleParams',
  type: 'object',
  required: ['uuid', 'ruleUUID'],
  properties: { uuid: { ...uuid, examples: [X.entity] }, ruleUUID: { ...uuid, examples: [X.rule] } },
} as const;

export const T10Query = {
  $id: 'T10Query',
  type: 'object',
  properties: { limit: { ...page.limit, examples: [10] }, offset: { ...page.offset, examples: [0] } },
} as const;

const alarmTemplate = {
  type: 'object',
  additionalProperties: false,
  required: ['alarmMessage'],
  properties: {
    alarmMessage: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Text with {{fieldID}} placeholders, filled from the record',
    },
    alarmTemplateID: { ...int64Id, description: 'Passed on with the alarm' },
    documentKeysFieldID: { ...reference, description: 'A field whose comma-separated value lists document keys' },
    eventName: {
      type: 'string',
      maxLength: 200,
      description: 'Keyword of the alarm; {{fieldID}} placeholders allowed',
    },
    positionFieldID: { ...reference, description: "A coordinates or address field giving the alarm's position" },
  },
} as const;

const ruleFields = {
  name,
  description,
  action: { type: 'string', enum: RULE_ACTIONS },
  actionAlarmTemplate: alarmTemplate,
  conditions: {
    type: 'array',
    maxItems: THINGS_LIMITS.conditions,
    description: 'All must hold',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['fieldID', 'operator'],
      properties: {
        fieldID: reference,
        operator: { type: 'string', enum: RULE_OPERATORS },
        comparison: {
          type: 'string',
          maxLength: 500,
          description: 'In the field type\'s format; absent or "" for empty / not_empty',
        },
      },
    },
  },
  triggers: {
    type: 'array',
    minItems: 1,
    maxItems: RULE_TRIGGERS.length,
    uniqueItems: true,
    items: { type: 'string', enum: RULE_TRIGGERS },
  },
  cooldownSeconds: {
    type: 'integer',
    minimum: 0,
    maximum: RULE_COOLDOWN.maxSeconds,
    description:
      `After the rule raised an alarm for a record, how long further firings for that record raise none ` +
      `(they are still stored and emitted); default ${RULE_COOLDOWN.defaultSeconds} (10 minutes), 0: every firing alarms`,
  },
} as const;

export const ThingsRuleBody = {
  $id: 'ThingsRuleBody',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'action', 'triggers'],
  properties: {
    id: { ...reference, description: 'Read-only: ignored on create, must match the path on update' },
    entityID: { ...reference, description: 'Read-only: must match the path when given' },
    ...ruleFields,
  },
  examples: [ruleInput],
} as const;

export const ThingsRule = {
  $id: 'ThingsRule',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'entityID', 'name', 'description', 'action', 'conditions', 'triggers', 'cooldownSeconds'],
  properties: { id: uuid, entityID: uuid, ...ruleFields },
  examples: [ruleExample],
} as const;

export const ThingsRuleList = {
  ...pageOf('ThingsRuleList', 'rules', 'ThingsRule'),
  examples: [{ rules: [ruleExample], total: 1 }],
};

export type T10QueryInput = FromSchema<typeof T10Query>;
export type RuleInput = FromSchema<typeof ThingsRuleBody>;
