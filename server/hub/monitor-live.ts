// A monitor's data, live on the hub (docs/hub.md "Protocol"): every stored version reaches the screens
// that follow the monitor, on every process, in order. A write here is published to the other processes
// (through the Redis adapter) and sent to this process's screens through the sequencer, which holds a
// patch that overtook its predecessor; a gap, a history reset (a restored database) or a Redis outage is
// repaired by a snapshot of the stored state (resync). Another process's write is also learned here, so
// the next write here builds on it without a collision.
import type { Logger } from 'pino';
import { FreshReads, KeptReads } from '../db/fresh-reads.js';
import type { CacheGeneration } from '../db/generation.js';
import { notFound } from '../errors.js';
import type { Metrics } from '../metrics.js';
import type { MonitorEvents } from './events.js';
import { monitorsHere, type HubServer, type HubSocket } from './io.js';
import type { MonitorSource, VersionMark } from './ports.js';
import type { RedisPair } from './redis.js';
import { PatchSequencer } from './sequencer.js';
import {
  rooms,
  type MonitorView,
  type PatchEvent,
  type SnapshotEvent,
  type SubscribeResult,
} from '../../common/hub-protocol.js';

export interface MonitorLiveOptions {
  /** The generation of the database's cached facts: a restore empties the snapshots kept here. */
  generation: CacheGeneration;
  /** The Redis clients when REDIS_URL is set: their recovery starts a resync of every monitor here. */
  redis: RedisPair | null;
  metrics: Pick<Metrics, 'patchEmitted' | 'snapshotSent'>;
  log: Pick<Logger, 'warn'>;
  /** How often monitors with screens here are checked for versions this process missed (the periodic job's period). */
  resyncMs?: number;
}

/** How long a patch that overtook its predecessor waits for it before the screens are resynced. */
const HOLD_MS = 150;
/** How long it waits when its predecessor is known to be stored (its publication is on its way). */
const STORED_HOLD_MS = 5_000;
/**
 * How long a snapshot read here answers subscriptions while this process learns of no change to the
 * monitor (docs/hub.md "Reconnect storms"): the bound on what a lost message between processes could
 * cost a screen that subscribes meanwhile, as the periodic resync bounds it for the others.
 */
const SNAPSHOT_TRUST_MS = 5_000;

/** A monitor's data on the hub: implements the monitor events on the Socket.IO server it is given. */
export class MonitorLive implements MonitorEvents {
  private readonly sequencer: PatchSequencer;
  private readonly resyncMs: number;
  private readonly graceTimers = new Set<NodeJS.Timeout>();
  // Patches written here while Redis was away never reached the other processes; once it is back they
  // are told which monitors to resync (their own recovery may have come before these writes).
  private readonly unpublished = new Set<number>();
  // Resyncs of one monitor at once share one read of its version, begun after they asked.
  private readonly versions = new FreshReads<number, VersionMark>((monitorId) => this.monitors.dataVersion(monitorId));
  // The stored snapshot, kept for the next subscriptions while no change to the monitor reached this
  // process (docs/hub.md "Reconnect storms"); not while Redis is away, when changes on the other
  // processes may go unheard. The data of a version is read once per process: versions never change.
  private readonly snapshots: KeptReads<number, SnapshotEvent | null>;

  constructor(
    private readonly io: HubServer,
    private readonly monitors: MonitorSource,
    private readonly options: MonitorLiveOptions,
  ) {
    const { metrics, log, redis } = options;
    this.resyncMs = options.resyncMs ?? 10_000;
    this.snapshots = new KeptReads(
      (monitorId) => monitors.snapshot(monitorId),
      SNAPSHOT_TRUST_MS,
      options.generation,
      () => redis?.up() ?? true,
    );
    this.sequencer = new PatchSequencer(
      (event) => {
        io.local.to(rooms.monitor(event.monitorId)).emit('monitor:patch', event);
        metrics.patchEmitted(event.at);
      },
      HOLD_MS,
      (monitorId) =>
        void this.resync(monitorId).catch((err) =>
          log.warn({ err, monitorId }, 'resync to check a doubtful patch failed'),
        ),
      (monitorId, version) => monitors.dataStored(monitorId, version),
      STORED_HOLD_MS,
    );
    // Another process's write: to the screens first, then remembered here too (deriving the new state
    // costs a copy of the monitor's data), so the next write here does not collide with it.
    io.on('hub:patch', (event) => {
      this.snapshots.changed(event.monitorId);
      this.deliver(event);
      monitors.learn(event);
    });
    io.on('hub:resync', (monitorId) => void this.resync(monitorId).catch(this.resyncFailed(monitorId)));
    io.on('hub:monitor-changed', (monitorId) => this.snapshots.changed(monitorId));
    redis?.onRecovered(() => {
      // Messages from the other processes may have been lost meanwhile: nothing kept is trusted.
      this.snapshots.forget();
      void this.resyncAll();
      for (const monitorId of this.unpublished) io.serverSideEmit('hub:resync', monitorId);
      this.unpublished.clear();
    });
  }

  /**
   * Puts a socket in a monitor's room and answers its subscription: the version and epoch only, when the
   * screen already shows them, else a snapshot. The caller checked that the socket may read the monitor.
   */
  async subscribe(socket: HubSocket, monitorId: number, version?: number, epoch?: string): Promise<SubscribeResult> {
    // Join first: a patch written while the snapshot is read is then not lost but arrives after it.
    await socket.join(rooms.monitor(monitorId));
    // The state kept here, or read after the join: a change on its way from another process reaches
    // the screen in the room after its answer.
    const snapshot = await this.snapshots.get(monitorId);
    if (!snapshot) throw notFound('Monitor not found');
    if (version === snapshot.version && epoch === snapshot.epoch) {
      this.sequencer.start(monitorId, snapshot.version, snapshot.epoch);
      return { monitorId, version, epoch, serverTime: Date.now() };
    }
    // Only this screen got the snapshot: the others still need every patch, so the track only starts here.
    this.sequencer.start(monitorId, snapshot.version, snapshot.epoch);
    this.options.metrics.snapshotSent('subscribe');
    return { monitorId, version: snapshot.version, epoch: snapshot.epoch, snapshot, serverTime: Date.now() };
  }

  dataWritten(event: PatchEvent): void {
    this.snapshots.changed(event.monitorId);
    const { redis } = this.options;
    if (redis) {
      if (!redis.up()) this.unpublished.add(event.monitorId);
      this.io.serverSideEmit('hub:patch', event);
    }
    this.deliver(event);
  }

  monitorCreated(monitor: MonitorView): void {
    this.io.to(rooms.organization(monitor.organizationID)).emit('monitor:created', { monitor });
  }

  monitorUpdated(monitor: MonitorView, revision: number): void {
    this.announceChange(monitor.id);
    this.io
      .to([rooms.organization(monitor.organizationID), rooms.monitor(monitor.id)])
      .emit('monitor:updated', { monitor, revision });
  }

  monitorDeleted(monitorId: number, organizationId: number): void {
    this.announceChange(monitorId);
    this.io.to([rooms.organization(organizationId), rooms.monitor(monitorId)]).emit('monitor:deleted', { monitorId });
    this.io.in(rooms.monitor(monitorId)).socketsLeave(rooms.monitor(monitorId));
    this.sequencer.forget(monitorId);
  }

  /** The database was restored: what was sent here belongs to the old history. */
  restored(): void {
    this.snapshots.forget();
    for (const monitorId of monitorsHere(this.io)) this.sequencer.forget(monitorId);
  }

  close(): void {
    for (const timer of this.graceTimers) clearTimeout(timer);
    this.sequencer.close();
  }

  private localScreens(monitorId: number): number {
    return this.io.of('/').adapter.rooms.get(rooms.monitor(monitorId))?.size ?? 0;
  }

  // Patches of monitors nobody here watches are not tracked: the first subscription starts the track.
  private deliver(event: PatchEvent): void {
    if (this.localScreens(event.monitorId) > 0 || this.sequencer.position(event.monitorId) !== undefined)
      this.sequencer.accept(event);
  }

  private latestVersion(monitorId: number): Promise<{ version: number; epoch: string }> {
    return this.versions.get(monitorId);
  }

  // A configuration change made here: the other processes hear of it before its room broadcast, so
  // one of their screens either joined in time for the broadcast or subscribes after they forgot.
  private announceChange(monitorId: number): void {
    this.snapshots.changed(monitorId);
    if (this.options.redis) this.io.serverSideEmit('hub:monitor-changed', monitorId);
  }

  // Sends the stored state to this process's screens of a monitor when it differs from what they were
  // sent: versions went by unseen here, or the history was reset (a restored database). `stored`: the
  // version its caller has just read (the periodic pass), not read again.
  private async resync(monitorId: number, stored?: { version: number; epoch: string }): Promise<void> {
    // Nobody here watches it any more: the next subscription starts a fresh track.
    if (this.localScreens(monitorId) === 0) return this.sequencer.forget(monitorId);
    stored ??= await this.latestVersion(monitorId);
    const sent = this.sequencer.position(monitorId);
    if (sent && stored.version === sent.version && stored.epoch === sent.epoch) return;
    const snapshot = await this.snapshots.fresh(monitorId);
    if (!snapshot) return;
    const reset =
      sent !== undefined &&
      (snapshot.version < sent.version || (snapshot.version === sent.version && snapshot.epoch !== sent.epoch));
    this.sequencer.advance(monitorId, snapshot.version, snapshot.epoch);
    this.io.local.to(rooms.monitor(monitorId)).emit('monitor:snapshot', reset ? { ...snapshot, reset } : snapshot);
    this.options.metrics.snapshotSent('resync');
  }

  private resyncFailed(monitorId: number): (err: unknown) => void {
    return (err) => this.options.log.warn({ err, monitorId }, 'resync failed');
  }

  // The periodic pass, the safety net for a lost patch. A monitor stored ahead of what its screens here
  // were sent may only have its patches in flight (a busy process reads them from Redis late): it is
  // resynced only if they have not come after half a period. A snapshot to every screen of the
  // monitor for nothing would add to the load that delayed them. A reset (stored behind, or another
  // epoch) is resynced at once.
  private async resyncLagging(monitorId: number): Promise<void> {
    const sent = this.sequencer.position(monitorId);
    if (!sent || this.localScreens(monitorId) === 0) return this.resync(monitorId);
    const stored = await this.latestVersion(monitorId);
    if (stored.version <= sent.version) return this.resync(monitorId, stored);
    const timer = setTimeout(() => {
      this.graceTimers.delete(timer);
      const now = this.sequencer.position(monitorId);
      if (!now || now.version < stored.version) void this.resync(monitorId).catch(this.resyncFailed(monitorId));
    }, this.resyncMs / 2);
    timer.unref();
    this.graceTimers.add(timer);
  }

  /**
   * The periodic pass (the scheduler runs it every `resyncMs`): the monitors with screens here are
   * compared with their stored versions, and those that fell behind get the stored state.
   */
  resyncPass(): Promise<void> {
    return this.resyncAll(true);
  }

  /** Every monitor with screens here; `periodic`: with the grace above. */
  private async resyncAll(periodic = false): Promise<void> {
    for (const id of monitorsHere(this.io))
      await (periodic ? this.resyncLagging(id) : this.resync(id)).catch(this.resyncFailed(id));
  }
}
