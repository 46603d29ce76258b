// JSON Schemas of the answer links (AN1, AN2; docs/alarms.md "Answering without the app"): the page a
// member opens from the link in his alarm SMS reads the alarm and takes his answer, without signing in.
// Named after their operations; compiled once at boot.
import type { FromSchema } from 'json-schema-to-ts';
import { dateTime } from './common.js';

const nullableTime = { anyOf: [dateTime, { type: 'null' }] } as const;
/** Travel minutes a member may give: up to a day (the page offers 5, 10, 15, 20 or a typed number). */
const minutes = { type: 'integer', minimum: 0, maximum: 1440 } as const;
const TOKEN_EXAMPLE = 'AQLEdwDu83DoFkh3x_4';

export const AnswerTokenParams = {
  $id: 'AnswerTokenParams',
  type: 'object',
  required: ['token'],
  properties: {
    token: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description:
        'The answer token of the link in the alarm SMS (base64url: the alarm and the member, signed; 22 characters from before 2026-12-02)',
      examples: [TOKEN_EXAMPLE],
    },
  },
} as const;

export const AN2Body = {
  $id: 'AN2Body',
  type: 'object',
  additionalProperties: false,
  required: ['response'],
  properties: {
    response: { type: 'boolean', description: 'true: coming ("Komme"), false: not coming ("Komme nicht")' },
    duration: { ...minutes, description: 'Minutes until he arrives (coming only; ignored with false)' },
  },
  examples: [{ response: true, duration: 10 }],
} as const;

export const AnswerLinkView = {
  $id: 'AnswerLinkView',
  type: 'object',
  additionalProperties: false,
  required: ['event', 'message', 'address', 'startedAt', 'endedAt', 'organizationName', 'name', 'answer'],
  properties: {
    event: { type: 'string' },
    message: { type: 'string' },
    address: { type: 'string' },
    startedAt: dateTime,
    endedAt: { ...nullableTime, description: 'Set once the alarm ended: then no answer is taken (409)' },
    organizationName: { type: 'string' },
    name: { type: 'string', description: "The member's name: whose answer the link gives" },
    answer: {
      anyOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['response', 'duration', 'at'],
          properties: {
            response: { type: 'boolean' },
            // An answer from the app (A10) may name more minutes than the page lets him choose.
            duration: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
            at: dateTime,
          },
        },
        { type: 'null' },
      ],
      description: 'His latest answer to the alarm, whichever way it came (app, link, SMS, call); null: none yet',
    },
  },
  examples: [
    {
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG, Person vermisst',
      address: 'Hauptstraße 40, 12345 Musterstadt',
      startedAt: '2025-03-14T18:02:03.118Z',
      endedAt: null,
      organizationName: 'FF Musterstadt',
      name: 'Alex Brandt',
      answer: { response: true, duration: 10, at: '2025-03-14T18:03:41.007Z' },
    },
  ],
} as const;

export type AN2Input = FromSchema<typeof AN2Body>;
export type AnswerLinkViewOut = FromSchema<typeof AnswerLinkView>;
