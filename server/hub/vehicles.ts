// `vehicles:watch` (docs/hub.md "Vehicle statuses on the wall"): a wall asks for the latest FMS status of
// each vehicle of its monitor's organization and joins the organization's vehicles room, where
// `vehicle:status` brings every new one (the pager door IN3). A screen joins no organization room (it
// reads one monitor), so this room carries only the statuses.
import type { Logger } from 'pino';
import type { Validator } from '../http/validation.js';
import { ackError, type HubSocket } from './io.js';
import type { VehiclesPort } from './ports.js';
import { rooms, type Ack, type VehicleStatuses } from '../../common/hub-protocol.js';

/** Handles one socket's vehicle status requests. */
export function handleVehicles(
  socket: HubSocket,
  deps: { validator: Validator; vehicles: VehiclesPort; log: Logger },
): void {
  socket.on('vehicles:watch', async (request: { monitorId: number }, ack: (a: Ack<VehicleStatuses>) => void) => {
    if (typeof ack !== 'function') return;
    try {
      const checked = deps.validator.check<{ monitorId: number }>(
        'HubVehiclesWatch',
        request,
        'body',
        'monitorId is required',
      );
      const statuses = await deps.vehicles.watch(socket.data.actor, checked.monitorId);
      await socket.join(rooms.vehicles(statuses.organizationId));
      ack({ data: statuses });
    } catch (err) {
      const error = ackError(err);
      if (error.error === 'internal_error') deps.log.error({ err, socket: socket.id }, 'vehicles:watch failed');
      ack({ error });
    }
  });
}
