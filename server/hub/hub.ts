// The real-time hub (docs/hub.md "Protocol"): Socket.IO on the service's HTTP server, rooms per organization
// and per monitor, the Redis adapter when REDIS_URL is set. It implements HubEvents, so the areas'
// commands are its only source of events.
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import type { Limits } from '../http/limits.js';
import type { Metrics } from '../metrics.js';
import type http from 'node:http';
import type { Logger } from 'pino';
import { Server, type Socket } from 'socket.io';
import type { MonitorCommands } from '../areas/monitor/commands.js';
import type { Database } from '../db/database.js';
import { translateDbError } from '../db/errors.js';
import { AppError } from '../errors.js';
import type { Validator } from '../http/validation.js';
import type { Caller } from '../identity/actor.js';
import type { CredentialCache } from '../identity/credential-cache.js';
import type { ScreenCommands } from '../areas/screens/commands.js';
import { ScreenHealth } from '../areas/screens/health.js';
import { Admission } from './admission.js';
import type { HubEvents } from './events.js';
import { recheckSockets } from './recheck.js';
import { attachScreen, commandScreens, screensHere } from './screens.js';
import type { RedisPair } from './redis.js';
import { PatchSequencer } from './sequencer.js';
import {
  rooms,
  type Ack,
  type AckError,
  type ClientToServerEvents,
  type MonitorView,
  type PatchEvent,
  type ServerToClientEvents,
  type SubscribeRequest,
  type SubscribeResult,
  type UnsubscribeRequest,
} from '../../common/hub-protocol.js';

interface SocketData {
  actor: Caller;
  /** A kiosk agent beside a screen (screen tokens only): receives screen:power, is no screen. */
  agent: boolean;
  /** The client's address (from X-Forwarded-For behind a trusted proxy). */
  address: string;
}

/** Events between hub processes (through the adapter); screens never see them. */
interface InterServerEvents {
  'hub:patch': (event: PatchEvent) => void;
  /** A process could not publish this monitor's patches while Redis was away: resync its screens. */
  'hub:resync': (monitorId: number) => void;
  /** A credential was revoked: forget it here (its stored hash), then acknowledge. */
  'hub:forget-credential': (credential: string, done: (forgotten: true) => void) => void;
}

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface HubDeps {
  db: Database;
  monitors: MonitorCommands;
  screens: ScreenCommands;
  /** A screen silent this long counts as offline (screen:offline to its organization). */
  screenOfflineAfterMs: number;
  validator: Validator;
  log: Logger;
  /** The Redis clients when REDIS_URL is set (the service owns and closes them). */
  redis: RedisPair | null;
  /** Namespace of every Redis channel and key of this installation. */
  redisPrefix: string;
  /** Where the hub's rate limits are counted. */
  limits: Limits;
  metrics: Metrics;
  /** Credentials resolved recently (shared with REST). */
  credentials: CredentialCache;
  /** How often connected sockets' tokens are checked for revocation. */
  tokenRecheckMs: number;
  /** How often monitors with screens here are checked for versions this process missed. */
  resyncMs?: number;
  /** Sockets one credential may hold on this process; 0 is no cap. */
  maxSocketsPerToken: number;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
}

export interface Hub extends HubEvents {
  /** Readiness detail: screens' sockets on this process, the other sockets (staff clients, kiosk agents) apart, and the Redis state. */
  status(): { screens: number; otherSockets: number; redis: 'up' | 'down' | 'not configured' };
  /** The database was restored: every socket here goes (it reconnects, authenticates and subscribes anew). */
  restored(): void;
  close(): Promise<void>;
}

/** How long a revocation waits for the other processes to confirm they forgot the credential. */
const FORGET_WAIT_MS = 2_000;

const SCHEMES = { 'api-token': 'apikey', 'personal-access-token': 'pat', 'screen-token': 'screen' } as const;

export { MAX_SUBSCRIPTIONS } from './admission.js';

function ackError(err: unknown): AckError {
  const known = err instanceof AppError ? err : translateDbError(err);
  return known ? { error: known.code, message: known.message } : { error: 'internal_error', message: 'Unexpected error' };
}

/** Attaches the hub to an HTTP server. */
export function createHub(server: http.Server, deps: HubDeps): Hub {
  const { log, monitors } = deps;
  const io: HubServer = new Server(server, {
    path: '/socket.io',
    serveClient: false,
    // A screen on a dead link (Wi-Fi gone, no TCP close) shows its banner within 15 s, not 45 s.
    pingInterval: 10_000,
    pingTimeout: 5_000,
  });
  const { redis } = deps;
  // Channels are namespaced per installation: two installations on one Redis never see each other. A
  // Redis Cluster carries them over sharded pub/sub.
  if (redis?.cluster) io.adapter(createShardedAdapter(redis.pub, redis.sub, { channelPrefix: deps.redisPrefix }));
  else if (redis) io.adapter(createAdapter(redis.pub, redis.sub, { key: deps.redisPrefix }));

  const sequencer = new PatchSequencer(
    (event) => {
      io.local.to(rooms.monitor(event.monitorId)).emit('monitor:patch', event);
      deps.metrics.patchEmitted(event.at);
    },
    150,
    (monitorId) => void resync(monitorId).catch((err) => log.warn({ err, monitorId }, 'resync to check a doubtful patch failed')),
  );
  const localScreens = (monitorId: number) => io.of('/').adapter.rooms.get(rooms.monitor(monitorId))?.size ?? 0;
  // Patches of monitors nobody here watches are not tracked: the first subscription starts the track.
  const deliver = (event: PatchEvent) => {
    if (localScreens(event.monitorId) > 0 || sequencer.position(event.monitorId) !== undefined) sequencer.accept(event);
  };
  // Another process's write: to the screens first, then remembered here too (deriving the new state
  // costs a copy of the monitor's data), so the next write here does not collide with it.
  io.on('hub:patch', (event) => {
    deliver(event);
    monitors.learn(event);
  });

  // Sends the stored state to this process's screens of a monitor when it differs from what they were
  // sent: versions went by unseen here, or the history was reset (a restored database).
  async function resync(monitorId: number): Promise<void> {
    // Nobody here watches it any more: the next subscription starts a fresh track.
    if (localScreens(monitorId) === 0) return sequencer.forget(monitorId);
    const stored = await monitors.latestVersion(monitorId);
    const sent = sequencer.position(monitorId);
    if (sent && stored.version === sent.version && stored.epoch === sent.epoch) return;
    const snapshot = await monitors.snapshot(monitorId);
    if (!snapshot) return;
    const reset = sent !== undefined && (snapshot.version < sent.version || (snapshot.version === sent.version && snapshot.epoch !== sent.epoch));
    sequencer.advance(monitorId, snapshot.version, snapshot.epoch);
    io.local.to(rooms.monitor(monitorId)).emit('monitor:snapshot', reset ? { ...snapshot, reset } : snapshot);
    deps.metrics.snapshotSent('resync');
  }

  const resyncFailed = (monitorId: number) => (err: unknown) => log.warn({ err, monitorId }, 'resync failed');

  // The periodic pass, the safety net for a lost patch. A monitor stored ahead of what its screens here
  // were sent may only have its patches in flight (a busy process reads them from Redis late): it is
  // resynced only if they have not come after half a period. A snapshot to every screen of the
  // monitor for nothing would add to the load that delayed them. A reset (stored behind, or another
  // epoch) is resynced at once.
  const resyncMs = deps.resyncMs ?? 10_000;
  const graceTimers = new Set<NodeJS.Timeout>();
  async function resyncLagging(monitorId: number): Promise<void> {
    const sent = sequencer.position(monitorId);
    if (!sent || localScreens(monitorId) === 0) return resync(monitorId);
    const stored = await monitors.latestVersion(monitorId);
    if (stored.version <= sent.version) return resync(monitorId);
    const timer = setTimeout(() => {
      graceTimers.delete(timer);
      const now = sequencer.position(monitorId);
      if (!now || now.version < stored.version) void resync(monitorId).catch(resyncFailed(monitorId));
    }, resyncMs / 2);
    timer.unref();
    graceTimers.add(timer);
  }

  /** Every monitor with screens here; `periodic`: with the grace above. */
  async function resyncAll(periodic = false): Promise<void> {
    const ids = [...io.of('/').adapter.rooms.keys()].filter((r) => r.startsWith('monitor:')).map((r) => Number(r.slice(8)));
    for (const id of ids) await (periodic ? resyncLagging(id) : resync(id)).catch(resyncFailed(id));
  }
  // Patches written here while Redis was away never reached the other processes; once it is back they
  // are told which monitors to resync (their own recovery may have come before these writes).
  const unpublished = new Set<number>();
  io.on('hub:resync', (monitorId) => void resync(monitorId).catch(resyncFailed(monitorId)));
  redis?.onRecovered(() => {
    void resyncAll();
    for (const monitorId of unpublished) io.serverSideEmit('hub:resync', monitorId);
    unpublished.clear();
  });
  const resyncTimer = setInterval(() => void resyncAll(true), resyncMs);
  resyncTimer.unref();

  // A screen removed on another process: its token is refused here from now on.
  io.on('hub:forget-credential', (credential, done) => {
    deps.credentials.forget(credential);
    if (typeof done === 'function') done(true);
  });
  // Waits for every other process's acknowledgement, so the revoking request answers only once none of
  // them accepts the credential any more. Without Redis there are no others; with Redis away they
  // cannot be told, and forget within CREDENTIAL_CACHE_MS.
  function forgetEverywhere(credential: string): Promise<void> {
    if (!redis?.up()) return Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (problem: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (problem) log.warn({ err: problem }, 'revoked credential: not every process confirmed forgetting it; those refuse it within CREDENTIAL_CACHE_MS');
        resolve();
      };
      // The adapter never answers when Redis fails the request: the wait has its own bound.
      const timer = setTimeout(() => settle(`no answer within ${FORGET_WAIT_MS} ms`), FORGET_WAIT_MS);
      io.serverSideEmit('hub:forget-credential', credential, (err: Error | null) => settle(err ? err.message : null));
    });
  }

  deps.metrics.gauge('alarmhub_hub_connections', 'Hub connections (screens, staff clients, agents) on this process', () => io.engine.clientsCount);
  deps.metrics.gauge('alarmhub_hub_subscriptions', 'Monitor subscriptions on this process (a socket per monitor it follows)', () => {
    let total = 0;
    for (const [room, members] of io.of('/').adapter.rooms) if (room.startsWith('monitor:')) total += members.size;
    return total;
  });
  deps.metrics.counter('alarmhub_data_write_collisions_total', 'Monitor data writes that found their version taken by another process and were built again on the stored one', () => monitors.store.dataCollisions);
  deps.metrics.gauge('alarmhub_hub_paired_screens', 'Paired screens (screen tokens) connected to this process', () => screensHere(io).size);
  const admission = new Admission({ limits: deps.limits, maxSocketsPerToken: deps.maxSocketsPerToken });

  // Screens' health: online/offline once per change, across processes (server/areas/screens/health.ts).
  const health = new ScreenHealth(deps.db, deps.screenOfflineAfterMs, (organizationId, { kind, ...event }) => {
    if (kind === 'offline') io.to(rooms.organization(organizationId)).emit('screen:offline', event as { screenId: number; monitorId: number; since: string });
    else io.to(rooms.organization(organizationId)).emit('screen:online', event);
  });
  const sweepTimer = setInterval(() => {
    health.sweep(screensHere(io)).catch((err) => log.warn({ err }, 'screen health sweep failed'));
  }, Math.min(15_000, Math.max(200, deps.screenOfflineAfterMs / 4)));
  sweepTimer.unref();

  io.use(async (socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; scheme?: unknown; role?: unknown };
    const kind = SCHEMES[auth.scheme as keyof typeof SCHEMES];
    // The rightmost entry is the one the trusted proxy added; the ones before it are the client's say.
    const forwarded = deps.trustProxy ? (String(socket.handshake.headers['x-forwarded-for'] ?? '').split(',').pop() ?? '').trim() : '';
    const address = forwarded || socket.handshake.address;
    // Only refused handshakes count against the address, and only they are answered rate_limited.
    const refuse = async () => next(new Error(await admission.refusal(address)));
    if (typeof auth.token !== 'string' || !kind) return refuse();
    try {
      const actor = await deps.credentials.resolve(kind, auth.token);
      if (!actor) return refuse();
      // A client that left during the (awaited) lookup is not counted in: nothing would count it out.
      if (socket.conn.readyState !== 'open') return next(new Error('unavailable'));
      if (!admission.admit(actor.tokenId, socket.id)) return next(new Error('too_many_connections'));
      // Counted out when its connection closes, whether or not the socket ever connected: Socket.IO
      // drops a socket whose client left during the handshake without a 'disconnect'.
      socket.conn.once('close', () => admission.release(actor.tokenId, socket.id));
      socket.data.actor = actor;
      socket.data.agent = actor.kind === 'screen' && auth.role === 'agent';
      socket.data.address = address;
      next();
    } catch (err) {
      next(new Error(ackError(err).error));
    }
  });

  // Screens (screen tokens, not their kiosk agents) and every other socket, counted apart.
  const connected = { screens: 0, otherSockets: 0 };
  io.on('connection', (socket: HubSocket) => {
    const { actor, address } = socket.data;
    // A screen reads its one monitor: it joins no organization room (journal, rules, fleet events).
    if (actor.kind === 'screen') attachScreen(io, socket, actor, socket.data.agent, { health, validator: deps.validator, log });
    else socket.join((actor.kind === 'apikey' ? [actor.organizationId] : [...actor.roles.keys()]).map(rooms.organization));
    const kind = actor.kind !== 'screen' ? 'client' : socket.data.agent ? 'kiosk agent' : 'screen';
    const count = kind === 'screen' ? 'screens' : 'otherSockets';
    connected[count]++;
    log.info({ socket: socket.id, actor: actor.kind, tokenId: actor.tokenId, ...connected }, `${kind} connected`);
    socket.on('disconnect', (reason) => {
      admission.release(actor.tokenId, socket.id);
      connected[count]--;
      log.info({ socket: socket.id, reason, ...connected }, `${kind} disconnected`);
    });

    socket.on('monitor:subscribe', async (request: SubscribeRequest, ack: (a: Ack<SubscribeResult>) => void) => {
      if (typeof ack !== 'function') return;
      try {
        const { monitorId, version, epoch } = deps.validator.check<SubscribeRequest>('HubSubscribe', request, 'body', 'monitorId missing or in wrong format');
        const followed = [...socket.rooms].filter((room) => room.startsWith('monitor:')).length;
        await admission.checkSubscribe(actor.tokenId, address, followed, socket.rooms.has(rooms.monitor(monitorId)));
        await monitors.dataReadable(actor, monitorId);
        // Join first: a patch written while the snapshot is read is then not lost but arrives after it.
        await socket.join(rooms.monitor(monitorId));
        const current = await monitors.latestVersion(monitorId);
        void sendTestAlarm(socket, monitorId);
        if (version === current.version && epoch === current.epoch) {
          sequencer.start(monitorId, current.version, current.epoch);
          return ack({ data: { monitorId, ...current, serverTime: Date.now() } });
        }
        // The data comes from the process's cache of versions (they never change): repeated snapshots
        // of one version cost no read of the data.
        const snapshot = await monitors.snapshot(monitorId);
        if (!snapshot) throw new AppError(404, 'not_found', 'Monitor not found');
        // Only this screen got the snapshot: the others still need every patch, so the track only starts here.
        sequencer.start(monitorId, snapshot.version, snapshot.epoch);
        ack({ data: { monitorId, version: snapshot.version, epoch: snapshot.epoch, snapshot, serverTime: Date.now() } });
        deps.metrics.snapshotSent('subscribe');
      } catch (err) {
        ack({ error: ackError(err) });
      }
    });

    socket.on('monitor:unsubscribe', async (request: UnsubscribeRequest, ack: (a: Ack<{ monitorId: number }>) => void) => {
      if (typeof ack !== 'function') return;
      try {
        const { monitorId } = deps.validator.check<UnsubscribeRequest>('HubUnsubscribe', request, 'body', 'monitorId missing or in wrong format');
        await socket.leave(rooms.monitor(monitorId));
        ack({ data: { monitorId } });
      } catch (err) {
        ack({ error: ackError(err) });
      }
    });
  });

  // A screen that subscribes while a test alarm runs shows it too (after its ack, so after its state).
  async function sendTestAlarm(socket: HubSocket, monitorId: number): Promise<void> {
    const running = await deps.screens.runningTestAlarm(monitorId).catch(() => null);
    if (running) setImmediate(() => socket.emit('monitor:test-alarm', { monitorId, ...running }));
  }

  // Revoked tokens and lost memberships: their screens are disconnected within tokenRecheckMs.
  const recheckTimer = setInterval(async () => {
    try {
      const counts = await recheckSockets(deps.db, io.of('/').sockets.values());
      if (counts.revoked || counts.membership) log.info(counts, 'screens disconnected: credential no longer valid');
    } catch (err) {
      log.warn({ err }, 'credential recheck failed');
    }
  }, deps.tokenRecheckMs);
  recheckTimer.unref();

  return {
    dataWritten(event) {
      if (redis) {
        if (!redis.up()) unpublished.add(event.monitorId);
        io.serverSideEmit('hub:patch', event);
      }
      deliver(event);
    },
    toOrganization(organizationId, event, ...args) {
      (io.to(rooms.organization(organizationId)).emit as (e: string, ...a: unknown[]) => boolean)(event, ...args);
    },
    commandScreens: (screenIds, command, timeoutMs) => commandScreens(io, screenIds, command, timeoutMs),
    testAlarm(event) {
      io.to(rooms.monitor(event.monitorId)).emit('monitor:test-alarm', event);
    },
    async credentialRevoked(credential) {
      deps.credentials.forget(credential);
      await forgetEverywhere(credential);
    },
    disconnectScreen(screenId) {
      io.in([rooms.screen(screenId), rooms.agents(screenId)]).disconnectSockets(true);
    },
    monitorUpdated(monitor: MonitorView, revision: number) {
      io.to([rooms.organization(monitor.organizationID), rooms.monitor(monitor.id)]).emit('monitor:updated', { monitor, revision });
    },
    monitorDeleted(monitorId, organizationId) {
      io.to([rooms.organization(organizationId), rooms.monitor(monitorId)]).emit('monitor:deleted', { monitorId });
      io.in(rooms.monitor(monitorId)).socketsLeave(rooms.monitor(monitorId));
      sequencer.forget(monitorId);
    },
    status() {
      return { ...connected, redis: redis ? (redis.up() ? 'up' : 'down') : 'not configured' };
    },
    restored() {
      // Rooms were joined on facts of the old history: no socket keeps one (docs/operating.md, "Backups").
      for (const room of [...io.of('/').adapter.rooms.keys()]) if (room.startsWith('monitor:')) sequencer.forget(Number(room.slice(8)));
      // Closing the transports (as at shutdown) makes every client reconnect by itself.
      for (const socket of io.of('/').sockets.values()) socket.conn.close();
    },
    async close() {
      clearInterval(resyncTimer);
      for (const timer of graceTimers) clearTimeout(timer);
      clearInterval(recheckTimer);
      clearInterval(sweepTimer);
      sequencer.close();
      // Closing the transports (not disconnecting the sockets) lets screens reconnect to another process.
      io.engine.close();
      // Their disconnects (lastSeen) are written before the service closes the database.
      await health.settled();
    },
  };
}
