// Sequential int64 IDs that stay unique under concurrent creates on MongoDB and on FerretDB, and are
// never issued twice, not even after their resource was deleted.
// FerretDB's $inc is read-modify-write without a lock, so two callers may draw the same number (and
// the counter may even step back); the guarantee therefore rests on a claim document per ID, whose
// unique _id both engines enforce atomically. Claims are never deleted. A collision draws again.
import { Schema, type Connection, type Model } from 'mongoose';
import { MAX_SAFE_ID } from '../../schemas/common.js';
import { AppError } from '../http/errors.js';
import { isDuplicateKey } from './errors.js';

interface Counter {
  _id: string;
  seq: number;
}

interface Claim {
  _id: string;
}

const MAX_ATTEMPTS = 1_000;

/** Draws IDs per resource name. */
export class IdAllocator {
  private readonly counters: Model<Counter>;
  private readonly claims: Model<Claim>;

  constructor(conn: Connection) {
    this.counters = conn.model<Counter>('Counter', new Schema<Counter>({ _id: String, seq: Number }, { versionKey: false }), 'counters');
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
    let id = await this.draw(name);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (id > MAX_SAFE_ID) throw new AppError(500, 'internal_error', `No more ${name} IDs can be assigned`);
      try {
        await this.claims.create({ _id: `${name}:${id}` });
        if (attempt > 0) await this.counters.updateOne({ _id: name }, { $max: { seq: id } }).catch(() => {});
        return id;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        id += 1 + Math.floor(Math.random() * (attempt + 1));
      }
    }
    throw new AppError(503, 'unavailable', 'Too many concurrent creates; try again', undefined, { 'Retry-After': '1' });
  }
}
