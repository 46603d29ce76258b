// The single place where changes leave the areas for the hub: commands call these after their
// writes succeed; the hub implements them (broadcasts.ts, and monitor-live.ts for a monitor's data, on
// every process through Redis). Routes never publish. What the hub asks of the areas in turn is in
// ports.ts.
import type {
  AvailabilityCounts,
  MonitorView,
  PatchEvent,
  ScreenCommandName,
  ServerToClientEvents,
  TestAlarmEvent,
  VehicleStatusEvent,
  WaterChangedEvent,
} from '../../common/hub-protocol.js';

/** A monitor's changes (monitor-live.ts): its data to its screens in version order, its configuration to its rooms. */
export interface MonitorEvents {
  dataWritten(event: PatchEvent, organizationId: number): void;
  monitorCreated(monitor: MonitorView): void;
  monitorUpdated(monitor: MonitorView, revision: number): void;
  monitorDeleted(monitorId: number, organizationId: number): void;
}

/** Events to an organization's room (`org:<id>`), e.g. a journal change or a triggered rule. */
export interface OrganizationEvents {
  /** Emits `event` to every screen and staff client of the organization, on every hub process. */
  toOrganization<E extends keyof ServerToClientEvents>(
    organizationId: number,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
}

/** What the screen fleet asks of the hub (docs/hub.md "The screen fleet"). */
export interface ScreenEvents {
  /** Sends a command to screens on every process; resolves with the screens that acknowledged in time. */
  commandScreens(screenIds: number[], command: ScreenCommandName, timeoutMs: number): Promise<number[]>;
  /** Shows a test alarm on a monitor's screens. */
  testAlarm(event: TestAlarmEvent): void;
  /** Calls `listener` for every test alarm started, on any process (this one's at once). */
  onTestAlarm(listener: (event: TestAlarmEvent) => void): void;
  /** Disconnects a removed screen's sockets at once, on every process. */
  disconnectScreen(screenId: number): void;
}

/** Revocations every process must see at once (each keeps resolved credentials for CREDENTIAL_CACHE_MS). */
export interface CredentialEvents {
  /**
   * Forgets a credential (its stored hash: revoked, or its user's rights changed) on every process and closes
   * its sockets there; resolves once they have, or gave no answer in time.
   */
  credentialRevoked(credential: string): Promise<void>;
}

/** Availability's changes (server/areas/availability/): to the organization's room and its walls. */
export interface AvailabilityEvents {
  availabilityChanged(counts: AvailabilityCounts): void;
}

/** Vehicle statuses from the pager door (server/areas/inputs/pager.ts): to the organization's room and its walls. */
export interface VehicleEvents {
  vehicleStatus(event: VehicleStatusEvent): void;
}

/** Changes screens showing water sources must hear (server/areas/things/water.ts). */
export interface WaterEvents {
  /** Tells the screens shown sources of the entity, on every process, which grid cells changed. */
  waterChanged(event: WaterChangedEvent): void;
}

/** Everything the areas publish through the hub itself. */
export type HubEvents = OrganizationEvents &
  ScreenEvents &
  CredentialEvents &
  WaterEvents &
  AvailabilityEvents &
  VehicleEvents;
