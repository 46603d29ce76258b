// The vehicles' FMS statuses on the unit tiles (docs/display.md "Vehicle statuses"; docs/hub.md "Vehicle
// statuses on the wall"): asked of the hub (`vehicles:watch`) after every (re)connect — the hub forgets
// who listens — then each new one from `vehicle:status`. Always asked, whatever the configuration: a
// refusal leaves the tiles without statuses and is not retried (no answer in time is). A unit shows the
// status of the vehicle named like it, case and spaces ignored ("HLF 20" is "hlf20").
import type { Ack, VehicleStatusEvent, VehicleStatuses } from '../../common/hub-protocol.js';

const RETRY_MS = 15_000;

/** One vehicle's latest status. */
export type VehicleStatus = VehicleStatuses['vehicles'][number];

export interface VehicleWatch {
  /** The status of the vehicle named like the unit, or null (the newest, if two vehicles share the name). */
  of: (unitName: string) => VehicleStatus | null;
  /** Changes whenever a status does (part of the view's key). */
  key: () => string;
  changed: (event: VehicleStatusEvent) => void;
  reconnected: () => void;
  stop: () => void;
}

/** A name as units and vehicles are matched by: lower case, without spaces. */
export function vehicleName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '');
}

/**
 * `ask` sends one `vehicles:watch` (null: no answer in time); `organizationId` is the monitor's (null
 * until known), whose statuses alone are taken; `onChange` redraws.
 */
export function createVehicleWatch(
  ask: () => Promise<Ack<VehicleStatuses> | null>,
  organizationId: () => number | null,
  onChange: () => void,
): VehicleWatch {
  let stopped = false;
  let asking = false;
  let timer: number | undefined;
  let byFms = new Map<string, VehicleStatus>();
  let byName = new Map<string, VehicleStatus>();
  let key = '';

  // A status replaces one only if it is not older: a late answer never undoes a live event.
  const newer = (next: VehicleStatus, held: VehicleStatus | undefined) =>
    !held || Date.parse(next.at) >= Date.parse(held.at);

  function publish(next: Map<string, VehicleStatus>): void {
    const nextKey = JSON.stringify([...next.values()].sort((a, b) => (a.fms < b.fms ? -1 : 1)));
    if (nextKey === key) return;
    byFms = next;
    key = nextKey;
    byName = new Map();
    for (const v of next.values()) {
      const name = vehicleName(v.name);
      if (newer(v, byName.get(name))) byName.set(name, v);
    }
    onChange();
  }

  function take(answer: VehicleStatuses): void {
    const own = organizationId();
    if (own !== null && answer.organizationId !== own) return;
    const next = new Map(answer.vehicles.map((v) => [v.fms, v]));
    // What a live event brought meanwhile stays when the answer was read before it.
    for (const [fms, held] of byFms) {
      const answered = next.get(fms);
      if (!answered || !newer(answered, held)) next.set(fms, held);
    }
    publish(next);
  }

  function request(): void {
    if (stopped || asking) return;
    asking = true;
    window.clearTimeout(timer);
    void ask().then((answer) => {
      asking = false;
      if (stopped) return;
      if (answer === null) timer = window.setTimeout(request, RETRY_MS);
      else if ('data' in answer) take(answer.data);
      // An error answer (another organization's monitor, a service without the inputs): no statuses.
    });
  }

  return {
    of: (unitName) => byName.get(vehicleName(unitName)) ?? null,
    key: () => key,
    changed: (event) => {
      if (stopped || event.organizationId !== organizationId()) return;
      const status: VehicleStatus = { fms: event.fms, name: event.name, status: event.status, at: event.at };
      if (!newer(status, byFms.get(status.fms))) return;
      publish(new Map(byFms).set(status.fms, status));
    },
    reconnected: request,
    stop: () => {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}
