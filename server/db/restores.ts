// A restore under running processes (`admin backup restore --replace`) replaces the database's history
// while the processes still hold what they learned from the old one: monitors' organizations, heads of
// histories, sockets in monitors' rooms. The restore leaves a mark (a random generation, one document
// read by its exact _id); each process looks at it every RESTORE_CHECK_MS and, when it changed, drops
// its cached facts and lets its hub connections go, so every screen authenticates and subscribes again
// against the restored data. (docs/operating.md, "Backups".)
import { randomBytes } from 'node:crypto';
import type { mongo } from 'mongoose';
import type { Logger } from 'pino';
import type { CacheGeneration } from './generation.js';

/** Where the mark lives: beside the installation's identity. */
const COLLECTION = 'installation';
const MARK = 'restored';

/** How often a running process looks for a restore. */
export const RESTORE_CHECK_MS = 2_000;

interface MarkDoc {
  _id: string;
  generation: string;
  at: Date;
}

/** Written by a restore after it loaded everything. */
export async function markRestored(db: mongo.Db): Promise<void> {
  await db
    .collection<MarkDoc>(COLLECTION)
    .updateOne(
      { _id: MARK },
      { $set: { generation: randomBytes(8).toString('hex'), at: new Date() } },
      { upsert: true },
    );
}

/** The restore mark now (null: never restored). */
export async function readMark(db: mongo.Db): Promise<string | null> {
  return (
    (await db.collection<MarkDoc>(COLLECTION).findOne({ _id: MARK }, { projection: { generation: 1 } }))?.generation ??
    null
  );
}

/** Watches for restores: `check` (the scheduler runs it every RESTORE_CHECK_MS) calls `restored` after a restore. */
export async function watchRestores(
  db: mongo.Db,
  generation: CacheGeneration,
  log: Pick<Logger, 'warn'>,
  restored: () => void,
): Promise<{ check(): Promise<void> }> {
  let seen = await readMark(db);
  return {
    async check() {
      const mark = await readMark(db);
      if (mark === seen) return;
      seen = mark;
      generation.forget();
      log.warn(
        'the database was restored from a backup: cached facts dropped, hub connections closed so screens ' +
          'subscribe again',
      );
      restored();
    },
  };
}
