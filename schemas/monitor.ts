// JSON Schemas of the monitor area (M1–M10). Named after their operations; compiled once at boot.
import type { FromSchema } from 'json-schema-to-ts';
import { count, dateTime, int64Id, latitude, longText, longitude, nonNegativeInt, openMap, shortText } from './common.js';

// Go clients generated from the 2019 document send nil maps as null; null stores as an empty map.
const nullableMap = { ...openMap, type: ['object', 'null'] } as const;

/** Monitor `configuration`: open map whose supported keys are typed (display options included). */
const configuration = {
  ...nullableMap,
  properties: {
    address: shortText,
    latitude,
    longitude,
    tileUrl: { type: 'string', maxLength: 1000 },
    gong: { type: 'boolean' },
    speech: { type: 'boolean' },
  },
} as const;

const monitorFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  organizationID: int64Id,
  configuration,
  configurationSplitScreen: nullableMap,
  configurationStandby: nullableMap,
  standbyDelay: { type: 'integer', minimum: 0, maximum: 86_400, description: 'Seconds' },
} as const;

export const M1Query = {
  $id: 'M1Query',
  type: 'object',
  required: ['organization'],
  properties: { organization: int64Id },
} as const;

export const MonitorIdParams = {
  $id: 'MonitorIdParams',
  type: 'object',
  required: ['monitor_id'],
  properties: { monitor_id: int64Id },
} as const;

export const M3Body = {
  $id: 'M3Body',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'organizationID'],
  properties: { id: { ...nonNegativeInt, description: 'Ignored: the service assigns IDs (0 from generated clients is fine)' }, ...monitorFields },
} as const;

export const M2Body = {
  $id: 'M2Body',
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: int64Id, ...monitorFields },
} as const;

export const Monitor = {
  $id: 'Monitor',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'organizationID', 'configuration', 'configurationSplitScreen', 'configurationStandby', 'standbyDelay'],
  properties: { id: int64Id, ...monitorFields },
} as const;

export const MonitorList = { $id: 'MonitorList', type: 'array', items: { $ref: 'Monitor' } } as const;

const feedbackItem = {
  type: 'object',
  additionalProperties: false,
  properties: {
    feedback: { type: 'integer', enum: [0, 1, 2], description: '0 negative, 1 positive, 2 awaiting feedback' },
    label: {
      type: 'object',
      additionalProperties: false,
      properties: { color: { type: ['string', 'null'], maxLength: 64 }, name: shortText },
    },
    name: shortText,
    position: shortText,
  },
} as const;

const alarmingFields = {
  awaitingResponses: count,
  event: shortText,
  eventEndDate: dateTime,
  eventId: nonNegativeInt,
  eventStartDate: dateTime,
  geo: {
    type: 'object',
    additionalProperties: false,
    properties: { address: shortText, latitude, longitude },
  },
  message: longText,
  negativeResponses: count,
  positiveResponses: count,
  units: {
    type: 'array',
    maxItems: 200,
    items: {
      type: 'object',
      additionalProperties: false,
      properties: { name: shortText, feedback: { type: 'array', maxItems: 500, items: feedbackItem } },
    },
  },
} as const;

export const M7Body = { $id: 'M7Body', type: 'object', additionalProperties: false, properties: alarmingFields } as const;
export const M8Body = { $id: 'M8Body', type: 'object', additionalProperties: false, minProperties: 1, properties: alarmingFields } as const;

const metaFields = {
  latestAlarms: { type: 'array', maxItems: 100, items: shortText },
  pagers: {
    type: 'object',
    additionalProperties: false,
    properties: { activePager: count, inactivePager: count },
  },
  tables: openMap,
} as const;

export const M9Body = { $id: 'M9Body', type: 'object', additionalProperties: false, properties: metaFields } as const;
export const M10Body = { $id: 'M10Body', type: 'object', additionalProperties: false, minProperties: 1, properties: metaFields } as const;

export const MonitorDataResult = {
  $id: 'MonitorDataResult',
  type: 'object',
  additionalProperties: false,
  required: ['alarmData', 'alarmDataList', 'incidentLog', 'metaData'],
  properties: {
    alarmData: { type: 'object', properties: alarmingFields },
    alarmDataList: { type: 'object', description: 'Alarming data of every shown event, keyed by eventId', additionalProperties: { type: 'object', properties: alarmingFields } },
    incidentLog: { type: 'object', description: 'Recent history keyed by RFC 3339 time; newest 200 kept', additionalProperties: { type: 'string' } },
    metaData: { type: 'object', properties: metaFields },
  },
} as const;

export type M1QueryInput = FromSchema<typeof M1Query>;
export type MonitorIdInput = FromSchema<typeof MonitorIdParams>;
export type M2Input = FromSchema<typeof M2Body>;
export type M3Input = FromSchema<typeof M3Body>;
