// Sequential int64 IDs that stay unique under concurrent creates on MongoDB and on FerretDB.
// FerretDB's $inc is read-modify-write without a lock, so two callers may draw the same number;
// the guarantee therefore rests on the unique _id of the inserted document: a collision draws again.
import { Schema, type Connection, type Model } from 'mongoose';
import { MAX_SAFE_ID } from '../../schemas/common.js';
import { AppError } from '../http/errors.js';
import { isDuplicateKey } from './errors.js';

interface Counter {
  _id: string;
  seq: number;
}

const MAX_ATTEMPTS = 100;

/** Draws IDs per resource name and inserts with them. */
export class IdAllocator {
  private readonly counters: Model<Counter>;

  constructor(conn: Connection) {
    this.counters = conn.model<Counter>('Counter', new Schema<Counter>({ _id: String, seq: Number }, { versionKey: false }), 'counters');
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
   * Runs `insert` with a fresh ID for `name`; when the ID was taken meanwhile (`exists` says so), draws again.
   * A duplicate key of another unique index is passed on to the caller.
   */
  async create<T>(name: string, insert: (id: number) => Promise<T>, exists: (id: number) => Promise<boolean>): Promise<T> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const id = await this.draw(name);
      if (id > MAX_SAFE_ID) throw new AppError(507, 'id_space_exhausted', `No more ${name} IDs can be assigned`);
      try {
        return await insert(id);
      } catch (err) {
        if (!isDuplicateKey(err) || !(await exists(id))) throw err;
      }
    }
    throw new AppError(503, 'unavailable', 'Too many concurrent creates; try again', undefined, { 'Retry-After': '1' });
  }
}
