// The real-time hub (docs/hub.md "Protocol"): the Socket.IO server, built before the areas that publish
// on it (server/hub/io.ts), attached here to the service's HTTP server. Sockets are admitted by the
// handshake (handshake.ts); a screen joins its screen's rooms (screens.ts), other clients their
// organizations' rooms; any socket may follow monitors (subscriptions.ts, answered through the ports of
// ports.ts). Every process keeps its screens' health and checks its sockets' credentials again now and
// then, as jobs of the service's scheduler.
import type http from 'node:http';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { Limits } from '../http/limits.js';
import type { Validator } from '../http/validation.js';
import type { CredentialCache } from '../identity/credential-cache.js';
import type { Metrics } from '../metrics.js';
import type { Scheduler } from '../scheduler.js';
import { Admission } from './admission.js';
import type { PublicUrl } from '../http/public-url.js';
import { checkHandshakes } from './handshake.js';
import { requireOneRequest, type HubServer, type HubSocket } from './io.js';
import type { MonitorLive } from './monitor-live.js';
import type {
  AvailabilityPort,
  MonitorSource,
  ScreenHealthPort,
  ScreenSource,
  VehiclesPort,
  WaterSource,
} from './ports.js';
import { recheckSockets } from './recheck.js';
import type { RedisPair } from './redis.js';
import { attachScreen, screensHere } from './screens.js';
import { handleSubscriptions } from './subscriptions.js';
import { handleAvailability } from './availability.js';
import { handleVehicles } from './vehicles.js';
import { handleWater } from './water.js';
import { rooms } from '../../common/hub-protocol.js';

export interface HubDeps {
  db: Database;
  monitors: MonitorSource;
  live: MonitorLive;
  screens: ScreenSource;
  /** Screens' health (the screens area keeps it): connects, reports and disconnects here, the sweep. */
  health: ScreenHealthPort;
  /** Water sources near an alarm, for screens' maps. */
  water: WaterSource;
  availability: AvailabilityPort;
  /** Vehicles' FMS statuses, for walls' unit tiles. */
  vehicles: VehiclesPort;
  /** Where the hub's periodic jobs run (the health sweep, the credential recheck). */
  scheduler: Scheduler;
  /** A screen silent this long counts as offline (screen:offline to its organization). */
  screenOfflineAfterMs: number;
  validator: Validator;
  log: Logger;
  /** The Redis clients when REDIS_URL is set (the service owns and closes them). */
  redis: RedisPair | null;
  /** Where the hub's rate limits are counted. */
  limits: Limits;
  metrics: Metrics;
  /** Credentials resolved recently (shared with REST). */
  credentials: CredentialCache;
  /** How often connected sockets' tokens are checked for revocation. */
  tokenRecheckMs: number;
  /** How often a pass checks every socket, whatever the change mark says. */
  tokenFullRecheckMs: number;
  /** Sockets one credential may hold on this process; 0 is no cap. */
  maxSocketsPerToken: number;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
  /** Where people reach the service: a session's socket must be opened from its origin. */
  publicUrl: PublicUrl;
}

export interface Hub {
  /**
   * Readiness detail: screens' sockets on this process, the other sockets (staff clients, kiosk agents) apart, and the
   * Redis state.
   */
  status(): { screens: number; otherSockets: number; redis: 'up' | 'down' | 'not configured' };
  /** The database was restored: every socket here goes (it reconnects, authenticates and subscribes anew). */
  restored(): void;
  close(): Promise<void>;
}

export { MAX_SUBSCRIPTIONS } from './admission.js';

/** Attaches the hub's Socket.IO server to an HTTP server and handles its sockets. */
export function createHub(io: HubServer, server: http.Server, deps: HubDeps): Hub {
  const { log, redis } = deps;
  io.attach(server);
  const admission = new Admission({ limits: deps.limits, maxSocketsPerToken: deps.maxSocketsPerToken });
  checkHandshakes(io, {
    credentials: deps.credentials,
    admission,
    trustProxy: deps.trustProxy,
    publicOrigin: () => deps.publicUrl.origin,
  });

  deps.metrics.gauge(
    'alarmhub_hub_connections',
    'Hub connections (screens, staff clients, agents) on this process',
    () => io.engine.clientsCount,
  );
  deps.metrics.gauge(
    'alarmhub_hub_subscriptions',
    'Monitor subscriptions on this process (a socket per monitor it follows)',
    () => {
      let total = 0;
      for (const [room, members] of io.of('/').adapter.rooms) if (room.startsWith('monitor:')) total += members.size;
      return total;
    },
  );
  deps.metrics.gauge(
    'alarmhub_hub_paired_screens',
    'Paired screens (screen tokens) connected to this process',
    () => screensHere(io).size,
  );

  // Screens' health: online/offline once per change, across processes (the screens area keeps it).
  const { health } = deps;
  deps.scheduler.every('screen-health-sweep', Math.min(15_000, Math.max(200, deps.screenOfflineAfterMs / 4)), () =>
    health.sweep(screensHere(io)),
  );

  // Screens (screen tokens, not their kiosk agents) and every other socket, counted apart.
  const connected = { screens: 0, otherSockets: 0 };
  io.on('connection', (socket: HubSocket) => {
    const { actor } = socket.data;
    // A screen reads its one monitor: it joins no organization room (journal, rules, fleet events).
    if (actor.kind === 'screen')
      attachScreen(io, socket, actor, socket.data.agent, { health, validator: deps.validator, log });
    else
      socket.join((actor.kind === 'apikey' ? [actor.organizationId] : [...actor.roles.keys()]).map(rooms.organization));
    const kind = actor.kind !== 'screen' ? 'client' : socket.data.agent ? 'kiosk agent' : 'screen';
    const count = kind === 'screen' ? 'screens' : 'otherSockets';
    connected[count]++;
    log.info({ socket: socket.id, actor: actor.kind, tokenId: actor.tokenId, ...connected }, `${kind} connected`);
    socket.on('disconnect', (reason) => {
      admission.release(actor.tokenId, socket.id);
      connected[count]--;
      log.info({ socket: socket.id, reason, ...connected }, `${kind} disconnected`);
    });
    requireOneRequest(socket);
    handleSubscriptions(socket, {
      admission,
      validator: deps.validator,
      monitors: deps.monitors,
      live: deps.live,
      screens: deps.screens,
      log,
    });
    handleWater(socket, { validator: deps.validator, water: deps.water, log });
    handleAvailability(socket, { validator: deps.validator, availability: deps.availability, log });
    handleVehicles(socket, { validator: deps.validator, vehicles: deps.vehicles, log });
  });

  // Revoked tokens and lost memberships: their screens are disconnected within tokenRecheckMs (when the
  // change's mark could not be written, by the first pass tokenFullRecheckMs after the last full one).
  // A full pass that fails is not repeated on every run (it counts as the full pass of its period).
  let fullAt = Date.now();
  deps.scheduler.every('credential-recheck', deps.tokenRecheckMs, async () => {
    const full = Date.now() - fullAt >= deps.tokenFullRecheckMs;
    if (full) fullAt = Date.now();
    const counts = await recheckSockets(deps.db, deps.credentials, io.of('/').sockets.values(), full);
    if (counts.revoked || counts.membership) log.info(counts, 'screens disconnected: credential no longer valid');
  });

  return {
    status() {
      return { ...connected, redis: redis ? (redis.up() ? 'up' : 'down') : 'not configured' };
    },
    restored() {
      // Rooms were joined on facts of the old history: no socket keeps one (docs/operating.md, "Backups").
      deps.live.restored();
      // Closing the transports (as at shutdown) makes every client reconnect by itself.
      for (const socket of io.of('/').sockets.values()) socket.conn.close();
    },
    async close() {
      // Its periodic jobs stopped with the scheduler, before this.
      // Closing the transports (not disconnecting the sockets) lets screens reconnect to another process.
      io.engine.close();
      // Their disconnects (lastSeen) are written before the service closes the database.
      await health.settled();
    },
  };
}
