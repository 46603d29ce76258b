// Monitor commands: load, authorize, write, then publish. Data versions live in versions.ts.
import type { Database } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { MonitorView, SnapshotEvent } from '../../hub/protocol.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { MonitorEvents } from './events.js';
import { VersionStore, type VersionedData } from './versions.js';
import type { MonitorDoc } from './models.js';
import { presentMonitor } from './presenter.js';
import type { DataOp, DataSection, JsonObject } from './reduce.js';

/** Fields of a monitor a client may set. */
export interface MonitorInput {
  name?: string;
  organizationID?: number;
  configuration?: JsonObject | null;
  configurationSplitScreen?: JsonObject | null;
  configurationStandby?: JsonObject | null;
  standbyDelay?: number;
}

/** The monitor area's commands, shared by REST and the hub. */
export class MonitorCommands {
  private readonly versions: VersionStore;

  constructor(private readonly db: Database, private readonly events: MonitorEvents) {
    this.versions = new VersionStore(db.models.MonitorState);
  }

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
    if (!canConfigure(actor, doc.organizationID)) throw forbidden('Changing monitors needs an organization admin or the organization\'s API key');
    return doc;
  }

  /** M3: creates a monitor in an organization the actor configures. */
  async create(actor: Actor, input: MonitorInput & { name: string; organizationID: number }): Promise<MonitorView> {
    if (!canConfigure(actor, input.organizationID)) throw forbidden('Creating monitors needs an organization admin or the organization\'s API key');
    const now = new Date();
    const { Monitor } = this.db.models;
    const id = await this.db.ids.next('monitor');
    const doc = (await Monitor.create({
      _id: id,
      organizationID: input.organizationID,
      name: input.name,
      configuration: JSON.stringify(input.configuration ?? {}),
      configurationSplitScreen: JSON.stringify(input.configurationSplitScreen ?? {}),
      configurationStandby: JSON.stringify(input.configurationStandby ?? {}),
      standbyDelay: input.standbyDelay ?? 0,
      createdAt: now,
      updatedAt: now,
    })).toObject();
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
    // updatedAt doubles as the configuration's revision on the hub: it must rise even when this
    // process's clock is behind the one that wrote the previous change.
    const set: Partial<MonitorDoc> = { updatedAt: new Date(Math.max(Date.now(), current.updatedAt.getTime() + 1)) };
    if (input.name !== undefined) set.name = input.name;
    if (input.configuration !== undefined) set.configuration = JSON.stringify(input.configuration ?? {});
    if (input.configurationSplitScreen !== undefined) set.configurationSplitScreen = JSON.stringify(input.configurationSplitScreen ?? {});
    if (input.configurationStandby !== undefined) set.configurationStandby = JSON.stringify(input.configurationStandby ?? {});
    if (input.standbyDelay !== undefined) set.standbyDelay = input.standbyDelay;
    const doc = await this.db.models.Monitor.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' }).lean();
    if (!doc) throw notFound('Monitor not found');
    const view = presentMonitor(doc);
    this.events.monitorUpdated(view, doc.updatedAt.getTime());
    return view;
  }

  /** M5: deletes a monitor and its data. */
  async remove(actor: Actor, id: number): Promise<void> {
    const doc = await this.writable(actor, id);
    const { Monitor } = this.db.models;
    const { deletedCount } = await Monitor.deleteOne({ _id: id });
    // Screens learn of it at once, even if removing the data below fails (a retry then finds no monitor).
    if (deletedCount) this.events.monitorDeleted(id, doc.organizationID);
    await this.versions.remove(id);
  }

  /** M6: the current data and its version. */
  async data(actor: Actor, id: number): Promise<VersionedData> {
    await this.readable(actor, id);
    return this.latest(id);
  }

  /** The newest data version of a monitor (ended events already left out). */
  latest(monitorId: number): Promise<VersionedData> {
    return this.versions.latest(monitorId);
  }

  /** The newest data version number alone (used by the hub to notice missed patches). */
  latestVersion(monitorId: number): Promise<number> {
    return this.versions.latestVersion(monitorId);
  }

  /** The whole state of a monitor for a screen, or null when it no longer exists. */
  async snapshot(monitorId: number): Promise<SnapshotEvent | null> {
    const doc = await this.db.models.Monitor.findById(monitorId).lean();
    if (!doc) return null;
    const { version, data } = await this.latest(monitorId);
    return { monitorId, version, monitor: presentMonitor(doc), monitorRevision: doc.updatedAt.getTime(), data };
  }

  /** M7–M10: one write to a monitor's data; raises its version by exactly one and publishes the patch. */
  async write(actor: Actor, id: number, section: DataSection, op: DataOp, payload: JsonObject): Promise<number> {
    const monitor = await this.writable(actor, id);
    const { version, write } = await this.versions.append(id, () => ({ section, op, payload, at: new Date().toISOString() }));
    this.events.dataWritten({ monitorId: id, version, ...write }, monitor.organizationID);
    return version;
  }
}
