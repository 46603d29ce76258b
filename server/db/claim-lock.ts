// A mutex across processes on MongoDB and FerretDB alike: whoever inserts the lock document (unique
// _id) holds it. For read-modify-writes of one document (an ID index, a user's memberships, an alarm's
// deliveries), which FerretDB's non-atomic updates would otherwise let two processes overwrite each
// other. A holder that dies leaves its lock for 30 s; a database that goes away while a lock is held
// does not: the lock is removed as soon as it answers again.
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { unavailable } from '../errors.js';
import { isDuplicateKey } from './errors.js';

export interface LockDoc {
  _id: string;
  at: Date;
  /** Who holds it: only its holder removes it (locks written before this field are only ever broken). */
  owner?: string;
}

/** Registers the lock collection. */
export function lockModel(conn: Connection): Model<LockDoc> {
  return conn.model<LockDoc>(
    'Lock',
    new Schema<LockDoc>({ _id: String, at: { type: Date, required: true }, owner: String }, { versionKey: false }),
    'locks',
  );
}

const STALE_MS = 30_000;
const WAIT_MS = 10_000;
const RELEASE_RETRY_MAX_MS = 1_000;

// Errors after which an insert may have been stored although its answer never came: the request may
// have reached the database before the connection failed or the time ran out. (Server selection, a
// cleared or closed pool, and the like fail before anything is sent.)
const MAYBE_SENT = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoOperationTimeoutError']);

// Removes our lock once the database answers again: a lock whose removal failed (the database went
// away while it was held) or whose insert may have been stored although its answer was lost would
// otherwise lock its key for everyone until it is stale (30 s) — a blip of the database must not cost
// that. Conditional on our owner token, so a lock someone else holds by then is never touched.
function releaseLater(locks: Model<LockDoc>, id: string, owner: string, since: number, delay = 50): void {
  if (Date.now() - since > STALE_MS) return;
  setTimeout(() => {
    locks
      .deleteOne({ _id: id, owner })
      .catch(() => releaseLater(locks, id, owner, since, Math.min(delay * 2, RELEASE_RETRY_MAX_MS)));
  }, delay).unref();
}

/**
 * Runs `task` holding the lock `key`; a lock older than 30 s (its holder died) is broken. `task` is told
 * when the lock was taken (its `at`, from which the 30 s count).
 */
export async function withClaimLock<T>(
  locks: Model<LockDoc>,
  key: string,
  task: (takenAt: number) => Promise<T>,
): Promise<T> {
  const id = `lock:${key}`;
  const deadline = Date.now() + WAIT_MS;
  let owner!: string;
  let since!: number;
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    try {
      owner = randomUUID();
      since = Date.now();
      await locks.create({ _id: id, at: new Date(since), owner });
      break;
    } catch (err) {
      if (!isDuplicateKey(err)) {
        if (MAYBE_SENT.has((err as Error).name)) releaseLater(locks, id, owner, since);
        throw err;
      }
      const held = await locks.findById(id).lean();
      if (held && Date.now() - held.at.getTime() > STALE_MS) await locks.deleteOne({ _id: id, at: held.at });
      if (Date.now() > deadline) throw unavailable('Another change of the same record is in progress; try again', 1);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  try {
    return await task(since);
  } finally {
    // Ours only: a holder that outlived STALE_MS must not remove the lock its breaker now holds. A
    // removal that fails is tried again until it succeeds; the task's outcome stands.
    await locks.deleteOne({ _id: id, owner }).catch(() => releaseLater(locks, id, owner, since));
  }
}
