// The monitor area's answer to the hub's MonitorSource port (server/hub/ports.ts): the checks, the
// stored snapshots and versions a screen's subscription and the resync need, and another process's
// writes learned into the store. The hub never sees the store or the presenter.
import type { Caller } from '../../identity/actor.js';
import type { MonitorSource, VersionMark } from '../../hub/ports.js';
import type { PatchEvent, SnapshotEvent } from '../../../common/hub-protocol.js';
import { readableOwner } from './commands.js';
import { presentData, presentSnapshot } from './presenter.js';
import type { MonitorStore } from './store.js';

/** Monitors as the hub reads them. */
export class MonitorHubSource implements MonitorSource {
  constructor(private readonly store: MonitorStore) {}

  dataReadable(caller: Caller, monitorId: number): Promise<unknown> {
    return readableOwner(this.store, caller, monitorId);
  }

  async snapshot(monitorId: number): Promise<SnapshotEvent | null> {
    // Both at once (a first read after a restart takes a few round trips each); the data of a
    // monitor that is not there fails, and is not needed.
    const data = this.store.latestData(monitorId).then(presentData);
    data.catch(() => undefined);
    const record = await this.store.get(monitorId);
    return record ? presentSnapshot(record, await data) : null;
  }

  async dataVersion(monitorId: number): Promise<VersionMark> {
    const { n, epoch } = await this.store.dataVersion(monitorId);
    return { version: n, epoch };
  }

  dataStored(monitorId: number, version: number): boolean {
    return this.store.dataStored(monitorId, version);
  }

  learn(event: PatchEvent): void {
    const { section, op, payload, at } = event;
    this.store.learnData(event.monitorId, { n: event.version, epoch: event.epoch }, event.baseEpoch, {
      section,
      op,
      payload,
      at,
    });
  }
}
