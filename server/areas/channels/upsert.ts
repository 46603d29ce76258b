// Settings stored one document per key (disable flags, the sms formatter): the last write wins.
import type { Model } from 'mongoose';
import { isDuplicateKey } from '../../db/errors.js';

/** Sets fields of the document with this _id, creating it when it does not exist yet. */
export async function setById<D extends { _id: string }>(model: Model<D>, id: string, set: Partial<D>): Promise<void> {
  const write = (upsert: boolean) => model.updateOne({ _id: id } as never, { $set: set }, { upsert });
  try {
    await write(true);
  } catch (err) {
    // Two first-ever writes race on the _id: the document now exists, so the loser simply sets it.
    if (!isDuplicateKey(err)) throw err;
    await write(false);
  }
}
