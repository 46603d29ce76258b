// The vehicles' statuses on the wall (`vehicles:watch`; docs/hub.md "Vehicle statuses on the wall"): the
// pager door stores each vehicle's latest FMS status (pager.ts) in its organization's one document, so
// a wall that connects later is told what the others heard live as `vehicle:status`. The hub asks
// through its VehiclesPort: only for a monitor the caller may read (a screen token reads its own).
import type { VehicleStatuses } from '../../../common/hub-protocol.js';
import type { VehiclesPort } from '../../hub/ports.js';
import type { Caller } from '../../identity/actor.js';
import type { InputModels } from './models.js';

/** A monitor as a wall's question needs it: its organization (throws not_found when the caller may not read it). */
export type VehicleWallMonitor = (caller: Caller, monitorId: number) => Promise<{ organizationID: number }>;

/** The latest status of each vehicle of an organization, for walls. */
export class VehicleStatusBoard implements VehiclesPort {
  constructor(
    private readonly models: Pick<InputModels, 'VehicleStatuses'>,
    private readonly wallMonitor: VehicleWallMonitor,
  ) {}

  /** A wall's question (the hub's `vehicles:watch`): its monitor's organization's vehicles, by FMS code. */
  async watch(caller: Caller, monitorId: number): Promise<VehicleStatuses> {
    const { organizationID: organizationId } = await this.wallMonitor(caller, monitorId);
    const doc = await this.models.VehicleStatuses.findById(String(organizationId)).lean();
    const vehicles = Object.entries(doc?.vehicles ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([fms, v]) => ({ fms, name: v.name, status: v.status, at: new Date(v.at).toISOString() }));
    return { organizationId, vehicles };
  }
}
