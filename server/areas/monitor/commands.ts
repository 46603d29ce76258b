// Monitor commands: load, authorize, write, then publish. Every data write is a new version
// (monitorId, version) whose unique index admits exactly one writer, on MongoDB and FerretDB alike.
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { badRequest, forbidden, notFound, unavailable } from '../../http/errors.js';
import type { MonitorView, SnapshotEvent } from '../../hub/protocol.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { MonitorEvents } from './events.js';
import { KeyedLock } from './keyed-lock.js';
import type { MonitorDoc } from './models.js';
import { presentMonitor } from './presenter.js';
import { activeEvents, applyWrite, emptyData, type DataOp, type DataSection, type JsonObject, type MonitorData } from './reduce.js';

/** Fields of a monitor a client may set. */
export interface MonitorInput {
  name?: string;
  organizationID?: number;
  configuration?: JsonObject | null;
  configurationSplitScreen?: JsonObject | null;
  configurationStandby?: JsonObject | null;
  standbyDelay?: number;
}

/** A monitor's data at one version. */
export interface VersionedData {
  version: number;
  data: MonitorData;
}

// Versions below the newest few lose their data at once, but their (monitorId, version) key stays for
// TOMBSTONE_MS: a writer that read an old base must still collide with it. Writers give up after
// WRITE_DEADLINE_MS, far below TOMBSTONE_MS, so a stale base can never produce a second "version n".
const VERSIONS_KEPT = 10;
const TOMBSTONE_MS = 2 * 60_000;
const WRITE_DEADLINE_MS = 20_000;

/** The monitor area's commands, shared by REST and the hub. */
export class MonitorCommands {
  private readonly writeLock = new KeyedLock<number>();

  constructor(private readonly db: Database, private readonly events: MonitorEvents) {}

  /** M1: monitors of an organization the actor may read (403 otherwise). */
  async list(actor: Actor, organizationId: number): Promise<MonitorView[]> {
    if (!canRead(actor, organizationId)) throw forbidden('Not allowed in this organization');
    const docs = await this.db.models.Monitor.find({ organizationID: organizationId }).sort({ _id: 1 }).lean();
    return docs.map(presentMonitor);
  }

  /** M4, and the check before every other operation on one monitor: 404 when the actor may not see it. */
  async readable(actor: Actor, monitorId: number): Promise<MonitorDoc> {
    const doc = await this.db.models.Monitor.findById(monitorId).lean();
    if (!doc || !canRead(actor, doc.organizationID)) throw notFound('Monitor not found');
    return doc;
  }

  private async writable(actor: Actor, monitorId: number): Promise<MonitorDoc> {
    const doc = await this.readable(actor, monitorId);
    if (!canConfigure(actor, doc.organizationID)) throw forbidden('Only organization admins may change monitors');
    return doc;
  }

  /** M3: creates a monitor in an organization the actor configures. */
  async create(actor: Actor, input: MonitorInput & { name: string; organizationID: number }): Promise<MonitorView> {
    if (!canConfigure(actor, input.organizationID)) throw forbidden('Only organization admins may create monitors');
    const now = new Date();
    const { Monitor } = this.db.models;
    const doc = await this.db.ids.create(
      'monitor',
      async (id) => (await Monitor.create({
        _id: id,
        organizationID: input.organizationID,
        name: input.name,
        configuration: JSON.stringify(input.configuration ?? {}),
        configurationSplitScreen: JSON.stringify(input.configurationSplitScreen ?? {}),
        configurationStandby: JSON.stringify(input.configurationStandby ?? {}),
        standbyDelay: input.standbyDelay ?? 0,
        createdAt: now,
        updatedAt: now,
      })).toObject(),
      async (id) => (await Monitor.exists({ _id: id })) !== null,
    );
    return presentMonitor(doc);
  }

  /** M2: replaces the given fields of a monitor; it cannot move to another organization. */
  async update(actor: Actor, id: number, input: MonitorInput): Promise<MonitorView> {
    const current = await this.writable(actor, id);
    if (input.organizationID !== undefined && input.organizationID !== current.organizationID) {
      throw badRequest('invalid_body', 'Monitor in wrong format or required field missing', [
        { in: 'body', path: 'organizationID', problem: 'cannot be changed' },
      ]);
    }
    const set: Partial<MonitorDoc> = { updatedAt: new Date() };
    if (input.name !== undefined) set.name = input.name;
    if (input.configuration !== undefined) set.configuration = JSON.stringify(input.configuration ?? {});
    if (input.configurationSplitScreen !== undefined) set.configurationSplitScreen = JSON.stringify(input.configurationSplitScreen ?? {});
    if (input.configurationStandby !== undefined) set.configurationStandby = JSON.stringify(input.configurationStandby ?? {});
    if (input.standbyDelay !== undefined) set.standbyDelay = input.standbyDelay;
    const doc = await this.db.models.Monitor.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' }).lean();
    if (!doc) throw notFound('Monitor not found');
    const view = presentMonitor(doc);
    this.events.monitorUpdated(view);
    return view;
  }

  /** M5: deletes a monitor and its data. */
  async remove(actor: Actor, id: number): Promise<void> {
    const doc = await this.writable(actor, id);
    const { Monitor, MonitorState } = this.db.models;
    const { deletedCount } = await Monitor.deleteOne({ _id: id });
    await MonitorState.deleteMany({ monitorId: id });
    if (deletedCount) this.events.monitorDeleted(id, doc.organizationID);
  }

  /** M6: the current data and its version. */
  async data(actor: Actor, id: number): Promise<VersionedData> {
    await this.readable(actor, id);
    return this.latest(id);
  }

  /** The newest data version of a monitor (ended events already left out). */
  async latest(monitorId: number): Promise<VersionedData> {
    const state = await this.db.models.MonitorState.findOne({ monitorId }).sort({ version: -1 }).lean();
    if (!state) return { version: 0, data: emptyData() };
    const data = JSON.parse(state.data) as MonitorData;
    return { version: state.version, data: { ...data, alarmDataList: activeEvents(data.alarmDataList, Date.now()) } };
  }

  /** The newest data version number alone (cheap: used by the hub to notice missed patches). */
  async latestVersion(monitorId: number): Promise<number> {
    const state = await this.db.models.MonitorState.findOne({ monitorId }, { version: 1 }).sort({ version: -1 }).lean();
    return state?.version ?? 0;
  }

  /** The whole state of a monitor for a screen, or null when it no longer exists. */
  async snapshot(monitorId: number): Promise<SnapshotEvent | null> {
    const doc = await this.db.models.Monitor.findById(monitorId).lean();
    if (!doc) return null;
    const { version, data } = await this.latest(monitorId);
    return { monitorId, version, monitor: presentMonitor(doc), data };
  }

  /** M7–M10: one write to a monitor's data; raises its version by exactly one and publishes the patch. */
  async write(actor: Actor, id: number, section: DataSection, op: DataOp, payload: JsonObject): Promise<number> {
    const monitor = await this.writable(actor, id);
    return this.writeLock.run(id, () => this.commit(monitor, section, op, payload));
  }

  private async commit(monitor: MonitorDoc, section: DataSection, op: DataOp, payload: JsonObject): Promise<number> {
    const id = monitor._id;
    const { MonitorState } = this.db.models;
    const deadline = Date.now() + WRITE_DEADLINE_MS;
    while (Date.now() < deadline) {
      const state = await MonitorState.findOne({ monitorId: id }).sort({ version: -1 }).lean();
      const version = (state?.version ?? 0) + 1;
      const at = new Date().toISOString();
      const write = { section, op, payload, at };
      const data = applyWrite(state ? (JSON.parse(state.data) as MonitorData) : emptyData(), write);
      if (Date.now() >= deadline) break;
      try {
        await MonitorState.create({ monitorId: id, version, data: JSON.stringify(data), write: JSON.stringify(write), at: new Date(at) });
      } catch (err) {
        // Another writer took this version: read its result and build on it.
        if (isDuplicateKey(err)) continue;
        throw err;
      }
      this.events.dataWritten({ monitorId: id, version, ...write }, monitor.organizationID);
      if (version % VERSIONS_KEPT === 0) await this.prune(id, version);
      return version;
    }
    throw unavailable('Too many concurrent writes to this monitor; try again', 1);
  }

  private async prune(monitorId: number, version: number): Promise<void> {
    const { MonitorState } = this.db.models;
    const old = { monitorId, version: { $lte: version - VERSIONS_KEPT } };
    await MonitorState.updateMany({ ...old, data: { $ne: '' } }, { $set: { data: '', write: '' } });
    await MonitorState.deleteMany({ ...old, at: { $lt: new Date(Date.now() - TOMBSTONE_MS) } });
  }
}
