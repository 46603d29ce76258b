// JSON Schemas of the journal area (J1–J10, close and force-unlock). Named after their operations;
// compiled once at boot. Response schemas document the shapes the presenters build.
import type { FromSchema } from 'json-schema-to-ts';
import { count, dateTime, int64Id, nonNegativeInt } from './common.js';

/** Bytes an entry's attachment reference may take (the issue: at most 2 KiB). */
export const MAX_ATTACHMENT_BYTES = 2048;

const nullableId = { type: ['integer', 'null'], minimum: 1, maximum: int64Id.maximum } as const;

const categoryFields = {
  name: { type: 'string', minLength: 1, maxLength: 200 },
  description: { type: 'string', maxLength: 2000 },
  organizationId: int64Id,
} as const;

// Examples: the journal of event 3051 (a B3 Wohnungsbrand), kept by the incident commander (user 42).
const categoryExample = {
  id: 4,
  name: 'Lagemeldung',
  description: 'Rückmeldungen zur Lage an die Leitstelle',
  organizationId: 7,
} as const;
const entryExample = {
  id: 230,
  journalId: 17,
  serialNumber: 3,
  text: 'Person aus 2. OG über Drehleiter gerettet, an Rettungsdienst übergeben',
  location: 'Hauptstraße 40, Rückseite',
  attachment: '',
  category: categoryExample,
  created: { time: '2025-03-14T18:21:40.000Z', timeCustom: '2025-03-14T18:19:00Z', userId: 42 },
  deleted: null,
} as const;
const journalState = {
  id: 17,
  organizationId: 7,
  eventId: 3051,
  closed: false,
  locked: { time: '2025-03-14T18:05:02.000Z', userId: 42 },
} as const;

export const J1Query = {
  $id: 'J1Query',
  type: 'object',
  required: ['organization_id'],
  properties: { organization_id: { ...int64Id, examples: [7] } },
} as const;

export const JournalCategoryBody = {
  $id: 'JournalCategoryBody',
  type: 'object',
  additionalProperties: false,
  required: ['description', 'name', 'organizationId'],
  properties: {
    id: {
      ...nonNegativeInt,
      description: "Ignored on create (generated clients send 0); on update it must be 0 or the path's categoryID",
    },
    ...categoryFields,
  },
  examples: [{ name: 'Lagemeldung', description: 'Rückmeldungen zur Lage an die Leitstelle', organizationId: 7 }],
} as const;

export const JournalCategoryIdParams = {
  $id: 'JournalCategoryIdParams',
  type: 'object',
  required: ['categoryID'],
  properties: { categoryID: { ...int64Id, examples: [4] } },
} as const;

export const JournalCategory = {
  $id: 'JournalCategory',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'description', 'organizationId'],
  properties: { id: int64Id, ...categoryFields },
  examples: [categoryExample],
} as const;

export const JournalCategoryList = {
  $id: 'JournalCategoryList',
  type: 'array',
  items: { $ref: 'JournalCategory' },
  examples: [
    [
      categoryExample,
      { id: 5, name: 'Nachforderung', description: 'Angeforderte Kräfte und Mittel', organizationId: 7 },
    ],
  ],
} as const;

export const J6Query = {
  $id: 'J6Query',
  type: 'object',
  description:
    "organization_id alone selects the organization's journal; event_id selects the event's journal " +
    'in organization_id (which may be left out by an API key or a user in one organization)',
  properties: {
    organization_id: { ...int64Id, examples: [7] },
    event_id: { ...int64Id, examples: [3051] },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, examples: [10] },
    offset: { ...count, default: 0, examples: [0] },
  },
} as const;

export const JournalIdParams = {
  $id: 'JournalIdParams',
  type: 'object',
  required: ['journalID'],
  properties: { journalID: { ...int64Id, examples: [17] } },
} as const;

export const JournalExportQuery = {
  $id: 'JournalExportQuery',
  type: 'object',
  required: ['format'],
  properties: {
    format: { enum: ['csv', 'pdf'], examples: ['pdf'] },
    timeZone: { type: 'string', minLength: 1, maxLength: 64, examples: ['Europe/Berlin'] },
    lang: { enum: ['de', 'en'], examples: ['de'] },
  },
} as const;

export const JournalEntryParams = {
  $id: 'JournalEntryParams',
  type: 'object',
  required: ['journalID', 'entryID'],
  properties: { journalID: { ...int64Id, examples: [17] }, entryID: { ...int64Id, examples: [230] } },
} as const;

export const J9Body = {
  $id: 'J9Body',
  type: 'object',
  additionalProperties: false,
  required: ['categoryId', 'journalId', 'text'],
  properties: {
    journalId: { ...int64Id, description: "Must be the path's journalID" },
    categoryId: { ...int64Id, description: "A category of the journal's organization" },
    text: { type: 'string', minLength: 1, maxLength: 10_000 },
    location: { type: 'string', maxLength: 500 },
    attachment: {
      type: 'string',
      maxLength: MAX_ATTACHMENT_BYTES,
      description: 'A reference (e.g. a URL), at most 2048 bytes in UTF-8',
    },
    customTime: { ...dateTime, description: 'When it happened, if not when it was written' },
  },
  examples: [
    {
      journalId: 17,
      categoryId: 4,
      text: 'Person aus 2. OG über Drehleiter gerettet, an Rettungsdienst übergeben',
      location: 'Hauptstraße 40, Rückseite',
      customTime: '2025-03-14T18:19:00Z',
    },
  ],
} as const;

export const JournalForceUnlockBody = {
  $id: 'JournalForceUnlockBody',
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Why the lock is broken; part of the entry that records it',
    },
    categoryId: { ...int64Id, description: 'Category of that entry; without it the entry has none (category null)' },
  },
  examples: [{ reason: 'Einsatzleiter abgelöst, Tablet ohne Verbindung; Führung übernimmt Zugführer', categoryId: 4 }],
} as const;

/** Who did something: a user, or (userId null) the organization's API key named by apiKeyId. */
const stamp = {
  type: 'object',
  additionalProperties: false,
  required: ['time', 'userId'],
  properties: {
    time: dateTime,
    userId: nullableId,
    apiKeyId: { ...int64Id, description: "Present when the organization's API key acted (userId is then null)" },
  },
} as const;

export const JournalEntry = {
  $id: 'JournalEntry',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'journalId', 'serialNumber', 'text', 'location', 'attachment', 'category', 'created', 'deleted'],
  properties: {
    id: int64Id,
    journalId: int64Id,
    serialNumber: { ...int64Id, description: '1, 2, 3… per journal, without gaps' },
    text: { type: 'string' },
    location: { type: 'string', description: 'Empty when not given' },
    attachment: { type: 'string', description: 'Empty when not given' },
    category: {
      anyOf: [{ $ref: 'JournalCategory' }, { type: 'null' }],
      description:
        'The category as it was when the entry was written; null only for a lock-break record written without one',
    },
    created: {
      ...stamp,
      required: ['time', 'timeCustom', 'userId'],
      properties: { ...stamp.properties, timeCustom: { type: ['string', 'null'], format: 'date-time' } },
    },
    deleted: {
      anyOf: [stamp, { type: 'null' }],
      description: 'Who deleted the entry and when; null while it is not deleted',
    },
  },
  examples: [entryExample],
} as const;

const journalFields = {
  id: int64Id,
  organizationId: int64Id,
  eventId: { ...nullableId, description: "null for the organization's own journal" },
  closed: { type: 'boolean' },
  locked: {
    anyOf: [
      { type: 'object', additionalProperties: false, required: ['time', 'userId'], properties: stamp.properties },
      { type: 'null' },
    ],
    description: 'Time and holder of the lock; null when not locked',
  },
} as const;

export const Journal = {
  $id: 'Journal',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'organizationId', 'eventId', 'closed', 'locked', 'entryList'],
  properties: {
    ...journalFields,
    entryList: {
      type: 'object',
      additionalProperties: false,
      required: ['entries', 'totalEntries'],
      properties: {
        entries: {
          type: 'array',
          items: { $ref: 'JournalEntry' },
          description: 'Newest first; deleted entries stay listed',
        },
        totalEntries: { ...count, description: 'The highest serial number' },
      },
    },
  },
  examples: [
    {
      ...journalState,
      entryList: {
        entries: [
          entryExample,
          {
            ...entryExample,
            id: 229,
            serialNumber: 2,
            text: 'Zweites HLF nachgefordert',
            location: '',
            category: {
              id: 5,
              name: 'Nachforderung',
              description: 'Angeforderte Kräfte und Mittel',
              organizationId: 7,
            },
            created: { time: '2025-03-14T18:09:12.000Z', timeCustom: null, userId: 42 },
            deleted: { time: '2025-03-14T18:10:30.000Z', userId: 42 },
          },
        ],
        totalEntries: 3,
      },
    },
  ],
} as const;

export const JournalState = {
  $id: 'JournalState',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'organizationId', 'eventId', 'closed', 'locked'],
  description: 'A journal without its entries',
  properties: journalFields,
  examples: [journalState],
} as const;

/** The answer of a delete, `{"status":"deleted"}` (docs/api.md "REST API"), under an area's own $id. */
export const deletedStatus = <Id extends string>($id: Id) =>
  ({
    $id,
    type: 'object',
    additionalProperties: false,
    required: ['status'],
    properties: { status: { type: 'string', enum: ['deleted'] } },
    examples: [{ status: 'deleted' }],
  }) as const;

export const JournalCategoryDeleted = deletedStatus('JournalCategoryDeleted');

export type CategoryInput = FromSchema<typeof JournalCategoryBody>;
export type CategoryView = FromSchema<typeof JournalCategory>;
export type J6QueryInput = FromSchema<typeof J6Query>;
export type JournalExportQueryInput = FromSchema<typeof JournalExportQuery>;
export type J9Input = FromSchema<typeof J9Body>;
export type ForceUnlockInput = FromSchema<typeof JournalForceUnlockBody>;
