// Monitor commands: load, authorize, write, then publish. Storage lives in store.ts.
import { OrganizationGate, type OrganizationGateOptions } from '../../http/organization-gate.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { MonitorView } from '../../../common/hub-protocol.js';
import type { Actor, Caller } from '../../identity/actor.js';
import { canConfigure, canRead, canReadMonitor } from '../../identity/policy.js';
import type { MonitorEvents } from '../../hub/events.js';
import { presentData, presentMonitor, type VersionedData } from './presenter.js';
import {
  applyWrite,
  patchTarget,
  type DataOp,
  type DataSection,
  type JsonObject,
} from '../../../common/monitor-data.js';
import type { MonitorConfig, MonitorOwner, MonitorRecord, MonitorStore } from './store.js';

/** Fields of a monitor a client may set. */
export interface MonitorInput {
  name?: string;
  organizationID?: number;
  configuration?: JsonObject | null;
  configurationSplitScreen?: JsonObject | null;
  configurationStandby?: JsonObject | null;
  standbyDelay?: number;
}

/** The answer of M8 when nothing is there to patch. */
export const NO_ACTIVE_ALARM =
  'No active alarm to patch: the alarm was cleared or has ended, or eventId names no event on ' +
  'the monitor. Set a new alarm with POST (M7).';

const NOT_CONFIGURABLE = "Changing monitors needs an organization admin or the organization's API key";

const CONFIG_FIELDS = [
  'name',
  'configuration',
  'configurationSplitScreen',
  'configurationStandby',
  'standbyDelay',
] as const;

/** The check before reading a monitor's data (M6, a hub subscription): its configuration is not read. */
export async function readableOwner(
  store: Pick<MonitorStore, 'owner'>,
  caller: Caller,
  monitorId: number,
): Promise<MonitorOwner> {
  const owner = await store.owner(monitorId);
  if (!owner || !canReadMonitor(caller, owner)) throw notFound('Monitor not found');
  return owner;
}

/** The monitor area's commands, shared by REST and the hub. */
export class MonitorCommands {
  /** Alarm data writes in flight and waiting, per organization (docs/operating.md, "Alarm data writes"). */
  readonly dataWrites: OrganizationGate;

  constructor(
    readonly store: MonitorStore,
    private readonly events: MonitorEvents,
    dataWrites: OrganizationGateOptions = { concurrency: 0, bytes: 0, queue: 0, waitMs: 0 },
  ) {
    this.dataWrites = new OrganizationGate(dataWrites);
  }

  /** M1: monitors of an organization the actor may read (403 otherwise). */
  async list(actor: Actor, organizationId: number): Promise<MonitorView[]> {
    if (!canRead(actor, organizationId)) throw forbidden('Not allowed in this organization');
    return (await this.store.list(organizationId)).map(presentMonitor);
  }

  /** M4, and the check before every other operation on one monitor: 404 when the caller may not see it. */
  async readable(caller: Caller, monitorId: number): Promise<MonitorRecord> {
    const record = await this.store.get(monitorId);
    if (!record || !canReadMonitor(caller, record)) throw notFound('Monitor not found');
    return record;
  }

  /** The check before every change of a monitor or its data: 404 unseen, 403 seen but not writable. */
  async writable(actor: Actor, monitorId: number): Promise<MonitorRecord> {
    const record = await this.readable(actor, monitorId);
    if (!canConfigure(actor, record.organizationID)) throw forbidden(NOT_CONFIGURABLE);
    return record;
  }

  /** M3: creates a monitor in an organization the actor configures. */
  async create(actor: Actor, input: MonitorInput & { name: string; organizationID: number }): Promise<MonitorView> {
    if (!canConfigure(actor, input.organizationID))
      throw forbidden("Creating monitors needs an organization admin or the organization's API key");
    const config: MonitorConfig = {
      name: input.name,
      configuration: input.configuration ?? {},
      configurationSplitScreen: input.configurationSplitScreen ?? {},
      configurationStandby: input.configurationStandby ?? {},
      standbyDelay: input.standbyDelay ?? 0,
    };
    const view = presentMonitor(await this.store.create(input.organizationID, config));
    this.events.monitorCreated(view);
    return view;
  }

  /** M2: replaces the given fields of a monitor; it cannot move to another organization. */
  async update(actor: Actor, id: number, input: MonitorInput): Promise<MonitorView> {
    const current = await this.writable(actor, id);
    if (input.organizationID !== undefined && input.organizationID !== current.organizationID) {
      throw badRequest('invalid_body', 'Monitor in wrong format or required field missing', [
        { in: 'body', path: 'organizationID', problem: 'cannot be changed' },
      ]);
    }
    // Applied to the newest revision, so a concurrent change of other fields on another process stays.
    const record = await this.store.update(current, (config) => {
      const next = { ...config };
      for (const field of CONFIG_FIELDS)
        if (input[field] !== undefined) (next as Record<string, unknown>)[field] = input[field] ?? {};
      return next;
    });
    const view = presentMonitor(record);
    this.events.monitorUpdated(view, record.revision);
    return view;
  }

  /** The check before reading a monitor's data (M6, a hub subscription): its configuration is not read. */
  dataReadable(caller: Caller, monitorId: number): Promise<MonitorOwner> {
    return readableOwner(this.store, caller, monitorId);
  }

  /** The check before a data write (M7–M10): 404 unseen, 403 seen but not writable. */
  async dataWritable(actor: Actor, monitorId: number): Promise<MonitorOwner> {
    const owner = await this.dataReadable(actor, monitorId);
    if (!canConfigure(actor, owner.organizationID)) {
      // The owner may be remembered from before another process deleted the monitor: 404 then.
      if (!(await this.store.get(monitorId))) throw notFound('Monitor not found');
      throw forbidden(NOT_CONFIGURABLE);
    }
    return owner;
  }

  /** M5: deletes a monitor and its data. */
  async remove(actor: Actor, id: number): Promise<void> {
    const record = await this.writable(actor, id);
    // Screens learn of it at once, even if removing the data fails (a retry then finds no monitor).
    if (await this.store.remove(id)) this.events.monitorDeleted(id, record.organizationID);
  }

  /** M6: the current data and its version (ended events already left out). */
  async data(caller: Caller, id: number): Promise<VersionedData> {
    await this.dataReadable(caller, id);
    return presentData(await this.store.latestData(id));
  }

  /** M7–M10: one write to a monitor's data; raises its version by exactly one and publishes the patch. */
  async write(
    actor: Actor,
    id: number,
    section: DataSection,
    op: DataOp,
    payload: JsonObject,
    checked?: MonitorOwner,
  ): Promise<number> {
    return this.writeFor(checked ?? (await this.dataWritable(actor, id)), section, op, payload);
  }

  /** One write to the data of a monitor whose right to be written the caller decided (an alarm of its organization). */
  async writeFor(monitor: MonitorOwner, section: DataSection, op: DataOp, payload: JsonObject): Promise<number> {
    const id = monitor.id;
    let write = { section, op, payload, at: '' };
    const next = await this.store.appendData(id, (head) => {
      write = { section, op, payload, at: new Date().toISOString() };
      // A late response count after the alarm was cleared must not raise an alarm again.
      if (section === 'alarming' && op === 'patch' && !patchTarget(head.body, payload, Date.parse(write.at))) {
        throw conflict('no_active_alarm', NO_ACTIVE_ALARM);
      }
      return applyWrite(head.body, write);
    });
    this.events.dataWritten(
      { monitorId: id, version: next.n, epoch: next.epoch, baseEpoch: next.base, ...write },
      monitor.organizationID,
    );
    return next.n;
  }
}
