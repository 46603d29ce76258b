// The console's one socket to the hub (docs/hub.md), signed in by the session cookie: the pages follow
// what changes through the organization's room instead of asking again and again.
import { useEffect } from 'preact/hooks';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/hub-protocol.js';

type Hub = Socket<ServerToClientEvents, ClientToServerEvents>;

const connection: { socket: Hub | null } = { socket: null };

/** The socket, opened on first use; it reconnects by itself after a network break or a restart. */
export function hub(): Hub {
  connection.socket ??= io({ path: '/socket.io', auth: { scheme: 'session' }, transports: ['websocket', 'polling'] });
  return connection.socket;
}

/** Calls `handler` for every `event` while the component is shown, and once after each reconnection (it may have missed some). */
export function useHubEvent<E extends keyof ServerToClientEvents>(
  event: E,
  handler: (...args: Parameters<ServerToClientEvents[E]>) => void,
  missed: () => void,
): void {
  useEffect(() => {
    const socket = hub();
    // The event's handler type is checked by the signature above; the socket's own typing cannot follow a generic event.
    const listener = handler as never;
    const again = () => missed();
    socket.on(event, listener);
    socket.io.on('reconnect', again);
    return () => {
      socket.off(event, listener);
      socket.io.off('reconnect', again);
    };
  }, [event, handler, missed]);
}
