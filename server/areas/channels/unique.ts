// Unique indexes decide races between writes on both engines; this turns their violation into a 409.
import { isDuplicateKey } from '../../db/errors.js';
import { conflict } from '../../errors.js';

/** Runs a write; a unique index violation becomes 409 conflict with `message`. */
export async function uniquely<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateKey(err)) throw conflict('conflict', message);
    throw err;
  }
}
