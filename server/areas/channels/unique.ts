// Unique indexes decide races between writes on both engines; this turns their violation into a 409.
import { isDuplicateKey } from '../../db/errors.js';
import { conflict } from '../../http/errors.js';

/** True for a duplicate key, including FerretDB's answer to an update that violates a unique index
 * (code 1, "UNIQUE constraint failed"), which isDuplicateKey does not recognise. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: number; message?: string };
  return isDuplicateKey(err) || (e?.code === 1 && /UNIQUE constraint failed/.test(e.message ?? ''));
}

/** Runs a write; a unique index violation becomes 409 conflict with `message`. */
export async function uniquely<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('conflict', message);
    throw err;
  }
}
