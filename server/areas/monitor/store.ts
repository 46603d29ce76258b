// Where monitors live: the monitor document plus two version chains per monitor, its configuration
// ("config:<id>", one revision per change) and its data ("data:<id>", one version per write). Every
// read on a hot path is an exact string-_id lookup; concurrent changes on several processes each get
// their own revision or version, so none is lost and no two share a number.
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { ByteCache } from '../../db/byte-cache.js';
import { Chain, type Version, type VersionRef } from '../../db/chain.js';
import { IdIndex } from '../../db/id-index.js';
import { Recent } from '../../db/recent.js';
import { AppError, notFound } from '../../errors.js';
import { monitorModels, type MonitorDoc } from './models.js';
import {
  applyWrite,
  emptyData,
  type DataWrite,
  type JsonObject,
  type MonitorData,
} from '../../../common/monitor-data.js';

/** The fields of a monitor that change over its life. */
export interface MonitorConfig {
  name: string;
  configuration: JsonObject;
  configurationSplitScreen: JsonObject;
  configurationStandby: JsonObject;
  standbyDelay: number;
  /** Set only on the tombstone revision a deletion leaves (see remove). */
  deleted?: true;
}

/** A monitor as stored: identity, organization, configuration and its revision. */
export interface MonitorRecord {
  id: number;
  organizationID: number;
  revision: number;
  config: MonitorConfig;
}

/** Largest monitor data (all four maps as UTF-8 JSON); a write that would exceed it is refused. */
export const MONITOR_DATA_MAX_BYTES = 4 * 1024 * 1024;

const configKey = (id: number) => `config:${id}`;
const dataKey = (id: number) => `data:${id}`;
const gone = () => notFound('Monitor not found');
const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A monitor's identity: what data operations are authorized on. It never changes. */
export interface MonitorOwner {
  id: number;
  organizationID: number;
}

const OWNERS_KEPT = 100_000;
// Thrown by a deletion's tombstone step that finds one already written.
const ALREADY_DELETED = new Error('already deleted');
const RECORDS_BYTES = 16 * 1024 * 1024;
/**
 * How long a remembered monitor is answered with one lookup (a database restored under running processes is seen after
 * this).
 */
const RECORD_TRUST_MS = 10_000;

/** Monitors and their data over the chains. */
export class MonitorStore {
  private readonly configs: Chain<MonitorConfig>;
  private readonly data: Chain<MonitorData>;
  // A monitor never moves to another organization and its ID is never reused, so its owner is kept (the
  // most recently used ones): data reads and writes need no read of the monitor. A monitor deleted by another
  // process is still noticed there: its data history is gone.
  private readonly owners: Recent<number, number>;
  // Owner reads in flight: a storm's first screens of a monitor all wait for one (the owner never changes).
  private readonly ownerReads = new Map<number, Promise<number | null>>();
  // Monitors as last read here: answered again after one exact lookup shows no newer configuration
  // revision. A deletion leaves a tombstone revision, so it is seen by that lookup too.
  private readonly records: ByteCache<{ record: MonitorRecord; at: number }>;

  // An organization's monitors, listed by exact lookups (docs/storage.md "Lists by exact lookups").
  private readonly byOrganization: IdIndex;

  constructor(
    private readonly db: Database,
    log?: Pick<Logger, 'warn'>,
  ) {
    const { Monitor, MonitorIndex } = monitorModels(db);
    this.owners = new Recent(OWNERS_KEPT, db.generation);
    this.records = new ByteCache(RECORDS_BYTES, db.generation);
    this.byOrganization = new IdIndex(MonitorIndex, db.system.Lock, 'monitors', async (organizationID) =>
      (await Monitor.find({ organizationID: Number(organizationID) }, { _id: 1 }).lean())
        .map((d) => d._id)
        .sort((a, b) => Number(a) - Number(b)),
    );
    this.configs = new Chain<MonitorConfig>(db.chains, db.generation, {
      maxBodyBytes: 2 * 1024 * 1024,
      tooLarge: (bytes) => tooLarge('configuration', bytes, 2 * 1024 * 1024),
      cacheBytes: 8 * 1024 * 1024,
      log,
    });
    this.data = new Chain<MonitorData>(db.chains, db.generation, {
      maxBodyBytes: MONITOR_DATA_MAX_BYTES,
      tooLarge: (bytes) => tooLarge('data', bytes, MONITOR_DATA_MAX_BYTES),
      log,
    });
  }

  /** Creates a monitor with its first configuration revision and empty data (version 0). */
  async create(organizationID: number, config: MonitorConfig): Promise<MonitorRecord> {
    const id = await this.db.ids.next('monitor');
    const genesis = await this.configs.start(configKey(id), config);
    await this.data.start(dataKey(id), emptyData());
    await this.byOrganization.add(organizationID, String(id));
    await monitorModels(this.db).Monitor.create({
      _id: String(id),
      organizationID,
      revision: genesis.n,
      config: JSON.stringify(config),
      createdAt: new Date(),
    });
    this.owners.set(id, organizationID);
    return { id, organizationID, revision: genesis.n, config };
  }

  /** The monitor's organization, from memory once known; null when there is no such monitor. */
  async owner(id: number): Promise<MonitorOwner | null> {
    const known = this.owners.get(id);
    if (known !== undefined) return { id, organizationID: known };
    const running = this.ownerReads.get(id);
    // A shared read that found nothing may have begun before the monitor was created: asked again, in
    // one read shared by the callers that found nothing together.
    const again = () => {
      const newer = this.ownerReads.get(id);
      return newer && newer !== running ? newer : this.readOwner(id);
    };
    const organizationID = (running && (await running)) ?? (await again());
    return organizationID === null ? null : { id, organizationID };
  }

  // The whole document: the subscription or data read that follows the check of the right to read
  // (a reconnect storm's first screen of each monitor) then starts from it as a kept record, which is
  // answered only after the lookup that shows no newer configuration revision (get).
  private readOwner(id: number): Promise<number | null> {
    const read: Promise<number | null> = monitorModels(this.db)
      .Monitor.findById(String(id))
      .lean()
      .then((doc) => {
        if (!doc) return null;
        this.owners.set(id, doc.organizationID);
        if (!this.records.get(String(id)))
          this.keepRecord(
            {
              id,
              organizationID: doc.organizationID,
              revision: doc.revision,
              config: JSON.parse(doc.config) as MonitorConfig,
            },
            doc.config.length,
          );
        return doc.organizationID;
      })
      .finally(() => {
        if (this.ownerReads.get(id) === read) this.ownerReads.delete(id);
      });
    this.ownerReads.set(id, read);
    return read;
  }

  /** The monitor with its newest configuration, or null. */
  async get(id: number): Promise<MonitorRecord | null> {
    const kept = this.records.get(String(id));
    if (
      kept &&
      Date.now() - kept.at < RECORD_TRUST_MS &&
      !(await this.configs.newerThan(configKey(id), kept.record.revision))
    )
      return kept.record;
    const doc = await monitorModels(this.db).Monitor.findById(String(id)).lean();
    const record = doc ? await this.current(doc) : null;
    if (record) this.keepRecord(record, doc!.config.length);
    else this.records.delete(String(id));
    return record;
  }

  /** The monitors of an organization, by ID. */
  async list(organizationID: number): Promise<MonitorRecord[]> {
    const { Monitor } = monitorModels(this.db);
    const docs = (await this.byOrganization.load(organizationID, (id) => Monitor.findById(id).lean())).filter(
      (d) => d.organizationID === organizationID,
    );
    const records = await Promise.all(docs.map((doc) => this.current(doc)));
    return records.filter((r): r is MonitorRecord => r !== null).sort((a, b) => a.id - b.id);
  }

  /** Applies `change` to the newest configuration as a new revision. */
  async update(record: MonitorRecord, change: (config: MonitorConfig) => MonitorConfig): Promise<MonitorRecord> {
    const next = await this.configs.append(
      configKey(record.id),
      (head) => {
        if (head.body.deleted) throw gone();
        return change(head.body);
      },
      gone,
    );
    // The copy on the document is a hint: a lagging or reordered copy is corrected by readers.
    const json = JSON.stringify(next.body);
    await monitorModels(this.db).Monitor.updateOne(
      { _id: String(record.id) },
      { $set: { revision: next.n, config: json } },
    );
    const updated = { ...record, revision: next.n, config: next.body };
    this.keepRecord(updated, json.length);
    return updated;
  }

  /** Deletes the monitor and both histories; true when it was there. */
  async remove(id: number): Promise<boolean> {
    const owner = await this.owner(id);
    this.owners.delete(id);
    this.records.delete(String(id));
    // The tombstone first: a process that remembers the monitor finds it with its one lookup. It stays
    // (a small link per deleted monitor; IDs are never reused). A deletion racing another one (two
    // processes) keeps the tombstone it finds instead of writing its own: each keeping its own would
    // remove the other's, and none would be left.
    let found: number | undefined;
    const tombstone = await this.configs
      .append(
        configKey(id),
        (head) => {
          if (head.body.deleted) {
            found = head.n;
            throw ALREADY_DELETED;
          }
          return { ...head.body, deleted: true as const };
        },
        gone,
      )
      .catch((err: unknown) => {
        if (err === ALREADY_DELETED) return { n: found! };
        if (err instanceof AppError && err.status === 404) return null;
        throw err;
      });
    const { deletedCount } = await monitorModels(this.db).Monitor.deleteOne({ _id: String(id) });
    if (owner) await this.byOrganization.remove(owner.organizationID, String(id));
    await this.configs.remove(configKey(id), tombstone?.n);
    await this.data.remove(dataKey(id));
    return deletedCount > 0;
  }

  /** The newest data version with its data. */
  async latestData(id: number): Promise<Version<MonitorData>> {
    const latest = await this.data.latest(dataKey(id));
    if (!latest) throw gone();
    return latest;
  }

  /** The newest data version's number and epoch, without the data. */
  async dataVersion(id: number): Promise<VersionRef> {
    const ref = await this.data.newest(dataKey(id));
    if (!ref) throw gone();
    return ref;
  }

  /** Appends the data `make` builds from the newest version (called again when another process won it). */
  appendData(
    id: number,
    make: (head: Version<MonitorData>) => MonitorData,
  ): Promise<Version<MonitorData> & { base: string }> {
    return this.data.append(dataKey(id), make, gone);
  }

  /**
   * True when this process has seen data version `n` of the monitor (or a later one) stored: its patch is on its way.
   */
  dataStored(id: number, n: number): boolean {
    return this.data.stored(dataKey(id), n);
  }

  /** Data writes that found their version taken by another process's and were built again. */
  get dataCollisions(): number {
    return this.data.collisions;
  }

  /** Takes in a data version another process wrote (its published write), so writes here build on it. */
  learnData(id: number, ref: VersionRef, base: string, write: DataWrite): void {
    this.data.learn(dataKey(id), ref, base, (head) => applyWrite(head, write));
  }

  private keepRecord(record: MonitorRecord, bytes: number): void {
    this.records.set(String(record.id), { record, at: Date.now() }, bytes + 200);
  }

  private async current(doc: MonitorDoc): Promise<MonitorRecord | null> {
    const id = Number(doc._id);
    this.owners.set(id, doc.organizationID);
    const base = { id, organizationID: doc.organizationID };
    if (!(await this.configs.newerThan(configKey(id), doc.revision))) {
      return { ...base, revision: doc.revision, config: JSON.parse(doc.config) as MonitorConfig };
    }
    const latest = await this.configs.latest(configKey(id));
    return latest && !latest.body.deleted ? { ...base, revision: latest.n, config: latest.body } : null;
  }
}

function tooLarge(what: string, bytes: number, limit: number): AppError {
  return new AppError(
    413,
    'payload_too_large',
    `The monitor's ${what} would grow to ${mebibytes(bytes)}; the limit is ${mebibytes(limit)} (${limit} bytes of JSON)`,
    [
      {
        in: 'body',
        path: '(body)',
        problem: `would make the monitor's ${what} ${bytes} bytes, over the limit of ${limit}`,
      },
    ],
  );
}
