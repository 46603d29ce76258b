// One mongoose connection per service instance, with the models of every set it opens with registered
// and their indexes built. An area's collections are the area's (server/db/models.ts).
import mongoose, { type Connection } from 'mongoose';
import type { ChainModels } from './chain.js';
import { chainModels } from './chain-models.js';
import { CacheGeneration } from './generation.js';
import { IdAllocator } from './ids.js';
import { BOOKKEEPING_IN_FLIGHT, Lane } from './lane.js';
import type { ModelSet } from './models.js';
import { Revisions } from './revisions.js';
import { systemModels, type SystemModels } from './system.js';

export interface Database {
  conn: Connection;
  /** The service's own collections: the installation, hub processes, claim locks, revision claims. */
  system: SystemModels;
  /** The collections of every version chain (server/db/chain.ts). */
  chains: ChainModels;
  ids: IdAllocator;
  /** Read-modify-writes of single documents that keep every concurrent writer's change. */
  revisions: Revisions;
  /** The generation of every cache of facts read from this database (moved on by a restore). */
  generation: CacheGeneration;
  /** Writes nobody waits for (a screen's health, a credential's last use), a few at a time (lane.ts). */
  bookkeeping: Lane;
  /** True while the driver can reach the server (a ping proves it). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const DEFAULT_DB_NAME = 'alarmhub';

function hasDatabaseName(uri: string): boolean {
  const afterHosts = uri.replace(/^mongodb(\+srv)?:\/\/[^/]*/, '');
  return /^\/[^?]+/.test(afterHosts);
}

/** Connection settings: the pool (MONGODB_POOL_SIZE, MONGODB_WAIT_QUEUE_TIMEOUT_MS) and command events. */
export interface DatabaseOptions {
  maxPoolSize?: number;
  waitQueueTimeoutMS?: number;
  /**
   * The driver's command events (commandStarted…), for tests that count a request's commands. Off in
   * the service: with it on, the driver copies every command and decodes every reply a second time
   * for events nobody reads.
   */
  monitorCommands?: boolean;
  /**
   * False: the indexes are left as they are (the admin command, on a database the service opened
   * before; its writes rely on _ids alone). Default true.
   */
  buildIndexes?: boolean;
}

/**
 * Connects, registers the service's own models and those of each set (every area's: server/areas/index.ts)
 * and awaits their indexes so a failed index build fails loudly.
 */
export async function openDatabase(uri: string, sets: ModelSet[], options: DatabaseOptions = {}): Promise<Database> {
  const conn = mongoose.createConnection(uri, {
    // A URI without a database name gets ours rather than the driver's "test".
    ...(hasDatabaseName(uri) ? {} : { dbName: DEFAULT_DB_NAME }),
    autoIndex: false,
    // Without buffering a request fails at once (503) while the database is away instead of hanging.
    bufferCommands: false,
    serverSelectionTimeoutMS: 5_000,
    // No request waits without bound for a connection or an answer.
    waitQueueTimeoutMS: options.waitQueueTimeoutMS ?? 10_000,
    socketTimeoutMS: 30_000,
    maxPoolSize: options.maxPoolSize ?? 20,
    monitorCommands: options.monitorCommands ?? false,
  });
  await conn.asPromise();
  const system = systemModels(conn);
  const chains = chainModels(conn);
  for (const set of sets) set({ conn });
  if (options.buildIndexes !== false) await buildIndexes(conn);
  const ids = new IdAllocator(conn);
  const generation = new CacheGeneration();
  return {
    conn,
    system,
    chains,
    ids,
    revisions: new Revisions(system.RevisionClaim, generation),
    generation,
    bookkeeping: new Lane(BOOKKEEPING_IN_FLIGHT),
    async ping() {
      try {
        await conn.db!.admin().command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },
    close: () => conn.close(),
  };
}

/** Creates the indexes of every model registered on the connection (at start and after a restore). */
export async function buildIndexes(conn: Connection): Promise<void> {
  for (const model of Object.values(conn.models)) await model.init().then(() => model.createIndexes());
}
