// What one organization's requests of a kind may take of a process at once (README, "Alarm data
// writes"): alarm data writes are never refused for rate, so without a bound one organization's flood
// of large writes would take the process's time, and another organization's alarm would wait behind
// it. Each organization gets `concurrency` writes in flight; more wait in its own queue (their bodies
// unread) for at most `waitMs`, up to `queue` of them; beyond that they are answered 503 with
// Retry-After. Another organization's writes never wait in this queue.
import { AppError } from './errors.js';

export interface OrganizationGateOptions {
  /** Requests in flight per organization; 0: no bound. */
  concurrency: number;
  /** Requests waiting per organization. */
  queue: number;
  /** How long a request waits for its turn. */
  waitMs: number;
}

interface Lane {
  active: number;
  waiting: Array<() => void>;
}

const busy = (why: string) => new AppError(503, 'unavailable', `This organization has too many alarm data writes in flight (${why}); try again`, undefined, { 'Retry-After': '1' });

/** Per-organization admission: `enter` resolves with the release once the request may go on. */
export class OrganizationGate {
  private readonly lanes = new Map<number, Lane>();
  /** Requests refused because their organization's queue was full or their wait ran out. */
  refused = 0;

  constructor(private readonly options: OrganizationGateOptions) {}

  /** Requests in flight now, over all organizations. */
  get active(): number {
    let total = 0;
    for (const lane of this.lanes.values()) total += lane.active;
    return total;
  }

  /** Requests waiting now, over all organizations. */
  get waiting(): number {
    let total = 0;
    for (const lane of this.lanes.values()) total += lane.waiting.length;
    return total;
  }

  async enter(organizationId: number): Promise<() => void> {
    const { concurrency, queue, waitMs } = this.options;
    if (concurrency <= 0) return () => {};
    let lane = this.lanes.get(organizationId);
    if (!lane) this.lanes.set(organizationId, (lane = { active: 0, waiting: [] }));
    if (lane.active < concurrency) {
      lane.active++;
      return this.release(organizationId, lane);
    }
    if (lane.waiting.length >= queue) {
      this.refused++;
      throw busy(`${queue} waiting`);
    }
    const current = lane;
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        current.waiting.splice(current.waiting.indexOf(turn), 1);
        this.refused++;
        reject(busy(`waited ${waitMs} ms`));
      }, waitMs);
      current.waiting.push(turn);
    });
    // The place of the request that finished was handed over: `active` counts this one now.
    return this.release(organizationId, current);
  }

  private release(organizationId: number, lane: Lane): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = lane.waiting.shift();
      if (next) return next();
      lane.active--;
      if (lane.active === 0) this.lanes.delete(organizationId);
    };
  }
}
