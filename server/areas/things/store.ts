// The things area's records: a collection per organization (docs/storage.md "Partitioned by
// organization"), so an entity's list, its count and the organization's usage read that organization's
// records only, however many another holds. Operations that name a record by ID alone (T8, T9) find its
// organization through the record's home, an exact _id lookup. Records of an installation from before
// the partitions (one collection, things_records) are moved into them before the first use.
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { insertAllowingDuplicates } from '../../db/errors.js';
import { thingsModels, type RecordDoc } from './models.js';

/** The collection all records lived in before the partitions. */
const LEGACY = 'things_records';
const MOVE_BATCH = 1000;

/** Records by organization, and the homes that tell a record's organization from its ID. */
export class RecordStore {
  private migration: Promise<void> | undefined;
  // A restore (server/db/generation.ts) may bring records of the old layout back: they are moved again.
  private migratedIn = -1;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  /** The organization's record collection. */
  async of(organizationId: number): Promise<Model<RecordDoc>> {
    await this.migrated();
    return thingsModels(this.db).records.of(organizationId);
  }

  /** A record by ID, with its organization's collection; null when there is none. */
  async find(recordId: string): Promise<{ records: Model<RecordDoc>; record: RecordDoc } | null> {
    await this.migrated();
    const home = await thingsModels(this.db).ThingRecordHome.findById(recordId).lean();
    if (!home) return null;
    const records = await this.of(home.organizationID);
    const record = await records.findById(recordId).lean();
    return record && { records, record };
  }

  /**
   * Writes the homes of records about to be inserted: a home always exists before its record, so a
   * record is never unreachable; a home whose record never came (its insert lost every slot) finds nothing.
   */
  async addHomes(organizationId: number, recordIds: string[]): Promise<void> {
    if (recordIds.length === 0) return;
    // A draft retried for another slot keeps its ID: its home is there already.
    await insertAllowingDuplicates(
      thingsModels(this.db).ThingRecordHome.collection,
      recordIds.map((_id) => ({ _id, organizationID: organizationId })),
    );
  }

  /** Removes the homes of deleted records, each by an exact _id delete (one command). */
  async removeHomes(recordIds: string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await thingsModels(this.db).ThingRecordHome.bulkWrite(
      recordIds.map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  }

  private migrated(): Promise<void> {
    if (this.migratedIn !== this.db.generation.current) {
      this.migratedIn = this.db.generation.current;
      this.migration = undefined;
    }
    this.migration ??= this.moveLegacy().catch((err: unknown) => {
      this.migration = undefined;
      this.log.error({ err }, "things records could not be moved into their organizations' collections");
      throw err;
    });
    return this.migration;
  }

  // Copies the old collection's records into their organizations' collections (a record another process
  // copied first is left as it is), writes their homes, and removes them from the old collection.
  private async moveLegacy(): Promise<void> {
    const legacy = this.db.conn.collection<RecordDoc>(LEGACY);
    const { records } = thingsModels(this.db);
    for (;;) {
      const batch = await legacy.find({}).limit(MOVE_BATCH).toArray();
      if (batch.length === 0) return;
      const byOrganization = new Map<number, RecordDoc[]>();
      for (const doc of batch)
        byOrganization.set(doc.organizationID, [...(byOrganization.get(doc.organizationID) ?? []), doc]);
      for (const [organizationId, docs] of byOrganization) {
        await this.addHomes(
          organizationId,
          docs.map((d) => d._id),
        );
        await insertAllowingDuplicates((await records.of(organizationId)).collection, docs);
      }
      await legacy.deleteMany({ _id: { $in: batch.map((d) => d._id) } });
      this.log.info({ moved: batch.length }, "things records moved into their organizations' collections");
    }
  }
}
