// Never send a model: REST and the hub present monitors through this one function.
import type { MonitorView } from '../../../common/hub-protocol.js';
import type { MonitorRecord } from './store.js';

/** The public shape of a stored monitor. */
export function presentMonitor(record: MonitorRecord): MonitorView {
  return { id: record.id, organizationID: record.organizationID, ...record.config };
}
