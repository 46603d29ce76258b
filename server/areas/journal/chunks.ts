// What the journal export reads (docs/storage.md "The journal's entries"): a journal's entries as of one
// log position in about one read per hundred entries instead of one per entry.
//
// An entry never changes after it is written except for its delete mark, so every hundred entries are
// kept together as written, once: the log's apply step inserts the chunk when it applies the hundredth
// (an insert of a fixed _id, so two processes applying it write one chunk). The delete marks come from
// journal_deletions, one record per delete of the log in log order, counted by the log's state; the
// export reads all of them and marks each entry with its first delete, as the entry documents do.
// Where a chunk is missing (a restore, a crash before it was written) it is read entry by entry and
// written then; a journal begun before deletes were counted is read entry by entry every time.
import { isDuplicateKey } from '../../db/errors.js';
import type { Model } from 'mongoose';
import { entryKey, type ChunkDoc, type EntryDoc, type JournalModels, type StoredEntry } from './models.js';
import type { JournalStateData } from './state.js';

/** Entries per chunk. An entry is at most about 33 KB, so a chunk stays far below a document's 16 MB. */
export const CHUNK_SIZE = 100;
/** Reads in flight at a time while an export reads entry by entry. */
const READ_BATCH = 250;

/** The _id of the chunk holding entries (n-1)·100+1 … n·100. */
export const chunkKey = (journalId: number, n: number) => `${journalId}:${n}`;
/** The _id of a journal's delete number `ordinal` (1, 2, …). */
export const deletionKey = (journalId: number, ordinal: number) => `${journalId}:${ordinal}`;

const written = ({ _id: _, journalId: __, deleted: ___, ...entry }: EntryDoc): StoredEntry => entry;

/** The entries with serials `from`…`to` as their documents hold them; null where one is missing. */
function readEntries(models: JournalModels, journalId: number, from: number, to: number): Promise<(EntryDoc | null)[]> {
  return batched(to - from + 1, (k) => models.JournalEntry.findById(entryKey(journalId, from + k)).lean());
}

/**
 * Inserts a document of a fixed _id. Writers of one _id write the same content, so a duplicate is
 * normally that same document; one that differs is left from another history (a backup restored
 * under running processes, or a dump that was not taken at one instant) and is replaced.
 */
async function writeOnce<T extends { _id: string }>(
  model: Model<T>,
  doc: T,
  same: (stored: T) => boolean,
): Promise<void> {
  try {
    await model.create(doc);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const stored = (await model.findById(doc._id).lean()) as T | null;
    if (!stored || !same(stored)) await model.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }
}

const sameChunk = (entries: StoredEntry[]) => (stored: ChunkDoc) =>
  Array.isArray(stored.entries) &&
  stored.entries.length === entries.length &&
  stored.entries.every((e, i) => e?.entryId === entries[i].entryId);

/**
 * Writes the chunk that `entry` completes (the log's apply step, after the entry's own document): the
 * entry itself is at hand, the 99 before it are read by _id. Nothing for an entry that completes none.
 */
export async function completeChunk(models: JournalModels, journalId: number, entry: StoredEntry): Promise<void> {
  if (entry.serial % CHUNK_SIZE !== 0) return;
  const before = await readEntries(models, journalId, entry.serial - CHUNK_SIZE + 1, entry.serial - 1);
  // Below the head every entry is applied; a missing one means a damaged journal: no chunk, so the
  // export reads entry by entry and reports the gap.
  if (before.some((doc) => !doc)) return;
  const entries = [...before.map((doc) => written(doc!)), entry];
  await writeOnce(
    models.JournalChunk,
    { _id: chunkKey(journalId, entry.serial / CHUNK_SIZE), journalId, entries },
    sameChunk(entries),
  );
}

/** Records a delete of the log (the log's apply step); `ordinal` is the log state's count after it. */
export async function recordDeletion(
  models: JournalModels,
  journalId: number,
  ordinal: number,
  serial: number,
  time: string,
  by: EntryDoc['created']['by'],
): Promise<void> {
  const doc = { _id: deletionKey(journalId, ordinal), journalId, serial, time, by };
  await writeOnce(
    models.JournalDeletion,
    doc,
    (stored) => stored.serial === serial && stored.time === time && JSON.stringify(stored.by) === JSON.stringify(by),
  );
}

/** Why the entries could not be read: the serial number that is missing. */
export class MissingEntry extends Error {
  constructor(readonly serial: number) {
    super(`entry ${serial} is missing`);
  }
}

/**
 * Every entry up to `state` (its count of entries and of deletes), marked deleted as the log says.
 * Throws MissingEntry when an entry below the head cannot be read.
 */
export async function entriesAsOf(
  models: JournalModels,
  journalId: number,
  state: JournalStateData,
): Promise<EntryDoc[]> {
  if (state.deletes === undefined) return allRead(await readEntries(models, journalId, 1, state.entries), 1);
  const full = Math.floor(state.entries / CHUNK_SIZE);
  const [chunks, deletions] = await Promise.all([
    batched(full, (k) => models.JournalChunk.findById(chunkKey(journalId, k + 1)).lean()),
    batched(state.deletes, (k) => models.JournalDeletion.findById(deletionKey(journalId, k + 1)).lean()),
  ]);
  // A delete record missing (a backup taken between a delete and its record): the entry documents'
  // own marks are read instead.
  if (deletions.some((d) => !d)) return allRead(await readEntries(models, journalId, 1, state.entries), 1);
  // Each chunk is checked against where its last entry lives: entry IDs are never reused, so a chunk
  // left from another history (a restore) cannot pass for this one.
  const lasts = await batched(full, (k) => {
    const last = Array.isArray(chunks[k]?.entries) ? chunks[k]!.entries[CHUNK_SIZE - 1] : undefined;
    return last?.entryId === undefined
      ? Promise.resolve(null)
      : models.JournalEntryId.findById(String(last.entryId)).lean();
  });

  const entries: EntryDoc[] = [];
  for (const [k, chunk] of chunks.entries()) {
    const first = k * CHUNK_SIZE + 1;
    const last = lasts[k];
    if (
      chunk &&
      Array.isArray(chunk.entries) &&
      chunk.entries.length === CHUNK_SIZE &&
      chunk.entries.every((e, i) => e?.serial === first + i) &&
      last?.journalId === journalId &&
      last.serial === first + CHUNK_SIZE - 1
    ) {
      for (const e of chunk.entries)
        entries.push({ ...e, _id: entryKey(journalId, e.serial), journalId, deleted: null });
      continue;
    }
    const docs = allRead(await readEntries(models, journalId, first, first + CHUNK_SIZE - 1), first);
    const asWritten = docs.map(written);
    await writeOnce(
      models.JournalChunk,
      { _id: chunkKey(journalId, k + 1), journalId, entries: asWritten },
      sameChunk(asWritten),
    );
    entries.push(...docs.map((doc) => ({ ...doc, deleted: null })));
  }
  entries.push(
    ...allRead(await readEntries(models, journalId, full * CHUNK_SIZE + 1, state.entries), full * CHUNK_SIZE + 1).map(
      (doc) => ({ ...doc, deleted: null }),
    ),
  );

  // The first delete of an entry is its mark (a second one, from a race of two deletes, changed nothing).
  for (const deletion of deletions) {
    const entry = entries[deletion!.serial - 1];
    if (entry && !entry.deleted) entry.deleted = { time: deletion!.time, by: deletion!.by };
  }
  return entries;
}

/** `read(0…count-1)`, READ_BATCH lookups in flight at a time. */
async function batched<T>(count: number, read: (k: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += READ_BATCH) {
    out.push(
      ...(await Promise.all(Array.from({ length: Math.min(READ_BATCH, count - start) }, (_, k) => read(start + k)))),
    );
  }
  return out;
}

function allRead(docs: (EntryDoc | null)[], first: number): EntryDoc[] {
  const missing = docs.findIndex((doc) => !doc);
  if (missing >= 0) throw new MissingEntry(first + missing);
  return docs as EntryDoc[];
}
