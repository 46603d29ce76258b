// JSON Schemas of the screen fleet (docs/hub.md "The screen fleet", F1–F8) and of what screens send to the hub.
import { int64Id, nonNegativeInt } from './common.js';

export const SCREEN_COMMANDS = ['reload', 'identify', 'sleep', 'wake'] as const;

const dateTimeOut = { type: 'string', format: 'date-time' } as const;
const screenExample = {
  id: 9,
  name: 'Halle links',
  monitorId: 3,
  online: true,
  lastSeen: '2025-03-14T18:05:12.301Z',
  versionShown: 8,
  pageVersion: '0.1.0',
  userAgent: 'Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  createdAt: '2025-02-01T09:30:00.000Z',
} as const;

export const PairingStarted = {
  $id: 'PairingStarted',
  type: 'object',
  additionalProperties: false,
  required: ['pairingId', 'code', 'expiresAt', 'pollSecret'],
  properties: {
    pairingId: { type: 'string' },
    code: { type: 'string', description: 'Shown on the screen; an admin types it into F3' },
    expiresAt: dateTimeOut,
    pollSecret: { type: 'string', description: 'Sent by the screen as the Pairing-Secret header of F2; never shown' },
  },
  examples: [
    {
      pairingId: 'CzPf0qBHY9HJbljYeO2nCA',
      code: 'K7RM4XTA',
      expiresAt: '2025-03-14T18:15:00.000Z',
      pollSecret: '1RtcDF-UvjXMSbo3I7n4Ol2Q3jmLTVZBCAsZ_r-_a9E',
    },
  ],
} as const;

export const PairingIdParams = {
  $id: 'PairingIdParams',
  type: 'object',
  required: ['pairingId'],
  properties: {
    pairingId: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      examples: ['CzPf0qBHY9HJbljYeO2nCA'],
    },
  },
} as const;

export const PairingStatus = {
  $id: 'PairingStatus',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['waiting', 'paired'] },
    expiresAt: dateTimeOut,
    token: { type: 'string', description: 'The screen token (ahs_…), delivered exactly once' },
    screenId: int64Id,
    monitorId: int64Id,
    name: { type: 'string', description: 'The name the admin gave the screen (shown by identify)' },
  },
  examples: [
    {
      status: 'paired',
      token: 'ahs_Wm1vQ2xYb3RrR0ZwNnR5dUhTb0lqZ2Nfa0xRZ3JvAB',
      screenId: 9,
      monitorId: 3,
      name: 'Halle links',
    },
    { status: 'waiting', expiresAt: '2025-03-14T18:15:00.000Z' },
  ],
} as const;

export const ScreenPairBody = {
  $id: 'ScreenPairBody',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name'],
  properties: {
    code: {
      type: 'string',
      minLength: 1,
      maxLength: 32,
      description: 'The code the screen shows (case, spaces and dashes do not matter)',
    },
    name: { type: 'string', minLength: 1, maxLength: 200 },
  },
  examples: [{ code: 'K7RM-4XTA', name: 'Halle links' }],
} as const;

export const Screen = {
  $id: 'Screen',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'monitorId', 'online', 'lastSeen', 'versionShown', 'pageVersion', 'userAgent', 'createdAt'],
  properties: {
    id: int64Id,
    name: { type: 'string' },
    monitorId: int64Id,
    online: { type: 'boolean', description: `False once the screen was silent for SCREEN_OFFLINE_AFTER_MS` },
    lastSeen: { type: ['string', 'null'], format: 'date-time' },
    versionShown: {
      type: ['integer', 'null'],
      description: 'The monitor data version the screen last reported showing',
    },
    pageVersion: { type: ['string', 'null'], description: 'The display client version the screen runs' },
    userAgent: { type: ['string', 'null'] },
    createdAt: dateTimeOut,
  },
  examples: [screenExample],
} as const;

export const ScreenList = {
  $id: 'ScreenList',
  type: 'array',
  items: { $ref: 'Screen' },
  examples: [[screenExample]],
} as const;

export const ScreenIdParams = {
  $id: 'ScreenIdParams',
  type: 'object',
  required: ['screen_id'],
  properties: { screen_id: { ...int64Id, examples: [9] } },
} as const;

export const ScreenCommandBody = {
  $id: 'ScreenCommandBody',
  type: 'object',
  additionalProperties: false,
  required: ['command'],
  properties: { command: { type: 'string', enum: SCREEN_COMMANDS } },
  examples: [{ command: 'identify' }],
} as const;

export const ScreenCommandResult = {
  $id: 'ScreenCommandResult',
  type: 'object',
  additionalProperties: false,
  required: ['acknowledged', 'missing'],
  properties: {
    acknowledged: { type: 'array', items: int64Id, description: 'Screens that acknowledged the command' },
    missing: {
      type: 'array',
      items: int64Id,
      description: 'Screens that did not within 5 s (offline, or not answering)',
    },
  },
  examples: [{ acknowledged: [9, 10], missing: [11] }],
} as const;

export const TestAlarmBody = {
  $id: 'TestAlarmBody',
  type: 'object',
  additionalProperties: false,
  properties: {
    message: { type: 'string', maxLength: 500 },
    durationSeconds: { type: 'integer', minimum: 5, maximum: 600, default: 60 },
  },
  examples: [{ message: 'Probealarm – bitte nicht ausrücken', durationSeconds: 30 }],
} as const;

export const TestAlarmResult = {
  $id: 'TestAlarmResult',
  type: 'object',
  additionalProperties: false,
  required: ['endsAt'],
  properties: { endsAt: dateTimeOut },
  examples: [{ endsAt: '2025-03-14T18:06:30.000Z' }],
} as const;

export const StatusResult = {
  $id: 'StatusResult',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string' } },
  examples: [{ status: 'deleted' }],
} as const;

export const HubScreenReport = {
  $id: 'HubScreenReport',
  type: 'object',
  additionalProperties: false,
  required: ['versionShown', 'pageVersion'],
  properties: { versionShown: nonNegativeInt, pageVersion: { type: 'string', maxLength: 100 } },
  examples: [{ versionShown: 8, pageVersion: '0.1.0' }],
} as const;

export const HubScreenPower = {
  $id: 'HubScreenPower',
  type: 'object',
  additionalProperties: false,
  required: ['state'],
  properties: { state: { type: 'string', enum: ['sleep', 'wake'] } },
  examples: [{ state: 'sleep' }],
} as const;
