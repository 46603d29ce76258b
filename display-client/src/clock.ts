// The server's clock as the screen estimates it. Kiosk clocks drift and jump; elapsed times, "has the
// event ended" and the standby delay must not. Every sample pairs a server time with the moments the
// question left and the answer came (round-trip aware: the server read its clock somewhere in
// between), on the page's monotonic clock, so a kiosk clock that is stepped later changes nothing.
// DOM-free: the clock sources are injected (unit tested in Node).

/** One observation of the server's clock. */
interface Sample {
  /** server time − monotonic time, at the middle of the round trip. */
  offset: number;
  /** Half the round trip plus half the server value's resolution: how far off `offset` may be. */
  error: number;
  /** Monotonic time of the answer. */
  at: number;
}

/** How fast a kiosk's oscillator may drift (50 ppm, a cheap quartz): an old sample grows less certain. */
const DRIFT = 50e-6;
const KEEP = 8;

/** The estimated server clock; falls back to the kiosk's clock until the first sample. */
export class ServerClock {
  private samples: Sample[] = [];

  /** `monotonic`: a clock that never jumps (performance.now); `wall`: the kiosk's clock (Date.now). */
  constructor(
    private readonly monotonic: () => number = () => performance.now(),
    private readonly wall: () => number = () => Date.now(),
  ) {}

  /**
   * Records a server time read between `sentAt` and `receivedAt` (monotonic ms); `resolutionMs` 1000 for an HTTP Date
   * header.
   */
  sample(sentAt: number, receivedAt: number, serverMs: number, resolutionMs = 0): void {
    if (!Number.isFinite(serverMs) || receivedAt < sentAt) return;
    // A value cut to whole seconds lies anywhere in the second after it: its middle is the best guess.
    const offset = serverMs + resolutionMs / 2 - (sentAt + receivedAt) / 2;
    this.samples.push({ offset, error: (receivedAt - sentAt) / 2 + resolutionMs / 2, at: receivedAt });
    if (this.samples.length > KEEP) this.samples.shift();
  }

  /** The server's time now (ms since 1970). */
  now(): number {
    const best = this.best();
    return best ? this.monotonic() + best.offset : this.wall();
  }

  /** How far the kiosk's clock is ahead of the server's (ms; negative when behind), or null before any sample. */
  kioskAhead(): number | null {
    return this.best() ? this.wall() - this.now() : null;
  }

  // The sample with the smallest error by now: a tight old one loses to a coarse fresh one over hours.
  private best(): Sample | null {
    const t = this.monotonic();
    let best: Sample | null = null;
    let bestError = Infinity;
    for (const s of this.samples) {
      const error = s.error + (t - s.at) * DRIFT;
      if (error <= bestError) {
        best = s;
        bestError = error;
      }
    }
    return best;
  }
}
