// startService(): the whole service on one HTTP server — REST and the hub — with graceful shutdown.
// main.ts calls it with the environment's configuration; the tests call it with port 0. This is the
// composition root: every part is built once, here, in dependency order — the database and Redis, the
// hub's Socket.IO server (the areas publish on it), the monitor area's store and live side, every
// area's commands and operations (server/areas/index.ts), the Koa application, the HTTP server, and
// the hub on it.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { createApp, type ReadinessCheck } from './app.js';
import { buildAreas } from './areas/index.js';
import { MonitorLive } from './areas/monitor/live.js';
import { MonitorStore } from './areas/monitor/store.js';
import { answerClientError } from './http/client-errors.js';
import type { Config } from './config.js';
import { serviceModels } from './areas/models.js';
import { openDatabase, type Database, type DatabaseOptions } from './db/database.js';
import { displayRoutes } from './display/routes.js';
import { HubBroadcasts } from './hub/broadcasts.js';
import { createHub, type Hub } from './hub/hub.js';
import { createIo } from './hub/io.js';
import { hubSignature, watchHubPeers } from './hub/peers.js';
import { connectRedis } from './hub/redis.js';
import { Limits } from './http/limits.js';
import { Validator } from './http/validation.js';
import { Metrics } from './metrics.js';
import { CredentialCache } from './identity/credential-cache.js';
import { installationId as loadInstallationId } from './db/system.js';
import { watchRestores } from './db/restores.js';

export interface RunningService {
  server: http.Server;
  port: number;
  db: Database;
  hub: Hub;
  /** This installation's identity (created once, stored in its database). */
  installationId: string;
  /** The namespace of its Redis channels and keys. */
  redisPrefix: string;
  /** Stops accepting, lets in-flight requests finish (up to the timeout), closes connections. */
  close(): Promise<void>;
}

/** Opens the database at `mongodbUri`, builds app and hub, and listens on config.port. */
export async function startService(
  config: Config,
  mongodbUri: string,
  log: Logger,
  options: Pick<DatabaseOptions, 'monitorCommands'> = {},
): Promise<RunningService> {
  const db = await openDatabase(mongodbUri, serviceModels, {
    maxPoolSize: config.mongodbPoolSize,
    waitQueueTimeoutMS: config.mongodbWaitQueueTimeoutMs,
    monitorCommands: options.monitorCommands,
  });
  const installationId = await loadInstallationId(db.system);
  const redisPrefix = config.redisPrefix ?? `alarm-hub:${installationId}`;
  const peers = await watchHubPeers(db.system, hubSignature(config.redisUrl, redisPrefix), log, config.hubHeartbeatMs);
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : null;
  const limits = new Limits({ enabled: config.rateLimitPerSecond > 0, redis: redis?.pub, prefix: redisPrefix });
  const metrics = new Metrics();
  const credentials = new CredentialCache(db, config.credentialCacheMs);
  metrics.gauge('alarmhub_database_up', '1 while the database answers a ping, else 0', async () =>
    Number(await db.ping()),
  );
  metrics.gauge(
    'alarmhub_redis_up',
    '1 while both Redis connections are ready, 0 when down, -1 without REDIS_URL',
    () => (redis ? Number(redis.up()) : -1),
  );
  metrics.gauge(
    'alarmhub_hub_mismatched_processes',
    "Live processes on this database whose hub settings differ from this one's",
    () => peers.mismatches().length,
  );
  // The areas, each built once: what publishes on the hub first, then what uses it.
  const io = createIo(redis, redisPrefix);
  const broadcasts = new HubBroadcasts(io, credentials, redis, log);
  const store = new MonitorStore(db, log);
  const live = new MonitorLive(io, store, { redis, metrics, log, resyncMs: config.hubResyncMs });
  const { monitors, screens, outbox, inbound, water, operations } = buildAreas({
    config,
    db,
    log,
    limits,
    events: broadcasts,
    monitorStore: store,
    monitorEvents: live,
  });
  const validator = new Validator();
  let hub: Hub | null = null;
  const readiness: ReadinessCheck[] = [
    { name: 'mongodb', check: async () => ({ ok: await db.ping() }) },
    // Redis down, or processes with different hub settings, degrade the hub (writes reach other
    // processes' screens only through the resync) but REST keeps serving: reported, not fatal.
    {
      name: 'hub',
      check: async () => ({ ok: true, detail: { ...hub?.status(), mismatchedProcesses: peers.mismatches() } }),
    },
  ];
  const display = await displayRoutes(config.tileUrl);
  const app = createApp({
    config,
    log,
    operations,
    validator,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimitPerSecond: config.rateLimitPerSecond,
    limits,
    credentials,
    metrics,
    trustProxy: config.trustProxy,
    readiness,
    extraRoutes: [display],
  });

  const handle = app.callback();
  // Set when shutdown begins. A request that arrives after that (on a keep-alive connection that is
  // being closed) is refused before anything handles it: a client either gets its answer or the
  // request had no effect, and may safely send it again elsewhere.
  let closing = false;
  const server = http.createServer((req, res) => {
    if (!closing) return void handle(req, res);
    const requestId = randomUUID();
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Retry-After': '1',
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    res.end(JSON.stringify({ error: 'unavailable', message: 'The service is shutting down; try again', requestId }));
  });
  server.on('clientError', answerClientError);
  hub = createHub(io, server, {
    db,
    monitors,
    live,
    screens,
    water,
    screenOfflineAfterMs: config.screenOfflineAfterMs,
    validator,
    log,
    redis,
    limits,
    metrics,
    credentials,
    maxSocketsPerToken: config.maxSocketsPerToken,
    tokenRecheckMs: config.tokenRecheckMs,
    tokenFullRecheckMs: config.tokenFullRecheckMs,
    trustProxy: config.trustProxy,
  });
  metrics.counter(
    'alarmhub_data_write_collisions_total',
    'Monitor data writes that found their version taken by another process and were built again on the stored one',
    () => store.dataCollisions,
  );
  metrics.gauge(
    'alarmhub_data_writes_in_flight',
    "Alarm data writes past their organization's gate on this process",
    () => monitors.dataWrites.active,
  );
  metrics.gauge(
    'alarmhub_data_writes_waiting',
    "Alarm data writes waiting for their organization's turn on this process",
    () => monitors.dataWrites.waiting,
  );
  metrics.counter(
    'alarmhub_data_writes_refused_total',
    "Alarm data writes refused with 503 because their organization's queue was full or their wait ran out",
    () => monitors.dataWrites.refused,
  );
  metrics.counter(
    'alarmhub_alarm_delivery_failed_tries_total',
    'Tries of alarm deliveries (push, SMS, call) that failed on this process; each is retried or ' +
      'ends failed (docs/alarms.md)',
    () => outbox.failedTries,
  );
  metrics.counter(
    'alarmhub_inbound_received_total',
    'SMS and calls the gateways reported to IN1 and IN2 on this process',
    () => inbound.counts.accepted,
  );
  metrics.counter(
    'alarmhub_inbound_alarms_raised_total',
    'Alarms raised by an SMS or a call with the right PIN on this process',
    () => inbound.counts.raised,
  );
  metrics.counter(
    'alarmhub_inbound_wrong_pins_total',
    'SMS and calls whose number and PIN matched no alarming configuration on this process',
    () => inbound.counts.wrongPin,
  );
  metrics.counter(
    'alarmhub_inbound_throttled_total',
    'SMS and calls ignored because their sender sent too many wrong PINs',
    () => inbound.counts.throttled,
  );
  outbox.start();
  const restores = await watchRestores(db.conn.db!, log, () => hub!.restored());
  // The next sweep is timed from the end of the last one: on a busy process a sweep can take longer
  // than the period, and sweeps that overlapped would each remove the same documents, piling up.
  let pairingSweep: NodeJS.Timeout | null = null;
  let sweeping = config.pairingSweepMs > 0;
  const sweepPairingsLater = () => {
    pairingSweep = setTimeout(() => {
      screens.pairings
        .sweep()
        .then(
          (removed) => removed && log.info({ removed }, 'expired screen pairings removed'),
          (err: unknown) => log.warn({ err }, 'pairing sweep failed'),
        )
        .finally(() => sweeping && sweepPairingsLater());
    }, config.pairingSweepMs);
    pairingSweep.unref();
  };
  if (sweeping) sweepPairingsLater();
  // Idle keep-alive sockets are closed at shutdown; busy ones after their response.
  const sockets = new Map<Socket, { busy: boolean }>();
  server.on('connection', (socket) => {
    sockets.set(socket, { busy: false });
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const entry = sockets.get(req.socket);
    if (entry) entry.busy = true;
    res.once('finish', () => {
      if (entry) entry.busy = false;
      if (closing) req.socket.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A storm of reconnecting screens fills Node's default queue of 511 while handshakes are being
    // worked through; every connection beyond it is dropped and retried by the client's kernel 1, 3, 7…
    // seconds later (docs/hub.md "Reconnect storms").
    server.listen({ port: config.port, host: config.host, backlog: config.listenBacklog }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    server,
    port,
    db,
    hub,
    installationId,
    redisPrefix,
    async close() {
      closing = true;
      // Stop accepting first; then end idle keep-alive connections and the hub's transports (screens
      // reconnect elsewhere); busy requests finish, bounded by the shutdown timeout.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, state] of sockets) if (!state.busy) socket.end();
      const timer = setTimeout(() => {
        log.warn({ open: sockets.size }, 'shutdown timeout: closing remaining connections');
        for (const socket of sockets.keys()) socket.destroy();
      }, config.shutdownTimeoutMs);
      restores.close();
      sweeping = false;
      if (pairingSweep) clearTimeout(pairingSweep);
      live.close();
      await outbox.stop();
      await hub!.close();
      await closed;
      clearTimeout(timer);
      await redis?.close();
      await peers.close();
      await db.close();
    },
  };
}
