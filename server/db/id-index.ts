// Lists served by exact lookups (docs/storage.md "Lists by exact lookups"): the IDs of what one key holds
// (an organization's monitors, a monitor's screens, a user's numbers) in one document under
// "<noun>:<key>", so listing reads that document and each listed one by _id, whatever other keys hold.
// The index changes under a claim lock per key, one writer at a time across processes. An ID is added
// before its document is inserted and removed after it was deleted, so the index never misses a
// document; an ID without a document is skipped by the reader. An index that was never written is
// built once from `scan` (documents stored before the index existed).
import { Schema, type Connection, type Model } from 'mongoose';
import { withClaimLock, type LockDoc } from './claim-lock.js';

export interface IdIndexDoc {
  _id: string;
  ids: string[];
}

/** Registers an index collection (each area its own). */
export function idIndexModel(conn: Connection, modelName: string, collection: string): Model<IdIndexDoc> {
  return conn.model<IdIndexDoc>(
    modelName,
    new Schema<IdIndexDoc>({ _id: String, ids: { type: [String], default: [] } }, { versionKey: false }),
    collection,
  );
}

/** One noun's index: `scan` finds the IDs of a key the slow way, once, for data from before the index. */
export class IdIndex {
  constructor(
    private readonly model: Model<IdIndexDoc>,
    private readonly locks: Model<LockDoc>,
    private readonly noun: string,
    private readonly scan: (key: string) => Promise<string[]>,
    /**
     * False for keys that outsiders name (an inbound sender's number): a key that holds nothing is then
     * answered by its scan each time instead of storing an empty entry for it.
     */
    private readonly keepEmpty = true,
  ) {}

  /** The IDs under `key`, in the order they were added. */
  async ids(key: string | number): Promise<string[]> {
    const entry = await this.model.findById(this.keyOf(key)).lean();
    if (entry) return entry.ids;
    if (!this.keepEmpty && (await this.scan(String(key))).length === 0) return [];
    return this.change(key, (ids) => ids);
  }

  /** Adds `id` under `key` (before its document is written). */
  async add(key: string | number, id: string): Promise<void> {
    await this.change(key, (ids) => [...ids, id]);
  }

  /** Removes `id` from `key` (after its document was deleted, or when its insert failed). */
  async remove(key: string | number, id: string): Promise<void> {
    await this.change(key, (ids) => ids.filter((i) => i !== id));
  }

  /** Loads the documents under `key` by exact lookups; IDs without a document are skipped. */
  async load<D>(key: string | number, find: (id: string) => Promise<D | null>): Promise<D[]> {
    const docs = await Promise.all((await this.ids(key)).map(find));
    return docs.filter((d): d is Awaited<D> & D => d !== null);
  }

  private keyOf(key: string | number): string {
    return `${this.noun}:${key}`;
  }

  // Read-modify-write of one key's index, one at a time across processes.
  private async change(key: string | number, change: (ids: string[]) => string[]): Promise<string[]> {
    const id = this.keyOf(key);
    return withClaimLock(this.locks, `id-index:${id}`, async () => {
      const entry = await this.model.findById(id).lean();
      const ids = [...new Set(change(entry ? entry.ids : await this.scan(String(key))))];
      if (!entry || ids.length !== entry.ids.length || ids.some((v, k) => v !== entry.ids[k])) {
        await this.model.replaceOne({ _id: id }, { ids }, { upsert: true });
      }
      return ids;
    });
  }
}
