// JSON Schemas of the alarm inputs (IP1–IP6, IN3; docs/inputs.md): e-mail, document and pager inputs that
// turn what a dispatch centre sends into alarms. Named after their operations; compiled once at boot.
import type { FromSchema } from 'json-schema-to-ts';
import { ALARM_CHANNELS } from './alarms.js';
import { count, dateTime, int64Id } from './common.js';
import { deletedStatus } from './journal.js';

export const INPUT_KINDS = ['imap', 'document', 'pager'] as const;
export const PROFILE_FIELDS = [
  'event',
  'keyword',
  'message',
  'address',
  'street',
  'city',
  'latitude',
  'longitude',
  'units',
  'dispatchNumber',
] as const;
export const DOCUMENT_OUTCOMES = ['raised', 'merged', 'ignored', 'failed'] as const;
/** What a stored password reads as in every answer. */
export const MASK = '********';

const pattern = {
  type: 'string',
  minLength: 1,
  maxLength: 500,
  description:
    'A regular expression (JavaScript syntax, `m` flag: ^ and $ match at each line) whose first group is the value',
} as const;

const Profile = {
  type: 'object',
  additionalProperties: false,
  required: ['fields'],
  properties: {
    fields: {
      type: 'object',
      additionalProperties: false,
      required: ['event'],
      properties: Object.fromEntries(PROFILE_FIELDS.map((f) => [f, pattern])) as Record<
        (typeof PROFILE_FIELDS)[number],
        typeof pattern
      >,
    },
  },
} as const;

const host = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9.-]+$|^\\[[0-9A-Fa-f:.]+\\]$',
} as const;
const sender = {
  type: 'string',
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@]*@[^\\s@]+$',
  description: 'An address (leitstelle@example.org) or a whole domain (@example.org)',
} as const;

const ImapSettings = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'user', 'allowedSenders'],
  properties: {
    host,
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'Default 993 with TLS, else 143' },
    tls: { type: 'boolean', description: 'Default true' },
    user: { type: 'string', minLength: 1, maxLength: 254 },
    password: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: `Required when the input is created; absent or "${MASK}" on PUT keeps the stored one`,
    },
    folder: { type: 'string', minLength: 1, maxLength: 200, description: 'Default INBOX' },
    allowedSenders: { type: 'array', minItems: 1, maxItems: 50, uniqueItems: true, items: sender },
  },
} as const;

const DocumentSettings = { type: 'object', additionalProperties: false, properties: {} } as const;

const ric = { type: 'string', pattern: '^[0-9]{1,7}$', description: 'POCSAG RIC (address), up to 7 digits' } as const;
const subric = {
  type: 'string',
  enum: ['a', 'b', 'c', 'd', '1', '2', '3', '4'],
  description: 'POCSAG sub-RIC (function): a–d or 1–4; absent: any',
} as const;
const zvei = { type: 'string', pattern: '^[0-9]{5}$', description: 'ZVEI five-tone code' } as const;
const fms = {
  type: 'string',
  pattern: '^[0-9A-Fa-f]{8}$',
  description: "FMS vehicle code (8 characters, BOSWatch's fms)",
} as const;

const PagerSettings = {
  type: 'object',
  additionalProperties: false,
  properties: {
    codes: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ric,
          subric,
          zvei,
          event: { type: 'string', minLength: 1, maxLength: 500 },
          templateId: { ...int64Id, description: 'An alarm template of the organization (TP1): in place of event' },
          message: { type: 'string', maxLength: 10_000 },
        },
        oneOf: [
          { required: ['ric'], properties: { ric } },
          { required: ['zvei'], properties: { zvei } },
        ],
        anyOf: [
          { required: ['event'], properties: { event: { type: 'string' } } },
          { required: ['templateId'], properties: { templateId: { type: 'integer' } } },
        ],
      },
    },
    vehicles: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['fms', 'name'],
        properties: {
          fms,
          name: { type: 'string', minLength: 1, maxLength: 100, description: "The unit's name on the wall" },
        },
      },
    },
  },
} as const;

const fields = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  kind: { type: 'string', enum: INPUT_KINDS },
  settings: { type: 'object' },
  profile: { anyOf: [Profile, { type: 'null' }] },
  monitorIds: {
    anyOf: [{ type: 'array', maxItems: 100, uniqueItems: true, items: int64Id }, { type: 'null' }],
    description: 'Absent or null: every monitor of the organization',
  },
  channels: {
    anyOf: [
      { type: 'array', maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ALARM_CHANNELS } },
      { type: 'null' },
    ],
    description: 'Absent or null: every channel',
  },
  active: { type: 'boolean' },
} as const;

const bySettings = [
  { if: { properties: { kind: { const: 'imap' } } }, then: { properties: { settings: ImapSettings } } },
  { if: { properties: { kind: { const: 'document' } } }, then: { properties: { settings: DocumentSettings } } },
  { if: { properties: { kind: { const: 'pager' } } }, then: { properties: { settings: PagerSettings } } },
] as const;

const example = {
  organizationID: 7,
  name: 'Leitstelle per E-Mail',
  kind: 'imap',
  settings: {
    host: 'imap.example.org',
    user: 'alarm@ff-musterstadt.de',
    password: 'secret',
    allowedSenders: ['@leitstelle.example.org'],
  },
  profile: {
    fields: {
      event: '^Stichwort:\\s*(.+)$',
      address: '^Einsatzort:\\s*(.+)$',
      dispatchNumber: '^Einsatznummer:\\s*(\\S+)',
    },
  },
  active: true,
} as const;

export const IP1Body = {
  $id: 'IP1Body',
  type: 'object',
  additionalProperties: false,
  required: ['organizationID', 'name', 'kind', 'settings', 'active'],
  properties: { organizationID: int64Id, ...fields },
  allOf: bySettings,
  examples: [example],
} as const;

/** IP3's PUT replaces the input; its organization and kind cannot change. */
export const IP3Body = { ...IP1Body, $id: 'IP3Body' } as const;

export const IP2Query = {
  $id: 'IP2Query',
  type: 'object',
  required: ['organization_id'],
  properties: { organization_id: { ...int64Id, examples: [7] } },
} as const;

export const InputIdParams = {
  $id: 'InputIdParams',
  type: 'object',
  required: ['inputId'],
  properties: { inputId: { ...int64Id, examples: [3] } },
} as const;

const inputExample = {
  id: 3,
  organizationId: 7,
  name: 'Leitstelle per E-Mail',
  kind: 'imap',
  settings: { ...example.settings, password: MASK, port: 993, tls: true, folder: 'INBOX' },
  profile: example.profile,
  monitorIds: null,
  channels: null,
  active: true,
  lastReceivedAt: '2025-03-14T18:02:03.118Z',
  lastError: null,
} as const;

export const Input = {
  $id: 'Input',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'organizationId',
    'name',
    'kind',
    'settings',
    'profile',
    'monitorIds',
    'channels',
    'active',
    'lastReceivedAt',
    'lastError',
  ],
  properties: {
    id: int64Id,
    organizationId: int64Id,
    name: { type: 'string' },
    kind: fields.kind,
    settings: { type: 'object', description: `As set, the password as "${MASK}"` },
    profile: { anyOf: [{ type: 'object' }, { type: 'null' }] },
    monitorIds: { type: ['array', 'null'], items: int64Id },
    channels: { type: ['array', 'null'], items: { type: 'string', enum: ALARM_CHANNELS } },
    active: { type: 'boolean' },
    lastReceivedAt: { anyOf: [dateTime, { type: 'null' }] },
    lastError: {
      type: ['string', 'null'],
      description: 'Why the last connection or document failed; null since it worked',
    },
  },
  examples: [inputExample],
} as const;

export const InputList = {
  $id: 'InputList',
  type: 'array',
  maxItems: count.maximum,
  items: { $ref: 'Input' },
  examples: [[inputExample]],
} as const;

export const InputDeleted = deletedStatus('InputDeleted');

export const DocumentAccepted = {
  $id: 'DocumentAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['documentId'],
  properties: { documentId: { type: 'string', description: 'Its entry in IP6, once handled' } },
  examples: [{ documentId: '3:17' }],
} as const;

export const IP5Text = {
  $id: 'IP5Text',
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: { text: { type: 'string', minLength: 1, maxLength: 100_000 } },
  examples: [{ text: 'Einsatznummer: 4711\nStichwort: B3 Wohnungsbrand\nEinsatzort: Hauptstraße 40, Musterstadt' }],
} as const;

const nullableString = { type: ['string', 'null'] } as const;
const wouldRaise = {
  type: 'object',
  additionalProperties: false,
  required: ['event', 'message', 'address', 'latitude', 'longitude', 'units', 'dispatchNumber', 'keyword'],
  properties: {
    event: { type: 'string' },
    message: { type: 'string' },
    address: { type: 'string' },
    latitude: { type: ['number', 'null'] },
    longitude: { type: ['number', 'null'] },
    units: { type: 'array', items: { type: 'string' } },
    dispatchNumber: nullableString,
    keyword: nullableString,
  },
} as const;

export const TryResult = {
  $id: 'TryResult',
  type: 'object',
  additionalProperties: false,
  required: ['text', 'fields', 'alarm', 'reason'],
  properties: {
    text: { type: 'string', description: 'The text the document gave' },
    fields: {
      type: 'object',
      description: "Each profile field's value (units: every match), null where its expression found nothing",
      additionalProperties: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }],
      },
    },
    alarm: { anyOf: [wouldRaise, { type: 'null' }], description: 'What it would raise; null: nothing (see reason)' },
    reason: { ...nullableString, description: 'Why it would raise nothing' },
  },
  examples: [
    {
      text: 'Stichwort: B3 Wohnungsbrand\nEinsatzort: Hauptstraße 40, Musterstadt',
      fields: { event: 'B3 Wohnungsbrand', address: 'Hauptstraße 40, Musterstadt', dispatchNumber: null },
      alarm: {
        event: 'B3 Wohnungsbrand',
        message: '',
        address: 'Hauptstraße 40, Musterstadt',
        latitude: null,
        longitude: null,
        units: [],
        dispatchNumber: null,
        keyword: null,
      },
      reason: null,
    },
  ],
} as const;

const documentExample = {
  id: '3:17',
  receivedAt: '2025-03-14T18:02:03.118Z',
  from: 'leitstelle@leitstelle.example.org',
  type: 'message/rfc822',
  outcome: 'raised',
  alarmId: 42,
  reason: null,
  text: 'Stichwort: B3 Wohnungsbrand\nEinsatzort: Hauptstraße 40, Musterstadt',
} as const;

export const InputDocument = {
  $id: 'InputDocument',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'receivedAt', 'from', 'type', 'outcome', 'alarmId', 'reason', 'text'],
  properties: {
    id: { type: 'string' },
    receivedAt: dateTime,
    from: { type: 'string', description: 'The sender (e-mail), the uploader (IP4), or the pager code' },
    type: { type: 'string', description: 'Its media type' },
    outcome: { type: 'string', enum: DOCUMENT_OUTCOMES },
    alarmId: { anyOf: [int64Id, { type: 'null' }] },
    reason: nullableString,
    text: { type: 'string', description: 'The text it gave (the first 20,000 characters)' },
  },
  examples: [documentExample],
} as const;

export const InputDocumentList = {
  $id: 'InputDocumentList',
  type: 'array',
  maxItems: 50,
  items: { $ref: 'InputDocument' },
  examples: [[documentExample]],
} as const;

export const IN3Body = {
  $id: 'IN3Body',
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['pocsag', 'zvei', 'fms'] },
    ric,
    subric,
    zvei,
    fms,
    status: { type: 'string', pattern: '^[0-9A-Fa-f]$', description: 'FMS status (1–9 are shown on the wall)' },
    message: { type: 'string', maxLength: 10_000 },
  },
  allOf: [
    { if: { properties: { type: { const: 'pocsag' } } }, then: { required: ['ric'], properties: { ric } } },
    { if: { properties: { type: { const: 'zvei' } } }, then: { required: ['zvei'], properties: { zvei } } },
    {
      if: { properties: { type: { const: 'fms' } } },
      then: { required: ['fms', 'status'], properties: { fms, status: { type: 'string' } } },
    },
  ],
  examples: [{ type: 'pocsag', ric: '1234567', subric: 'a', message: 'B3 Wohnungsbrand Hauptstraße 40' }],
} as const;

/** IN3 as a GET, for decoders that can only call a URL (BOSWatch 3's http plugin): the same fields, and the token. */
export const IN3Query = {
  $id: 'IN3Query',
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { ...IN3Body.properties.type, examples: ['pocsag'] },
    ric: { ...ric, examples: ['1234567'] },
    subric: { ...subric, examples: ['1'] },
    zvei: { ...zvei, examples: ['25832'] },
    fms: { ...fms, examples: ['6112A111'] },
    status: { ...IN3Body.properties.status, examples: ['3'] },
    message: { ...IN3Body.properties.message, examples: ['B3 Wohnungsbrand'] },
    token: {
      type: 'string',
      maxLength: 1000,
      description: 'INBOUND_GATEWAY_TOKEN, when no Gateway-Token header can be sent',
      examples: ['secret'],
    },
  },
  allOf: IN3Body.allOf,
  examples: [{ type: 'pocsag', ric: '1234567', subric: '1', message: 'B3 Wohnungsbrand', token: 'secret' }],
} as const;

export type IP1Input = FromSchema<typeof IP1Body>;
export type InputView = FromSchema<typeof Input>;
export type InputDocumentView = FromSchema<typeof InputDocument>;
export type TryResultView = FromSchema<typeof TryResult>;
export type IN3Input = FromSchema<typeof IN3Body>;
export type ImapSettingsInput = FromSchema<typeof ImapSettings>;
export type PagerSettingsInput = FromSchema<typeof PagerSettings>;
export type ProfileInput = FromSchema<typeof Profile>;
export type InputKind = (typeof INPUT_KINDS)[number];
export type DocumentOutcome = (typeof DOCUMENT_OUTCOMES)[number];
