// JSON Schemas of the alarm templates (TP1–TP3, docs/api.md "Alarm templates (TP1–TP3)"): what an alarm
// raised by a call PIN, a pager code or a things rule shows and where it goes. Named after their
// operations; compiled once at boot.
import type { FromSchema } from 'json-schema-to-ts';
import { ALARM_CHANNELS } from './alarms.js';
import { count, dateTime, int64Id, longText } from './common.js';

const fields = {
  name: { type: 'string', minLength: 1, maxLength: 100, description: 'How staff find it (e.g. "Vollalarm")' },
  event: { type: 'string', minLength: 1, maxLength: 500, description: 'The keyword the alarm shows' },
  message: longText,
  units: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 100 } },
  channels: {
    type: 'array',
    maxItems: 3,
    uniqueItems: true,
    items: { type: 'string', enum: ALARM_CHANNELS },
    description: 'Absent: every channel',
  },
  monitorIds: {
    type: 'array',
    maxItems: 100,
    uniqueItems: true,
    items: int64Id,
    description: 'Absent: every monitor of the organization',
  },
} as const;

const templateExample = {
  id: 12,
  organizationId: 7,
  name: 'Vollalarm',
  event: 'Vollalarm Feuerwehr',
  message: 'Alle Einheiten zum Gerätehaus',
  units: ['ELW 1', 'HLF 20/1'],
  channels: ['app', 'sms', 'call'],
  monitorIds: null,
  updatedAt: '2025-03-14T18:00:00.000Z',
} as const;

const example = {
  organizationID: 7,
  name: 'Vollalarm',
  event: 'Vollalarm Feuerwehr',
  message: 'Alle Einheiten zum Gerätehaus',
  units: ['ELW 1', 'HLF 20/1'],
  channels: ['app', 'sms', 'call'],
} as const;

export const TP1Body = {
  $id: 'TP1Body',
  type: 'object',
  additionalProperties: false,
  required: ['organizationID', 'name', 'event'],
  properties: { organizationID: int64Id, ...fields },
  examples: [example],
} as const;

/** TP3's PUT replaces the template; its organization cannot change. */
export const TP3Body = { ...TP1Body, $id: 'TP3Body' } as const;

export const TP2Query = {
  $id: 'TP2Query',
  type: 'object',
  required: ['organization_id'],
  properties: { organization_id: { ...int64Id, examples: [7] } },
} as const;

export const TemplateIdParams = {
  $id: 'TemplateIdParams',
  type: 'object',
  required: ['templateId'],
  properties: { templateId: { ...int64Id, examples: [12] } },
} as const;

export const AlarmTemplate = {
  $id: 'AlarmTemplate',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'organizationId', 'name', 'event', 'message', 'units', 'channels', 'monitorIds', 'updatedAt'],
  properties: {
    id: int64Id,
    organizationId: int64Id,
    name: fields.name,
    event: fields.event,
    message: longText,
    units: { type: 'array', items: { type: 'string' } },
    channels: { type: ['array', 'null'], items: { type: 'string', enum: ALARM_CHANNELS } },
    monitorIds: { type: ['array', 'null'], items: int64Id },
    updatedAt: dateTime,
  },
  examples: [templateExample],
} as const;

export const AlarmTemplateList = {
  $id: 'AlarmTemplateList',
  type: 'array',
  maxItems: count.maximum,
  items: { $ref: 'AlarmTemplate' },
  examples: [[templateExample]],
} as const;

export const TemplateDeleted = {
  $id: 'TemplateDeleted',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', const: 'deleted' } },
  examples: [{ status: 'deleted' }],
} as const;

export type TP1Input = FromSchema<typeof TP1Body>;
export type AlarmTemplateView = FromSchema<typeof AlarmTemplate>;
