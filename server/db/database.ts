// One mongoose connection per service instance, with every model registered and every index built.
import mongoose, { type Connection } from 'mongoose';
import { appModels, type AppModels } from '../areas/app/models.js';
import { channelModels, type ChannelModels } from '../areas/channels/models.js';
import { monitorModels, type MonitorModels } from '../areas/monitor/models.js';
import { screenModels, type ScreenModels } from '../areas/screens/models.js';
import { smsModels, type SmsModels } from '../areas/sms/models.js';
import { journalModels, type JournalModels } from '../areas/journal/models.js';
import { elsCobraModels, type ElsCobraModels } from '../areas/els-cobra/models.js';
import { thingsModels, type ThingsModels } from '../areas/things/models.js';
import { identityModels, type IdentityModels } from '../identity/models.js';
import type { ChainModels } from './chain.js';
import { chainModels } from './chain-models.js';
import { IdAllocator } from './ids.js';
import { Revisions } from './revisions.js';
import { systemModels, type SystemModels } from './system.js';

export interface Database {
  conn: Connection;
  models: IdentityModels & MonitorModels & SystemModels & ScreenModels & ChannelModels & AppModels & SmsModels & JournalModels & ElsCobraModels & ThingsModels;
  /** The collections of every version chain (server/db/chain.ts). */
  chains: ChainModels;
  ids: IdAllocator;
  /** Read-modify-writes of single documents that keep every concurrent writer's change. */
  revisions: Revisions;
  /** True while the driver can reach the server (a ping proves it). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const DEFAULT_DB_NAME = 'alarmhub';

function hasDatabaseName(uri: string): boolean {
  const afterHosts = uri.replace(/^mongodb(\+srv)?:\/\/[^/]*/, '');
  return /^\/[^?]+/.test(afterHosts);
}

/** Connection pool settings (MONGODB_POOL_SIZE, MONGODB_WAIT_QUEUE_TIMEOUT_MS). */
export interface PoolOptions {
  maxPoolSize?: number;
  waitQueueTimeoutMS?: number;
}

/** Connects, registers models and awaits their indexes so a failed index build fails loudly. */
export async function openDatabase(uri: string, pool: PoolOptions = {}): Promise<Database> {
  const conn = mongoose.createConnection(uri, {
    // A URI without a database name gets ours rather than the driver's "test".
    ...(hasDatabaseName(uri) ? {} : { dbName: DEFAULT_DB_NAME }),
    autoIndex: false,
    // Without buffering a request fails at once (503) while the database is away instead of hanging.
    bufferCommands: false,
    serverSelectionTimeoutMS: 5_000,
    // No request waits without bound for a connection or an answer.
    waitQueueTimeoutMS: pool.waitQueueTimeoutMS ?? 10_000,
    socketTimeoutMS: 30_000,
    maxPoolSize: pool.maxPoolSize ?? 20,
    monitorCommands: true,
  });
  await conn.asPromise();
  const models = {
    ...identityModels(conn), ...monitorModels(conn), ...systemModels(conn), ...screenModels(conn),
    ...channelModels(conn), ...appModels(conn), ...smsModels(conn), ...journalModels(conn), ...elsCobraModels(conn),
    ...thingsModels(conn),
  };
  const chains = chainModels(conn);
  for (const model of [...Object.values(models), ...Object.values(chains)]) await model.init().then(() => model.createIndexes());
  const ids = new IdAllocator(conn);
  return {
    conn,
    models,
    chains,
    ids,
    revisions: new Revisions(models.RevisionClaim),
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
