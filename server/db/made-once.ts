// A document the whole installation has one of, made by the first process that needs it: the
// installation's identity (system.ts), the Web Push key pair (areas/app/vapid.ts), the answer links'
// key (areas/alarms/answer-links.ts).
import type { Model } from 'mongoose';
import { insertOnce } from './errors.js';

/**
 * The document `id` of `model`: read; when there is none, `make()` is inserted under that `id`. When
 * processes race, the first insert wins and every other process reads the winner's, so all of them
 * use the same one. Null only when the document can still not be read after the insert (a database
 * that acknowledged a write it then does not show); other errors are thrown.
 */
export async function madeOnce<T extends { _id: string }>(
  model: Model<T>,
  id: string,
  make: () => Omit<T, '_id'> | Promise<Omit<T, '_id'>>,
): Promise<T | null> {
  const found = await model.findById(id).lean<T>();
  if (found) return found;
  await insertOnce(model, { ...(await make()), _id: id });
  return model.findById(id).lean<T>();
}
