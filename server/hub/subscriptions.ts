// A socket following monitors (docs/hub.md "Protocol"): monitor:subscribe checks the request, the
// subscription budget and the right to read the monitor's data, then the monitor area answers it
// (monitor-live.ts); monitor:unsubscribe leaves the monitor's room.
import type { Logger } from 'pino';
import type { Validator } from '../http/validation.js';
import type { Admission } from './admission.js';
import { ackError, type HubSocket } from './io.js';
import type { MonitorLive } from './monitor-live.js';
import type { MonitorSource, ScreenSource } from './ports.js';
import {
  rooms,
  type Ack,
  type SubscribeRequest,
  type SubscribeResult,
  type UnsubscribeRequest,
} from '../../common/hub-protocol.js';

export interface SubscriptionDeps {
  admission: Admission;
  validator: Validator;
  monitors: Pick<MonitorSource, 'dataReadable'>;
  live: Pick<MonitorLive, 'subscribe'>;
  screens: ScreenSource;
  log: Pick<Logger, 'warn'>;
}

/** Handles one socket's subscriptions. */
export function handleSubscriptions(socket: HubSocket, deps: SubscriptionDeps): void {
  const { actor, address } = socket.data;
  socket.on('monitor:subscribe', async (request: SubscribeRequest, ack: (a: Ack<SubscribeResult>) => void) => {
    if (typeof ack !== 'function') return;
    try {
      const { monitorId, version, epoch } = deps.validator.check<SubscribeRequest>(
        'HubSubscribe',
        request,
        'body',
        'monitorId missing or in wrong format',
      );
      const followed = [...socket.rooms].filter((room) => room.startsWith('monitor:')).length;
      await deps.admission.checkSubscribe(actor.tokenId, address, followed, socket.rooms.has(rooms.monitor(monitorId)));
      await deps.monitors.dataReadable(actor, monitorId);
      const result = await deps.live.subscribe(socket, monitorId, version, epoch);
      void sendTestAlarm(socket, monitorId, deps);
      ack({ data: result });
    } catch (err) {
      ack({ error: ackError(err) });
    }
  });

  socket.on(
    'monitor:unsubscribe',
    async (request: UnsubscribeRequest, ack: (a: Ack<{ monitorId: number }>) => void) => {
      if (typeof ack !== 'function') return;
      try {
        const { monitorId } = deps.validator.check<UnsubscribeRequest>(
          'HubUnsubscribe',
          request,
          'body',
          'monitorId missing or in wrong format',
        );
        await socket.leave(rooms.monitor(monitorId));
        ack({ data: { monitorId } });
      } catch (err) {
        ack({ error: ackError(err) });
      }
    },
  );
}

// A screen that subscribes while a test alarm runs shows it too (after its ack, so after its state).
async function sendTestAlarm(
  socket: HubSocket,
  monitorId: number,
  { screens, log }: Pick<SubscriptionDeps, 'screens' | 'log'>,
): Promise<void> {
  try {
    const running = await screens.runningTestAlarm(monitorId);
    if (running) setImmediate(() => socket.emit('monitor:test-alarm', { monitorId, ...running }));
  } catch (err) {
    // The subscription stands; the screen misses only this test alarm (it is shown for a minute at most).
    log.warn({ err, monitorId }, 'a running test alarm could not be read for a new subscription');
  }
}
