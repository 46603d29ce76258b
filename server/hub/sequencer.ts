// Puts a monitor's patches in version order before they reach this process's screens. Writes race:
// version 7 may be published before version 6 (two requests, or two processes over Redis). A patch
// that arrives early waits up to `holdMs` for its predecessors; after that it goes out anyway and the
// screens that see the gap resync through a snapshot. Late patches (at or below what went out) are dropped.
import type { PatchEvent } from './protocol.js';

interface Track {
  /** Highest version emitted to screens (or known to them through a snapshot). */
  last: number;
  pending: Map<number, PatchEvent>;
  timer: NodeJS.Timeout | null;
}

/** Orders patches per monitor and hands them to `emit` in version order. */
export class PatchSequencer {
  private readonly tracks = new Map<number, Track>();

  constructor(private readonly emit: (event: PatchEvent) => void, private readonly holdMs = 150) {}

  /** The highest version this process has sent to a monitor's screens, if any. */
  lastVersion(monitorId: number): number | undefined {
    return this.tracks.get(monitorId)?.last;
  }

  /** Starts tracking a monitor whose screens hold `version` (first subscription here); never moves an existing track. */
  start(monitorId: number, version: number): void {
    this.track(monitorId, version);
  }

  /** Records that every screen of the monitor got `version` by other means (a snapshot sent to the whole room). */
  advance(monitorId: number, version: number): void {
    const track = this.track(monitorId, version);
    if (version > track.last) track.last = version;
    this.flush(monitorId, track);
  }

  /** Accepts one patch from any process. */
  accept(event: PatchEvent): void {
    const track = this.track(event.monitorId, event.version - 1);
    if (event.version <= track.last) return;
    track.pending.set(event.version, event);
    this.flush(event.monitorId, track);
    if (track.pending.size > 0 && !track.timer) {
      track.timer = setTimeout(() => this.release(event.monitorId), this.holdMs);
      track.timer.unref();
    }
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

  private track(monitorId: number, initialLast: number): Track {
    let track = this.tracks.get(monitorId);
    if (!track) {
      track = { last: initialLast, pending: new Map(), timer: null };
      this.tracks.set(monitorId, track);
    }
    return track;
  }

  private flush(monitorId: number, track: Track): void {
    for (const version of [...track.pending.keys()]) if (version <= track.last) track.pending.delete(version);
    while (track.pending.has(track.last + 1)) {
      const next = track.pending.get(track.last + 1)!;
      track.pending.delete(next.version);
      track.last = next.version;
      this.emit(next);
    }
    if (track.pending.size === 0 && track.timer) {
      clearTimeout(track.timer);
      track.timer = null;
    }
  }

  // The predecessors did not come in time (written on a process whose message was lost, or still
  // in flight): send what waits, in order; screens that see the gap resync.
  private release(monitorId: number): void {
    const track = this.tracks.get(monitorId);
    if (!track) return;
    track.timer = null;
    for (const version of [...track.pending.keys()].sort((a, b) => a - b)) {
      const event = track.pending.get(version)!;
      track.pending.delete(version);
      if (version > track.last) {
        track.last = version;
        this.emit(event);
      }
    }
  }
}
