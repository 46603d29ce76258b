// Rate limits shared by every process of an installation. With REDIS_URL they are counted in Redis by
// rate-limiter-flexible (fixed windows of burst/rate seconds: the same average rate, bursts up to
// `burst`), under the installation's key prefix; should Redis be away, each process counts in memory
// until it is back (the library's insurance limiter), so a Redis outage never refuses requests it
// cannot count. Without Redis, each process keeps a token bucket in memory.
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from '../hub/redis.js';
import { RateLimiter } from './rate-limit.js';

/** One limit: `take` spends units for `key` (one unless told); both answer the seconds to wait (0: go ahead). */
export interface Limiter {
  /** Spends `points` at once, or none when they are not all there (then the wait is answered). */
  take(key: string, points?: number): Promise<number>;
  /** Looks without spending. */
  wait(key: string): Promise<number>;
  /** Gives back units a take spent for something that turned out not to count (never above the burst). */
  give(key: string, points: number): Promise<void>;
}

export interface LimitsOptions {
  /** False turns every limit off (RATE_LIMIT_PER_SECOND=0). */
  enabled: boolean;
  redis?: RedisClient | null;
  /** The installation's namespace in Redis. */
  prefix?: string;
}

const OFF: Limiter = { take: async () => 0, wait: async () => 0, give: async () => undefined };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Makes the service's limiters, in Redis when there is one. */
export class Limits {
  constructor(private readonly options: LimitsOptions) {}

  /** True when limits are counted across processes. */
  get shared(): boolean {
    return Boolean(this.options.redis);
  }

  /**
   * A limit of `perSecond` on average with bursts of `burst`, named for its keys in Redis. `always`: a
   * guard against guessing (wrong PINs), kept when RATE_LIMIT_PER_SECOND=0 turns the throughput limits off.
   */
  create(name: string, perSecond: number, burst: number, always = false): Limiter {
    if ((!this.options.enabled && !always) || perSecond <= 0) return OFF;
    if (!this.options.redis) return memoryLimiter(perSecond, burst);
    const duration = Math.max(1, Math.round(burst / perSecond));
    const redis = new RateLimiterRedis({
      storeClient: this.options.redis,
      keyPrefix: `${this.options.prefix ?? 'alarm-hub'}:rl:${name}`,
      points: burst,
      duration,
      insuranceLimiter: new RateLimiterMemory({ points: burst, duration }),
    });
    return {
      // consume() counts atomically in Redis: of racing takes, only those the burst holds succeed. A
      // refused one has counted its points too; they are taken back, so that a refusal spends nothing,
      // as in the memory bucket.
      async take(key, points = 1) {
        try {
          await redis.consume(key, points);
          return 0;
        } catch (res) {
          if (!(res instanceof RateLimiterRes)) return 0;
          // Redis away: the refusal stands, and the points it counted run out with the window.
          await redis.reward(key, points).catch(() => undefined);
          return seconds(res.msBeforeNext);
        }
      },
      async wait(key) {
        // Redis away: no wait is known, so none is asked (the limiter fails open, as take() does).
        const res = await redis.get(key).catch(() => null);
        return res && res.consumedPoints >= burst ? seconds(res.msBeforeNext) : 0;
      },
      async give(key, points) {
        // Not below what was spent in this window: a give after the window ended starts no credit.
        // Redis away: nothing is given back; what was spent runs out with the window.
        const res = await redis.get(key).catch(() => null);
        if (res && res.consumedPoints > 0)
          await redis.reward(key, Math.min(points, res.consumedPoints)).catch(() => undefined);
      },
    };
  }
}

function memoryLimiter(perSecond: number, burst: number): Limiter {
  const bucket = new RateLimiter(perSecond, burst);
  return {
    take: async (key, points) => bucket.take(key, Date.now(), points),
    wait: async (key) => bucket.wait(key),
    give: async (key, points) => bucket.give(key, points),
  };
}
