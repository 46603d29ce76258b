// JSON Schemas shared by the app, sms and call areas: the four shapes they repeat (disable flag,
// any-active, alarming configuration, per-user number) and the owner-scoped queries.
import type { FromSchema } from 'json-schema-to-ts';
import { int64Id } from './common.js';

const optionalOrganization = {
  ...int64Id,
  description: 'Needed only when the caller does not access his own resources; an API key implies its own organization',
  examples: [7],
} as const;
const organizationId = { ...int64Id, examples: [7] } as const;
const userId = { ...int64Id, examples: [42] } as const;

/**
 * A gsm number: E.164 with 00 or + (stored and answered with 00, the 2019 interface's form; the country
 * code is checked with libphonenumber-js).
 */
export const gsm = {
  type: 'string',
  pattern: '^(00|\\+)[1-9][0-9]{6,14}$',
  maxLength: 17,
  description: 'E.164 with 00 in place of + (004917612345678); +4917612345678 is taken and stored as 0049…',
} as const;

export const OrganizationIdQuery = {
  $id: 'OrganizationIdQuery',
  type: 'object',
  required: ['organization_id'],
  properties: { organization_id: organizationId },
} as const;

export const OptionalOrganizationQuery = {
  $id: 'OptionalOrganizationQuery',
  type: 'object',
  properties: { organization_id: optionalOrganization },
} as const;

export const OwnerQuery = {
  $id: 'OwnerQuery',
  type: 'object',
  required: ['owner_id'],
  properties: { owner_id: userId, organization_id: optionalOrganization },
} as const;

export const AnyActiveQuery = {
  $id: 'AnyActiveQuery',
  type: 'object',
  required: ['user_id', 'organization_id'],
  properties: { user_id: userId, organization_id: organizationId },
} as const;

export const AnyActiveResult = {
  $id: 'AnyActiveResult',
  type: 'object',
  additionalProperties: false,
  required: ['anyActive'],
  properties: {
    anyActive: {
      type: 'boolean',
      description:
        'Member of the organization, this way of alarming not disabled there, and at least one active device or number',
    },
  },
  examples: [{ anyActive: true }],
} as const;

export const DisabledFlag = {
  $id: 'DisabledFlag',
  type: 'object',
  additionalProperties: false,
  required: ['isDisabled'],
  properties: { isDisabled: { type: 'boolean' } },
  examples: [{ isDisabled: false }],
} as const;

export const DisabledFlagList = {
  $id: 'DisabledFlagList',
  type: 'array',
  items: { $ref: 'DisabledFlag' },
  examples: [[{ isDisabled: false }]],
} as const;

export const DeleteResult = {
  $id: 'DeleteResult',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: ['deleted'] } },
  examples: [{ status: 'deleted' }],
} as const;

export const ConfigurationIdParams = {
  $id: 'ConfigurationIdParams',
  type: 'object',
  required: ['configurationID'],
  properties: { configurationID: { ...int64Id, examples: [5] } },
} as const;

const pin = { type: 'string', pattern: '^[0-9]{4,8}$', maxLength: 8, description: '4 to 8 digits' } as const;
const idOnCreate = {
  type: 'integer',
  minimum: 0,
  maximum: 9007199254740991,
  description: 'Ignored: the service assigns IDs (0 from generated clients is fine)',
} as const;

/** Fields of an alarming configuration; the call area adds alarmTemplateID. */
export const alarmingFields = { gsm, organizationID: int64Id, pin } as const;
export const alarmTemplateID = {
  ...int64Id,
  description: 'The alarm template a call with this number and pin raises',
} as const;

/** Create body of an sms-alarming configuration (S3); call's adds alarmTemplateID. */
export const alarmingCreate = {
  type: 'object',
  additionalProperties: false,
  required: ['gsm', 'organizationID', 'pin'],
  properties: { id: idOnCreate, ...alarmingFields },
} as const;
/** Update body (S2/C2): id names the configuration; given fields replace the stored ones. */
export const alarmingUpdate = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: int64Id, ...alarmingFields },
} as const;
/** A stored configuration as returned. */
export const alarmingView = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'gsm', 'organizationID', 'pin'],
  properties: { id: int64Id, ...alarmingFields },
} as const;

/** Fields of a mobile (sms) or phone (call) number. */
const numberFields = {
  active: { type: 'boolean', description: 'Used for alarm notifications (default true)' },
  gsm,
  name: { type: 'string', maxLength: 100, description: 'User-defined name (default empty)' },
  ownerID: {
    ...int64Id,
    description: 'The caller himself, or a member of the organization an API key or admin acts in',
  },
} as const;

export const numberCreate = {
  type: 'object',
  additionalProperties: false,
  required: ['gsm', 'ownerID'],
  properties: { id: idOnCreate, ...numberFields },
} as const;
export const numberUpdate = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { ...int64Id, description: 'The number to change, unless the path or query names it' },
    ...numberFields,
  },
} as const;
export const numberView = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'active', 'gsm', 'name', 'ownerID'],
  properties: { id: { ...int64Id, readOnly: true }, ...numberFields },
} as const;

/** A number's ID in the path, or the 2019 clients' literal placeholder with the ID in the query. */
export const pathIdOrPlaceholder = (name: string, example: string) =>
  ({
    type: 'string',
    maxLength: 20,
    examples: [example],
    pattern: `^([1-9][0-9]{0,15}|\\{${name}\\})$`,
    description:
      `An int64 ID, or the literal {${name}} that clients generated from the 2019 document send, with ` +
      `${name} in the query`,
  }) as const;

export type AlarmingCreateInput = FromSchema<typeof alarmingCreate> & { alarmTemplateID?: number };
export type AlarmingUpdateInput = FromSchema<typeof alarmingUpdate> & { alarmTemplateID?: number };
export type NumberCreateInput = FromSchema<typeof numberCreate>;
export type NumberUpdateInput = FromSchema<typeof numberUpdate>;
