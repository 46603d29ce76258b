// The journal's storage. Every document has a string _id, and every lookup on a request's path is an
// exact _id lookup (the only indexed one on FerretDB). Every guarantee under concurrency rests on the
// insert of a unique _id, which both engines decide atomically:
//   journal_keys          "org:<orgId>" | "event:<orgId>:<eventId>" → the one journal (first insert wins)
//   journals              "<journalId>": organization, event, and a hint where its log's head is
//   journal_log           "<journalId>:<position>": every change, in one gapless sequence per journal
//                         (lock, unlock, close, force-unlock, entry, delete) with the state after it
//   journal_entries       "<journalId>:<serialNumber>": the entries, read by serial for J6's pages
//   journal_entry_ids     "<entryId>": where an entry lives, for J10
//   journal_chunks        "<journalId>:<n>": entries (n-1)·100+1 … n·100 as written, for the export
//                         (derived: rebuilt from journal_entries when missing; see chunks.ts)
//   journal_deletions     "<journalId>:<ordinal>": the journal's deletes in log order, for the export
//   journal_categories    "<categoryId>", listed by organizationId (J1)
//   journal_category_marks "<categoryId>": 'used' (by an entry) or 'deleted' — whichever comes first
import { Schema, type Connection, type Model } from 'mongoose';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';
import type { CategoryView } from '../../../schemas/journal.js';
import type { ChangeKind, Holder, JournalStateData } from './state.js';

export interface JournalKeyDoc {
  _id: string;
  journalId: number;
}

export interface JournalDoc {
  _id: string;
  organizationId: number;
  eventId: number | null;
  createdAt: Date;
  /** A position of the journal's log known to exist: the head is at or after it. */
  hint: number;
}

/** The _id of a log record. */
export const logKey = (journalId: number, position: number) => `${journalId}:${position}`;
/** The _id of an entry document. */
export const entryKey = (journalId: number, serial: number) => `${journalId}:${serial}`;

/** Who did something and when (RFC 3339). */
export interface Stamp {
  time: string;
  by: Holder;
}

/** An entry as the log and the entry documents store it. */
export interface StoredEntry {
  entryId: number;
  serial: number;
  text: string;
  location: string;
  attachment: string;
  category: CategoryView | null;
  created: Stamp & { timeCustom: string | null };
}

export interface LogRecordDoc {
  _id: string;
  journalId: number;
  position: number;
  kind: ChangeKind;
  by: Holder;
  at: Date;
  state: JournalStateData;
  /** The entry this change wrote (entry, force-unlock). */
  entry: StoredEntry | null;
  /** The serial number of the entry a delete marked. */
  target: number | null;
}

export interface EntryDoc extends StoredEntry {
  _id: string;
  journalId: number;
  deleted: Stamp | null;
}

export interface EntryIdDoc {
  _id: string;
  journalId: number;
  serial: number;
}

/** A hundred consecutive entries of a journal as written (deletes are kept apart). */
export interface ChunkDoc {
  _id: string;
  journalId: number;
  entries: StoredEntry[];
}

/** One delete of a journal's log: which entry, when, by whom. */
export interface DeletionDoc extends Stamp {
  _id: string;
  journalId: number;
  serial: number;
}

export interface CategoryDoc {
  _id: string;
  organizationId: number;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface CategoryMarkDoc {
  _id: string;
  state: 'used' | 'deleted';
}

export interface JournalModels {
  JournalKey: Model<JournalKeyDoc>;
  Journal: Model<JournalDoc>;
  JournalLog: Model<LogRecordDoc>;
  JournalEntry: Model<EntryDoc>;
  JournalEntryId: Model<EntryIdDoc>;
  JournalChunk: Model<ChunkDoc>;
  JournalDeletion: Model<DeletionDoc>;
  JournalCategory: Model<CategoryDoc>;
  /** An organization's category IDs ("categories:<organization ID>"), so J1 reads by exact lookups. */
  JournalCategoryIndex: Model<IdIndexDoc>;
  JournalCategoryMark: Model<CategoryMarkDoc>;
}

const opts = { versionKey: false } as const;
const mixed = Schema.Types.Mixed;

/** The journal area's collections (server/db/models.ts). */
export const journalModels = defineModels((conn: Connection): JournalModels => {
  const category = new Schema<CategoryDoc>(
    {
      _id: String,
      organizationId: { type: Number, required: true },
      name: { type: String, required: true },
      description: { type: String, default: '' },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
    },
    opts,
  );
  category.index({ organizationId: 1, _id: 1 });

  const entryFields = {
    _id: String,
    journalId: { type: Number, required: true },
    entryId: { type: Number, required: true },
    serial: { type: Number, required: true },
    text: { type: String, required: true },
    location: { type: String, default: '' },
    attachment: { type: String, default: '' },
    category: { type: mixed, default: null },
    created: { type: mixed, required: true },
    deleted: { type: mixed, default: null },
  };

  return {
    JournalKey: conn.model<JournalKeyDoc>(
      'JournalKey',
      new Schema<JournalKeyDoc>({ _id: String, journalId: { type: Number, required: true } }, opts),
      'journal_keys',
    ),
    Journal: conn.model<JournalDoc>(
      'Journal',
      new Schema<JournalDoc>(
        {
          _id: String,
          organizationId: { type: Number, required: true },
          eventId: { type: Number, default: null },
          createdAt: { type: Date, required: true },
          hint: { type: Number, default: 0 },
        },
        opts,
      ),
      'journals',
    ),
    JournalLog: conn.model<LogRecordDoc>(
      'JournalLog',
      new Schema<LogRecordDoc>(
        {
          _id: String,
          journalId: { type: Number, required: true },
          position: { type: Number, required: true },
          kind: { type: String, required: true },
          by: { type: mixed, required: true },
          at: { type: Date, required: true },
          state: { type: mixed, required: true },
          entry: { type: mixed, default: null },
          target: { type: Number, default: null },
        },
        opts,
      ),
      'journal_log',
    ),
    JournalEntry: conn.model<EntryDoc>('JournalEntry', new Schema<EntryDoc>(entryFields, opts), 'journal_entries'),
    JournalEntryId: conn.model<EntryIdDoc>(
      'JournalEntryId',
      new Schema<EntryIdDoc>(
        {
          _id: String,
          journalId: { type: Number, required: true },
          serial: { type: Number, required: true },
        },
        opts,
      ),
      'journal_entry_ids',
    ),
    JournalChunk: conn.model<ChunkDoc>(
      'JournalChunk',
      new Schema<ChunkDoc>(
        {
          _id: String,
          journalId: { type: Number, required: true },
          entries: { type: mixed, required: true },
        },
        opts,
      ),
      'journal_chunks',
    ),
    JournalDeletion: conn.model<DeletionDoc>(
      'JournalDeletion',
      new Schema<DeletionDoc>(
        {
          _id: String,
          journalId: { type: Number, required: true },
          serial: { type: Number, required: true },
          time: { type: String, required: true },
          by: { type: mixed, required: true },
        },
        opts,
      ),
      'journal_deletions',
    ),
    JournalCategory: conn.model<CategoryDoc>('JournalCategory', category, 'journal_categories'),
    JournalCategoryIndex: idIndexModel(conn, 'JournalCategoryIndex', 'journal_category_index'),
    JournalCategoryMark: conn.model<CategoryMarkDoc>(
      'JournalCategoryMark',
      new Schema<CategoryMarkDoc>(
        {
          _id: String,
          state: { type: String, required: true, enum: ['used', 'deleted'] },
        },
        opts,
      ),
      'journal_category_marks',
    ),
  };
});
