// JSON Schemas of the sms area (S1–S14); the shapes it shares with call and app are in channels.ts.
import {
  alarmingCreate,
  alarmingUpdate,
  alarmingView,
  numberCreate,
  numberUpdate,
  numberView,
  pathIdOrPlaceholder,
} from './channels.js';
import { int64Id } from './common.js';

/** The text formatters the service implements (server/areas/sms/formatters.ts); the first is the default. */
export const FORMATTER_NAMES = ['standard', 'compact', 'detailed'] as const;
export type FormatterName = (typeof FORMATTER_NAMES)[number];

const smsAlarming = { id: 5, gsm: '004917612345678', organizationID: 7, pin: '4711' } as const;
const mobile = { id: 21, active: true, gsm: '004917612345678', name: 'Diensthandy', ownerID: 42 } as const;

export const SmsAlarmingCreate = {
  $id: 'SmsAlarmingCreate',
  ...alarmingCreate,
  examples: [{ gsm: '004917612345678', organizationID: 7, pin: '4711' }],
} as const;
export const SmsAlarmingUpdate = {
  $id: 'SmsAlarmingUpdate',
  ...alarmingUpdate,
  examples: [{ id: 5, pin: '2580' }],
} as const;
export const SmsAlarming = { $id: 'SmsAlarming', ...alarmingView, examples: [smsAlarming] } as const;
export const SmsAlarmingList = {
  $id: 'SmsAlarmingList',
  type: 'array',
  items: { $ref: 'SmsAlarming' },
  examples: [[smsAlarming]],
} as const;

export const MobileCreate = {
  $id: 'MobileCreate',
  ...numberCreate,
  examples: [{ gsm: '004917612345678', ownerID: 42, name: 'Diensthandy' }],
} as const;
export const MobileUpdate = { $id: 'MobileUpdate', ...numberUpdate, examples: [{ id: 21, active: false }] } as const;
export const Mobile = { $id: 'Mobile', ...numberView, examples: [mobile] } as const;
export const MobileList = {
  $id: 'MobileList',
  type: 'array',
  items: { $ref: 'Mobile' },
  examples: [[mobile]],
} as const;
export const MobileIdParams = {
  $id: 'MobileIdParams',
  type: 'object',
  required: ['mobileID'],
  properties: { mobileID: pathIdOrPlaceholder('mobileID', '21') },
} as const;
export const MobileQuery = {
  $id: 'MobileQuery',
  type: 'object',
  properties: {
    mobileID: {
      ...int64Id,
      description: 'The mobile number, when the path carries the placeholder (or, for S10, instead of id in the body)',
      examples: [21],
    },
    organization_id: { ...int64Id, examples: [7] },
  },
} as const;

export const FormatterQuery = {
  $id: 'FormatterQuery',
  type: 'object',
  required: ['organization'],
  properties: { organization: { ...int64Id, examples: [7] } },
} as const;

const textFormatterName = {
  type: 'string',
  enum: FORMATTER_NAMES,
  description:
    'standard: event, address and message, as many segments as needed; compact: always one segment ' +
    'of 160 GSM-7 characters; detailed: standard plus start time, coordinates and responses',
} as const;

export const TextFormatter = {
  $id: 'TextFormatter',
  type: 'object',
  additionalProperties: false,
  required: ['organizationID', 'textFormatterName'],
  properties: { organizationID: int64Id, textFormatterName },
  examples: [{ organizationID: 7, textFormatterName: 'compact' }],
} as const;
