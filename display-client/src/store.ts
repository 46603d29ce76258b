// The screen's copy of one monitor: {version, epoch, monitor, data}. DOM-free so it runs under uvu in
// Node. Patches go through the server's own reducer (applyWrite), so screen and server can never
// disagree on what a write means. The one rule that matters on a wall: never show a state older than
// one shown — unless the server's history was reset (a restored database), which the epochs reveal
// whatever the version numbers say.
import { applyWrite, emptyData, type MonitorData } from '../../common/monitor-data.js';
import type {
  MonitorView,
  PatchEvent,
  SnapshotEvent,
  SubscribeRequest,
  SubscribeResult,
} from '../../common/hub-protocol.js';

/** What the screen currently holds; version -1 means no snapshot has arrived yet. */
export interface DisplayState {
  monitorId: number;
  version: number;
  /** The epoch of `version` (see SnapshotEvent.epoch); '' before the first snapshot. */
  epoch: string;
  monitor: MonitorView | null;
  data: MonitorData;
}

/** Why the state changed, so the view can tell a data change from a configuration change. */
export type ChangeCause = 'snapshot' | 'patch' | 'monitor';

/** Callbacks of the store: every visible change, and a request to re-subscribe after a version gap. */
export interface StoreHooks {
  onChange?: (state: DisplayState, cause: ChangeCause) => void;
  onResync?: (request: SubscribeRequest) => void;
}

/** What applyPatch did with one patch. */
export type PatchOutcome = 'applied' | 'ignored' | 'buffered';

// Patches that arrive ahead of a gap are kept (bounded) and replayed once the snapshot closes the gap.
const MAX_BUFFERED = 200;
// Epochs of the versions shown lately: a late duplicate carries the epoch shown, another history not.
const SEEN = 64;

/** The version-ordered state holder of one monitor screen. */
export class DisplayStore {
  private current: DisplayState;
  private pending = new Map<number, PatchEvent>();
  private resyncing = false;
  // Configuration and data travel separately; the revision keeps an older configuration (a snapshot
  // read before a change but delivered after it) from replacing a newer one.
  private revision = -Infinity;
  private early: { monitor: MonitorView; revision: number } | null = null;
  private readonly seen = new Map<number, string>();

  /** Starts empty (version -1) for `monitorId`. */
  constructor(
    monitorId: number,
    private readonly hooks: StoreHooks = {},
  ) {
    this.current = { monitorId, version: -1, epoch: '', monitor: null, data: emptyData() };
  }

  /** The state as shown now. */
  get state(): DisplayState {
    return this.current;
  }

  /** True from a detected gap until a subscribe ack or snapshot brings the screen up to date. */
  get stale(): boolean {
    return this.resyncing;
  }

  /** The `monitor:subscribe` payload: version and epoch are sent only once we hold a snapshot. */
  subscribeRequest(): SubscribeRequest {
    const { monitorId, version, epoch } = this.current;
    const held = version >= 0 && this.current.monitor !== null;
    return held ? { monitorId, version, epoch } : { monitorId };
  }

  /**
   * Applies a snapshot unless it is an older state of the history shown; returns whether it was applied.
   * `answered`: it answers this screen's own subscribe, which the server sends only when the screen's
   * version or epoch differ from its own — so an older one there means the history was reset.
   */
  applySnapshot(snapshot: SnapshotEvent, answered = false): boolean {
    if (snapshot.monitorId !== this.current.monitorId) return false;
    const reset = this.isReset(snapshot, answered);
    if (!reset && snapshot.version < this.current.version) return false;
    if (reset) {
      // The server's history restarted: its state is the truth now, configuration included.
      this.pending.clear();
      this.seen.clear();
      this.revision = -Infinity;
    }
    let monitor = this.current.monitor;
    for (const candidate of [{ monitor: snapshot.monitor, revision: snapshot.monitorRevision ?? 0 }, this.early]) {
      if (candidate && (monitor === null || candidate.revision >= this.revision)) {
        monitor = candidate.monitor;
        this.revision = Math.max(this.revision, candidate.revision);
      }
    }
    this.early = null;
    this.current = { ...this.current, version: snapshot.version, epoch: snapshot.epoch, monitor, data: snapshot.data };
    this.remember(snapshot.version, snapshot.epoch);
    this.resyncing = false;
    this.hooks.onChange?.(this.current, 'snapshot');
    this.drain();
    return true;
  }

  /** Handles a subscribe ack: its snapshot (if any) is applied, and the screen is no longer stale. */
  applyAck(result: SubscribeResult): void {
    if (result.monitorId !== this.current.monitorId) return;
    if (result.snapshot && this.applySnapshot(result.snapshot, true)) return;
    // No usable snapshot: the server agrees we are current (or is behind us, and we never go back).
    if (this.current.monitor) this.resyncing = false;
    this.drain();
  }

  /**
   * Applies a patch when it is exactly version + 1 on the epoch held. A late duplicate is ignored; a gap,
   * or a patch of another history, asks the server for its state.
   */
  applyPatch(patch: PatchEvent): PatchOutcome {
    if (patch.monitorId !== this.current.monitorId) return 'ignored';
    if (patch.version <= this.current.version) {
      // Late ones are normal right after a snapshot; only a known version with another epoch is news.
      const shown = this.seen.get(patch.version);
      if (shown !== undefined && shown !== patch.epoch) this.askForState();
      return 'ignored';
    }
    if (patch.version === this.current.version + 1 && this.current.monitor && patch.baseEpoch !== this.current.epoch) {
      this.askForState();
      return 'ignored';
    }
    if (patch.version === this.current.version + 1 && this.current.monitor) {
      this.apply(patch);
      this.hooks.onChange?.(this.current, 'patch');
      this.drain();
      return 'applied';
    }
    this.buffer(patch);
    this.askForState();
    return 'buffered';
  }

  /** Replaces the monitor's configuration (`monitor:updated`) unless it is older; data and version stay. */
  setMonitor(monitor: MonitorView, revision = 0): void {
    if (monitor.id !== this.current.monitorId || revision < this.revision) return;
    // Before the first snapshot there is no data to show it with: keep it for the snapshot to weigh.
    if (this.current.version < 0) {
      if (!this.early || revision >= this.early.revision) this.early = { monitor, revision };
      return;
    }
    this.revision = revision;
    this.current = { ...this.current, monitor };
    this.hooks.onChange?.(this.current, 'monitor');
  }

  /** Forgets the resync flag so the next gap asks again (the connection re-subscribes on reconnect). */
  resetResync(): void {
    this.resyncing = false;
  }

  // A reset: the server flagged it, or our own subscribe was answered with another epoch at a version
  // shown (or one too old to remember), or a broadcast names another epoch at a version we know.
  private isReset(snapshot: SnapshotEvent, answered: boolean): boolean {
    if (snapshot.reset) return this.current.version >= 0;
    if (snapshot.version > this.current.version) return false;
    const shown = this.seen.get(snapshot.version);
    return answered ? shown !== snapshot.epoch : shown !== undefined && shown !== snapshot.epoch;
  }

  // Before the first snapshot the pending subscribe will bring one; otherwise ask for it once.
  private askForState(): void {
    if (!this.current.monitor || this.resyncing) return;
    this.resyncing = true;
    this.hooks.onResync?.(this.subscribeRequest());
  }

  private remember(version: number, epoch: string): void {
    this.seen.set(version, epoch);
    if (this.seen.size > SEEN) this.seen.delete(this.seen.keys().next().value!);
  }

  private apply(patch: PatchEvent): void {
    const { section, op, payload, at } = patch;
    this.current = {
      ...this.current,
      version: patch.version,
      epoch: patch.epoch,
      data: applyWrite(this.current.data, { section, op, payload, at }),
    };
    this.remember(patch.version, patch.epoch);
  }

  private buffer(patch: PatchEvent): void {
    this.pending.set(patch.version, patch);
    if (this.pending.size <= MAX_BUFFERED) return;
    this.pending.delete(Math.min(...this.pending.keys()));
  }

  // Replays buffered patches that now fit, dropping those the state has already passed.
  private drain(): void {
    let applied = false;
    let foreign = false;
    for (;;) {
      for (const version of this.pending.keys()) if (version <= this.current.version) this.pending.delete(version);
      const next = this.pending.get(this.current.version + 1);
      if (!next || !this.current.monitor) break;
      this.pending.delete(next.version);
      // Buffered from another history: drop it and ask for the truth.
      if (next.baseEpoch !== this.current.epoch) {
        foreign = true;
        continue;
      }
      this.apply(next);
      applied = true;
    }
    if (applied) this.hooks.onChange?.(this.current, 'patch');
    // The late patch filled the hole by itself: the screen is current again.
    if (applied && this.pending.size === 0) this.resyncing = false;
    // Still a hole in front of buffered patches: stay stale, ask again.
    if (this.pending.size > 0 || foreign) this.askForState();
  }
}
