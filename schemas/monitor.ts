// JSON Schemas of the monitor area (M1–M10). Named after their operations; compiled once at boot.
import type { FromSchema } from 'json-schema-to-ts';
import {
  count,
  dateTime,
  int64Id,
  latitude,
  longText,
  longitude,
  nonNegativeInt,
  openMap,
  shortText,
} from './common.js';

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

// Examples: one station's monitor through one alarm (M7, then a late response count by M8).
const monitorConfig = {
  name: 'Feuerwache 1 Fahrzeughalle',
  organizationID: 7,
  configuration: {
    address: 'Hauptstraße 12, 63450 Hanau',
    latitude: 50.1328,
    longitude: 8.9169,
    gong: true,
    speech: false,
  },
  configurationSplitScreen: {},
  configurationStandby: { showCalendar: true },
  standbyDelay: 300,
} as const;
const alarmExample = {
  event: 'B3 Wohnungsbrand',
  eventId: 3051,
  eventStartDate: '2025-03-14T18:02:00Z',
  eventEndDate: '2025-03-14T20:02:00Z',
  message: 'Rauch aus Fenster 2. OG, Person vermisst. Hauptstraße 40, Hanau',
  geo: { address: 'Hauptstraße 40, 63450 Hanau', latitude: 50.1336, longitude: 8.9183 },
  awaitingResponses: 12,
  positiveResponses: 6,
  negativeResponses: 1,
  units: [
    {
      name: 'HLF 20 (1-46-1)',
      feedback: [
        { feedback: 1, label: { color: '#d32f2f', name: 'AGT' }, name: 'Anna Becker', position: 'Gruppenführerin' },
        { feedback: 1, label: { color: '#d32f2f', name: 'AGT' }, name: 'Jonas Weber', position: 'Angriffstrupp' },
        { feedback: 2, label: { color: null, name: 'Maschinist' }, name: 'Peter Schmitt', position: 'Maschinist' },
      ],
    },
  ],
} as const;
const responsesPatch = { positiveResponses: 9, awaitingResponses: 3 } as const;
const metaExample = {
  latestAlarms: [
    'B3 Wohnungsbrand, Hauptstraße 40',
    'TH 1 Baum auf Straße, Lindenweg',
    'BMA Auslösung, Gewerbepark Süd',
  ],
  pagers: { activePager: 38, inactivePager: 2 },
  tables: {
    hydranten: [
      { typ: 'H 80', standort: 'Hauptstraße 38' },
      { typ: 'U 100', standort: 'Schulstraße 2' },
    ],
  },
} as const;

export const M1Query = {
  $id: 'M1Query',
  type: 'object',
  required: ['organization'],
  properties: { organization: { ...int64Id, examples: [7] } },
} as const;

export const MonitorIdParams = {
  $id: 'MonitorIdParams',
  type: 'object',
  required: ['monitor_id'],
  properties: { monitor_id: { ...int64Id, examples: [3] } },
} as const;

export const M3Body = {
  $id: 'M3Body',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'organizationID'],
  properties: {
    id: { ...nonNegativeInt, description: 'Ignored: the service assigns IDs (0 from generated clients is fine)' },
    ...monitorFields,
  },
  examples: [monitorConfig],
} as const;

export const M2Body = {
  $id: 'M2Body',
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: int64Id, ...monitorFields },
  examples: [{ id: 3, name: 'Feuerwache 1 Lehrsaal', standbyDelay: 600 }],
} as const;

export const Monitor = {
  $id: 'Monitor',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'organizationID',
    'configuration',
    'configurationSplitScreen',
    'configurationStandby',
    'standbyDelay',
  ],
  properties: { id: int64Id, ...monitorFields },
  examples: [{ id: 3, ...monitorConfig }],
} as const;

export const MonitorList = {
  $id: 'MonitorList',
  type: 'array',
  items: { $ref: 'Monitor' },
  examples: [[{ id: 3, ...monitorConfig }]],
} as const;

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
  eventKind: {
    type: 'string',
    enum: ['phone'],
    description:
      '"phone": a call alarm without a template; the wall shows its own word for it in its language ' +
      '("Alarm per Telefon", "Phone alarm") instead of `event` (an extension of the 2019 interface)',
  },
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

export const M7Body = {
  $id: 'M7Body',
  type: 'object',
  additionalProperties: false,
  properties: alarmingFields,
  examples: [alarmExample, {}],
} as const;
export const M8Body = {
  $id: 'M8Body',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: alarmingFields,
  examples: [responsesPatch],
} as const;

const metaFields = {
  latestAlarms: { type: 'array', maxItems: 100, items: shortText },
  pagers: {
    type: 'object',
    additionalProperties: false,
    properties: { activePager: count, inactivePager: count },
  },
  tables: openMap,
} as const;

export const M9Body = {
  $id: 'M9Body',
  type: 'object',
  additionalProperties: false,
  properties: metaFields,
  examples: [metaExample, {}],
} as const;
export const M10Body = {
  $id: 'M10Body',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: metaFields,
  examples: [{ pagers: { activePager: 37 } }],
} as const;

export const MonitorDataResult = {
  $id: 'MonitorDataResult',
  type: 'object',
  additionalProperties: false,
  required: ['alarmData', 'alarmDataList', 'incidentLog', 'metaData'],
  properties: {
    alarmData: { type: 'object', properties: alarmingFields },
    alarmDataList: {
      type: 'object',
      description: 'Alarming data of every shown event, keyed by eventId',
      additionalProperties: { type: 'object', properties: alarmingFields },
    },
    incidentLog: {
      type: 'object',
      description: 'Recent history keyed by RFC 3339 time; newest 200 kept',
      additionalProperties: { type: 'string' },
    },
    metaData: { type: 'object', properties: metaFields },
  },
  examples: [
    {
      alarmData: { ...alarmExample, ...responsesPatch },
      alarmDataList: { 3051: { ...alarmExample, ...responsesPatch } },
      incidentLog: {
        '2025-03-14T17:55:40.512Z': 'Meta data set',
        '2025-03-14T18:02:03.118Z': 'Alarm set: B3 Wohnungsbrand',
        '2025-03-14T18:04:27.904Z': 'Responses changed: 9 positive, 1 negative, 3 awaiting',
      },
      metaData: metaExample,
    },
  ],
} as const;

export type M3Input = FromSchema<typeof M3Body>;
