// Sequential int64 IDs that stay unique under concurrent creates on MongoDB and on FerretDB, and are
// never issued twice, not even after their resource was deleted.
// FerretDB's $inc is read-modify-write without a lock, so two callers may draw the same number (and
// the counter may even step back); the guarantee therefore rests on a claim document per ID, whose
// unique _id both engines enforce atomically. Claims are never deleted. A collision draws again.
// A restored backup never moves a counter back nor removes a claim (mergeRestored below), and each
// process never goes below the IDs it issued itself, so a restore under running processes reissues none.
import { Schema, type Connection, type Model, mongo } from 'mongoose';
import { MAX_SAFE_ID } from '../../schemas/common.js';
import { AppError } from '../errors.js';
import { isDuplicateKey } from './errors.js';

interface Counter {
  _id: string;
  seq: number;
}

interface Claim {
  _id: string;
}

const MAX_ATTEMPTS = 1_000;

/** The collections of the ID sequences, which a restore merges instead of replacing. */
export const ID_COLLECTIONS = ['counters', 'id_claims'] as const;

/**
 * Merges a backup's documents of an ID collection into the database's: a counter takes the larger of
 * both values, a claim is added unless present. IDs issued after the backup therefore stay taken.
 */
export async function mergeRestored(
  db: mongo.Db,
  collection: (typeof ID_COLLECTIONS)[number],
  docs: Array<{ _id: unknown; seq?: unknown }>,
): Promise<void> {
  if (docs.length === 0) return;
  const target = db.collection<{ _id: string; seq?: number }>(collection);
  if (collection === 'counters') {
    for (const doc of docs) {
      if (typeof doc._id === 'string' && typeof doc.seq === 'number')
        await target.updateOne({ _id: doc._id }, { $max: { seq: doc.seq } }, { upsert: true });
    }
    return;
  }
  try {
    await target.insertMany(docs as Array<{ _id: string }>, { ordered: false });
  } catch (err) {
    // Claims both sides hold: kept as they are. Anything else is a real failure.
    const failures = (err as { writeErrors?: unknown }).writeErrors;
    const list = (Array.isArray(failures) ? failures : failures ? [failures] : []) as Array<{
      code?: number;
      errmsg?: string;
    }>;
    const duplicates =
      list.length > 0 ? list.every((e) => isDuplicateKey({ code: e.code, message: e.errmsg })) : isDuplicateKey(err);
    if (!duplicates) throw err;
  }
}

/** Draws IDs per resource name. */
export class IdAllocator {
  private readonly counters: Model<Counter>;
  private readonly claims: Model<Claim>;
  /** The highest ID this process issued per name: never gone below, whatever the counter says. */
  private readonly issued = new Map<string, number>();

  constructor(conn: Connection) {
    this.counters = conn.model<Counter>(
      'Counter',
      new Schema<Counter>({ _id: String, seq: Number }, { versionKey: false }),
      'counters',
    );
    this.claims = conn.model<Claim>('IdClaim', new Schema<Claim>({ _id: String }, { versionKey: false }), 'id_claims');
  }

  private async draw(name: string): Promise<number> {
    try {
      const doc = await this.counters
        .findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' })
        .lean();
      return doc!.seq;
    } catch (err) {
      // Two first-ever upserts of one counter race on its _id; the loser simply draws again.
      if (isDuplicateKey(err)) return this.draw(name);
      throw err;
    }
  }

  /**
   * A new ID for `name` that no one has had before. The counter only suggests where to start: under
   * contention (FerretDB's $inc may hand several callers one number) a taken ID is followed by the
   * next candidates, a little further apart with each attempt, without asking the counter again; the
   * counter then learns the ID claimed.
   */
  async next(name: string): Promise<number> {
    const drawn = await this.draw(name);
    let id = Math.max(drawn, (this.issued.get(name) ?? 0) + 1);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (id > MAX_SAFE_ID) throw new AppError(500, 'internal_error', `No more ${name} IDs can be assigned`);
      try {
        await this.claims.create({ _id: `${name}:${id}` });
        // The counter only suggests where to start (the claim decides): a failed update costs a later
        // caller a few more attempts.
        if (id !== drawn) await this.counters.updateOne({ _id: name }, { $max: { seq: id } }).catch(() => {});
        if (id > (this.issued.get(name) ?? 0)) this.issued.set(name, id);
        return id;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        id += 1 + Math.floor(Math.random() * (attempt + 1));
      }
    }
    throw new AppError(503, 'unavailable', 'Too many concurrent creates; try again', undefined, { 'Retry-After': '1' });
  }
}
