// JSON Schemas of the screen fleet (CONTRACT.md §8, F1–F8) and of what screens send to the hub.
import type { FromSchema } from 'json-schema-to-ts';
import { int64Id, nonNegativeInt } from './common.js';

export const SCREEN_COMMANDS = ['reload', 'identify', 'sleep', 'wake'] as const;

const dateTimeOut = { type: 'string', format: 'date-time' } as const;

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
} as const;

export const PairingIdParams = {
  $id: 'PairingIdParams',
  type: 'object',
  required: ['pairingId'],
  properties: { pairingId: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } },
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
} as const;

export const ScreenPairBody = {
  $id: 'ScreenPairBody',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name'],
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 32, description: 'The code the screen shows (case, spaces and dashes do not matter)' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
  },
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
    versionShown: { type: ['integer', 'null'], description: 'The monitor data version the screen last reported showing' },
    pageVersion: { type: ['string', 'null'], description: 'The display client version the screen runs' },
    userAgent: { type: ['string', 'null'] },
    createdAt: dateTimeOut,
  },
} as const;

export const ScreenList = { $id: 'ScreenList', type: 'array', items: { $ref: 'Screen' } } as const;

export const ScreenIdParams = {
  $id: 'ScreenIdParams',
  type: 'object',
  required: ['screen_id'],
  properties: { screen_id: int64Id },
} as const;

export const ScreenCommandBody = {
  $id: 'ScreenCommandBody',
  type: 'object',
  additionalProperties: false,
  required: ['command'],
  properties: { command: { type: 'string', enum: SCREEN_COMMANDS } },
} as const;

export const ScreenCommandResult = {
  $id: 'ScreenCommandResult',
  type: 'object',
  additionalProperties: false,
  required: ['acknowledged', 'missing'],
  properties: {
    acknowledged: { type: 'array', items: int64Id, description: 'Screens that acknowledged the command' },
    missing: { type: 'array', items: int64Id, description: 'Screens that did not within 5 s (offline, or not answering)' },
  },
} as const;

export const TestAlarmBody = {
  $id: 'TestAlarmBody',
  type: 'object',
  additionalProperties: false,
  properties: {
    message: { type: 'string', maxLength: 500 },
    durationSeconds: { type: 'integer', minimum: 5, maximum: 600, default: 60 },
  },
} as const;

export const TestAlarmResult = {
  $id: 'TestAlarmResult',
  type: 'object',
  additionalProperties: false,
  required: ['endsAt'],
  properties: { endsAt: dateTimeOut },
} as const;

export const StatusResult = {
  $id: 'StatusResult',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string' } },
} as const;

export const HubScreenReport = {
  $id: 'HubScreenReport',
  type: 'object',
  additionalProperties: false,
  required: ['versionShown', 'pageVersion'],
  properties: { versionShown: nonNegativeInt, pageVersion: { type: 'string', maxLength: 100 } },
} as const;

export const HubScreenPower = {
  $id: 'HubScreenPower',
  type: 'object',
  additionalProperties: false,
  required: ['state'],
  properties: { state: { type: 'string', enum: ['sleep', 'wake'] } },
} as const;

export type ScreenPairInput = FromSchema<typeof ScreenPairBody>;
export type ScreenCommandInput = FromSchema<typeof ScreenCommandBody>;
export type TestAlarmInput = FromSchema<typeof TestAlarmBody>;
export type ScreenCommand = (typeof SCREEN_COMMANDS)[number];
