// A member's alarm targets in one document (docs/storage.md "A member's targets in one document"): copies
// of his devices, mobiles and phones under "<ownerId>" in owner_targets, so that building an alarm's
// deliveries reads one document per member where it read three owner indexes and every document they
// name (3,000 exact reads for 500 members).
//
// The copies are the writers' to keep true. Every write of such a resource runs through `changing`: it
// marks its kind as changing in the owner's entry (a token of its own), writes, then reads that kind's
// documents again and stores them as the copies, taking its token out — each step on the entry under the
// owner's claim lock. A reader uses a kind's copies only while no token is on it and reads the documents
// themselves otherwise. A write that failed without a sure refusal (its answer lost: it may still land)
// keeps its token, as does a writer that dies: that kind is read the slow way until a reader finds the
// token STALE_MS old and has it filled again. A token that old belongs to no write still under way: a
// writer sends its document's write within WRITE_BY_MS of its mark or not at all (`inTime`; a change
// through a revision up to its 5 s hold later), and the database answers a write within the
// connection's socket timeout (30 s) or the client gives up on it (MongoDB may still be running it; five
// minutes leave room). An owner without an entry (resources from before the copies, or after a restore,
// which empties them: server/admin/backup.ts) is read the slow way and filled in the background. An entry
// records the restore mark it was written under (server/db/restores.ts); one written under another mark
// than this process knows (its documents read while a restore loaded) is not trusted, but filled again.
// The copies are stored as one Extended JSON string, not as nested documents: the embedded engine
// reads a member's entry for about 0.2 ms of CPU that way, against 0.5 ms nested (docs/storage.md
// "Rules for a model").
import { randomBytes } from 'node:crypto';
import mongoose, { type Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import { isDuplicateKey } from '../../db/errors.js';
import type { CacheGeneration } from '../../db/generation.js';
import { AppError, unavailable } from '../../errors.js';
import type { Copies, OwnedDoc, OwnerTargetsDoc, TargetKind } from './models.js';

/** An entry as the code works with it. */
type Entry = Omit<OwnerTargetsDoc, 'copies'> & { copies: Copies };

const { EJSON } = mongoose.mongo.BSON;

/** The copies an entry holds (none from an entry in another shape). */
export function copiesOf(doc: Pick<OwnerTargetsDoc, 'copies'>): Copies {
  return typeof doc.copies === 'string' ? (EJSON.parse(doc.copies, { relaxed: true }) as Copies) : {};
}

/** A writer's token older than this belongs to no write still under way (a few minutes: clocks of processes differ). */
const STALE_MS = 5 * 60_000;
/** A writer sends its document's write within this of its mark, or gives up (503) without writing. */
const WRITE_BY_MS = 30_000;
/**
 * A change of an entry is sent only within this of taking its lock: the lock is broken 30 s after it was
 * taken (server/db/claim-lock.ts), so a holder never overwrites what the breaker wrote as long as the
 * database answers the write within 20 s (as every claim lock's holder assumes).
 */
const HOLD_MS = 10_000;
/** Owners this process fills at once (the first alarm after an upgrade or a restore finds none filled). */
const MAX_FILLING = 10;

/** Whether a write's failure is sure to have stored nothing: a refusal, not a lost answer. */
export const refused = (err: unknown) =>
  err instanceof AppError ||
  isDuplicateKey(err) ||
  ['ValidationError', 'CastError', 'StrictModeError'].includes((err as Error)?.name);

/** Reads one kind's documents of an owner from the documents themselves. */
type Source = (ownerId: number) => Promise<OwnedDoc[]>;

/** The copies of one database's owners. */
export class OwnerTargets {
  private readonly sources = new Map<TargetKind, Source>();
  // Owners being filled by this process.
  private readonly filling = new Set<number>();

  private readonly staleMs: number;
  private readonly writeByMs: number;
  // The restore mark as this process knows it, read again when it noticed a restore (its generation moved).
  private known: { generation: number; mark: Promise<string | null> } | null = null;

  constructor(
    private readonly model: Model<OwnerTargetsDoc>,
    private readonly locks: Model<LockDoc>,
    /** The database's restore mark now, and the generation of this process's cached facts. */
    private readonly restores: { mark: () => Promise<string | null>; generation: CacheGeneration },
    options: { staleMs?: number; writeByMs?: number } = {},
  ) {
    this.staleMs = options.staleMs ?? STALE_MS;
    this.writeByMs = options.writeByMs ?? WRITE_BY_MS;
  }

  /** Each kind's resources register where their documents are read. */
  register(kind: TargetKind, source: Source): void {
    this.sources.set(kind, source);
  }

  /**
   * Runs a write of the owner's resources of `kind`, keeping the copies true around it. The write calls
   * `inTime()` right before it sends the document's insert, update or delete: past WRITE_BY_MS it throws.
   */
  async changing<T>(kind: TargetKind, ownerId: number, write: (inTime: () => void) => Promise<T>): Promise<T> {
    const token = randomBytes(9).toString('base64url');
    const marked = Date.now();
    await this.update(ownerId, (entry) => {
      entry.changing.push({ kind, token, at: new Date(marked) });
    });
    const inTime = () => {
      if (Date.now() - marked > this.writeByMs) throw unavailable('The change took too long to start; try again', 1);
    };
    let result: T;
    try {
      result = await write(inTime);
    } catch (err) {
      // Refused: nothing changed, and the copies are taken again. Otherwise the write may still land:
      // the token stays, and the kind is read from its documents until a fill after STALE_MS.
      if (refused(err)) await this.settle(kind, ownerId, token);
      throw err;
    }
    await this.settle(kind, ownerId, token);
    return result;
  }

  /** Every registered kind's resources of the owner as stored now: copies where they are true, else read. */
  async of(ownerId: number): Promise<Copies> {
    const [stored, mark] = await Promise.all([this.model.findById(String(ownerId)).lean(), this.knownMark()]);
    // Written under another restore mark: its documents may have been read while a restore loaded.
    const entry = stored && (stored.mark ?? null) === mark ? stored : null;
    const all = entry ? copiesOf(entry) : {};
    const now = Date.now();
    let fill = !entry;
    const found: Copies = {};
    await Promise.all(
      [...this.sources.keys()].map(async (kind) => {
        const copies = all[kind];
        const marks = entry?.changing.filter((mark) => mark.kind === kind) ?? [];
        if (copies && marks.length === 0) {
          found[kind] = copies;
          return;
        }
        if (marks.length === 0 || marks.some((mark) => now - new Date(mark.at).getTime() > this.staleMs)) fill = true;
        found[kind] = await this.read(kind, ownerId);
      }),
    );
    if (fill) this.fill(ownerId);
    return found;
  }

  // Takes the copies after a write and its token out. Should this fail, the token stays: readers read the
  // kind's documents until a fill drops it; the write itself stands.
  private async settle(kind: TargetKind, ownerId: number, token: string): Promise<void> {
    await this.update(ownerId, async (entry) => {
      entry.changing = entry.changing.filter((mark) => mark.token !== token);
      await this.copy(entry, ownerId, (other) => other === kind || !entry.copies[other]);
    }).catch(() => {});
  }

  // Copies every kind no live writer is changing, dropping the tokens of writers that died; in the background.
  private fill(ownerId: number): void {
    if (this.filling.has(ownerId) || this.filling.size >= MAX_FILLING) return;
    this.filling.add(ownerId);
    this.update(ownerId, async (entry) => {
      const now = Date.now();
      entry.changing = entry.changing.filter((mark) => now - new Date(mark.at).getTime() <= this.staleMs);
      await this.copy(entry, ownerId, () => true);
    })
      // Not filled now: the next reader tries again.
      .catch(() => {})
      .finally(() => this.filling.delete(ownerId));
  }

  // Copies the kinds `which` names that no live writer is changing (a kind never written is copied too).
  private async copy(entry: Entry, ownerId: number, which: (kind: TargetKind) => boolean): Promise<void> {
    await Promise.all(
      [...this.sources.keys()]
        .filter((kind) => which(kind) && !entry.changing.some((mark) => mark.kind === kind))
        .map(async (kind) => {
          entry.copies[kind] = await this.read(kind, ownerId);
        }),
    );
  }

  private knownMark(): Promise<string | null> {
    const generation = this.restores.generation.current;
    if (this.known?.generation !== generation) {
      const mark = this.restores.mark();
      // A failed read is not kept: the next reader reads it again.
      mark.catch(() => (this.known = null));
      this.known = { generation, mark };
    }
    return this.known.mark;
  }

  private async read(kind: TargetKind, ownerId: number): Promise<OwnedDoc[]> {
    return this.sources.get(kind)!(ownerId);
  }

  // Read-modify-write of the owner's entry, one writer at a time across processes.
  private async update(ownerId: number, change: (entry: Entry) => void | Promise<void>): Promise<void> {
    const _id = String(ownerId);
    await withClaimLock(this.locks, `owner-targets:${_id}`, async (takenAt) => {
      // Read before the documents: copies read while a restore loads carry the mark from before it.
      const [stored, mark] = await Promise.all([this.model.findById(_id).lean(), this.restores.mark()]);
      // Copies written under another restore mark are not taken over (its marks are, as they may be live).
      const same = stored && (stored.mark ?? null) === mark;
      const entry: Entry = {
        _id,
        copies: stored && same ? copiesOf(stored) : {},
        changing: stored?.changing ?? [],
        mark,
      };
      await change(entry);
      if (Date.now() - takenAt > HOLD_MS) throw unavailable('The change took too long; try again', 1);
      await this.model.replaceOne(
        { _id },
        { copies: EJSON.stringify(entry.copies, { relaxed: true }), changing: entry.changing, mark },
        { upsert: true },
      );
    });
  }
}
