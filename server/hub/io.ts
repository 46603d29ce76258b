// The hub's Socket.IO server (docs/hub.md "Protocol"): created before anything that publishes on it, so
// the areas' live parts and commands can be built on it in order (server/service.ts), and attached to
// the HTTP server last. Rooms per organization and per monitor; the Redis adapter when REDIS_URL is set.
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { Server, type Socket } from 'socket.io';
import { translateDbError } from '../db/errors.js';
import { AppError } from '../errors.js';
import type { Caller } from '../identity/actor.js';
import type { RedisPair } from './redis.js';
import type {
  AckError,
  ClientToServerEvents,
  PatchEvent,
  ServerToClientEvents,
  TestAlarmEvent,
} from '../../common/hub-protocol.js';

export interface SocketData {
  actor: Caller;
  /** A kiosk agent beside a screen (screen tokens only): receives screen:power, is no screen. */
  agent: boolean;
  /** The client's address (from X-Forwarded-For behind a trusted proxy). */
  address: string;
  /** The credential change mark its credential was last checked under (server/hub/recheck.ts). */
  checkedUnder?: string | null;
}

/** Events between hub processes (through the adapter); screens never see them. */
export interface InterServerEvents {
  'hub:patch': (event: PatchEvent) => void;
  /** A process could not publish this monitor's patches while Redis was away: resync its screens. */
  'hub:resync': (monitorId: number) => void;
  /** A monitor's configuration changed or it was deleted: what a process kept of it is old. */
  'hub:monitor-changed': (monitorId: number) => void;
  /** A test alarm started (before its room broadcast): every process knows it runs. */
  'hub:test-alarm': (event: TestAlarmEvent) => void;
  /** A credential was revoked: forget it here (its stored hash), then acknowledge. */
  'hub:forget-credential': (credential: string, done: (forgotten: true) => void) => void;
}

export type HubServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** A Socket.IO server not yet attached; `redis` adds the adapter under the installation's prefix. */
export function createIo(redis: RedisPair | null, redisPrefix: string): HubServer {
  const io: HubServer = new Server({
    path: '/socket.io',
    serveClient: false,
    // A screen on a dead link (Wi-Fi gone, no TCP close) shows its banner within 15 s, not 45 s.
    pingInterval: 10_000,
    pingTimeout: 5_000,
  });
  // Channels are namespaced per installation: two installations on one Redis never see each other. A
  // Redis Cluster carries them over sharded pub/sub.
  if (redis?.cluster) io.adapter(createShardedAdapter(redis.pub, redis.sub, { channelPrefix: redisPrefix }));
  else if (redis) io.adapter(createAdapter(redis.pub, redis.sub, { key: redisPrefix }));
  return io;
}

/** The monitors that have a room on this process (a socket here follows them). */
export function monitorsHere(io: HubServer): number[] {
  return [...io.of('/').adapter.rooms.keys()].filter((r) => r.startsWith('monitor:')).map((r) => Number(r.slice(8)));
}

/** An error as a socket's acknowledgement carries it. */
export function ackError(err: unknown): AckError {
  const known = err instanceof AppError ? err : translateDbError(err);
  return known
    ? { error: known.code, message: known.message }
    : { error: 'internal_error', message: 'Unexpected error' };
}

// The events a socket asks with: one request object and an acknowledgement (docs/hub.md "Protocol").
const REQUESTS = new Set([
  'monitor:subscribe',
  'monitor:unsubscribe',
  'water:nearby',
  'availability:watch',
  'vehicles:watch',
]);

/**
 * Answers a request event sent with more arguments than its one request (the acknowledgement is always
 * the last) with invalid_body instead of leaving the client waiting; one without an acknowledgement has
 * nobody to answer and is dropped.
 */
export function requireOneRequest(socket: HubSocket): void {
  socket.use(([event, ...args], next) => {
    if (!REQUESTS.has(event)) return next();
    const ack = args[args.length - 1];
    if (typeof ack !== 'function') return;
    if (args.length !== 2) {
      ack({
        error: {
          error: 'invalid_body',
          message: `${event} takes one request object and an acknowledgement, got ${args.length - 1} arguments`,
        },
      });
      return;
    }
    next();
  });
}
