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

export const HubAvailabilityWatch = {
  $id: 'HubAvailabilityWatch',
  type: 'object',
  additionalProperties: false,
  required: ['monitorId'],
  properties: { monitorId: int64Id },
  examples: [{ monitorId: 3 }],
} as const;

/** `vehicles:watch` asks as `availability:watch` does: for a monitor. */
export const HubVehiclesWatch = { ...HubAvailabilityWatch, $id: 'HubVehiclesWatch' } as const;

export const HubWaterNearby = {
  $id: 'HubWaterNearby',
  type: 'object',
  additionalProperties: false,
  required: ['monitorId', 'latitude', 'longitude'],
  properties: {
    monitorId: int64Id,
    latitude: { type: 'number', minimum: -90, maximum: 90 },
    longitude: { type: 'number', minimum: -180, maximum: 180 },
  },
  examples: [{ monitorId: 3, latitude: 50.9375, longitude: 6.9603 }],
} as const;
