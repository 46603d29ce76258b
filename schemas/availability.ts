// JSON Schemas of availability (W2, W3; docs/people.md "Availability"): whether a member can come, set
// by himself, counted for the organization. Named after their operations; compiled once at boot.
import { count, dateTime, int64Id } from './common.js';

const nullableTime = { anyOf: [dateTime, { type: 'null' }] } as const;
// One line: no control characters.
const note = { type: 'string', maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]*$' } as const;

export const AvailabilityBody = {
  $id: 'AvailabilityBody',
  type: 'object',
  additionalProperties: false,
  required: ['organizationID', 'available'],
  properties: {
    organizationID: int64Id,
    available: { type: 'boolean' },
    until: { ...dateTime, description: 'Until when it holds; absent: until changed. A time past clears it' },
    note: { ...note, description: 'e.g. "ab 18 Uhr", "nur tagsüber"' },
  },
  examples: [{ organizationID: 1, available: false, until: '2026-12-01T06:00:00.000Z', note: 'Nachtschicht' }],
} as const;

export const AvailabilityView = {
  $id: 'AvailabilityView',
  type: 'object',
  additionalProperties: false,
  required: ['userId', 'organizationId', 'available', 'until', 'note', 'changedAt'],
  properties: {
    userId: int64Id,
    organizationId: int64Id,
    available: { type: ['boolean', 'null'], description: 'null: not said (or cleared)' },
    until: nullableTime,
    note: { type: ['string', 'null'] },
    changedAt: dateTime,
  },
  examples: [
    {
      userId: 7,
      organizationId: 1,
      available: false,
      until: '2026-12-01T06:00:00.000Z',
      note: 'Nachtschicht',
      changedAt: '2026-11-29T18:00:00.000Z',
    },
  ],
} as const;

export const AvailabilityParams = {
  $id: 'AvailabilityParams',
  type: 'object',
  required: ['organizationId'],
  properties: { organizationId: { ...int64Id, examples: [1] } },
} as const;

export const AvailabilitySummary = {
  $id: 'AvailabilitySummary',
  type: 'object',
  additionalProperties: false,
  required: ['available', 'unavailable', 'unknown', 'nextChangeAt', 'members'],
  properties: {
    available: count,
    unavailable: count,
    unknown: count,
    nextChangeAt: { ...nullableTime, description: "When the next member's `until` passes: the counts change then" },
    members: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['userId', 'name', 'available', 'until', 'note'],
        properties: {
          userId: int64Id,
          name: { type: 'string' },
          available: { type: ['boolean', 'null'] },
          until: nullableTime,
          note: { type: ['string', 'null'] },
        },
      },
    },
  },
  examples: [
    {
      available: 1,
      unavailable: 1,
      unknown: 0,
      nextChangeAt: '2026-12-01T06:00:00.000Z',
      members: [
        { userId: 7, name: 'Alex Berger', available: true, until: null, note: null },
        { userId: 8, name: 'Kim Sommer', available: false, until: '2026-12-01T06:00:00.000Z', note: 'Nachtschicht' },
      ],
    },
  ],
} as const;
