// Never send a model: REST and the hub present monitors and their data through these functions.
import type { MonitorView, SnapshotEvent } from '../../../common/hub-protocol.js';
import { activeEvents, type MonitorData } from '../../../common/monitor-data.js';
import type { MonitorRecord } from './store.js';
import type { Version } from '../../db/chain.js';

/** A monitor's data at one version; the epoch identifies the history it belongs to. */
export interface VersionedData {
  version: number;
  epoch: string;
  data: MonitorData;
}

/** The public shape of a stored monitor. */
export function presentMonitor(record: MonitorRecord): MonitorView {
  return { id: record.id, organizationID: record.organizationID, ...record.config };
}

/** A stored data version as M6 and the hub present it: ended events already left out. */
export function presentData({ n, epoch, body }: Version<MonitorData>, now = Date.now()): VersionedData {
  return { version: n, epoch, data: { ...body, alarmDataList: activeEvents(body.alarmDataList, now) } };
}

/** The whole state of a monitor for a screen. */
export function presentSnapshot(record: MonitorRecord, data: VersionedData): SnapshotEvent {
  return {
    monitorId: record.id,
    version: data.version,
    epoch: data.epoch,
    monitor: presentMonitor(record),
    monitorRevision: record.revision,
    data: data.data,
  };
}
