// The hub connection: one socket.io-client per screen, same origin, path /socket.io. It subscribes on
// every (re)connect with the version it holds, so a reconnect is also a resync.
import { io, type Socket } from 'socket.io-client';
import type {
  Ack,
  AuthScheme,
  ClientToServerEvents,
  MonitorView,
  PatchEvent,
  ServerToClientEvents,
  SnapshotEvent,
  SubscribeRequest,
  SubscribeResult,
} from '../../server/hub/protocol.js';

/** What the connection reports to the app. */
export interface ConnectionHooks {
  request: () => SubscribeRequest;
  onSubscribed: (result: SubscribeResult) => void;
  onSubscribeError: (error: { error: string; message: string }) => void;
  onSnapshot: (event: SnapshotEvent) => void;
  onPatch: (event: PatchEvent) => void;
  onUpdated: (monitor: MonitorView) => void;
  onDeleted: (monitorId: number) => void;
  onDisconnected: () => void;
  /** The token was refused (connect_error "unauthorized") or revoked (server-side disconnect). */
  onRevoked: () => void;
}

/** A live hub connection. */
export interface Connection {
  resubscribe: () => void;
  close: () => void;
}

type HubSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const ACK_TIMEOUT_MS = 10_000;
const RETRY_MS = 3_000;

/** Connects to the hub with a token and keeps the monitor subscribed across reconnects. */
export function connect(token: string, scheme: AuthScheme, hooks: ConnectionHooks): Connection {
  const socket: HubSocket = io({ path: '/socket.io', auth: { token, scheme }, reconnectionDelayMax: 10_000 });
  let retry: number | undefined;

  const subscribe = () => {
    window.clearTimeout(retry);
    if (!socket.connected) return; // the next connect subscribes
    socket.timeout(ACK_TIMEOUT_MS).emit('monitor:subscribe', hooks.request(), (err: Error | null, answer: Ack<SubscribeResult>) => {
      // A lost ack leaves the screen stale: try again rather than wait for the next gap.
      if (err) {
        retry = window.setTimeout(subscribe, RETRY_MS);
        return;
      }
      if ('error' in answer) hooks.onSubscribeError(answer.error);
      else hooks.onSubscribed(answer.data);
    });
  };

  socket.on('connect', subscribe);
  socket.on('connect_error', (error) => {
    if (error.message === 'unauthorized') {
      socket.close();
      hooks.onRevoked();
    } else {
      hooks.onDisconnected();
    }
  });
  socket.on('disconnect', (reason) => {
    // The server drops sockets whose token was revoked; socket.io will not reconnect by itself then.
    if (reason === 'io server disconnect') {
      socket.close();
      hooks.onRevoked();
    } else if (reason !== 'io client disconnect') {
      hooks.onDisconnected();
    }
  });
  socket.on('monitor:snapshot', hooks.onSnapshot);
  socket.on('monitor:patch', hooks.onPatch);
  socket.on('monitor:updated', (event) => hooks.onUpdated(event.monitor));
  socket.on('monitor:deleted', (event) => hooks.onDeleted(event.monitorId));

  return {
    resubscribe: subscribe,
    close: () => {
      window.clearTimeout(retry);
      socket.close();
    },
  };
}
