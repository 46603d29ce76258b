// One mongoose connection per service instance, with every model registered and every index built.
import mongoose, { type Connection } from 'mongoose';
import { monitorModels, type MonitorModels } from '../areas/monitor/models.js';
import { thingsModels, type ThingsModels } from '../areas/things/models.js';
import { identityModels, type IdentityModels } from '../identity/models.js';
import { IdAllocator } from './ids.js';

export interface Database {
  conn: Connection;
  models: IdentityModels & MonitorModels & ThingsModels;
  ids: IdAllocator;
  /** True while the driver can reach the server (a ping proves it). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const DEFAULT_DB_NAME = 'alarmhub';

function hasDatabaseName(uri: string): boolean {
  const afterHosts = uri.replace(/^mongodb(\+srv)?:\/\/[^/]*/, '');
  return /^\/[^?]+/.test(afterHosts);
}

/** Connects, registers models and awaits their indexes so a failed index build fails loudly. */
export async function openDatabase(uri: string): Promise<Database> {
  const conn = mongoose.createConnection(uri, {
    // A URI without a database name gets ours rather than the driver's "test".
    ...(hasDatabaseName(uri) ? {} : { dbName: DEFAULT_DB_NAME }),
    autoIndex: false,
    // Without buffering a request fails at once (503) while the database is away instead of hanging.
    bufferCommands: false,
    serverSelectionTimeoutMS: 5_000,
    // No request waits without bound for a connection or an answer.
    waitQueueTimeoutMS: 10_000,
    socketTimeoutMS: 30_000,
    maxPoolSize: 20,
  });
  await conn.asPromise();
  const models = { ...identityModels(conn), ...monitorModels(conn), ...thingsModels(conn) };
  for (const model of Object.values(models)) await model.init().then(() => model.createIndexes());
  const ids = new IdAllocator(conn);
  return {
    conn,
    models,
    ids,
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
