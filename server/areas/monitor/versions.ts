// A monitor's data as a chain of versions. Each version is a document with the _id
// "<monitorId>:<version>": exactly one writer gets each version, on MongoDB and on FerretDB (whose
// updates are read-modify-write without a lock). Writes to one monitor are queued per process, so only
// writers on different processes ever collide; the loser reads the winner's result and builds on it.
//
// Old versions are deleted, always as a prefix: every version <= newest - VERSIONS_KEPT. So a writer
// whose base is very old (a stalled request) could insert version n again after the first version n
// was deleted. Each version therefore names the random nonce of its base, and after inserting n+1 on
// base n the writer checks that base n is still there with that nonce: if n+1 had been written and
// deleted before, n would have been deleted with it (prefix), and a re-inserted n has another nonce.
// A failed check removes the insert and starts over; nothing in this depends on clocks.
import { randomBytes } from 'node:crypto';
import type { Model } from 'mongoose';
import { isDuplicateKey } from '../../db/errors.js';
import { notFound, unavailable } from '../../http/errors.js';
import { KeyedLock } from './keyed-lock.js';
import type { MonitorStateDoc } from './models.js';
import { activeEvents, applyWrite, emptyData, type DataWrite, type MonitorData } from './reduce.js';

/** A monitor's data at one version. */
export interface VersionedData {
  version: number;
  data: MonitorData;
}

interface Head extends VersionedData {
  /** The version's nonce ('' for version 0, which has no document). */
  nonce: string;
  /** When this version was known to be the newest. */
  knownAt: number;
}

/** Versions that keep their data (older ones keep only their key until they are deleted). */
const VERSIONS_WITH_DATA = 3;
const VERSIONS_KEPT = 20;
const PRUNE_EVERY = 10;
const HEAD_TTL_MS = 10_000;
const WRITE_DEADLINE_MS = 20_000;
const MAX_HEADS = 1_000;
const MAX_QUEUED_WRITES = 100;

const stateId = (monitorId: number, version: number) => `${monitorId}:${version}`;
const newNonce = () => randomBytes(9).toString('base64url');

/** Appends and reads versions of monitors' data. */
export class VersionStore {
  // Each queued write holds its body (up to 1 MiB): a monitor flooded with writes answers 503 instead.
  private readonly lock = new KeyedLock<number>(MAX_QUEUED_WRITES, () => unavailable('Too many writes queued for this monitor; try again', 1));
  // The newest version this process wrote or read per monitor: a write then needs no read first (every
  // query costs a scan on FerretDB). Stale entries are harmless: their insert collides and is retried.
  private readonly heads = new Map<number, Head>();
  private readonly removed = new Set<number>();

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

  /** Appends one write built by `make` (called again when another process won the version). */
  append(monitorId: number, make: () => DataWrite): Promise<VersionedData & { write: DataWrite }> {
    return this.lock.run(monitorId, async () => {
      const deadline = Date.now() + WRITE_DEADLINE_MS;
      let head = this.cached(monitorId) ?? (await this.read(monitorId));
      while (Date.now() < deadline) {
        // A write queued behind this process's delete of the monitor must not bring it back.
        if (this.removed.has(monitorId)) throw notFound('Monitor not found');
        const write = make();
        const next = { version: head.version + 1, data: applyWrite(head.data, write), nonce: newNonce() };
        try {
          await this.states.create({
            _id: stateId(monitorId, next.version),
            monitorId,
            version: next.version,
            nonce: next.nonce,
            base: head.nonce,
            data: JSON.stringify(next.data),
            write: JSON.stringify(write),
            at: new Date(write.at),
          });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          head = await this.read(monitorId);
          continue;
        }
        if (!(await this.baseIntact(monitorId, head, next.nonce))) {
          await this.states.deleteOne({ _id: stateId(monitorId, next.version), nonce: next.nonce });
          head = await this.read(monitorId);
          continue;
        }
        this.remember(monitorId, { ...next, knownAt: Date.now() });
        // Pruning is housekeeping: the write is committed, so its failure must not fail the write
        // (the next prune catches up).
        if (next.version % PRUNE_EVERY === 0) void this.prune(monitorId, next.version).catch(() => {});
        return { version: next.version, data: next.data, write };
      }
      throw unavailable('Too many concurrent writes to this monitor; try again', 1);
    });
  }

  /** Removes every version of a deleted monitor, after any write of this process in flight. */
  remove(monitorId: number): Promise<void> {
    this.removed.add(monitorId);
    this.heads.delete(monitorId);
    // Not subject to the queue limit: a delete must never be refused for the writes it ends.
    return this.lock.run(monitorId, async () => {
      await this.states.deleteMany({ monitorId });
    }, { force: true });
  }

  // The base a new version was built on is still the one read: see the comment at the top.
  private async baseIntact(monitorId: number, base: Head, nonce: string): Promise<boolean> {
    if (base.version > 0) return (await this.states.exists({ _id: stateId(monitorId, base.version), nonce: base.nonce })) !== null;
    // Version 1 has no base document. Had an earlier version 1 been deleted, later versions would
    // exist that were not built on this one: the lowest of them would not name this nonce.
    const after = await this.states.findOne({ monitorId, version: { $gt: 1 } }, { version: 1, base: 1 }).sort({ version: 1 }).lean();
    return !after || (after.version === 2 && after.base === nonce);
  }

  // A fresh head is still the newest while its own document is there (with its nonce) and its
  // successor is not: versions are deleted as a prefix, so a successor cannot have come and gone.
  private async newest(monitorId: number): Promise<Head> {
    const head = this.cached(monitorId);
    if (head && head.version > 0) {
      const checkedAt = Date.now();
      const ids = [stateId(monitorId, head.version), stateId(monitorId, head.version + 1)];
      const found = await this.states.find({ _id: { $in: ids } }, { nonce: 1 }).lean();
      if (found.length === 1 && found[0]._id === ids[0] && found[0].nonce === head.nonce) {
        head.knownAt = checkedAt;
        return head;
      }
    }
    return this.read(monitorId);
  }

  private cached(monitorId: number): Head | undefined {
    const head = this.heads.get(monitorId);
    return head && Date.now() - head.knownAt < HEAD_TTL_MS ? head : undefined;
  }

  private remember(monitorId: number, head: Head): void {
    this.heads.delete(monitorId);
    this.heads.set(monitorId, head);
    if (this.heads.size > MAX_HEADS) this.heads.delete(this.heads.keys().next().value!);
  }

  private async read(monitorId: number): Promise<Head> {
    const knownAt = Date.now();
    const state = await this.states.findOne({ monitorId }).sort({ version: -1 }).lean();
    const head: Head = state
      ? { version: state.version, data: JSON.parse(state.data) as MonitorData, nonce: state.nonce, knownAt }
      : { version: 0, data: emptyData(), nonce: '', knownAt };
    this.remember(monitorId, head);
    return head;
  }

  private async prune(monitorId: number, version: number): Promise<void> {
    await this.states.updateMany(
      { monitorId, version: { $lte: version - VERSIONS_WITH_DATA }, data: { $ne: '' } },
      { $set: { data: '', write: '' } },
    );
    await this.states.deleteMany({ monitorId, version: { $lte: version - VERSIONS_KEPT } });
  }
}
