// Read-modify-writes of one document that never lose a concurrent writer's change, on MongoDB and on
// FerretDB (whose updates are themselves read-modify-write without a lock: two concurrent $set of
// different fields of one document can keep only one). Every revised document carries a revision
// `rev` (absent: 0). A writer reads the document at revision n, inserts the claim "<collection>:<id>:<n+1>"
// (unique _id: exactly one writer gets it, on both engines), reads the document again, and writes its
// change with rev n+1 only if the document is still at n. Writes of one document therefore happen one
// after another, each on the state the previous one left: a writer that lost the claim waits until the
// document moved on and decides again on the new state; one whose base moved after it read (another
// process wrote meanwhile and released its claim) sees that in the second read and starts over. Within
// a process, writers of one document queue, so only writers on different processes ever meet.
//
// A holder that crashes between claim and write leaves its claim behind. Others skip it once they have
// seen the same claim for STALE_MS with the document unchanged: they claim n+2 on the same base. A holder
// never writes later than HOLD_MS after it started claiming, so a holder that was merely slow gives up
// instead of overwriting the writer that skipped it — as long as a write lands within STALE_MS − HOLD_MS
// of being sent (the connection's socket timeout is shorter). Claims are removed after the write, and a
// skipped claim by the writer that skipped it; one whose holder crashed after writing stays as a small
// orphan that nothing reads.
import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { unavailable } from '../errors.js';
import { isDuplicateKey } from './errors.js';
import { KeyedLock } from './keyed-lock.js';
import type { CacheGeneration } from './generation.js';
import { Recent } from './recent.js';

export interface RevisionClaimDoc {
  _id: string;
  /** Tells one holder of this revision from a later one (a claim given up and taken again). */
  token: string;
  at: Date;
}

/** Registers the claim collection. */
export function revisionClaimModel(conn: Connection): Model<RevisionClaimDoc> {
  const schema = new Schema<RevisionClaimDoc>(
    { _id: String, token: { type: String, required: true }, at: { type: Date, required: true } },
    { versionKey: false },
  );
  return conn.model<RevisionClaimDoc>('RevisionClaim', schema, 'revision_claims');
}

/** What a revised document has: a string _id and its revision (absent on documents never revised). */
export interface Revised {
  _id: string;
  rev?: number;
}

export interface RevisionOptions {
  /** A holder that has not sent its write this long after it started claiming gives up and retries. */
  holdMs?: number;
  /** A claim seen unchanged this long, with its document not moving, was left by a crashed holder. */
  staleMs?: number;
  /** How long one change waits for others before it answers 503. */
  waitMs?: number;
}

const HOLD_MS = 5_000;
const STALE_MS = 45_000;
const WAIT_MS = 10_000;
const MAX_QUEUED = 100;
const MAX_SEEN = 10_000;

type Attempt<D> = { done: D | null } | { again: D | null };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Serialised read-modify-writes of single documents. */
export class Revisions {
  private readonly queue = new KeyedLock<string>(MAX_QUEUED, () =>
    unavailable('Too many changes of this resource are queued; try again', 1),
  );
  // Claims held by other writers, as first seen here: claim _id → its token and since when.
  private readonly seen: Recent<string, { token: string; since: number }>;
  // Changes of each document queued or running here: a state read before joining a queue is stale.
  private readonly pending = new Map<string, number>();
  private readonly holdMs: number;
  private readonly staleMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly claims: Model<RevisionClaimDoc>,
    generation: CacheGeneration,
    options: RevisionOptions = {},
  ) {
    this.seen = new Recent(MAX_SEEN, generation);
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.staleMs = options.staleMs ?? STALE_MS;
    this.waitMs = options.waitMs ?? WAIT_MS;
  }

  /**
   * Changes the document `id`: `decide` gets its current state and returns the fields to set, or throws
   * to refuse (it is called again when another writer got there first). Resolves with the document as
   * written, or null when it does not exist. `known` is a state the caller has just read.
   */
  async change<D extends Revised>(
    model: Model<D>,
    id: string,
    decide: (doc: D) => Partial<D>,
    known?: D | null,
  ): Promise<D | null> {
    const scope = `${model.collection.collectionName}:${id}`;
    const ahead = this.pending.get(scope) ?? 0;
    this.pending.set(scope, ahead + 1);
    try {
      return await this.queue.run(scope, () => this.write(model, id, scope, decide, ahead === 0 ? known : undefined));
    } finally {
      const left = this.pending.get(scope)! - 1;
      if (left === 0) this.pending.delete(scope);
      else this.pending.set(scope, left);
    }
  }

  // One change, first in this process's queue of the document.
  private async write<D extends Revised>(
    model: Model<D>,
    id: string,
    scope: string,
    decide: (doc: D) => Partial<D>,
    known: D | null | undefined,
  ): Promise<D | null> {
    const deadline = Date.now() + this.waitMs;
    let doc = known !== undefined ? known : await read(model, id);
    // Claims on the current base passed over because their holders crashed.
    let skipped: string[] = [];
    for (let delay = 5; doc; delay = Math.min(delay * 2, 200)) {
      if (Date.now() > deadline) throw unavailable('Another change of this resource is in progress; try again', 1);
      const base = doc.rev ?? 0;
      const rev = base + 1 + skipped.length;
      const set = { ...decide(doc), rev };
      const claimId = `${scope}:${rev}`;
      const started = Date.now();
      let next: D | null;
      if (await this.claim(claimId)) {
        const attempt = await this.commit(model, id, base, set, claimId, started);
        if ('done' in attempt) {
          for (const passed of skipped) this.release(passed);
          return attempt.done;
        }
        next = attempt.again;
      } else {
        next = await read(model, id);
        // Still at the base: the holder is writing, or crashed holding the claim.
        if (next && (next.rev ?? 0) === base) {
          if (await this.abandoned(claimId)) skipped.push(claimId);
          else await sleep(delay);
        }
      }
      // Another writer wrote: decide again on what it left.
      if (next && (next.rev ?? 0) !== base) skipped = [];
      doc = next;
    }
    return null;
  }

  // Writes as the claim's holder if the document is still at `base`; the claim goes either way.
  private async commit<D extends Revised>(
    model: Model<D>,
    id: string,
    base: number,
    set: Partial<D>,
    claimId: string,
    started: number,
  ): Promise<Attempt<D>> {
    let written = false;
    try {
      const now = await read(model, id);
      if (!now) return { done: null };
      // Another process wrote (and let go of its claim) after our first read.
      if ((now.rev ?? 0) !== base) return { again: now };
      // Too late to write: a writer that took us for crashed may already build on `base`.
      if (Date.now() - started > this.holdMs) return { again: now };
      const { matchedCount } = await model.updateOne({ _id: id } as never, { $set: set } as never);
      written = true;
      return { done: matchedCount > 0 ? ({ ...now, ...set } as D) : null };
    } finally {
      // After a write the claim only keeps stale writers out, which the second read does as well, so
      // nobody waits for its removal; without a write it goes first, as this writer may claim it again.
      // A claim whose removal failed is taken over as abandoned after staleMs.
      if (written) this.release(claimId);
      else await this.claims.deleteOne({ _id: claimId }).catch(() => {});
    }
  }

  // Inserts the claim: true when it is ours, false when another writer holds it.
  private async claim(claimId: string): Promise<boolean> {
    try {
      await this.claims.create({ _id: claimId, token: randomBytes(9).toString('base64url'), at: new Date() });
      this.seen.delete(claimId);
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return false;
    }
  }

  // True once this process has seen the same holder on the claim for staleMs (its document unchanged).
  private async abandoned(claimId: string): Promise<boolean> {
    const holder = await this.claims.findById(claimId, { token: 1 }).lean();
    if (!holder) return false;
    const first = this.seen.get(claimId);
    if (!first || first.token !== holder.token) {
      this.seen.set(claimId, { token: holder.token, since: Date.now() });
      return false;
    }
    if (Date.now() - first.since < this.staleMs) return false;
    this.seen.delete(claimId);
    return true;
  }

  // A claim whose removal failed is taken over as abandoned after staleMs.
  private release(claimId: string): void {
    void this.claims.deleteOne({ _id: claimId }).catch(() => {});
  }
}

async function read<D extends Revised>(model: Model<D>, id: string): Promise<D | null> {
  return (await model.findById(id).lean()) as D | null;
}
