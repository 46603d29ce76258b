// The console's one socket to the hub (docs/hub.md), signed in by the session cookie: the pages follow
// what changes through the organization's room instead of asking again and again. It never gives up:
// after the server closed it (a role changed, the database was away) it connects again, and every page
// reads its data once more on each connection, so nothing missed while it was away stays missing. A
// refused session (signed out elsewhere, removed) sends the person to the sign-in page.
import { useEffect, useRef } from 'preact/hooks';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/hub-protocol.js';
import { Reads } from './fresh.js';

type Hub = Socket<ServerToClientEvents, ClientToServerEvents>;

const RETRY_MS = 2_000;

type EventName = keyof ServerToClientEvents;

/** The events that bring an alarm into a page's list as they come. */
export const ALARM_EVENTS: readonly EventName[] = ['alarm:created', 'alarm:updated'];

const connection: { socket: Hub | null; events: Map<string, number> } = { socket: null, events: new Map() };

// What the shown pages read again on each connection, each once however many of its events it follows
// (a loader following alarm:created and alarm:updated read three times on every page load before):
// the loader and how many of its hooks are mounted.
const onConnect = new Map<() => void, number>();

function open(): Hub {
  const socket: Hub = io({ path: '/socket.io', auth: { scheme: 'session' }, transports: ['websocket', 'polling'] });
  // Counted before the event's own listeners run: a read answering after this may be read again (fresh.ts).
  socket.onAny((event: string) => connection.events.set(event, (connection.events.get(event) ?? 0) + 1));
  socket.on('connect', () => {
    for (const missed of [...onConnect.keys()]) missed();
  });
  socket.on('connect_error', (error) => {
    if (error.message === 'unauthorized') {
      socket.close();
      // The members' app signs in on its own start page; the console's pages on /signin.
      location.assign(location.pathname.startsWith('/app') ? `/app${location.search}` : `/signin${location.search}`);
      return;
    }
    // A refusal by the server's middleware ("unavailable" while its database is away) is not retried by
    // socket.io itself; a transport failure is (socket.active stays true).
    if (!socket.active) setTimeout(() => socket.connect(), RETRY_MS);
  });
  socket.on('disconnect', (reason) => {
    // The server closes the sockets of a changed or ended session; the handshake decides afresh.
    if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 200);
  });
  return socket;
}

/** The socket, opened on first use. */
export function hub(): Hub {
  connection.socket ??= open();
  return connection.socket;
}

/**
 * Calls `handler` for every `event` while the component is shown, and `missed` on each connection, the
 * first too: what changed between the page's own read and the socket joining its rooms, or while it
 * was away, is read again. A `missed` given for several events is called once per connection.
 */
export function useHubEvent<E extends keyof ServerToClientEvents>(
  event: E,
  handler: (...args: Parameters<ServerToClientEvents[E]>) => void,
  missed: () => void,
): void {
  useEffect(() => {
    const socket = hub();
    // The event's handler type is checked by the signature above; the socket's own typing cannot follow a generic event.
    const listener = handler as never;
    socket.on(event, listener);
    onConnect.set(missed, (onConnect.get(missed) ?? 0) + 1);
    return () => {
      socket.off(event, listener);
      const left = onConnect.get(missed)! - 1;
      if (left > 0) onConnect.set(missed, left);
      else onConnect.delete(missed);
    };
  }, [event, handler, missed]);
}

/**
 * One loader's reads (fresh.ts): `newest(read)` gives the answer to use, or undefined when a newer read's
 * answer was used meanwhile. `applied` names the events whose data the page applies as they come: a
 * read during which one of them arrived is read again.
 */
export function useNewest(applied: readonly EventName[] = []): Reads['newest'] {
  const newest = useRef<Reads['newest'] | null>(null);
  if (!newest.current) {
    const reads = new Reads(() => applied.reduce((sum, event) => sum + (connection.events.get(event) ?? 0), 0));
    newest.current = (read) => reads.newest(read);
  }
  return newest.current;
}
