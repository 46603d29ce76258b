// A monitor's data as a chain of versions. Each version is a document with the _id
// "<monitorId>:<version>": exactly one writer gets each version, on MongoDB and on FerretDB (whose
// updates are read-modify-write without a lock). Writes to one monitor are queued per process, so only
// writers on different processes ever collide; the loser reads the winner's result and builds on it.
//
// Versions below the newest few lose their data at once, but their key stays for TOMBSTONE_MS so a
// writer holding an older base still collides with it. A base is never older than HEAD_TTL_MS +
// WRITE_DEADLINE_MS when it is used, well below TOMBSTONE_MS, so no version is ever written twice.
import type { Model } from 'mongoose';
import { isDuplicateKey } from '../../db/errors.js';
import { unavailable } from '../../http/errors.js';
import { KeyedLock } from './keyed-lock.js';
import type { MonitorStateDoc } from './models.js';
import { activeEvents, applyWrite, emptyData, type DataWrite, type MonitorData } from './reduce.js';

/** A monitor's data at one version. */
export interface VersionedData {
  version: number;
  data: MonitorData;
}

interface Head extends VersionedData {
  /** When this version was known to be the newest. */
  knownAt: number;
}

const VERSIONS_KEPT = 3;
const PRUNE_EVERY = 10;
const HEAD_TTL_MS = 10_000;
const WRITE_DEADLINE_MS = 20_000;
const TOMBSTONE_MS = 60_000;
const MAX_HEADS = 1_000;
const MAX_QUEUED_WRITES = 100;

const stateId = (monitorId: number, version: number) => `${monitorId}:${version}`;

/** Appends and reads versions of monitors' data. */
export class VersionStore {
  // Each queued write holds its body (up to 1 MiB): a monitor flooded with writes answers 503 instead.
  private readonly lock = new KeyedLock<number>(MAX_QUEUED_WRITES, () => unavailable('Too many writes queued for this monitor; try again', 1));
  // The newest version this process wrote or read per monitor: a write then needs no read first (every
  // query costs a scan on FerretDB). Stale entries are harmless: their insert collides and is retried.
  private readonly heads = new Map<number, Head>();

  constructor(private readonly states: Model<MonitorStateDoc>) {}

  /** The newest version (ended events already left out of alarmDataList). */
  async latest(monitorId: number): Promise<VersionedData> {
    const { version, data } = await this.newest(monitorId);
    return { version, data: { ...data, alarmDataList: activeEvents(data.alarmDataList, Date.now()) } };
  }

  /** The newest version number alone. */
  async latestVersion(monitorId: number): Promise<number> {
    return (await this.newest(monitorId)).version;
  }

  // A fresh head is still the newest when its successor does not exist: one lookup by _id, far cheaper
  // on FerretDB than the sorted query. Its successor cannot have been pruned: it would be younger than
  // HEAD_TTL_MS, and versions are only removed after TOMBSTONE_MS.
  private async newest(monitorId: number): Promise<Head> {
    const head = this.cached(monitorId);
    const checkedAt = Date.now();
    if (head && !(await this.states.exists({ _id: stateId(monitorId, head.version + 1) }))) {
      head.knownAt = checkedAt;
      return head;
    }
    return this.read(monitorId);
  }

  /** Appends one write built by `make` (called again when another process won the version). */
  append(monitorId: number, make: () => DataWrite): Promise<VersionedData & { write: DataWrite }> {
    return this.lock.run(monitorId, async () => {
      const deadline = Date.now() + WRITE_DEADLINE_MS;
      let head = this.cached(monitorId) ?? (await this.read(monitorId));
      while (Date.now() < deadline) {
        const write = make();
        const next = { version: head.version + 1, data: applyWrite(head.data, write) };
        try {
          await this.states.create({
            _id: stateId(monitorId, next.version),
            monitorId,
            version: next.version,
            data: JSON.stringify(next.data),
            write: JSON.stringify(write),
            at: new Date(write.at),
          });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          head = await this.read(monitorId);
          continue;
        }
        this.remember(monitorId, next);
        // Pruning is housekeeping: the write is committed, so its failure must not fail the write
        // (the next prune catches up).
        if (next.version % PRUNE_EVERY === 0) void this.prune(monitorId, next.version).catch(() => {});
        return { ...next, write };
      }
      throw unavailable('Too many concurrent writes to this monitor; try again', 1);
    });
  }

  /** Removes every version of a deleted monitor, after any write of this process in flight. */
  remove(monitorId: number): Promise<void> {
    return this.lock.run(monitorId, async () => {
      this.heads.delete(monitorId);
      await this.states.deleteMany({ monitorId });
    });
  }

  private cached(monitorId: number): Head | undefined {
    const head = this.heads.get(monitorId);
    return head && Date.now() - head.knownAt < HEAD_TTL_MS ? head : undefined;
  }

  private remember(monitorId: number, value: VersionedData): void {
    this.heads.delete(monitorId);
    this.heads.set(monitorId, { ...value, knownAt: Date.now() });
    if (this.heads.size > MAX_HEADS) this.heads.delete(this.heads.keys().next().value!);
  }

  private async read(monitorId: number): Promise<Head> {
    const knownAt = Date.now();
    const state = await this.states.findOne({ monitorId }).sort({ version: -1 }).lean();
    const head = state ? { version: state.version, data: JSON.parse(state.data) as MonitorData, knownAt } : { version: 0, data: emptyData(), knownAt };
    this.remember(monitorId, head);
    return head;
  }

  private async prune(monitorId: number, version: number): Promise<void> {
    const old = { monitorId, version: { $lte: version - VERSIONS_KEPT } };
    await this.states.updateMany({ ...old, data: { $ne: '' } }, { $set: { data: '', write: '' } });
    await this.states.deleteMany({ ...old, at: { $lt: new Date(Date.now() - TOMBSTONE_MS) } });
  }
}
