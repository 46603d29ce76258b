// A journal's log: every change (lock, unlock, close, force-unlock, entry, delete) is one document
// with the _id "<journalId>:<position>", positions 1, 2, 3… without gaps. A change is decided by the
// state machine against the head it was built on and inserted at head + 1; the insert of that unique
// _id is atomic on MongoDB and on FerretDB, so exactly one change wins each position and every change
// was decided against exactly the changes before it. That one sequence is what makes the guarantees:
// one lock holder among many, serial numbers 1…n without gaps (the state carries the count), and no
// entry slipping in after an unlock, close or force-unlock that won its position first.
//
// What a change implies elsewhere (the entry document read by serial for J6's pages, the entry-ID
// lookup for J10, a delete's mark on its entry, the export's chunks and delete records) is written right after the
// insert ("applied"). Should a process die in between, whoever builds on or reads that head applies it first, so every
// change below the head is always applied. Changes to one journal are queued per process, so only writers on
// different processes ever collide on a position (the loser reads the new head and decides again).
import { isDuplicateKey } from '../../db/errors.js';
import type { IdAllocator } from '../../db/ids.js';
import { notFound, unavailable } from '../../errors.js';
import { KeyedLock } from '../../db/keyed-lock.js';
import { completeChunk, recordDeletion } from './chunks.js';
import type { CacheGeneration } from '../../db/generation.js';
import { Recent } from '../../db/recent.js';
import { entryKey, logKey, type EntryDoc, type JournalModels, type LogRecordDoc, type StoredEntry } from './models.js';
import {
  INITIAL_STATE,
  transition,
  writesEntry,
  type ChangeKind,
  type Holder,
  type JournalStateData,
} from './state.js';
import { wording } from './wording.js';

/** The newest change of a journal and the state after it. */
export interface Head {
  position: number;
  state: JournalStateData;
  record: LogRecordDoc | null;
  /** Whether what the record implies elsewhere is known to be written. */
  applied: boolean;
}

/** What an entry says; the log adds its ID, serial number and creation stamp. */
export type EntryContent = Omit<StoredEntry, 'entryId' | 'serial' | 'created'> & { timeCustom: string | null };

/** A change to append: the entry's content (from the state it is built on) or a delete's serial. */
export interface Change {
  kind: ChangeKind;
  entry?: (before: JournalStateData) => EntryContent;
  target?: number;
}

const MAX_HEADS = 1_000;
const MAX_QUEUED = 200;
const MAX_ATTEMPTS = 50;
const HINT_EVERY = 8;

/** Appends to and reads the heads of journals' logs. */
export class JournalLog {
  private readonly queue = new KeyedLock<number>(MAX_QUEUED, () =>
    unavailable('Too many changes queued for this journal; try again', 1),
  );
  // The newest head this process saw per journal. Records are never removed, so a cached head is
  // always a lower bound of the real one: a write on a stale head collides and reads again.
  private readonly heads: Recent<number, Head>;

  constructor(
    private readonly models: JournalModels,
    private readonly ids: IdAllocator,
    generation: CacheGeneration,
  ) {
    this.heads = new Recent(MAX_HEADS, generation);
  }

  /** The current head, applied. */
  async head(journalId: number): Promise<Head> {
    const head = await this.probe(journalId, this.heads.get(journalId));
    await this.apply(journalId, head);
    return head;
  }

  /**
   * Refuses early (the table's 409) when `kind` by `by` would fail; append decides for good. A cached
   * head that allows it is trusted here, since on FerretDB looking for a position that does not exist
   * yet costs a scan; only a refusal is confirmed against the current head.
   */
  async check(journalId: number, kind: ChangeKind, by: Holder): Promise<void> {
    const cached = this.heads.get(journalId);
    const at = new Date().toISOString();
    if (cached?.applied) {
      try {
        transition(cached.state, kind, by, at, cached.position + 1);
        return;
      } catch {
        // The cache may be behind: decide on the current head below.
      }
    }
    const head = await this.head(journalId);
    transition(head.state, kind, by, at, head.position + 1);
  }

  /** Appends one change, decided against the head (throws the state table's 409 when it fails). */
  append(journalId: number, change: Change, by: Holder): Promise<LogRecordDoc> {
    return this.queue.run(journalId, async () => {
      let head = this.heads.get(journalId) ?? (await this.probe(journalId, undefined));
      // Drawn in the queue: a hundred entries at once would otherwise contend for IDs all together.
      const entryId = change.entry ? await this.ids.next('journalEntry') : 0;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        await this.apply(journalId, head);
        const record = this.build(journalId, head, change, by, entryId);
        try {
          await this.models.JournalLog.create(record);
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          head = await this.probe(journalId, head);
          continue;
        }
        head = { position: record.position, state: record.state, record, applied: false };
        this.heads.set(journalId, head);
        await this.apply(journalId, head);
        // Only a hint for processes without a cached head (any position written is a valid start), so
        // it is kept every few positions: a cold probe walks at most that many more.
        if (record.position % HINT_EVERY === 0)
          await this.models.Journal.updateOne({ _id: String(journalId) }, { $max: { hint: record.position } });
        return record;
      }
      throw unavailable('Too many concurrent changes to this journal; try again', 1);
    });
  }

  private build(journalId: number, head: Head, change: Change, by: Holder, entryId: number): LogRecordDoc {
    const position = head.position + 1;
    const at = new Date();
    const state = transition(head.state, change.kind, by, at.toISOString(), position);
    let entry: StoredEntry | null = null;
    if (writesEntry(change.kind) && change.entry) {
      const { timeCustom, ...content } = change.entry(head.state);
      entry = { ...content, entryId, serial: state.entries, created: { time: at.toISOString(), timeCustom, by } };
    }
    return {
      _id: logKey(journalId, position),
      journalId,
      position,
      kind: change.kind,
      by,
      at,
      state,
      entry,
      target: change.target ?? null,
    };
  }

  // Walks forward from `from` (or the journal's hint) by exact _id lookups until a position is free.
  private async probe(journalId: number, from: Head | undefined): Promise<Head> {
    let head = from;
    if (!head) {
      const journal = await this.models.Journal.findById(String(journalId), { hint: 1 }).lean();
      if (!journal) throw notFound(wording.journalId);
      const record =
        journal.hint > 0 ? await this.models.JournalLog.findById(logKey(journalId, journal.hint)).lean() : null;
      head = record
        ? { position: record.position, state: record.state, record, applied: false }
        : { position: 0, state: INITIAL_STATE, record: null, applied: true };
    }
    for (;;) {
      const next: LogRecordDoc | null = await this.models.JournalLog.findById(
        logKey(journalId, head.position + 1),
      ).lean();
      if (!next) break;
      head = { position: next.position, state: next.state, record: next, applied: false };
    }
    this.heads.set(journalId, head);
    return head;
  }

  // Writes what the head's record implies; every step is idempotent, so applying twice is harmless.
  private async apply(journalId: number, head: Head): Promise<void> {
    const { record } = head;
    if (head.applied || !record) return;
    const { JournalEntry, JournalEntryId } = this.models;
    if (record.entry) {
      const doc: EntryDoc = {
        ...record.entry,
        _id: entryKey(journalId, record.entry.serial),
        journalId,
        deleted: null,
      };
      await ignoreDuplicate(JournalEntry.create(doc));
      await ignoreDuplicate(
        JournalEntryId.create({ _id: String(record.entry.entryId), journalId, serial: record.entry.serial }),
      );
      await completeChunk(this.models, journalId, record.entry);
    }
    if (record.kind === 'delete' && record.target !== null) {
      const deleted = { time: record.at.toISOString(), by: record.by };
      await JournalEntry.updateOne({ _id: entryKey(journalId, record.target), deleted: null }, { $set: { deleted } });
      if (record.state.deletes !== undefined)
        await recordDeletion(this.models, journalId, record.state.deletes, record.target, deleted.time, deleted.by);
    }
    head.applied = true;
  }
}

async function ignoreDuplicate(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}
