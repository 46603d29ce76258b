// The single place where monitor changes leave the monitor area: commands call these after their
// writes succeed; the hub (server/hub) implements them. Routes never publish.
import type { MonitorView, PatchEvent } from '../../../common/hub-protocol.js';

export interface MonitorEvents {
  dataWritten(event: PatchEvent, organizationId: number): void;
  monitorUpdated(monitor: MonitorView, revision: number): void;
  monitorDeleted(monitorId: number, organizationId: number): void;
}
