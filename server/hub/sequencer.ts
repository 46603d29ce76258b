// Puts a monitor's patches in version order before they reach this process's screens. Writes race:
// version 7 may be published before version 6 (two requests, or two processes over Redis). A patch
// that arrives early waits up to `holdMs` for its predecessors; after that it goes out anyway and the
// screens that see the gap resync through a snapshot. Late duplicates (a version already sent, with the
// same epoch) are dropped. A patch that contradicts what was sent — another epoch at a version already
// sent, or a successor built on another epoch — may mean the history was reset (a restored database);
// so may a late patch whose epoch is no longer remembered. `onDoubt` then has live.ts compare with the
// stored state (two exact lookups) and send it to the screens if it differs.
//
// A missing predecessor this process knows to be stored (`stored`: written here and still being
// confirmed by its base check, or read here after a collision) is on its way, published by its writer
// once confirmed: on a busy machine that takes longer than `holdMs`, and a release would send its
// successor with a gap and then drop it as late. Such a patch is held on, up to `storedHoldMs`.
import type { PatchEvent } from '../../common/hub-protocol.js';

interface Track {
  /** Highest version emitted to screens (or known to them through a snapshot), with its epoch. */
  last: number;
  epoch: string;
  /** Epochs of the recently emitted versions, to tell a late duplicate from another history. */
  recent: Map<number, string>;
  pending: Map<number, PatchEvent>;
  timer: NodeJS.Timeout | null;
}

const RECENT = 64;

/** Orders patches per monitor and hands them to `emit` in version order. */
export class PatchSequencer {
  private readonly tracks = new Map<number, Track>();

  constructor(
    private readonly emit: (event: PatchEvent) => void,
    private readonly holdMs = 150,
    private readonly onDoubt: (monitorId: number) => void = () => {},
    private readonly stored: (monitorId: number, version: number) => boolean = () => false,
    private readonly storedHoldMs = 5_000,
  ) {}

  /** The highest version (and its epoch) this process has sent to a monitor's screens, if any. */
  position(monitorId: number): { version: number; epoch: string } | undefined {
    const track = this.tracks.get(monitorId);
    return track && { version: track.last, epoch: track.epoch };
  }

  /**
   * Starts tracking a monitor whose screens hold `version` (first subscription here); never moves an existing track.
   */
  start(monitorId: number, version: number, epoch: string): void {
    this.track(monitorId, version, epoch);
  }

  /**
   * Records that every screen of the monitor now holds `version` (a snapshot sent to the whole room), even a lower one
   * after a reset.
   */
  advance(monitorId: number, version: number, epoch: string): void {
    const track = this.track(monitorId, version, epoch);
    if (version < track.last || (version === track.last && epoch !== track.epoch)) track.recent.clear();
    this.record(track, version, epoch);
    this.flush(monitorId, track);
  }

  /** Accepts one patch from any process. */
  accept(event: PatchEvent): void {
    const track = this.track(event.monitorId, event.version - 1, event.baseEpoch);
    if (event.version <= track.last) {
      if (track.recent.get(event.version) !== event.epoch) this.onDoubt(event.monitorId);
      return;
    }
    track.pending.set(event.version, event);
    this.flush(event.monitorId, track);
    if (track.pending.size > 0 && !track.timer) this.hold(event.monitorId, track, Date.now());
  }

  private hold(monitorId: number, track: Track, since: number): void {
    // Released after the event loop's I/O phase, not in the timers phase that comes before it: on a
    // busy process the hold expires while the missing patch already waits in the Redis socket, and
    // a release first would send a gap (and a snapshot to every screen) for nothing.
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          // Unless flushed meanwhile (and maybe holding something newer, with a timer of its own) or forgotten.
          if (track.timer !== timer || this.tracks.get(monitorId) !== track) return;
          if (Date.now() - since < this.storedHoldMs && this.stored(monitorId, track.last + 1))
            this.hold(monitorId, track, since);
          else this.release(track);
        }),
      this.holdMs,
    );
    timer.unref();
    track.timer = timer;
  }

  /** Forgets a monitor (deleted). */
  forget(monitorId: number): void {
    const track = this.tracks.get(monitorId);
    if (track?.timer) clearTimeout(track.timer);
    this.tracks.delete(monitorId);
  }

  /** Stops all timers. */
  close(): void {
    for (const id of [...this.tracks.keys()]) this.forget(id);
  }

  private track(monitorId: number, last: number, epoch: string): Track {
    let track = this.tracks.get(monitorId);
    if (!track) {
      track = { last, epoch, recent: new Map([[last, epoch]]), pending: new Map(), timer: null };
      this.tracks.set(monitorId, track);
    }
    return track;
  }

  private record(track: Track, version: number, epoch: string): void {
    track.last = version;
    track.epoch = epoch;
    track.recent.set(version, epoch);
    if (track.recent.size > RECENT) track.recent.delete(track.recent.keys().next().value!);
  }

  private send(track: Track, event: PatchEvent): void {
    this.record(track, event.version, event.epoch);
    this.emit(event);
  }

  private flush(monitorId: number, track: Track): void {
    for (const version of [...track.pending.keys()]) if (version <= track.last) track.pending.delete(version);
    for (let next = track.pending.get(track.last + 1); next; next = track.pending.get(track.last + 1)) {
      track.pending.delete(next.version);
      if (next.baseEpoch !== track.epoch) {
        // Built on a history the screens do not hold: only the stored state can settle it.
        track.pending.clear();
        this.onDoubt(monitorId);
        break;
      }
      this.send(track, next);
    }
    if (track.pending.size === 0 && track.timer) {
      clearTimeout(track.timer);
      track.timer = null;
    }
  }

  // The predecessors did not come in time (written on a process whose message was lost, or still
  // in flight): send what waits, in order; screens that see the gap resync.
  private release(track: Track): void {
    track.timer = null;
    for (const version of [...track.pending.keys()].sort((a, b) => a - b)) {
      const event = track.pending.get(version)!;
      track.pending.delete(version);
      if (version > track.last) this.send(track, event);
    }
  }
}
