// JSON Schemas of the alarms area (AL1–AL4, W4) and the gateways' inbound doors (IN1, IN2): docs/alarms.md.
// Named after their operations; compiled once at boot. Response schemas document the presenters' shapes.
import type { FromSchema } from 'json-schema-to-ts';
import { count, dateTime, int64Id, latitude, longitude, longText, shortText } from './common.js';

export const ALARM_CHANNELS = ['app', 'sms', 'call'] as const;

const channel = { type: 'string', enum: ALARM_CHANNELS } as const;

/** The channels an escalation policy may hold back (W4): those that cost money and wake everyone. */
export const ESCALATION_CHANNELS = ['sms', 'call'] as const;
/** Why a held delivery was skipped (docs/alarms.md "Escalation"). */
export const ESCALATION_SKIPS = ['push confirmed', 'answered', 'alarm ended'] as const;

// Example: a dispatch centre alarms the Freiwillige Feuerwehr Musterstadt (organization 7).
const alarmExample = {
  id: 3051,
  organizationId: 7,
  event: 'B3 Wohnungsbrand',
  message: 'Rauch aus Fenster 2. OG, Person vermisst',
  source: 'api',
  templateId: null,
  address: 'Hauptstraße 40, 12345 Musterstadt',
  latitude: 52.5208,
  longitude: 13.4095,
  units: ['HLF 20', 'DLK 23'],
  monitorIds: [3],
  channels: ['app', 'sms'],
  startedAt: '2025-03-14T18:02:03.118Z',
  endedAt: null,
  recipients: {
    app: { targets: 12, sent: 12, delivered: 9, failed: 0 },
    sms: { targets: 14, sent: 13, delivered: 0, failed: 1 },
    call: { targets: 0, sent: 0, delivered: 0, failed: 0 },
  },
  responses: { positive: 9, negative: 1, awaiting: 4 },
} as const;

export const AL1Body = {
  $id: 'AL1Body',
  type: 'object',
  additionalProperties: false,
  required: ['organizationID', 'event'],
  properties: {
    organizationID: int64Id,
    event: { type: 'string', minLength: 1, maxLength: 500 },
    message: longText,
    address: shortText,
    latitude,
    longitude,
    units: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 100 } },
    monitorIds: { type: 'array', maxItems: 100, uniqueItems: true, items: int64Id },
    channels: { type: 'array', maxItems: 3, uniqueItems: true, items: channel },
  },
  examples: [
    {
      organizationID: 7,
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG, Person vermisst',
      address: 'Hauptstraße 40, 12345 Musterstadt',
      latitude: 52.5208,
      longitude: 13.4095,
      units: ['HLF 20', 'DLK 23'],
      channels: ['app', 'sms'],
    },
  ],
} as const;

export const AL2Query = {
  $id: 'AL2Query',
  type: 'object',
  required: ['organization_id'],
  properties: {
    organization_id: { ...int64Id, examples: [7] },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, examples: [10] },
    offset: { ...count, default: 0, examples: [0] },
    active: {
      type: 'boolean',
      description: 'true: running alarms only; false: ended ones only; absent: both',
      examples: [true],
    },
  },
} as const;

export const AlarmIdParams = {
  $id: 'AlarmIdParams',
  type: 'object',
  required: ['alarmId'],
  properties: { alarmId: { ...int64Id, examples: [3051] } },
} as const;

const tally = {
  type: 'object',
  additionalProperties: false,
  required: ['targets', 'sent', 'delivered', 'failed'],
  properties: { targets: count, sent: count, delivered: count, failed: count },
} as const;

const alarmProperties = {
  id: int64Id,
  organizationId: int64Id,
  event: shortText,
  message: longText,
  source: { type: 'string', enum: ['api', 'sms', 'call', 'rule', 'input'] },
  templateId: { type: ['integer', 'null'] },
  address: shortText,
  latitude: { type: ['number', 'null'] },
  longitude: { type: ['number', 'null'] },
  units: { type: 'array', items: { type: 'string' } },
  monitorIds: { type: 'array', items: int64Id },
  channels: { type: 'array', items: channel },
  startedAt: dateTime,
  endedAt: { type: ['string', 'null'], format: 'date-time' },
  recipients: {
    type: 'object',
    additionalProperties: false,
    required: ['app', 'sms', 'call'],
    properties: { app: tally, sms: tally, call: tally },
  },
  responses: {
    type: 'object',
    additionalProperties: false,
    required: ['positive', 'negative', 'awaiting'],
    properties: { positive: count, negative: count, awaiting: count },
  },
} as const;

const alarmRequired = [
  'id',
  'organizationId',
  'event',
  'message',
  'source',
  'templateId',
  'address',
  'latitude',
  'longitude',
  'units',
  'monitorIds',
  'channels',
  'startedAt',
  'endedAt',
  'recipients',
  'responses',
] as const;

export const Alarm = {
  $id: 'Alarm',
  type: 'object',
  additionalProperties: false,
  required: alarmRequired,
  properties: alarmProperties,
  examples: [alarmExample],
} as const;

export const AlarmList = {
  $id: 'AlarmList',
  type: 'object',
  additionalProperties: false,
  required: ['alarms', 'total'],
  properties: { alarms: { type: 'array', items: { $ref: 'Alarm' } }, total: count },
  examples: [{ alarms: [alarmExample], total: 1 }],
} as const;

export const AlarmDetail = {
  $id: 'AlarmDetail',
  type: 'object',
  additionalProperties: false,
  required: [...alarmRequired, 'deliveries', 'answers', 'sources'],
  properties: {
    ...alarmProperties,
    sources: {
      type: 'array',
      description:
        'The alarm inputs whose documents raised the alarm or were merged into it, in order (docs/inputs.md ' +
        '"One incident, one alarm"); empty for an alarm no input raised',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'inputId', 'name', 'at'],
        properties: {
          kind: { type: 'string', enum: ['imap', 'document', 'pager'] },
          inputId: int64Id,
          name: shortText,
          at: dateTime,
        },
      },
    },
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['channel', 'recipientUserId', 'target', 'status', 'attempts', 'lastError'],
        properties: {
          channel,
          recipientUserId: int64Id,
          target: {
            type: 'string',
            description: 'Masked: the last 3 digits of a number, the last 3 characters of a push token',
          },
          status: {
            type: 'string',
            enum: ['waiting', 'queued', 'sent', 'delivered', 'failed', 'skipped'],
            description:
              'waiting: held by the escalation policy until `dueAt`; skipped: not sent, the member confirmed ' +
              'his push or answered before `dueAt` (`reason`) — docs/alarms.md "Escalation"',
          },
          attempts: count,
          lastError: { type: ['string', 'null'] },
          dueAt: {
            ...dateTime,
            description: 'Only on deliveries the escalation policy held: when they are (or were) due',
          },
          reason: { type: 'string', enum: ESCALATION_SKIPS, description: 'Only on skipped deliveries: why' },
        },
      },
    },
    answers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['userId', 'name', 'response', 'distance', 'duration', 'enteredBy', 'at'],
        properties: {
          userId: int64Id,
          name: shortText,
          response: { type: 'boolean' },
          distance: { type: ['number', 'null'] },
          duration: { type: ['number', 'null'] },
          enteredBy: {
            description:
              "Who entered the answer for the member (an admin's personal token or the API key, e.g. a " +
              "dispatcher taking it by phone); null when the member's own app answered",
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                additionalProperties: false,
                required: ['kind', 'id'],
                properties: { kind: { type: 'string', enum: ['user', 'apikey'] }, id: int64Id },
              },
            ],
          },
          at: dateTime,
        },
      },
    },
  },
  examples: [
    {
      ...alarmExample,
      deliveries: [
        { channel: 'sms', recipientUserId: 42, target: '…789', status: 'sent', attempts: 1, lastError: null },
        {
          channel: 'call',
          recipientUserId: 43,
          target: '…456',
          status: 'waiting',
          attempts: 0,
          lastError: null,
          dueAt: '2025-03-14T18:03:03.118Z',
        },
      ],
      answers: [
        {
          userId: 42,
          name: 'Anna Schmidt',
          response: true,
          distance: 1.2,
          duration: 4,
          enteredBy: null,
          at: '2025-03-14T18:02:41.500Z',
        },
      ],
      sources: [],
    },
  ],
} as const;

/** What a gateway sends for an SMS the organization's number received (IN1). */
export const IN1Body = {
  $id: 'IN1Body',
  type: 'object',
  additionalProperties: false,
  required: ['from', 'text'],
  properties: {
    from: { type: 'string', minLength: 1, maxLength: 32, description: 'The sender, "+49…" or "0049…"' },
    text: { type: 'string', maxLength: 2000 },
  },
  examples: [{ from: '+491701234567', text: '4711 B3 Wohnungsbrand\nHauptstraße 40' }],
} as const;

/** What a gateway sends for a call the organization's number received, with the digits keyed (IN2). */
export const IN2Body = {
  $id: 'IN2Body',
  type: 'object',
  additionalProperties: false,
  required: ['from', 'digits'],
  properties: {
    from: { type: 'string', minLength: 1, maxLength: 32, description: 'The caller, "+49…" or "0049…"' },
    digits: { type: 'string', maxLength: 32, pattern: '^[0-9*#]*$' },
  },
  examples: [{ from: '+491701234567', digits: '4711' }],
} as const;

export const InboundAccepted = {
  $id: 'InboundAccepted',
  type: 'object',
  additionalProperties: false,
  required: ['accepted'],
  properties: { accepted: { type: 'boolean', const: true } },
  examples: [{ accepted: true }],
} as const;

export const EscalationParams = {
  $id: 'EscalationParams',
  type: 'object',
  required: ['organizationId'],
  properties: { organizationId: { ...int64Id, examples: [7] } },
} as const;

const escalationProperties = {
  pushReceiptWithinSeconds: {
    type: ['integer', 'null'],
    minimum: 10,
    maximum: 600,
    description:
      "How long after the alarm's start the SMS and calls of a member whose push is under way wait for its " +
      'receipt or his answer; null: no policy, every channel at once',
  },
  channels: {
    type: 'array',
    minItems: 1,
    maxItems: 2,
    uniqueItems: true,
    items: { type: 'string', enum: ESCALATION_CHANNELS },
    description: 'The channels that wait; the others go at once',
  },
} as const;

/** W4: an organization's escalation policy. */
export const EscalationBody = {
  $id: 'EscalationBody',
  type: 'object',
  additionalProperties: false,
  required: ['pushReceiptWithinSeconds', 'channels'],
  properties: escalationProperties,
  examples: [{ pushReceiptWithinSeconds: 60, channels: ['sms', 'call'] }],
} as const;

export const EscalationPolicy = {
  $id: 'EscalationPolicy',
  type: 'object',
  additionalProperties: false,
  required: ['organizationId', 'pushReceiptWithinSeconds', 'channels'],
  properties: { organizationId: int64Id, ...escalationProperties },
  examples: [{ organizationId: 7, pushReceiptWithinSeconds: 60, channels: ['sms', 'call'] }],
} as const;

export type AL1Input = FromSchema<typeof AL1Body>;
export type AL2QueryInput = FromSchema<typeof AL2Query>;
export type AlarmView = FromSchema<typeof Alarm>;
export type AlarmDetailView = FromSchema<typeof AlarmDetail>;
export type AlarmChannel = (typeof ALARM_CHANNELS)[number];
export type IN1Input = FromSchema<typeof IN1Body>;
export type IN2Input = FromSchema<typeof IN2Body>;
export type EscalationInput = FromSchema<typeof EscalationBody>;
export type EscalationView = FromSchema<typeof EscalationPolicy>;
export type EscalationSkip = (typeof ESCALATION_SKIPS)[number];
