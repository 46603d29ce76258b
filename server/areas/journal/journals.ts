// Journals (J6, J7, J8, close): load, authorize, change through the log, then publish.
// One journal per organization and per event of an organization: the first access claims the key
// "org:<orgId>" or "event:<orgId>:<eventId>" by inserting it; a racing loser drops the journal it
// prepared and takes the winner's, so concurrent first accesses all see one journal.
import type { J6QueryInput } from '../../../schemas/journal.js';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { OrganizationEvents } from '../../hub/events.js';
import type { JournalChangedEvent } from '../../../common/hub-protocol.js';
import type { Actor } from '../../identity/actor.js';
import { canKeepJournal, canSuperviseJournal } from '../../identity/policy.js';
import type { JournalLog } from './log.js';
import { entryKey } from './models.js';
import { journalModels, type JournalDoc, type LogRecordDoc } from './models.js';
import type { JournalEntryView, JournalStateView, JournalView } from '../../../common/hub-protocol.js';
import { presentEntry, presentJournalState } from './presenter.js';
import { Recent } from '../../db/recent.js';
import { holderOf } from './state.js';
import { wording } from './wording.js';

const KNOWN_JOURNALS = 10_000;
const DEFAULT_LIMIT = 10;
const CACHED_PAGES = 500;

const EVENT_KIND = {
  lock: 'locked',
  unlock: 'unlocked',
  close: 'closed',
  'force-unlock': 'lock-broken',
  entry: 'entry-created',
  delete: 'entry-deleted',
} as const satisfies Record<LogRecordDoc['kind'], JournalChangedEvent['kind']>;

/** The journal commands other than entries. */
export class JournalCommands {
  // A journal's organization and event never change, nor does the journal a key names.
  private readonly journals: Recent<number, JournalDoc>;
  private readonly keys: Recent<string, number>;
  private readonly pages: Recent<string, { position: number; entries: JournalEntryView[] }>;

  constructor(
    private readonly db: Database,
    private readonly log: JournalLog,
    private readonly events: OrganizationEvents,
  ) {
    this.journals = new Recent(KNOWN_JOURNALS, db.generation);
    this.keys = new Recent(KNOWN_JOURNALS, db.generation);
    this.pages = new Recent(CACHED_PAGES, db.generation);
  }

  /** J6: the journal of an organization or event (created on first access) with a page of entries. */
  async open(actor: Actor, query: J6QueryInput): Promise<JournalView> {
    const { organizationId, eventId } = selection(actor, query);
    if (!canKeepJournal(actor, organizationId)) throw forbidden(wording.unauthorizedUser);
    const journal = await this.find(organizationId, eventId);
    const id = Number(journal._id);
    const { position, state } = await this.log.head(id);
    const entries = await this.page(id, position, state.entries, query.limit ?? DEFAULT_LIMIT, query.offset ?? 0);
    return { ...presentJournalState(journal, state), entryList: { entries, totalEntries: state.entries } };
  }

  /** The journal when the actor may use it; another organization's is not found. */
  async readable(actor: Actor, id: number): Promise<JournalDoc> {
    let journal = this.journals.get(id);
    if (!journal) {
      journal = (await journalModels(this.db).Journal.findById(String(id)).lean()) ?? undefined;
      if (journal) this.journals.set(id, journal);
    }
    if (!journal || !canKeepJournal(actor, journal.organizationId)) throw notFound(wording.journalId);
    return journal;
  }

  /** J7, J8 and close: one change of the journal's lock or closed state. */
  async change(actor: Actor, id: number, kind: 'lock' | 'unlock' | 'close'): Promise<JournalStateView> {
    const journal = await this.readable(actor, id);
    if (kind === 'close' && !canSuperviseJournal(actor, journal.organizationId))
      throw forbidden(wording.unauthorizedUser);
    const record = await this.log.append(id, { kind }, holderOf(actor));
    this.publish(journal, record);
    return presentJournalState(journal, record.state);
  }

  /** Sends `journal:changed` to the organization's room for a change that was written. */
  publish(journal: JournalDoc, record: LogRecordDoc, entry?: JournalEntryView): void {
    this.events.toOrganization(journal.organizationId, 'journal:changed', {
      journalId: Number(journal._id),
      kind: EVENT_KIND[record.kind],
      ...(entry ? { entry } : {}),
      journal: { ...presentJournalState(journal, record.state), totalEntries: record.state.entries },
    });
  }

  // Newest first: serials total - offset down to total - offset - limit + 1, each an exact _id lookup.
  // Every change to a journal (an entry written or deleted too) takes the next log position, so a page
  // read at the current position is still exact: screens re-reading an unchanged journal cost no reads.
  private async page(
    id: number,
    position: number,
    total: number,
    limit: number,
    offset: number,
  ): Promise<JournalEntryView[]> {
    const key = `${id}:${limit}:${offset}`;
    const cached = this.pages.get(key);
    if (cached?.position === position) return cached.entries;
    const serials: number[] = [];
    for (let s = total - offset; s >= 1 && serials.length < limit; s--) serials.push(s);
    const docs = await Promise.all(
      serials.map((s) => journalModels(this.db).JournalEntry.findById(entryKey(id, s)).lean()),
    );
    const entries = docs.flatMap((d) => (d ? [presentEntry(d)] : []));
    // Read after every change up to `position` was applied: never older than that position.
    this.pages.set(key, { position, entries });
    return entries;
  }

  private async find(organizationId: number, eventId: number | null): Promise<JournalDoc> {
    const key = eventId === null ? `org:${organizationId}` : `event:${organizationId}:${eventId}`;
    let id = this.keys.get(key) ?? (await journalModels(this.db).JournalKey.findById(key).lean())?.journalId;
    id ??= await this.claim(key, organizationId, eventId);
    this.keys.set(key, id);
    const journal = this.journals.get(id) ?? (await journalModels(this.db).Journal.findById(String(id)).lean())!;
    this.journals.set(id, journal);
    return journal;
  }

  // The journal document exists before its key, so whoever finds the key finds the journal.
  private async claim(key: string, organizationId: number, eventId: number | null): Promise<number> {
    const { Journal, JournalKey } = journalModels(this.db);
    const id = await this.db.ids.next('journal');
    await Journal.create({ _id: String(id), organizationId, eventId, createdAt: new Date(), hint: 0 });
    try {
      await JournalKey.create({ _id: key, journalId: id });
      return id;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // Nobody has seen this journal's ID: dropping it is safe.
      await Journal.deleteOne({ _id: String(id) });
      return (await JournalKey.findById(key).lean())!.journalId;
    }
  }
}

/** Which journal J6 asks for: the organization's, or an event's in the named or the only organization. */
function selection(actor: Actor, query: J6QueryInput): { organizationId: number; eventId: number | null } {
  const missing = (problem: string) =>
    badRequest('invalid_parameter', wording.journalQuery, [{ in: 'query', path: 'organization_id', problem }]);
  if (query.organization_id === undefined && query.event_id === undefined)
    throw missing('organization_id or event_id is required');
  const eventId = query.event_id ?? null;
  if (query.organization_id !== undefined) return { organizationId: query.organization_id, eventId };
  if (actor.kind === 'apikey') return { organizationId: actor.organizationId, eventId };
  if (actor.roles.size === 0) throw forbidden(wording.unauthorizedUser);
  if (actor.roles.size > 1) throw missing('is required with event_id for a user in several organizations');
  return { organizationId: [...actor.roles.keys()][0], eventId };
}
