// The journal area's operations J1–J10 (docs/api.md "REST API") plus close and force-unlock.
import {
  J1Query,
  J6Query,
  JournalExportQuery,
  J9Body,
  Journal,
  JournalCategory,
  JournalCategoryBody,
  JournalCategoryDeleted,
  JournalCategoryIdParams,
  JournalCategoryList,
  JournalEntry,
  JournalEntryParams,
  JournalForceUnlockBody,
  JournalIdParams,
  JournalState,
} from '../../../schemas/journal.js';
import { defineOperation, FileAnswer, type Named, type Operation } from '../../http/operation.js';
import { badRequest } from '../../errors.js';
import { knownTimeZone, type JournalExport } from './export.js';
import type { CategoryCommands } from './categories.js';
import type { EntryCommands } from './entries.js';
import type { JournalCommands } from './journals.js';
import { wording } from './wording.js';

const categoryParams = { schema: JournalCategoryIdParams, message: wording.categoryId };
const categoryBody = { schema: JournalCategoryBody, message: wording.category };
const journalParams = { schema: JournalIdParams, message: wording.journalId };
const journalState = (description: string) => ({ status: 200, schema: JournalState, description }) as const;

/** The journal area's commands (built in server/areas/index.ts). */
export interface JournalAreaCommands {
  categories: CategoryCommands;
  journals: JournalCommands;
  entries: EntryCommands;
  exports: JournalExport;
  /** Local times of an export unless the request names a time zone (JOURNAL_TIME_ZONE). */
  timeZone: string;
}

/** The journal area's operation declarations. */
export function journalOperations({
  categories,
  journals,
  entries,
  exports,
  timeZone,
}: JournalAreaCommands): Operation[] {
  const stateChange = (
    names: Named,
    kind: 'lock' | 'unlock' | 'close',
    summary: string,
    result: string,
    description: string,
  ) =>
    defineOperation({
      ...names,
      method: 'post',
      path: `/api/v1/journal/:journalID/${kind}`,
      summary,
      description,
      params: journalParams,
      response: journalState(result),
      errors: kind === 'close' ? [400, 403, 404, 409] : [400, 404, 409],
      handler: ({ actor, params }) => journals.change(actor, params.journalID, kind),
    });

  return [
    defineOperation({
      label: 'J1',
      operationId: 'listCategories',
      method: 'get',
      path: '/api/v1/journal/categories',
      summary: 'List categories of an organization (members read), in ID order',
      description: 'Members, admins and the API key of the organization read; another organization is a 403.',
      query: { schema: J1Query, message: wording.organizationId },
      response: { status: 200, schema: JournalCategoryList, description: "The organization's categories" },
      errors: [400, 403],
      handler: ({ actor, query }) => categories.list(actor, query.organization_id),
    }),
    defineOperation({
      label: 'J2',
      operationId: 'createCategory',
      method: 'post',
      path: '/api/v1/journal/categories',
      summary: 'Create category (organization admins and the API key)',
      description:
        'Organization admins and the API key of organizationId; id is ignored (generated clients send ' +
        '0). Answers 201 with the assigned ID.',
      body: categoryBody,
      response: { status: 201, schema: JournalCategory, description: 'The created category' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => categories.create(actor, body),
    }),
    defineOperation({
      label: 'J3',
      operationId: 'getCategory',
      method: 'get',
      path: '/api/v1/journal/categories/:categoryID',
      summary: 'Get category',
      description: "Anyone of the category's organization reads it; a category of another organization is 404.",
      params: categoryParams,
      response: { status: 200, schema: JournalCategory, description: 'The category' },
      errors: [400, 404],
      handler: ({ actor, params }) => categories.get(actor, params.categoryID),
    }),
    defineOperation({
      label: 'J4',
      operationId: 'updateCategory',
      method: 'put',
      path: '/api/v1/journal/categories/:categoryID',
      summary:
        'Update category: name and description; organizationId must stay (admins and the API key). Entries ' +
        'keep the category as it was when they were written',
      description:
        "Organization admins and the API key. id in the body must be 0 or the path's categoryID and " +
        'organizationId cannot change (400). Entries already written keep the category as it was.',
      params: categoryParams,
      body: categoryBody,
      response: { status: 200, schema: JournalCategory, description: 'The updated category' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => categories.update(actor, params.categoryID, body),
    }),
    defineOperation({
      label: 'J5',
      operationId: 'deleteCategory',
      method: 'delete',
      path: '/api/v1/journal/categories/:categoryID',
      summary: 'Delete category; one that any entry uses cannot be deleted (409 category_in_use)',
      description:
        'Organization admins and the API key. A category that any entry uses is refused with 409 category_in_use, ' +
        'since entries keep their category.',
      params: categoryParams,
      response: { status: 200, schema: JournalCategoryDeleted, description: 'Deleted' },
      errors: [400, 403, 404, 409],
      handler: ({ actor, params }) => categories.remove(actor, params.categoryID),
    }),
    defineOperation({
      label: 'J6',
      operationId: 'getJournal',
      method: 'get',
      path: '/api/v1/journal',
      summary:
        'Get the journal of an organization (organization_id) or of an event (event_id, in organization_id), ' +
        'created on first access, with its entries newest first; deleted entries stay listed',
      description:
        "The organization's journal (organization_id alone) or an event's (event_id), created on first " +
        'access, so the call is safe to repeat. Entries come newest first, limit (1–50, default 10) ' +
        'and offset page through them; totalEntries is the highest serial number. Deleted entries stay ' +
        'listed with their deleted record: the journal is an audit trail.',
      query: { schema: J6Query, message: wording.journalQuery },
      response: { status: 200, schema: Journal, description: 'The journal with one page of entries' },
      errors: [400, 403],
      handler: ({ actor, query }) => journals.open(actor, query),
    }),
    stateChange(
      { label: 'J7', operationId: 'lockJournal' },
      'lock',
      'Lock journal: only when neither locked nor closed (members and the API key)',
      'The journal, locked by the caller (entries omitted)',
      "Members and the API key of the journal's organization lock; the holder is then the only one " +
        'who writes entries (J9, J10). A journal already locked is 409 journal_locked, a closed one ' +
        '409 journal_closed.',
    ),
    stateChange(
      { label: 'J8', operationId: 'unlockJournal' },
      'unlock',
      'Unlock journal: only by the holder of an unclosed journal',
      'The journal, not locked (entries omitted)',
      "Only the lock's holder unlocks: someone else gets 409 journal_locked, an unlocked journal 409 " +
        'journal_not_locked, a closed one 409 journal_closed. An admin breaks a stale lock with force-unlock.',
    ),
    stateChange(
      { label: 'J-close', operationId: 'closeJournal' },
      'close',
      'Close journal for good (organization admins and the API key); a lock ends with it and nothing ' +
        'changes afterwards',
      'The closed journal (entries omitted)',
      'Organization admins and the API key. A closed journal accepts no lock, entry or deletion any ' +
        'more (409 journal_closed); closing it again is 409 journal_closed too.',
    ),
    defineOperation({
      label: 'J-force-unlock',
      operationId: 'forceUnlockJournal',
      method: 'post',
      path: '/api/v1/journal/:journalID/force-unlock',
      summary:
        'Break the lock of a journal (organization admins and the API key), e.g. of a user who left ' +
        'or went silent; recorded as an entry naming holder, breaker and reason',
      description:
        'Organization admins and the API key. The lock ends and an entry records the former holder, ' +
        'the breaker and the reason; a journal that is not locked is 409 journal_not_locked, a closed ' +
        'one 409 journal_closed.',
      params: journalParams,
      body: { schema: JournalForceUnlockBody, message: wording.forceUnlockBody },
      response: journalState('The journal, not locked (entries omitted)'),
      errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, params, body }) => entries.breakLock(actor, params.journalID, body),
    }),
    defineOperation({
      label: 'J9',
      operationId: 'createJournalEntry',
      method: 'post',
      path: '/api/v1/journal/:journalID/entries',
      summary: "Create entry: only by the lock's holder; serial numbers 1, 2, 3… per journal",
      description:
        "Only the lock's holder writes: without a lock 409 journal_not_locked, someone else's lock 409 " +
        "journal_locked, a closed journal 409 journal_closed. journalId must be the path's journalID " +
        "and categoryId a category of the journal's organization; serial numbers run 1, 2, 3… per journal " +
        'without gaps. Answers 201.',
      params: journalParams,
      body: { schema: J9Body, message: wording.entryBody },
      response: { status: 201, schema: JournalEntry, description: 'The created entry' },
      errors: [400, 404, 409, 413, 415],
      handler: ({ actor, params, body }) => entries.create(actor, params.journalID, body),
    }),
    defineOperation({
      label: 'J10',
      operationId: 'deleteJournalEntry',
      method: 'delete',
      path: '/api/v1/journal/:journalID/entries/:entryID',
      summary:
        "Delete entry: only by the lock's holder; the entry stays listed with its deleted record (deleting " +
        'it again changes nothing)',
      description:
        "Only the lock's holder deletes (409 as in J9). The entry is not removed: it stays listed with " +
        'its deleted record, and deleting it again answers it unchanged.',
      params: { schema: JournalEntryParams, message: wording.entryParams },
      response: { status: 200, schema: JournalEntry, description: 'The entry with its deleted record' },
      errors: [400, 404, 409],
      handler: ({ actor, params }) => entries.remove(actor, params.journalID, params.entryID),
    }),
    defineOperation({
      label: 'J-export',
      operationId: 'exportJournal',
      // A file of a whole journal is heavy work: its own budget per credential.
      perMinute: 30,
      method: 'get',
      path: '/api/v1/journal/:journalID/export',
      summary: 'Export a journal as CSV or PDF, every entry and the deleted ones marked (members and the API key)',
      description:
        "The readers of the journal (members, admins and the API key of its organization; another organization's " +
        'journal is a 404). ' +
        ('Every entry in serial order with its time in UTC and in `timeZone` (default JOURNAL_TIME_ZONE), ' +
          'author, category, text, location and attachment; deleted entries are kept, marked with who ' +
          'deleted them and when (struck through in the PDF). ') +
        ("CSV: RFC 4180, UTF-8 with BOM, a text starting with = + - @ tab or CR is prefixed with ' so " +
          'it stays text. PDF: A4, DejaVu Sans embedded, a header with the organization, event, first ' +
          "and last entry and whether the journal is closed, and on every page its number and the entries' SHA-256. ") +
        ('The header Journal-Entries-SHA256 carries the same SHA-256 (docs/api.md "Journal export" defines ' +
          'it). `lang` (de, en; default en) chooses the labels.'),
      params: journalParams,
      query: { schema: JournalExportQuery, message: wording.exportQuery },
      response: {
        status: 200,
        files: ['text/csv', 'application/pdf'],
        description: 'The journal as a file (Content-Disposition: attachment)',
        headers: { 'Journal-Entries-SHA256': 'SHA-256 of the entries (hex), as printed on every PDF page' },
      },
      errors: [400, 404, 429, 503],
      handler: async ({ actor, params, query }) => {
        const zone = query.timeZone ?? timeZone;
        if (!knownTimeZone(zone))
          throw badRequest('invalid_parameter', wording.exportQuery, [
            { in: 'query', path: 'timeZone', problem: 'is not an IANA time zone (e.g. Europe/Berlin)' },
          ]);
        const file = await exports.export(actor, params.journalID, query.format, zone, query.lang ?? 'en');
        return new FileAnswer(file.body, file.type, file.filename, { 'Journal-Entries-SHA256': file.sha256 });
      },
    }),
  ];
}
