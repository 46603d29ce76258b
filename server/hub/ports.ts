// What the hub asks of the areas: the ports it is handed (built in server/service.ts), as the areas are
// handed the hub's events (events.ts) for the other direction. The hub imports no area: an area
// implements these with its own commands (server/areas/monitor/hub-source.ts for monitors).
import type { Caller } from '../identity/actor.js';
import type {
  AvailabilityCounts,
  PatchEvent,
  ScreenReportEvent,
  SnapshotEvent,
  VehicleStatuses,
  WaterNearbyRequest,
  WaterNearbyResult,
} from '../../common/hub-protocol.js';

/** A data version as the hub tracks it: the number and the history (epoch) it belongs to. */
export interface VersionMark {
  version: number;
  epoch: string;
}

/** Monitors and their data, as the hub reads them for screens (the monitor area answers). */
export interface MonitorSource {
  /** Resolves when the caller may read the monitor's data; throws not_found or forbidden otherwise. */
  dataReadable(caller: Caller, monitorId: number): Promise<unknown>;
  /** The monitor and its newest data as a screen's snapshot, or null when there is no such monitor. */
  snapshot(monitorId: number): Promise<SnapshotEvent | null>;
  /** The newest stored version of a monitor's data. */
  dataVersion(monitorId: number): Promise<VersionMark>;
  /** Whether this process knows the version to be stored (its publication is on its way). */
  dataStored(monitorId: number, version: number): boolean;
  /** Another process stored this version: remembered, so the next write here builds on it. */
  learn(event: PatchEvent): void;
}

/** The screen fleet, as the hub asks it about a monitor. */
export interface ScreenSource {
  /** The test alarm running on a monitor's screens, or null. */
  runningTestAlarm(monitorId: number): Promise<{ message: string; endsAt: string } | null>;
}

/** Screens' health (the screens area keeps it): what the hub tells it of the sockets here. */
export interface ScreenHealthPort {
  /** A screen's socket connected here. */
  connected(screenId: number, userAgent: string | null): Promise<void>;
  /** Screens whose sockets are here are seen now (also when they disconnect). */
  seen(screenIds: Iterable<number>): Promise<void>;
  /** Records what a screen shows. */
  report(screenId: number, report: ScreenReportEvent): Promise<void>;
  /** Marks screens offline that went silent anywhere; those in `here` are seen again when due. */
  sweep(here: Set<number>): Promise<void>;
  /** Resolves once every write started so far has settled. */
  settled(): Promise<void>;
}

/** Members' availability for a wall's standby view (the availability area answers). */
export interface AvailabilityPort {
  /** The counts of the monitor's organization, when the caller reads the monitor and it shows them. */
  watch(caller: Caller, monitorId: number): Promise<AvailabilityCounts>;
}

/** Vehicles' FMS statuses for a wall's unit tiles (the inputs area answers). */
export interface VehiclesPort {
  /** The latest status of each vehicle of the monitor's organization, when the caller reads the monitor. */
  watch(caller: Caller, monitorId: number): Promise<VehicleStatuses>;
}

/** Water sources near an alarm, for screens' maps (the things area answers). */
export interface WaterSource {
  /** The sources near the request's position that the caller may see; `join` follows the entity's changes. */
  nearby(
    caller: Caller,
    request: WaterNearbyRequest,
    join: (entityId: string) => Promise<void>,
  ): Promise<WaterNearbyResult>;
}
