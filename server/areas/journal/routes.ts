// The journal area's operations J1–J10 (CONTRACT.md §2) plus close and force-unlock.
import type { CategoryIdInput, CategoryInput, ForceUnlockInput, J1QueryInput, J6QueryInput, J9Input, JournalEntryInput, JournalIdInput } from '../../../schemas/journal.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AreaDeps } from '../index.js';
import { CategoryCommands } from './categories.js';
import { EntryCommands } from './entries.js';
import { JournalCommands } from './journals.js';
import { JournalLog } from './log.js';
import { wording } from './wording.js';

const categoryParams = { schema: 'JournalCategoryIdParams', message: wording.categoryId };
const categoryBody = { schema: 'JournalCategoryBody', message: wording.category };
const journalParams = { schema: 'JournalIdParams', message: wording.journalId };
const journalState = (description: string) => ({ status: 200, schema: 'JournalState', description }) as const;

/** The journal area's operation declarations. */
export function journalOperations(deps: Pick<AreaDeps, 'db' | 'events'>): Operation[] {
  const log = new JournalLog(deps.db.models, deps.db.ids);
  const categories = new CategoryCommands(deps.db);
  const journals = new JournalCommands(deps.db, log, deps.events);
  const entries = new EntryCommands(deps.db, log, journals, categories);
  const stateChange = (label: string, kind: 'lock' | 'unlock' | 'close', summary: string, description: string) => defineOperation<unknown, JournalIdInput>({
    label,
    method: 'post',
    path: `/api/v1/journal/:journalID/${kind}`,
    summary,
    params: journalParams,
    response: journalState(description),
    errors: kind === 'close' ? [400, 403, 404, 409] : [400, 404, 409],
    handler: ({ actor, params }) => journals.change(actor, params.journalID, kind),
  });

  return [
    defineOperation<J1QueryInput>({
      label: 'J1',
      method: 'get',
      path: '/api/v1/journal/categories',
      summary: 'List categories of an organization (members read), in ID order',
      query: { schema: 'J1Query', message: wording.organizationId },
      response: { status: 200, schema: 'JournalCategoryList', description: 'The organization\'s categories' },
      errors: [400, 403],
      handler: ({ actor, query }) => categories.list(actor, query.organization_id),
    }),
    defineOperation<unknown, unknown, CategoryInput>({
      label: 'J2',
      method: 'post',
      path: '/api/v1/journal/categories',
      summary: 'Create category (organization admins and the API key)',
      body: categoryBody,
      response: { status: 201, schema: 'JournalCategory', description: 'The created category' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => categories.create(actor, body),
    }),
    defineOperation<unknown, CategoryIdInput>({
      label: 'J3',
      method: 'get',
      path: '/api/v1/journal/categories/:categoryID',
      summary: 'Get category',
      params: categoryParams,
      response: { status: 200, schema: 'JournalCategory', description: 'The category' },
      errors: [400, 404],
      handler: ({ actor, params }) => categories.get(actor, params.categoryID),
    }),
    defineOperation<unknown, CategoryIdInput, CategoryInput>({
      label: 'J4',
      method: 'put',
      path: '/api/v1/journal/categories/:categoryID',
      summary: 'Update category: name and description; organizationId must stay (admins and the API key). Entries keep the category as it was when they were written',
      params: categoryParams,
      body: categoryBody,
      response: { status: 200, schema: 'JournalCategory', description: 'The updated category' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => categories.update(actor, params.categoryID, body),
    }),
    defineOperation<unknown, CategoryIdInput>({
      label: 'J5',
      method: 'delete',
      path: '/api/v1/journal/categories/:categoryID',
      summary: 'Delete category; one that any entry uses cannot be deleted (409 category_in_use)',
      params: categoryParams,
      response: { status: 200, schema: 'JournalCategoryDeleted', description: 'Deleted' },
      errors: [400, 403, 404, 409],
      handler: ({ actor, params }) => categories.remove(actor, params.categoryID),
    }),
    defineOperation<J6QueryInput>({
      label: 'J6',
      method: 'get',
      path: '/api/v1/journal',
      summary: 'Get the journal of an organization (organization_id) or of an event (event_id, in organization_id), created on first access, with its entries newest first; deleted entries stay listed',
      query: { schema: 'J6Query', message: wording.journalQuery },
      response: { status: 200, schema: 'Journal', description: 'The journal with one page of entries' },
      errors: [400, 403],
      handler: ({ actor, query }) => journals.open(actor, query),
    }),
    stateChange('J7', 'lock', 'Lock journal: only when neither locked nor closed (members and the API key)', 'The journal, locked by the caller (entries omitted)'),
    stateChange('J8', 'unlock', 'Unlock journal: only by the holder of an unclosed journal', 'The journal, not locked (entries omitted)'),
    stateChange('J-close', 'close', 'Close journal for good (organization admins and the API key); a lock ends with it and nothing changes afterwards', 'The closed journal (entries omitted)'),
    defineOperation<unknown, JournalIdInput, ForceUnlockInput>({
      label: 'J-force-unlock',
      method: 'post',
      path: '/api/v1/journal/:journalID/force-unlock',
      summary: 'Break the lock of a journal (organization admins and the API key), e.g. of a user who left or went silent; recorded as an entry naming holder, breaker and reason',
      params: journalParams,
      body: { schema: 'JournalForceUnlockBody', message: wording.forceUnlockBody },
      response: journalState('The journal, not locked (entries omitted)'),
      errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, params, body }) => entries.breakLock(actor, params.journalID, body),
    }),
    defineOperation<unknown, JournalIdInput, J9Input>({
      label: 'J9',
      method: 'post',
      path: '/api/v1/journal/:journalID/entries',
      summary: 'Create entry: only by the lock\'s holder; serial numbers 1, 2, 3… per journal',
      params: journalParams,
      body: { schema: 'J9Body', message: wording.entryBody },
      response: { status: 201, schema: 'JournalEntry', description: 'The created entry' },
      errors: [400, 404, 409, 413, 415],
      handler: ({ actor, params, body }) => entries.create(actor, params.journalID, body),
    }),
    defineOperation<unknown, JournalEntryInput>({
      label: 'J10',
      method: 'delete',
      path: '/api/v1/journal/:journalID/entries/:entryID',
      summary: 'Delete entry: only by the lock\'s holder; the entry stays listed with its deleted record (deleting it again changes nothing)',
      params: { schema: 'JournalEntryParams', message: wording.entryParams },
      response: { status: 200, schema: 'JournalEntry', description: 'The entry with its deleted record' },
      errors: [400, 404, 409],
      handler: ({ actor, params }) => entries.remove(actor, params.journalID, params.entryID),
    }),
  ];
}
