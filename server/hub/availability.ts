// `availability:watch` (docs/hub.md "Availability on the wall"): a wall whose standby view shows how many
// members can come asks for the counts of its monitor's organization and joins the organization's
// availability room, where `availability:changed` brings every change. A screen joins no organization
// room (it reads one monitor), so this room carries only the counts.
import type { Logger } from 'pino';
import type { Validator } from '../http/validation.js';
import { ackError, type HubSocket } from './io.js';
import type { AvailabilityPort } from './ports.js';
import { rooms, type Ack, type AvailabilityCounts } from '../../common/hub-protocol.js';

/** Handles one socket's availability requests. */
export function handleAvailability(
  socket: HubSocket,
  deps: { validator: Validator; availability: AvailabilityPort; log: Logger },
): void {
  socket.on('availability:watch', async (request: { monitorId: number }, ack: (a: Ack<AvailabilityCounts>) => void) => {
    if (typeof ack !== 'function') return;
    try {
      const checked = deps.validator.check<{ monitorId: number }>(
        'HubAvailabilityWatch',
        request,
        'body',
        'monitorId is required',
      );
      const counts = await deps.availability.watch(socket.data.actor, checked.monitorId);
      await socket.join(rooms.availability(counts.organizationId));
      ack({ data: counts });
    } catch (err) {
      const error = ackError(err);
      if (error.error === 'internal_error') deps.log.error({ err, socket: socket.id }, 'availability:watch failed');
      ack({ error });
    }
  });
}
