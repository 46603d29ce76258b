// The vehicles' statuses on the wall (`vehicles:watch`; docs/hub.md "Vehicle statuses on the wall"): the
// pager door stores each vehicle's latest FMS status (pager.ts) in a document of its own, so a wall that
// connects later is told what the others heard live as `vehicle:status`; the organization's vehicles are
// those its pager inputs name, each read by its exact _id. The hub asks through its VehiclesPort: only
// for a monitor the caller may read (a screen token reads its own).
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
    /** The FMS codes (upper case) the organization's pager inputs name. */
    private readonly codesOf: (organizationId: number) => Promise<string[]>,
  ) {}

  /** A wall's question (the hub's `vehicles:watch`): its monitor's organization's vehicles, by FMS code. */
  async watch(caller: Caller, monitorId: number): Promise<VehicleStatuses> {
    const { organizationID: organizationId } = await this.wallMonitor(caller, monitorId);
    const codes = [...new Set(await this.codesOf(organizationId))].sort();
    const docs = await Promise.all(
      codes.map((fms) => this.models.VehicleStatuses.findById(`${organizationId}:${fms}`).lean()),
    );
    const vehicles = docs
      .filter((d) => d !== null)
      .map((d) => ({ fms: d.fms, name: d.name, status: d.status, at: new Date(d.at).toISOString() }));
    return { organizationId, vehicles };
  }
}
