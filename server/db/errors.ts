// Database errors in one place: what a client caused becomes a 4xx, an unreachable database a 503.
import { AppError, badRequest, conflict, unavailable } from '../errors.js';

// The database cannot be reached, or cannot take the request now (a full or cleared connection pool,
// a timeout): the client is told to come back (503 with Retry-After), never that it caused an error.
const UNREACHABLE = new Set([
  'MongoNetworkError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoNetworkTimeoutError',
  'MongooseServerSelectionError',
  'MongoWaitQueueTimeoutError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoPoolClosedError',
  'MongoOperationTimeoutError',
  'MongoServerClosedError',
  'MongoClientClosedError',
]);

/**
 * True for a duplicate key on either engine. FerretDB reports code 1 for an update that violates a unique
 * index, with SQLite's "UNIQUE constraint failed".
 */
export function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: number; message?: string };
  return e?.code === 11000 || (e?.code === 1 && /duplicate key|UNIQUE constraint failed/i.test(e.message ?? ''));
}

/** Inserts `doc`: true when this insert took its _id, false when another had (any other failure is thrown). */
export async function insertOnce(model: { create(doc: object): Promise<unknown> }, doc: object): Promise<boolean> {
  try {
    await model.create(doc);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/**
 * Inserts `docs` unordered; returns the indexes of those whose _id or unique key was taken (by another
 * writer, or an earlier try). Any other failure is thrown.
 */
export async function insertAllowingDuplicates(
  collection: { insertMany(docs: never[], options: { ordered: boolean }): Promise<unknown> },
  docs: object[],
): Promise<Set<number>> {
  try {
    // The driver's own insertMany reports which documents failed; its types assume ObjectId _ids.
    await collection.insertMany(docs as never[], { ordered: false });
    return new Set();
  } catch (err) {
    const list = writeErrorsOf(err);
    if (list.length === 0 || list.some((e) => !isDuplicateKey({ code: e.code, message: e.errmsg }))) throw err;
    return new Set(list.map((e) => e.index));
  }
}

/**
 * Inserts `docs` in order, stopping at the first failure: how many were inserted, and the failure with
 * whether it was a taken _id or unique key. After a failure that names no document (the connection
 * broke), `inserted` is 0 although some may be stored, as after a failed single insert.
 */
export async function insertInOrder(
  collection: { insertMany(docs: never[], options: { ordered: boolean }): Promise<unknown> },
  docs: object[],
): Promise<{ inserted: number; failure?: unknown; duplicate?: boolean }> {
  try {
    await collection.insertMany(docs as never[], { ordered: true });
    return { inserted: docs.length };
  } catch (err) {
    const list = writeErrorsOf(err);
    if (list.length === 0) return { inserted: 0, failure: err, duplicate: isDuplicateKey(err) };
    const first = list.reduce((a, b) => (b.index < a.index ? b : a));
    return {
      inserted: first.index,
      failure: err,
      duplicate: isDuplicateKey({ code: first.code, message: first.errmsg }),
    };
  }
}

// A bulk write's failures by document: the driver gives one or a list, or none when the failure names no document.
function writeErrorsOf(err: unknown): WriteError[] {
  const writeErrors = (err as { writeErrors?: WriteError[] | WriteError }).writeErrors;
  return writeErrors === undefined ? [] : Array.isArray(writeErrors) ? writeErrors : [writeErrors];
}

interface WriteError {
  index: number;
  code: number;
  errmsg?: string;
}

const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED']);

// The driver's labels for an operation that failed on the way (the connection, not the request): a
// retry may succeed, so the client is told to come back.
const TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'ResetPool', 'NoWritesPerformed'];

// An error the database's going away caused, also when another error carries it (a bulk write or a
// wrapped driver error whose cause was the connection), or when the driver labels it transient.
function unreachable(err: unknown, depth = 0): boolean {
  const e = err as { name?: string; cause?: unknown; hasErrorLabel?: (label: string) => boolean } | null;
  if (!e || typeof e !== 'object' || depth > 4) return false;
  if (e.name && UNREACHABLE.has(e.name)) return true;
  // The driver may let a socket's own error through unwrapped: a write to a database that just died
  // (EPIPE, "This socket has been ended by the other party").
  if (SOCKET_CODES.has(String((err as { code?: unknown }).code))) return true;
  if (typeof e.hasErrorLabel === 'function' && TRANSIENT_LABELS.some((label) => e.hasErrorLabel!(label))) return true;
  return unreachable(e.cause, depth + 1);
}

// The embedded engine's SQLite, busy past its timeout or with its schema changed twice during one
// statement's preparation (a collection or index created meanwhile): nothing was done, a retry succeeds.
const ENGINE_TRANSIENT = /\b(database is locked \(5\)|database schema has changed \(17\))/;

/** Maps a database error to an AppError, or null when it is not one we know. */
export function translateDbError(err: unknown): AppError | null {
  const e = err as { name?: string; message?: string };
  if (!e || typeof e !== 'object') return null;
  if (unreachable(err)) return unavailable('The database is unavailable');
  if (e.name === 'MongoServerError' && ENGINE_TRANSIENT.test(e.message ?? '')) {
    return unavailable('The database is busy; try again');
  }
  if (
    e.name === 'MongooseError' &&
    /buffering timed out|not connected|Client must be connected/i.test(e.message ?? '')
  ) {
    return unavailable('The database is unavailable');
  }
  if (e.name === 'CastError') return badRequest('invalid_parameter', 'A parameter is in wrong format');
  if (isDuplicateKey(err)) return conflict('conflict', 'The resource changed concurrently or already exists');
  return null;
}
