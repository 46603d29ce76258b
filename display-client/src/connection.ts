// The hub connection: one socket.io-client per screen, same origin, path /socket.io. It subscribes on
// every (re)connect with the version it holds, so a reconnect is also a resync.
import { io, type Socket } from 'socket.io-client';
import type {
  Ack,
  AvailabilityCounts,
  AuthScheme,
  ClientToServerEvents,
  MonitorView,
  PatchEvent,
  ScreenCommandAck,
  ScreenCommandName,
  ScreenPowerEvent,
  ScreenReportEvent,
  ServerToClientEvents,
  SnapshotEvent,
  SubscribeRequest,
  SubscribeResult,
  TestAlarmEvent,
  VehicleStatusEvent,
  VehicleStatuses,
  WaterChangedEvent,
  WaterNearbyRequest,
  WaterNearbyResult,
} from '../../common/hub-protocol.js';

/** What the connection reports to the app. */
export interface ConnectionHooks {
  request: () => SubscribeRequest;
  /** `sentAt`/`receivedAt`: the round trip on the monotonic clock, for the server time in the answer. */
  onSubscribed: (result: SubscribeResult, sentAt: number, receivedAt: number) => void;
  onSubscribeError: (error: { error: string; message: string }) => void;
  onSnapshot: (event: SnapshotEvent) => void;
  onPatch: (event: PatchEvent) => void;
  onUpdated: (monitor: MonitorView, revision: number) => void;
  onDeleted: (monitorId: number) => void;
  onDisconnected: () => void;
  /** The token was refused (connect_error "unauthorized") or revoked (server-side disconnect). */
  onRevoked: () => void;
  /** A remote command to this screen (paired screens only); `ack` answers it. */
  onCommand: (command: ScreenCommandName, ack: (answer: ScreenCommandAck) => void) => void;
  onTestAlarm: (event: TestAlarmEvent) => void;
  onWaterChanged: (event: WaterChangedEvent) => void;
  onAvailabilityChanged: (counts: AvailabilityCounts) => void;
  onVehicleStatus: (event: VehicleStatusEvent) => void;
}

/** A live hub connection. */
export interface Connection {
  resubscribe: () => void;
  /** Subscribes again after `ms`; one retry timer per connection, a later call replaces it. */
  retryLater: (ms: number) => void;
  /** Tells the hub what the screen shows (screen:report); sent on the next connection while disconnected. */
  report: (report: ScreenReportEvent) => void;
  /** Tells the hub the page slept or woke (screen:power), for the kiosk agent. */
  power: (state: ScreenPowerEvent['state']) => void;
  /** Asks for the water sources near an alarm; null when not connected or no answer in time. */
  waterNearby: (request: WaterNearbyRequest) => Promise<Ack<WaterNearbyResult> | null>;
  /** Asks for the members' availability and follows it; null when not connected or no answer in time. */
  availabilityWatch: (monitorId: number) => Promise<Ack<AvailabilityCounts> | null>;
  /** Asks for the vehicles' statuses and follows them; null when not connected or no answer in time. */
  vehiclesWatch: (monitorId: number) => Promise<Ack<VehicleStatuses> | null>;
  close: () => void;
}

type HubSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const ACK_TIMEOUT_MS = 10_000;
const RETRY_MS = 3_000;

/** Connects to the hub with a token and keeps the monitor subscribed across reconnects. */
export function connect(token: string, scheme: AuthScheme, hooks: ConnectionHooks): Connection {
  const socket: HubSocket = io({ path: '/socket.io', auth: { token, scheme }, reconnectionDelayMax: 10_000 });
  let retry: number | undefined;
  let reconnect: number | undefined;
  // One subscribe in flight at a time; a request meanwhile is sent once its answer is in, with the
  // version held then. Without this, every gap or retry during a slow ack adds another chain of retries.
  let flight = 0; // the number of the subscribe awaiting its answer, 0 for none
  let sent = 0;
  let again = false;

  const retryLater = (ms: number) => {
    window.clearTimeout(retry);
    retry = window.setTimeout(subscribe, ms);
  };

  function subscribe(): void {
    window.clearTimeout(retry);
    if (!socket.connected) return; // the next connect subscribes
    if (flight) {
      again = true;
      return;
    }
    const mine = (flight = ++sent);
    again = false;
    const sentAt = performance.now();
    socket
      .timeout(ACK_TIMEOUT_MS)
      .emit('monitor:subscribe', hooks.request(), (err: Error | null, answer: Ack<SubscribeResult>) => {
        if (mine !== flight) return; // sent on a connection since replaced, which subscribed anew
        flight = 0;
        // A lost ack leaves the screen stale: try again rather than wait for the next gap.
        if (err) retryLater(RETRY_MS);
        else if ('error' in answer) hooks.onSubscribeError(answer.error);
        else hooks.onSubscribed(answer.data, sentAt, performance.now());
        if (again) subscribe();
      });
  }

  socket.on('connect', () => {
    // A subscribe lost with the old connection never answers: the new one must not wait for it.
    flight = 0;
    subscribe();
  });
  socket.on('connect_error', (error) => {
    if (error.message === 'unauthorized') {
      socket.close();
      hooks.onRevoked();
      return;
    }
    hooks.onDisconnected();
    // A refusal by the server's middleware (e.g. "unavailable" while its database is away) is not
    // retried by socket.io itself; a transport failure is (socket.active stays true).
    if (!socket.active) reconnect = window.setTimeout(() => socket.connect(), RETRY_MS);
  });
  socket.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') return;
    hooks.onDisconnected();
    // The server drops the sockets of a revoked token and socket.io does not reconnect after that by
    // itself: reconnect, and the handshake says whether the token is still good.
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on('monitor:snapshot', hooks.onSnapshot);
  socket.on('monitor:patch', hooks.onPatch);
  socket.on('monitor:updated', (event) => hooks.onUpdated(event.monitor, event.revision));
  socket.on('monitor:deleted', (event) => hooks.onDeleted(event.monitorId));
  socket.on('monitor:test-alarm', hooks.onTestAlarm);
  socket.on('water:changed', hooks.onWaterChanged);
  socket.on('availability:changed', hooks.onAvailabilityChanged);
  socket.on('vehicle:status', hooks.onVehicleStatus);
  socket.on('screen:command', (event, ack) =>
    hooks.onCommand(event.command, typeof ack === 'function' ? ack : () => undefined),
  );

  return {
    resubscribe: subscribe,
    retryLater,
    report: (report) => socket.emit('screen:report', report),
    power: (state) => socket.emit('screen:power', { state }),
    waterNearby: (request) =>
      new Promise((resolve) => {
        if (!socket.connected) return resolve(null);
        socket
          .timeout(ACK_TIMEOUT_MS)
          .emit('water:nearby', request, (err: Error | null, answer: Ack<WaterNearbyResult>) =>
            resolve(err ? null : answer),
          );
      }),
    availabilityWatch: (monitorId) =>
      new Promise((resolve) => {
        if (!socket.connected) return resolve(null);
        socket
          .timeout(ACK_TIMEOUT_MS)
          .emit('availability:watch', { monitorId }, (err: Error | null, answer: Ack<AvailabilityCounts>) =>
            resolve(err ? null : answer),
          );
      }),
    vehiclesWatch: (monitorId) =>
      new Promise((resolve) => {
        if (!socket.connected) return resolve(null);
        socket
          .timeout(ACK_TIMEOUT_MS)
          .emit('vehicles:watch', { monitorId }, (err: Error | null, answer: Ack<VehicleStatuses>) =>
            resolve(err ? null : answer),
          );
      }),
    close: () => {
      window.clearTimeout(retry);
      window.clearTimeout(reconnect);
      socket.close();
    },
  };
}
