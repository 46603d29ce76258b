// One try of one delivery, decided by a unique insert (docs/alarms.md "Delivered", at most once per recipient): the
// process whose insert of "<deliveryId>:<try>" wins sends that try and notes its outcome. A claim can run
// out under a live sender (a stalled machine) and a record of results can fail (the alarm's lock held,
// its holder dead): whoever holds the item next then reads what became of the try instead of sending it
// again. The insert, not a conditional update, decides: FerretDB's updates are read-modify-write without
// a lock, a unique _id holds on both engines (docs/storage.md). The takes of a wave's tries go as few
// commands (write-batch.ts; the embedded engine writes one at a time otherwise). Their outcomes go in
// fewer documents still: the notes of the tries that ended together, one document per alarm,
// "<alarmId>:notes:<k>" with k counting from 0 without a gap (docs/alarms.md "Delivered"), where a
// document per try made half of what a 500-member alarm wrote (bench/perf/notes.md, seventh round).
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { isDuplicateKey } from '../../db/errors.js';
import { insertEach, WriteBatch } from '../../db/write-batch.js';
import type { DeliveryItem, DeliveryTryDoc, TryOutcome } from './models.js';

type Change = Partial<DeliveryItem>;

const key = (item: DeliveryItem, n: number) => `${item.id}:${n}`;
/** Tries removed per command once an alarm's deliveries are final. */
const FORGET_AT_ONCE = 250;
/** Where a version before the notes by alarm noted a try's outcome: read and removed still. */
const noteKey = (item: DeliveryItem, n: number) => `${key(item, n)}:outcome`;
/** The k-th document of an alarm's notes. */
const notesKey = (alarmId: number, k: number) => `${alarmId}:notes:${k}`;
/** Documents of an alarm's notes read, or removed, at once. */
const NOTES_AT_ONCE = 25;
/** An alarm's notes that could not be read are read again this much later (the try's item waits till then). */
const UNREADABLE_MS = 5_000;
/** Alarms whose next free notes document this process remembers (one forgotten starts again at 0). */
const KNOWN_NOTES = 1_000;
/** Where a push's receipt is kept until the alarm's deliveries are final (docs/alarms.md "Escalation"). */
const receiptKey = (alarmId: number, deviceId: string) => `${alarmId}:receipt:${deviceId}`;
/** Receipts looked up at once. */
const PARALLEL = 25;

/** A try's outcome on its way into the alarm's notes. */
interface Note {
  alarmId: number;
  /** The try's key, "<deliveryId>:<try>". */
  key: string;
  outcome: TryOutcome;
}

/** Notes as stored: one JSON string of [key, status, lastError, nextAt in ms or null] (docs/storage.md). */
type StoredNote = [string, TryOutcome['status'], string | null, number | null];

/** The tries of one process's deliveries. */
export class DeliveryTries {
  // Takes go into the collection together, each insert's error, or null when it was stored.
  private readonly inserts = new WriteBatch<DeliveryTryDoc>((docs) => insertEach(this.Tries)(docs));
  // Notes go in as one document per alarm and batch, inserted: the embedded engine inserts a batch at
  // once but updates document by document, reading each first (docs/storage.md).
  private readonly notes = new WriteBatch<Note>((notes) => this.writeNotes(notes));
  // Per alarm, the first notes document this process has not seen taken.
  private readonly nextNotes = new Map<number, number>();
  // Per alarm, the readers that asked for its notes (counted) and the reading under way, which answers
  // those that asked before it began.
  private readonly reading = new Map<
    number,
    { asked: number; read: Promise<{ from: number; outcomes: Map<string, TryOutcome> }> | null }
  >();

  // Notes of tries that ended, not yet written.
  private readonly noting = new Set<Promise<void>>();

  constructor(
    private readonly Tries: Model<DeliveryTryDoc>,
    private readonly log: Pick<Logger, 'warn'>,
    /** A claim's length: a try's sender gives up within a third of it (outbox.ts). */
    private readonly lifetimeMs: number,
  ) {}

  /**
   * Try `n` of the item: sent by `send` (given up after `limitMs`) when this process takes it, and its
   * outcome noted. Taken before by another holder: its outcome, without sending; while that try may still
   * be under way, the item is due again when it is surely over (`lifetimeMs` after it began); a try
   * without an outcome then lost its process (which may have handed it to the gateway first) and counts
   * as failed, as does a try that could not be taken (nothing was sent).
   */
  async once(
    { alarmId, item, n, limitMs }: { alarmId: number; item: DeliveryItem; n: number; limitMs: number },
    send: (signal: AbortSignal) => Promise<void>,
    failure: (err: unknown, reason?: string) => Change,
  ): Promise<Change> {
    const refused = await this.inserts.add({ _id: key(item, n), alarmId, at: new Date() }).catch((err: unknown) => err);
    if (refused && !isDuplicateKey(refused)) return failure(refused);
    if (refused) return this.earlier(alarmId, item, n, failure);
    // Made when the limit passes (an Error's stack costs, and most tries end in time).
    let late: Error | undefined;
    const stop = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let change: Change;
    try {
      // A try that outlasts its limit is left behind and its sender told to stop: a request not yet
      // made is not made (the retry sends it); one under way may still arrive, and its retry carries
      // the same delivery id. No wave outlives its claim.
      await Promise.race([
        send(stop.signal),
        new Promise<never>(
          (_, reject) =>
            (timer = setTimeout(() => {
              late = new Error(`no answer within ${limitMs} ms`);
              stop.abort(late);
              // A turn later: a sender that had sent and only waited on side work settles first.
              setImmediate(() => reject(late));
            }, limitMs)),
        ),
      ]);
      change = { status: 'sent', attempts: n, lastError: null, claim: null };
    } catch (err) {
      change = late && err === late ? failure(null, late.message) : failure(err);
    } finally {
      clearTimeout(timer);
    }
    const outcome: TryOutcome = {
      status: change.status as TryOutcome['status'],
      lastError: change.lastError ?? null,
      ...(change.nextAt ? { nextAt: change.nextAt } : {}),
    };
    // The try's slot is free once it is sent: its note follows. The outbox records the outcome in any case;
    // the note is for the next holder should that record be lost, and until it is written that holder
    // takes the try as still under way (earlier()), as it would a try whose process died before noting.
    const noted = this.notes.add({ alarmId, key: key(item, n), outcome }).catch((err) => {
      this.log.warn({ err, alarmId, delivery: item.id }, "a try's outcome was not noted; its record holds it");
    });
    this.noting.add(noted);
    void noted.finally(() => this.noting.delete(noted));
    return change;
  }

  /** Once the notes of the tries that ended so far are written (or given up). */
  async noted(): Promise<void> {
    await Promise.all([...this.noting]);
  }

  /**
   * Keeps a push's receipt (push/delivered) for its alarm, before and whether or not the alarm's lock can
   * be had for it: the release and the next claim read it (a receipt kept twice is one).
   */
  async receipt(alarmId: number, deviceId: string): Promise<void> {
    try {
      await this.Tries.create({ _id: receiptKey(alarmId, deviceId), alarmId, at: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** Of these devices, those whose push of the alarm has a kept receipt (exact lookups by _id). */
  async receipts(alarmId: number, deviceIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < deviceIds.length; i += PARALLEL) {
      const batch = deviceIds.slice(i, i + PARALLEL);
      const docs = await Promise.all(
        batch.map((deviceId) => this.Tries.findById(receiptKey(alarmId, deviceId), { _id: 1 }).lean()),
      );
      docs.forEach((doc, k) => doc && found.add(batch[k]));
    }
    return found;
  }

  /**
   * Removes an alarm's tries once all its deliveries are final: by exact _id, each item's recorded tries,
   * and its pushes' receipts. A sent item's count is that of its last try (its outcome was recorded), so
   * no later try exists. An item that ended otherwise may have one more, taken but never recorded: a
   * retry in flight when the push's receipt came, or a try taken by a process that died before the
   * channel was disabled. Each delete costs the embedded engine a lookup, whether or not the try exists:
   * a sent item's one past was two of the five deletes a push cost at an alarm's end.
   */
  async forget(alarmId: number, items: DeliveryItem[]): Promise<void> {
    // A note still on its way would land after its delete, and stay.
    await this.noted();
    let tries = 0;
    const deletes = items.flatMap((item) => {
      const taken = item.attempts + (item.status === 'sent' ? 0 : 1);
      tries += taken;
      // A note of a version before the notes by alarm costs its delete a lookup that finds nothing, a
      // tenth of what removing a document costs the embedded engine.
      return [
        ...Array.from({ length: taken }, (_, i) => [key(item, i + 1), noteKey(item, i + 1)]).flat(),
        ...(item.channel === 'app' ? [receiptKey(alarmId, item.target)] : []),
      ].map((_id) => ({ deleteOne: { filter: { _id } } }));
    });
    // A few hundred at a time: one command of thousands would hold the embedded engine's writes (a new
    // alarm's among them) until it is done.
    for (let i = 0; i < deletes.length; i += FORGET_AT_ONCE)
      await this.Tries.bulkWrite(deletes.slice(i, i + FORGET_AT_ONCE), { ordered: false });
    // The notes, from the first on: they have no gap, so a round that removes none after one that did is
    // past the last. One removed earlier (a forget that stopped part-way) leaves a gap at the start: the
    // rounds go on past it, up to one document per try (each holds a note at least).
    let removed = 0;
    for (let k = 0; ; k += NOTES_AT_ONCE) {
      const { deletedCount } = await this.Tries.bulkWrite(
        Array.from({ length: NOTES_AT_ONCE }, (_, i) => ({ deleteOne: { filter: { _id: notesKey(alarmId, k + i) } } })),
        { ordered: false },
      );
      removed += deletedCount;
      if (deletedCount === 0 && (removed > 0 || k + NOTES_AT_ONCE >= tries)) break;
    }
    this.nextNotes.delete(alarmId);
  }

  // Each alarm's notes of the batch as one document, the next one free: a number another process took
  // meanwhile (duplicate key) is passed, so that no number is skipped; one whose insert failed otherwise
  // (its answer lost: it may have been stored) is tried again by the next batch.
  private async writeNotes(notes: Note[]): Promise<unknown[]> {
    const byAlarm = new Map<number, Note[]>();
    for (const note of notes) {
      const list = byAlarm.get(note.alarmId);
      if (list) list.push(note);
      else byAlarm.set(note.alarmId, [note]);
    }
    const failed = new Map<number, unknown>();
    await Promise.all(
      [...byAlarm].map(async ([alarmId, list]) => {
        const stored: StoredNote[] = list.map(({ key: tried, outcome }) => [
          tried,
          outcome.status,
          outcome.lastError,
          outcome.nextAt ? outcome.nextAt.getTime() : null,
        ]);
        const doc = { alarmId, at: new Date(), notes: JSON.stringify(stored) };
        let k = this.nextNotes.get(alarmId) ?? 0;
        for (;;) {
          try {
            await this.Tries.create({ _id: notesKey(alarmId, k), ...doc });
            k++;
            break;
          } catch (err) {
            if (!isDuplicateKey(err)) {
              failed.set(alarmId, err);
              break;
            }
            // Taken (by another process, or by this one's insert whose answer was lost): the first number
            // after the stored ones, found by reading (a process new to the alarm starts at 0).
            const next = await this.scan(alarmId, k + 1).catch((failure: unknown) => failure);
            if (typeof next !== 'number') {
              failed.set(alarmId, next);
              k++;
              break;
            }
            k = next;
          }
        }
        // Remembered as the newest (Map order), the oldest forgotten past the bound.
        this.nextNotes.delete(alarmId);
        this.nextNotes.set(alarmId, k);
        if (this.nextNotes.size > KNOWN_NOTES) this.nextNotes.delete(this.nextNotes.keys().next().value!);
      }),
    );
    return notes.map((note) => failed.get(note.alarmId) ?? null);
  }

  // Reads the alarm's notes documents from `from` on, NOTES_AT_ONCE at a time, each found to `each`; the
  // number of the first missing one (there is no gap: none after it either). Without `each`, only the
  // numbers are read.
  private async scan(alarmId: number, from: number, each?: (doc: DeliveryTryDoc) => void): Promise<number> {
    for (let k = from; ; k += NOTES_AT_ONCE) {
      const docs = await Promise.all(
        Array.from({ length: NOTES_AT_ONCE }, (_, i) =>
          this.Tries.findById(notesKey(alarmId, k + i), each ? undefined : { _id: 1 }).lean(),
        ),
      );
      const end = docs.findIndex((doc) => !doc);
      if (each) for (const doc of end === -1 ? docs : docs.slice(0, end)) each(doc!);
      if (end !== -1) return k + end;
    }
  }

  // The outcomes in the alarm's notes as stored when it was asked for, or later. Readers share a reading,
  // but only one that began after they asked: a note stored while a reading was under way may be missing
  // from it, and taken for a try still under way (or, once that is surely over, for one whose process
  // stopped: sent again). A claim taken over asks for many tries at once: one reading answers them.
  private async notesOf(alarmId: number): Promise<Map<string, TryOutcome>> {
    let state = this.reading.get(alarmId);
    if (!state) this.reading.set(alarmId, (state = { asked: 0, read: null }));
    const ticket = ++state.asked;
    for (;;) {
      if (!state.read) {
        const from = state.asked;
        const outcomes = new Map<string, TryOutcome>();
        const reading = state;
        state.read = this.scan(alarmId, 0, (doc) => {
          for (const [tried, status, lastError, nextAt] of JSON.parse(doc.notes ?? '[]') as StoredNote[])
            outcomes.set(tried, { status, lastError, ...(nextAt !== null ? { nextAt: new Date(nextAt) } : {}) });
        })
          .then(() => ({ from, outcomes }))
          .finally(() => {
            reading.read = null;
            // Nobody asked since it began: nobody waits for another.
            if (reading.asked === from && this.reading.get(alarmId) === reading) this.reading.delete(alarmId);
          });
      }
      const { from, outcomes } = await state.read;
      if (from >= ticket) return outcomes;
    }
  }

  private async earlier(
    alarmId: number,
    item: DeliveryItem,
    n: number,
    failure: (err: unknown, reason?: string) => Change,
  ) {
    // Unreadable now: looked at again once it would be over, or shortly (the notes). Older versions noted an
    // outcome in the try, or in a document of its own beside it.
    const [doc, note, notes] = await Promise.all([
      this.Tries.findById(key(item, n))
        .lean()
        .catch(() => null),
      this.Tries.findById(noteKey(item, n))
        .lean()
        .catch(() => null),
      this.notesOf(alarmId).catch(() => null),
    ]);
    const outcome = notes?.get(key(item, n)) ?? note?.outcome ?? doc?.outcome;
    if (outcome) return { ...outcome, attempts: n, claim: null };
    if (!notes) return { status: 'queued', nextAt: new Date(Date.now() + UNREADABLE_MS), claim: null } as Change;
    const over = (doc?.at.getTime() ?? Date.now()) + this.lifetimeMs;
    if (over > Date.now()) return { status: 'queued', nextAt: new Date(over), claim: null } as Change;
    return failure(null, 'its process stopped during the try (it may have reached the gateway)');
  }
}
