// The monitor area (M1–M10, docs/api.md "REST API"): monitors and their data on two version chains,
// shown live on the hub through the source of monitors it hands the hub.
import * as schemas from '../../../schemas/monitor.js';
import { defineArea } from '../area.js';
import { MonitorCommands } from './commands.js';
import { MonitorHubSource } from './hub-source.js';
import { monitorModels } from './models.js';
import { monitorOperations } from './routes.js';
import { MonitorStore } from './store.js';

/** What the monitor area offers the others. */
export interface MonitorParts {
  monitors: MonitorCommands;
  store: MonitorStore;
  /** The hub's source of monitors (server/hub/ports.ts). */
  source: MonitorHubSource;
}

declare module '../area.js' {
  interface AreaParts {
    monitor: MonitorParts;
  }
}

export const monitorArea = defineArea({
  name: 'monitor',
  models: [monitorModels],
  schemas: [schemas],
  build({ db, log, config, metrics, liveMonitors }) {
    const store = new MonitorStore(db, log);
    const source = new MonitorHubSource(store);
    const monitors = new MonitorCommands(store, liveMonitors(source), config.dataWrites);
    metrics.counter(
      'alarmhub_data_write_collisions_total',
      'Monitor data writes that found their version taken by another process and were built again on the stored one',
      () => store.dataCollisions,
    );
    metrics.gauge(
      'alarmhub_data_writes_in_flight',
      "Alarm data writes past their organization's gate on this process",
      () => monitors.dataWrites.active,
    );
    metrics.gauge(
      'alarmhub_data_writes_waiting',
      "Alarm data writes waiting for their organization's turn on this process",
      () => monitors.dataWrites.waiting,
    );
    metrics.counter(
      'alarmhub_data_writes_refused_total',
      "Alarm data writes refused with 503 because their organization's queue was full or their wait ran out",
      () => monitors.dataWrites.refused,
    );
    return { monitors, store, source };
  },
  operations: ({ monitors }) => monitorOperations(monitors),
});
