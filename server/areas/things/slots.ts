// The record limit of an organization, kept under concurrency on MongoDB and on FerretDB (whose updates
// are not atomic). Every record occupies one slot 1…recordLimit of its organization, and a unique index
// on slot in the organization's record collection (store.ts) makes the record's insert itself the claim: two creators
// can never hold one slot, there are only recordLimit slots, and recordCount (the organization's records) is exact at
// every moment, with no claimed-but-unwritten state a crash could leave behind. A deleted record frees its slot
// with it. Creators first try random slots (no read needed while the organization is far from full), then
// read the used slots, pick free ones at random (so racing creators rarely collide), insert, and retry
// the collisions against a fresh read until no slot is free.
//
// Lowering the limit (`org limit`) can leave records in slots above it. The organization's slot
// ceiling (the highest limit any creator inserted under) tells creators whether that can be the case;
// only then do they read the used slots first, refuse to create while records sit above the limit, and
// move such records down into free slots. An operator who lowers the limit while creates are running
// may see those few creates land under the old limit.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { insertAllowingDuplicates, isDuplicateKey } from '../../db/errors.js';
import { unavailable } from '../../errors.js';
import { thingsModels, type EntityDoc, type RecordDoc, type ThingsModels } from './models.js';
import { ownRecordLimit } from '../../identity/lookup.js';
import type { ValueMap } from './presenter.js';
import type { RecordStore } from './store.js';

/** A record about to be created: everything but its slot. */
export type RecordDraft = Omit<RecordDoc, 'slot'>;

/** A new record of the entity with these values; `seq` is its position in the creating request. */
export function draftOf(
  entity: Pick<EntityDoc, '_id' | 'organizationID'>,
  values: ValueMap,
  at: Date,
  seq: number,
): RecordDraft {
  return {
    _id: randomUUID(),
    organizationID: entity.organizationID,
    entityID: entity._id,
    values: JSON.stringify(values),
    createdAt: at,
    seq,
    updatedAt: at,
  };
}

// Each round reads the used slots once (a scan on FerretDB); collisions only come from racing creators.
const MAX_ROUNDS = 30;
// Rounds of random slots before reading the used ones.
const PROBE_ROUNDS = 4;

interface Placing {
  inserted: RecordDoc[];
  pending: RecordDraft[];
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
  private readonly models: ThingsModels;

  constructor(
    private readonly db: Database,
    private readonly store: RecordStore,
    private readonly defaultLimit: number,
  ) {
    this.models = thingsModels(db);
  }

  /** The organization's record limit: its own (`org limit`) or the configured default. */
  async limitOf(organizationId: number): Promise<number> {
    return (await ownRecordLimit(this.db, organizationId)) ?? this.defaultLimit;
  }

  /** The organization's records right now. */
  async count(organizationId: number): Promise<number> {
    return (await this.store.of(organizationId)).countDocuments({});
  }

  /** Inserts the drafts that fit under the limit; `refused` are those for which no slot was left. */
  async insert(
    organizationId: number,
    drafts: RecordDraft[],
  ): Promise<{ inserted: RecordDoc[]; refused: RecordDraft[] }> {
    const limit = await this.limitOf(organizationId);
    let ceiling = await this.ceilingOf(organizationId);
    // Every record sits at or under the ceiling: it is raised before anyone inserts under a higher limit.
    if (ceiling < limit) await this.setCeiling(organizationId, limit);
    const state: Placing = { inserted: [], pending: drafts };
    // Fast path: with no record above the limit possible, random slots need no read of the used ones
    // (a scan on FerretDB); most succeed unless the organization is nearly full.
    for (let round = 0; ceiling <= limit && round < PROBE_ROUNDS && state.pending.length > 0; round++) {
      const tried = state.pending.length;
      await this.place(organizationId, state, pickFree(new Set(), limit, tried));
      // A batch that mostly collides means a nearly full organization: reading the used slots is cheaper.
      if (tried > 1 && state.pending.length * 2 > tried) break;
    }
    for (let round = 0; state.pending.length > 0; round++) {
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
      if (ceiling > limit) {
        // Nothing above the lowered limit any more: later creators may take the fast path again.
        await this.setCeiling(organizationId, limit);
        ceiling = limit;
      }
      const free = pickFree(used, limit, state.pending.length);
      if (free.length === 0) break;
      await this.place(organizationId, state, free);
    }
    // Drafts that found no slot leave no home behind.
    await this.store.removeHomes(state.pending.map((d) => d._id));
    return { inserted: state.inserted, refused: state.pending };
  }

  /** Inserts the first pending drafts into `slots`; the ones that collided stay pending. */
  private async place(organizationId: number, state: Placing, slots: number[]): Promise<void> {
    const batch = state.pending.slice(0, slots.length).map((draft, k) => ({ ...draft, slot: slots[k] }));
    const collided = await this.insertBatch(organizationId, batch);
    state.inserted.push(...batch.filter((_, k) => !collided.has(k)));
    state.pending = [
      ...batch.filter((_, k) => collided.has(k)).map(({ slot: _slot, ...draft }) => draft),
      ...state.pending.slice(slots.length),
    ];
  }

  private async ceilingOf(organizationId: number): Promise<number> {
    return (await this.models.ThingSlotCeiling.findById(String(organizationId)).lean())?.ceiling ?? 0;
  }

  private async setCeiling(organizationId: number, ceiling: number): Promise<void> {
    const { ThingSlotCeiling } = this.models;
    try {
      await ThingSlotCeiling.updateOne({ _id: String(organizationId) }, { $set: { ceiling } }, { upsert: true });
    } catch (err) {
      // Two first upserts race on the _id; the loser sets the value on the document the winner made.
      if (!isDuplicateKey(err)) throw err;
      await ThingSlotCeiling.updateOne({ _id: String(organizationId) }, { $set: { ceiling } });
    }
  }

  private async usedSlots(organizationId: number): Promise<Set<number>> {
    const docs = await (await this.store.of(organizationId)).find({}, { slot: 1, _id: 0 }).lean();
    return new Set(docs.map((d) => d.slot));
  }

  /** Inserts a batch (homes first); returns the indexes that lost their slot to another creator. */
  private async insertBatch(organizationId: number, batch: RecordDoc[]): Promise<Set<number>> {
    await this.store.addHomes(
      organizationId,
      batch.map((r) => r._id),
    );
    return insertAllowingDuplicates((await this.store.of(organizationId)).collection, batch);
  }

  /**
   * Moves the records in slots above the limit into free slots below it (a lost race is harmless); as a
   * revision, so a concurrent write of the record's values is neither lost nor overwrites the move.
   */
  private async moveDown(organizationId: number, above: number[], free: number[]): Promise<void> {
    const records = await this.store.of(organizationId);
    const high = await records.find({ slot: { $in: above.slice(0, free.length) } }, { _id: 1, slot: 1 }).lean();
    for (const [k, record] of high.entries()) {
      try {
        await this.db.revisions.change(records, record._id, () => ({ slot: free[k] }));
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
  }
}
