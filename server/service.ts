// startService(): the whole service on one HTTP server — REST and the hub — with graceful shutdown.
// main.ts calls it with the environment's configuration; the tests call it with port 0. This is the
// composition root: every part is built once, here, in dependency order — the database and Redis, the
// hub's Socket.IO server (the areas publish on it), every area from its manifest (server/areas/index.ts),
// the Koa application, the HTTP server, and the hub on it with the ports the areas answer. It owns the
// scheduler that runs every periodic job (server/scheduler.ts) and stops them first on close.
import type http from 'node:http';
import type { Logger } from 'pino';
import { createApp, type ReadinessCheck } from './app.js';
import { buildAreas } from './areas/area.js';
import { areas, serviceSchemas } from './areas/index.js';
import { serviceModels } from './areas/models.js';
import type { Config } from './config.js';
import { openDatabase, type Database, type DatabaseOptions } from './db/database.js';
import { RESTORE_CHECK_MS, watchRestores } from './db/restores.js';
import { installationId as loadInstallationId } from './db/system.js';
import { appRoutes } from './display/app-routes.js';
import { consoleRoutes } from './display/console-routes.js';
import { homeRoutes } from './display/home.js';
import { displayRoutes } from './display/routes.js';
import { Limits } from './http/limits.js';
import { PublicUrl } from './http/public-url.js';
import { gracefulServer } from './http/server.js';
import { Validator } from './http/validation.js';
import { HubBroadcasts } from './hub/broadcasts.js';
import { createHub, type Hub } from './hub/hub.js';
import { createIo } from './hub/io.js';
import { MonitorLive } from './hub/monitor-live.js';
import { hubSignature, watchHubPeers } from './hub/peers.js';
import { connectRedis } from './hub/redis.js';
import { CredentialCache } from './identity/credential-cache.js';
import { Metrics } from './metrics.js';
import { Scheduler } from './scheduler.js';

export interface RunningService {
  server: http.Server;
  port: number;
  db: Database;
  hub: Hub;
  /** The periodic jobs of this service (and of whatever else registered on its scheduler). */
  scheduler: Scheduler;
  /** This installation's identity (created once, stored in its database). */
  installationId: string;
  /** The namespace of its Redis channels and keys. */
  redisPrefix: string;
  /** Stops accepting, lets in-flight requests finish (up to the timeout), closes connections. */
  close(): Promise<void>;
}

export interface ServiceOptions extends Pick<DatabaseOptions, 'monitorCommands'> {
  /** The process's scheduler (main.ts shares it with the database launcher); one of its own otherwise. */
  scheduler?: Scheduler;
}

/** Opens the database at `mongodbUri`, builds app and hub, and listens on config.port. */
export async function startService(
  config: Config,
  mongodbUri: string,
  log: Logger,
  options: ServiceOptions = {},
): Promise<RunningService> {
  const scheduler = options.scheduler ?? new Scheduler(log);
  const db = await openDatabase(mongodbUri, serviceModels, {
    maxPoolSize: config.mongodbPoolSize,
    waitQueueTimeoutMS: config.mongodbWaitQueueTimeoutMs,
    monitorCommands: options.monitorCommands,
  });
  const installationId = await loadInstallationId(db.system);
  const redisPrefix = config.redisPrefix ?? `alarm-hub:${installationId}`;
  const peers = await watchHubPeers(db.system, hubSignature(config.redisUrl, redisPrefix), log, config.hubHeartbeatMs);
  scheduler.every('hub-peers-heartbeat', config.hubHeartbeatMs, () => peers.beat());
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : null;
  const limits = new Limits({ enabled: config.rateLimitPerSecond > 0, redis: redis?.pub, prefix: redisPrefix });
  const metrics = new Metrics();
  metrics.jobs(() => scheduler.status());
  const credentials = new CredentialCache(db, config.credentialCacheMs, log);
  const publicUrl = new PublicUrl(config.publicUrl);
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

  // The hub's Socket.IO server first (the areas publish on it), then every area in its manifest's order.
  const io = createIo(redis, redisPrefix);
  const broadcasts = new HubBroadcasts(io, credentials, redis, log);
  let live: MonitorLive | undefined;
  const built = buildAreas(areas, {
    config,
    db,
    log,
    limits,
    metrics,
    scheduler,
    publicUrl,
    events: broadcasts,
    liveMonitors: (source) =>
      (live = new MonitorLive(io, source, {
        generation: db.generation,
        redis,
        metrics,
        log,
        resyncMs: config.hubResyncMs,
      })),
  });
  const { parts, operations } = built;
  const { monitor, screens, things, availability, inputs } = parts;
  if (!live || !monitor || !screens || !things || !availability || !inputs)
    throw new Error('the monitor, screens, things, availability and inputs areas must be built');
  const monitorLive = live;
  scheduler.every('monitor-resync', config.hubResyncMs, () => monitorLive.resyncPass());

  const validator = new Validator(serviceSchemas);
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
    publicUrl,
    readiness,
    extraRoutes: [
      await displayRoutes(config.tileUrl),
      await consoleRoutes(config.tileUrl),
      await appRoutes(config.tileUrl),
      homeRoutes(),
    ],
  });

  const web = gracefulServer(app.callback(), { shutdownTimeoutMs: config.shutdownTimeoutMs, log });
  hub = createHub(io, web.server, {
    db,
    monitors: monitor.source,
    live: monitorLive,
    screens: screens.screens,
    health: screens.health,
    water: things.water,
    availability,
    vehicles: inputs.vehicles,
    scheduler,
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
    publicUrl,
  });
  const restores = await watchRestores(db.conn.db!, db.generation, log, () => hub!.restored());
  scheduler.every('restore-check', RESTORE_CHECK_MS, () => restores.check());

  // A storm of reconnecting screens fills Node's default queue of 511 while handshakes are being worked
  // through; every connection beyond it is dropped and retried by the client's kernel 1, 3, 7… seconds
  // later (docs/hub.md "Reconnect storms").
  const port = await web.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
  publicUrl.listening(port);
  scheduler.start();

  return {
    server: web.server,
    port,
    db,
    hub,
    scheduler,
    installationId,
    redisPrefix,
    async close() {
      // Stop accepting first; then end idle keep-alive connections and the hub's transports (screens
      // reconnect elsewhere); busy requests finish, bounded by the shutdown timeout. The periodic jobs
      // stop before anything they use closes.
      const closed = web.close();
      await scheduler.stop();
      monitorLive.close();
      await built.close();
      await hub!.close();
      await closed;
      await redis?.close();
      await peers.close();
      await db.close();
    },
  };
}
