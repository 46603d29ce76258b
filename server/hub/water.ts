// `water:nearby` (docs/hub.md "Water sources"): a socket asks for the water sources near an alarm of a
// monitor it reads; the things area answers (through the WaterSource port, ports.ts) and the socket joins the
// entity's room, where `water:changed` names the grid cells whose records changed.
import type { Logger } from 'pino';
import type { Validator } from '../http/validation.js';
import { ackError, type HubSocket } from './io.js';
import type { WaterSource } from './ports.js';
import { rooms, type Ack, type WaterNearbyRequest, type WaterNearbyResult } from '../../common/hub-protocol.js';

/** Requests one socket may have in flight; a screen asks once per alarm position (a split screen: up to 9). */
const MAX_IN_FLIGHT = 10;

/** Handles one socket's water source requests. */
export function handleWater(socket: HubSocket, deps: { validator: Validator; water: WaterSource; log: Logger }): void {
  let inFlight = 0;
  socket.on('water:nearby', async (request: WaterNearbyRequest, ack: (a: Ack<WaterNearbyResult>) => void) => {
    if (typeof ack !== 'function') return;
    if (inFlight >= MAX_IN_FLIGHT) {
      ack({
        error: { error: 'too_many_requests', message: `At most ${MAX_IN_FLIGHT} water source requests at a time` },
      });
      return;
    }
    inFlight++;
    try {
      const checked = deps.validator.check<WaterNearbyRequest>(
        'HubWaterNearby',
        request,
        'body',
        'monitorId, latitude and longitude are required',
      );
      const result = await deps.water.nearby(socket.data.actor, checked, async (entityId) => {
        // One entity's changes at a time: a monitor whose setting names another leaves the old one.
        for (const room of socket.rooms)
          if (room.startsWith('water:') && room !== rooms.water(entityId)) await socket.leave(room);
        await socket.join(rooms.water(entityId));
      });
      ack({ data: result });
    } catch (err) {
      const error = ackError(err);
      if (error.error === 'internal_error') deps.log.error({ err, socket: socket.id }, 'water:nearby failed');
      ack({ error });
    } finally {
      inFlight--;
    }
  });
}
