// Token buckets per key, in this process's memory: a credential (or an address sending bad
// credentials) that exceeds its rate is answered 429 with Retry-After instead of loading the database.

interface Bucket {
  tokens: number;
  at: number;
}

const SWEEP_AT = 10_000;

/** `rate` tokens per second, at most `burst` saved up; rate 0 turns the limiter off. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  private refill(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    return bucket;
  }

  /** Seconds to wait before `key` may spend `points`; 0 when it may now (nothing is taken). */
  wait(key: string, now = Date.now(), points = 1): number {
    if (this.rate <= 0) return 0;
    const bucket = this.refill(key, now);
    this.buckets.set(key, bucket);
    return bucket.tokens >= points ? 0 : Math.ceil((points - bucket.tokens) / this.rate);
  }

  /**
   * Takes `points` tokens for `key`; returns the seconds to wait when they were not all there (then nothing is taken).
   */
  take(key: string, now = Date.now(), points = 1): number {
    const wait = this.wait(key, now, points);
    if (wait === 0 && this.rate > 0) this.buckets.get(key)!.tokens -= points;
    if (this.buckets.size > SWEEP_AT) this.sweep(now);
    return wait;
  }

  /** Gives `points` tokens back to `key` (never above the burst). */
  give(key: string, points: number, now = Date.now()): void {
    if (this.rate <= 0) return;
    const bucket = this.refill(key, now);
    bucket.tokens = Math.min(this.burst, bucket.tokens + points);
    this.buckets.set(key, bucket);
  }

  // Full buckets carry no information: dropping them keeps memory bounded by the active keys.
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }
}
