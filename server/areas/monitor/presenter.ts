// Never send a model: REST and the hub present monitors through this one function.
import type { MonitorView } from '../../hub/protocol.js';
import type { MonitorDoc } from './models.js';
import type { JsonObject } from './reduce.js';

/** The public shape of a stored monitor. */
export function presentMonitor(doc: MonitorDoc): MonitorView {
  return {
    id: doc._id,
    name: doc.name,
    organizationID: doc.organizationID,
    configuration: JSON.parse(doc.configuration) as JsonObject,
    configurationSplitScreen: JSON.parse(doc.configurationSplitScreen) as JsonObject,
    configurationStandby: JSON.parse(doc.configurationStandby) as JsonObject,
    standbyDelay: doc.standbyDelay,
  };
}
