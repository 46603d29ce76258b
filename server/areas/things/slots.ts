// The record limit of an organization, kept under concurrency on MongoDB and on FerretDB (whose updates
// are not atomic). Every record occupies one slot 1…recordLimit of its organization, and a unique index
// on {organizationID, slot} makes the record's insert itself the claim: two creators can never hold one
// slot, there are only recordLimit slots, and recordCount (the organization's records) is exact at every
// moment, with no claimed-but-unwritten state a crash could leave behind. A deleted record frees its slot
// with it. Creators read the used slots, pick free ones at random (so racing creators rarely collide),
// insert, and retry the collisions against a fresh read until no slot is free.
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { unavailable } from '../../http/errors.js';
import type { RecordDoc } from './models.js';

/** A record about to be created: everything but its slot. */
export type RecordDraft = Omit<RecordDoc, 'slot'>;

// Each round reads the used slots once (a scan on FerretDB); collisions only come from racing creators.
const MAX_ROUNDS = 30;

/** True for a unique-index violation: FerretDB reports one in an update as code 1 "UNIQUE constraint failed". */
export function isUniqueViolation(err: unknown): boolean {
  return isDuplicateKey(err) || /UNIQUE constraint failed/.test((err as { message?: string })?.message ?? '');
}

/** Up to `n` free slots of 1…limit, picked at random (walking from a random start when few are free). */
export function pickFree(used: Set<number>, limit: number, n: number): number[] {
  let inUse = 0;
  for (const slot of used) if (slot <= limit) inUse++;
  const want = Math.min(n, limit - inUse);
  const picked = new Set<number>();
  for (let tries = 0; picked.size < want && tries < want * 4; tries++) {
    const slot = 1 + Math.floor(Math.random() * limit);
    if (!used.has(slot)) picked.add(slot);
  }
  const start = Math.floor(Math.random() * limit);
  for (let step = 0; picked.size < want && step < limit; step++) {
    const slot = 1 + ((start + step) % limit);
    if (!used.has(slot)) picked.add(slot);
  }
  return [...picked];
}

/** Creates records within their organization's limit and reports usage. */
export class RecordSlots {
  constructor(private readonly models: Database['models'], private readonly defaultLimit: number) {}

  /** The organization's record limit: its own (`org limit`) or the configured default. */
  async limitOf(organizationId: number): Promise<number> {
    const org = await this.models.Organization.findById(organizationId).lean();
    return org?.recordLimit ?? this.defaultLimit;
  }

  /** The organization's records right now. */
  count(organizationId: number): Promise<number> {
    return this.models.ThingRecord.countDocuments({ organizationID: organizationId });
  }

  /** Inserts the drafts that fit under the limit; `refused` are those for which no slot was left. */
  async insert(organizationId: number, drafts: RecordDraft[]): Promise<{ inserted: RecordDoc[]; refused: RecordDraft[] }> {
    const limit = await this.limitOf(organizationId);
    const inserted: RecordDoc[] = [];
    let pending = drafts;
    for (let round = 0; pending.length > 0; round++) {
      if (round === MAX_ROUNDS) throw unavailable('Too many records are being created at once; try again', 1);
      const used = await this.usedSlots(organizationId);
      const above = [...used].filter((slot) => slot > limit);
      if (above.length > 0) {
        // Only after `org limit` lowered the limit: while any record sits above it, nothing is
        // created, so the count can never pass the limit; records move down into free slots first.
        if (used.size >= limit) break;
        await this.moveDown(organizationId, above, pickFree(used, limit, above.length));
        continue;
      }
      const free = pickFree(used, limit, pending.length);
      if (free.length === 0) break;
      const batch = pending.slice(0, free.length).map((draft, k) => ({ ...draft, slot: free[k] }));
      const collided = await this.insertBatch(batch);
      inserted.push(...batch.filter((_, k) => !collided.has(k)));
      pending = [...batch.filter((_, k) => collided.has(k)).map(({ slot: _slot, ...draft }) => draft), ...pending.slice(free.length)];
    }
    return { inserted, refused: pending };
  }

  private async usedSlots(organizationId: number): Promise<Set<number>> {
    const docs = await this.models.ThingRecord.find({ organizationID: organizationId }, { slot: 1, _id: 0 }).lean();
    return new Set(docs.map((d) => d.slot));
  }

  /** Inserts a batch; returns the indexes that lost their slot to another creator. */
  private async insertBatch(batch: RecordDoc[]): Promise<Set<number>> {
    try {
      // The driver's own insertMany reports which documents failed; its types assume ObjectId _ids.
      await this.models.ThingRecord.collection.insertMany(batch as unknown as Array<Record<string, unknown>>, { ordered: false });
      return new Set();
    } catch (err) {
      const writeErrors = (err as { writeErrors?: Array<{ index: number; code: number; errmsg?: string }> | { index: number; code: number; errmsg?: string } }).writeErrors;
      const list = writeErrors === undefined ? [] : Array.isArray(writeErrors) ? writeErrors : [writeErrors];
      if (list.length === 0 || list.some((e) => !isDuplicateKey({ code: e.code, message: e.errmsg }))) throw err;
      return new Set(list.map((e) => e.index));
    }
  }

  /** Moves the records in slots above the limit into free slots below it (a lost race is harmless). */
  private async moveDown(organizationId: number, above: number[], free: number[]): Promise<void> {
    const { ThingRecord } = this.models;
    const high = await ThingRecord.find({ organizationID: organizationId, slot: { $in: above.slice(0, free.length) } }, { _id: 1, slot: 1 }).lean();
    for (const [k, record] of high.entries()) {
      try {
        await ThingRecord.updateOne({ _id: record._id }, { $set: { slot: free[k] } });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
  }
}
