// Run-time checks of what screens send to the hub (types: common/hub-protocol.ts).
import { int64Id, nonNegativeInt } from './common.js';

export const HubSubscribe = {
  $id: 'HubSubscribe',
  type: 'object',
  additionalProperties: false,
  required: ['monitorId'],
  properties: { monitorId: int64Id, version: nonNegativeInt, epoch: { type: 'string', maxLength: 64 } },
  examples: [{ monitorId: 3, version: 7 }],
} as const;

export const HubUnsubscribe = {
  $id: 'HubUnsubscribe',
  type: 'object',
  additionalProperties: false,
  required: ['monitorId'],
  properties: { monitorId: int64Id },
  examples: [{ monitorId: 3 }],
} as const;
