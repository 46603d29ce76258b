// JSON Schemas of the app area (A1–A11, push/delivered and W1); shared shapes are in channels.ts.
import type { FromSchema } from 'json-schema-to-ts';
import { int64Id } from './common.js';

const deviceFields = {
  active: { type: 'boolean', description: 'Whether the device is used for notifications' },
  name: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description: "Unique within the owner's devices, compared without case and surrounding spaces",
  },
  os: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description:
      'Must contain "android" or "ios" (iPadOS counts as ios), or the word "web", in any case: it chooses FCM, ' +
      'APNs or Web Push (a browser, e.g. "Web Chrome 131 Android")',
  },
  ownerID: {
    ...int64Id,
    description: 'The caller himself, or a member of the organization an API key or admin acts in; cannot change',
  },
  pushToken: {
    type: 'string',
    minLength: 1,
    maxLength: 4096,
    description:
      'FCM registration token (letters, digits and _ : . -), the APNs device token in hex, or for a web device ' +
      'the JSON of its PushSubscription {"endpoint", "keys": {"p256dh", "auth"}}, whose endpoint must be at a ' +
      'known push service or an origin in WEB_PUSH_ORIGINS',
  },
  pushTokenDevelopment: { type: 'boolean', description: 'APNs only: the token is for the sandbox' },
} as const;
const required = ['active', 'name', 'os', 'ownerID', 'pushToken', 'pushTokenDevelopment'] as const;
const deviceInput = {
  active: true,
  name: 'Pixel 8 Gruppenführer',
  os: 'android 14',
  ownerID: 42,
  pushToken: 'eHcE2x1QTzW4p9Lk0vYq:APA91bGq7XlKc3VdY0f6rTn8Pm2SjAe5Lw',
  pushTokenDevelopment: false,
} as const;

export const DeviceCreate = {
  $id: 'DeviceCreate',
  type: 'object',
  additionalProperties: false,
  required,
  properties: {
    id: { type: 'integer', minimum: 0, maximum: 9007199254740991, description: 'Ignored: the service assigns IDs' },
    ...deviceFields,
  },
  examples: [deviceInput],
} as const;

export const DeviceUpdate = {
  $id: 'DeviceUpdate',
  type: 'object',
  additionalProperties: false,
  required,
  properties: { id: { ...int64Id, description: 'When given, must be the deviceID of the path' }, ...deviceFields },
  examples: [{ ...deviceInput, id: 15, active: false }],
} as const;

export const Device = {
  $id: 'Device',
  type: 'object',
  additionalProperties: false,
  required: ['id', ...required],
  properties: { id: int64Id, ...deviceFields },
  examples: [{ id: 15, ...deviceInput }],
} as const;
export const DeviceList = {
  $id: 'DeviceList',
  type: 'array',
  items: { $ref: 'Device' },
  examples: [[{ id: 15, ...deviceInput }]],
} as const;
export const DeviceIdParams = {
  $id: 'DeviceIdParams',
  type: 'object',
  required: ['deviceID'],
  properties: { deviceID: { ...int64Id, examples: [15] } },
} as const;

export const TestPushResult = {
  $id: 'TestPushResult',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'confirmToken', 'deviceActive'],
  properties: {
    status: {
      type: 'string',
      enum: ['sent', 'device_deactivated'],
      description: 'device_deactivated: the gateway said the push token is dead, so the device was set inactive',
    },
    confirmToken: {
      type: ['string', 'null'],
      description: "The push's confirmation token for push/delivered and A11; null when nothing was sent",
    },
    deviceActive: { type: 'boolean' },
  },
  examples: [{ status: 'sent', confirmToken: 'q3ZbV8mN1xT0rL6yK2wC9dFhJ5sP7uA4eG8iW1oR2tY', deviceActive: true }],
} as const;

const answerData = {
  type: 'object',
  additionalProperties: false,
  properties: {
    distance: { type: 'integer', minimum: 0, maximum: 100_000, description: 'Kilometres to the organization base' },
    duration: { type: 'integer', minimum: 0, maximum: 100_000, description: 'Minutes in traffic to the organization' },
  },
} as const;

export const AnswerData = { $id: 'AnswerData', ...answerData, examples: [{ distance: 4, duration: 7 }] } as const;

export const FeedbackBody = {
  $id: 'FeedbackBody',
  type: 'object',
  additionalProperties: false,
  required: ['answerData', 'deviceID'],
  properties: {
    alarmID: { ...int64Id, description: 'Required; missing is answered with "organizationID or alarmID not set"' },
    answerData,
    deviceID: { ...int64Id, description: 'A device the caller reaches as in A3' },
    response: { type: 'boolean' },
  },
  examples: [{ alarmID: 3051, answerData: { distance: 4, duration: 7 }, deviceID: 15, response: true }],
} as const;

export const FeedbackQuery = {
  $id: 'FeedbackQuery',
  type: 'object',
  properties: {
    organization_id: {
      ...int64Id,
      description: 'Required for a personal token; an API key acts in its own organization',
      examples: [7],
    },
  },
} as const;

export const FeedbackResult = {
  $id: 'FeedbackResult',
  type: 'object',
  additionalProperties: false,
  required: ['success'],
  properties: { success: { type: 'boolean' } },
  examples: [{ success: true }],
} as const;

const confirmToken = {
  type: 'string',
  minLength: 20,
  maxLength: 100,
  pattern: '^[A-Za-z0-9_-]+$',
  examples: ['q3ZbV8mN1xT0rL6yK2wC9dFhJ5sP7uA4eG8iW1oR2tY'],
} as const;

export const AnswerParams = {
  $id: 'AnswerParams',
  type: 'object',
  required: ['token', 'answer'],
  properties: { token: confirmToken, answer: { type: 'string', enum: ['yes', 'no'], examples: ['yes'] } },
} as const;

export const ConfirmTokenParams = {
  $id: 'ConfirmTokenParams',
  type: 'object',
  required: ['token'],
  properties: { token: confirmToken },
} as const;
export const SavedResult = {
  $id: 'SavedResult',
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: ['saved'] } },
  examples: [{ status: 'saved' }],
} as const;

export const WebPushKey = {
  $id: 'WebPushKey',
  type: 'object',
  additionalProperties: false,
  required: ['publicKey'],
  properties: {
    publicKey: {
      type: 'string',
      description:
        "The VAPID public key (65 bytes, base64url): the browser's applicationServerKey for PushManager.subscribe",
    },
  },
  examples: [
    {
      publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
    },
  ],
} as const;

export type DeviceCreateInput = FromSchema<typeof DeviceCreate>;
export type DeviceUpdateInput = FromSchema<typeof DeviceUpdate>;
export type AnswerDataInput = FromSchema<typeof AnswerData>;
export type FeedbackInput = FromSchema<typeof FeedbackBody>;
