// A member's alarm targets in one document (docs/storage.md "A member's targets in one document"): copies
// of his devices, mobiles and phones under "<ownerId>" in owner_targets, so that building an alarm's
// deliveries reads one document per member where it read three owner indexes and every document they
// name (3,000 exact reads for 500 members).
//
// The copies are the writers' to keep true. Every write of such a resource runs through `changing`: it
// marks its kind as changing in the owner's entry (a token of its own), writes, then reads that kind's
// documents again and stores them as the copies, taking its token out — each step on the entry under the
// owner's claim lock. A reader uses a kind's copies only while no token is on it and reads the documents
// themselves otherwise, so no copy it uses is older than a write that has begun. A writer that dies
// leaves its token: that kind is read the slow way until a reader, STALE_MS later, has it filled again
// (tokens that old dropped; no write of such a resource takes that long). An owner without an entry
// (resources from before the copies, or after a restore, which empties them: server/admin/backup.ts) is
// read the slow way and filled in the background.
// The copies are stored as one Extended JSON string, not as nested documents: the embedded engine
// reads a member's entry for about 0.2 ms of CPU that way, against 0.5 ms nested (docs/storage.md
// "Rules for a model").
import { randomBytes } from 'node:crypto';
import mongoose, { type Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import type { OwnedDoc } from './owned.js';

/** The kinds of resource copied, by their noun. */
export type TargetKind = 'device' | 'mobile' | 'phone';

/** Each kind's documents as stored when its last write ended; a kind absent: not copied yet. */
export type Copies = Partial<Record<TargetKind, OwnedDoc[]>>;

/** One owner's copies: _id the owner's ID as text. */
export interface OwnerTargetsDoc {
  _id: string;
  /** The copies as Extended JSON (types such as dates kept). */
  copies: string;
  /** Writes begun and not yet copied. */
  changing: Array<{ kind: TargetKind; token: string; at: Date }>;
}

/** An entry as the code works with it. */
type Entry = Omit<OwnerTargetsDoc, 'copies'> & { copies: Copies };

const { EJSON } = mongoose.mongo.BSON;

/** The copies an entry holds (none from an entry in another shape). */
export function copiesOf(doc: Pick<OwnerTargetsDoc, 'copies'>): Copies {
  return typeof doc.copies === 'string' ? (EJSON.parse(doc.copies, { relaxed: true }) as Copies) : {};
}

/** A writer's token older than this was left by one that died. */
const STALE_MS = 60_000;

/** Reads one kind's documents of an owner from the documents themselves. */
type Source = (ownerId: number) => Promise<OwnedDoc[]>;

/** The copies of one database's owners. */
export class OwnerTargets {
  private readonly sources = new Map<TargetKind, Source>();
  // Owners being filled by this process.
  private readonly filling = new Set<number>();

  constructor(
    private readonly model: Model<OwnerTargetsDoc>,
    private readonly locks: Model<LockDoc>,
    private readonly staleMs = STALE_MS,
  ) {}

  /** Each kind's resources register where their documents are read. */
  register(kind: TargetKind, source: Source): void {
    this.sources.set(kind, source);
  }

  /** Runs a write of the owner's resources of `kind`, keeping the copies true around it. */
  async changing<T>(kind: TargetKind, ownerId: number, write: () => Promise<T>): Promise<T> {
    const token = randomBytes(9).toString('base64url');
    await this.update(ownerId, (entry) => {
      entry.changing.push({ kind, token, at: new Date() });
    });
    try {
      return await write();
    } finally {
      // Should this fail, the token stays: readers read the kind's documents until a fill drops it.
      await this.update(ownerId, async (entry) => {
        entry.changing = entry.changing.filter((mark) => mark.token !== token);
        await this.copy(entry, ownerId, (other) => other === kind || !entry.copies[other]);
      }).catch(() => {});
    }
  }

  /** Every registered kind's resources of the owner as stored now: copies where they are true, else read. */
  async of(ownerId: number): Promise<Copies> {
    const entry = await this.model.findById(String(ownerId)).lean();
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

  // Copies every kind no live writer is changing, dropping the tokens of writers that died; in the background.
  private fill(ownerId: number): void {
    if (this.filling.has(ownerId)) return;
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

  private async read(kind: TargetKind, ownerId: number): Promise<OwnedDoc[]> {
    return this.sources.get(kind)!(ownerId);
  }

  // Read-modify-write of the owner's entry, one writer at a time across processes.
  private async update(ownerId: number, change: (entry: Entry) => void | Promise<void>): Promise<void> {
    const _id = String(ownerId);
    await withClaimLock(this.locks, `owner-targets:${_id}`, async () => {
      const stored = await this.model.findById(_id).lean();
      const entry: Entry = { _id, copies: stored ? copiesOf(stored) : {}, changing: stored?.changing ?? [] };
      await change(entry);
      await this.model.replaceOne(
        { _id },
        { copies: EJSON.stringify(entry.copies, { relaxed: true }), changing: entry.changing },
        { upsert: true },
      );
    });
  }
}
