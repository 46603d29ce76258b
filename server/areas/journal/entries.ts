// Journal entries (J9, J10) and the lock break that is recorded as one: load, authorize, append to the
// journal's log (which decides against the lock and gives the serial number), then publish.
import { Buffer } from 'node:buffer';
import { MAX_ATTACHMENT_BYTES, type ForceUnlockInput, type J9Input } from '../../../schemas/journal.js';
import type { Database } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canSuperviseJournal } from '../../identity/policy.js';
import type { CategoryCommands } from './categories.js';
import type { JournalCommands } from './journals.js';
import type { EntryContent, JournalLog } from './log.js';
import { entryKey } from './models.js';
import { journalModels, type JournalDoc } from './models.js';
import type { JournalEntryView, JournalStateView } from '../../../common/hub-protocol.js';
import { presentEntry, presentJournalState } from './presenter.js';
import { holderOf, type Holder, type JournalStateData } from './state.js';
import { wording } from './wording.js';

const who = (h: Holder | null) => (h?.userId != null ? `user ${h.userId}` : `API key ${h?.apiKeyId}`);

/** The entry commands. */
export class EntryCommands {
  constructor(
    private readonly db: Database,
    private readonly log: JournalLog,
    private readonly journals: JournalCommands,
    private readonly categories: CategoryCommands,
  ) {}

  /** J9: a new entry by the lock's holder. */
  async create(actor: Actor, journalId: number, input: J9Input): Promise<JournalEntryView> {
    if (input.journalId !== journalId)
      throw badRequest('invalid_body', wording.journalId, [
        { in: 'body', path: 'journalId', problem: "must be the path's journalID" },
      ]);
    if (input.attachment && Buffer.byteLength(input.attachment) > MAX_ATTACHMENT_BYTES) {
      throw badRequest('invalid_body', wording.entryBody, [
        { in: 'body', path: 'attachment', problem: `must be at most ${MAX_ATTACHMENT_BYTES} bytes` },
      ]);
    }
    const journal = await this.journals.readable(actor, journalId);
    const content = {
      text: input.text,
      location: input.location ?? '',
      attachment: input.attachment ?? '',
      timeCustom: input.customTime ?? null,
    };
    const { entry } = await this.write(actor, journal, 'entry', input.categoryId, () => content);
    return entry;
  }

  /** Breaks the lock (organization admins, API key): recorded as an entry with the reason. */
  async breakLock(actor: Actor, journalId: number, input: ForceUnlockInput): Promise<JournalStateView> {
    const journal = await this.journals.readable(actor, journalId);
    if (!canSuperviseJournal(actor, journal.organizationId)) throw forbidden(wording.unauthorizedUser);
    const by = holderOf(actor);
    const text = (before: JournalStateData) =>
      `Lock of ${who(before.holder)} held since ${before.lockedAt} broken by ${who(by)}: ${input.reason}`;
    const { state } = await this.write(actor, journal, 'force-unlock', input.categoryId, (before) => ({
      text: text(before),
      location: '',
      attachment: '',
      timeCustom: null,
    }));
    return presentJournalState(journal, state);
  }

  /** J10: marks an entry deleted (it stays listed); deleting it again changes nothing. */
  async remove(actor: Actor, journalId: number, entryId: number): Promise<JournalEntryView> {
    const journal = await this.journals.readable(actor, journalId);
    const by = holderOf(actor);
    // The table's rows come first: without the lock, any entryID fails the same way.
    await this.log.check(journalId, 'delete', by);
    const { JournalEntry, JournalEntryId } = journalModels(this.db);
    const lookup = () => JournalEntryId.findById(String(entryId)).lean();
    // Not found yet: the entry may be the head's, written elsewhere and not applied; applying it first.
    const where = (await lookup()) ?? (await this.log.head(journalId), await lookup());
    if (!where || where.journalId !== journalId) throw notFound(wording.entryId);
    const key = entryKey(journalId, where.serial);
    const current = await JournalEntry.findById(key).lean();
    if (!current) throw notFound(wording.entryId);
    if (current.deleted) return presentEntry(current);
    const record = await this.log.append(journalId, { kind: 'delete', target: where.serial }, by);
    const entry = presentEntry((await JournalEntry.findById(key).lean())!);
    this.journals.publish(journal, record, entry);
    return entry;
  }

  // Refuses early when the lock forbids it (so a refused caller marks no category as used), marks the
  // category, then lets the log decide and number the entry.
  private async write(
    actor: Actor,
    journal: JournalDoc,
    kind: 'entry' | 'force-unlock',
    categoryId: number | undefined,
    content: (before: JournalStateData) => Omit<EntryContent, 'category'>,
  ) {
    const journalId = Number(journal._id);
    const by = holderOf(actor);
    await this.log.check(journalId, kind, by);
    const category = categoryId === undefined ? null : await this.categories.use(journal.organizationId, categoryId);
    const record = await this.log.append(
      journalId,
      { kind, entry: (before) => ({ ...content(before), category }) },
      by,
    );
    const entry = presentEntry({ ...record.entry!, journalId, deleted: null });
    this.journals.publish(journal, record, entry);
    return { entry, state: record.state };
  }
}
