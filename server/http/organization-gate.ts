// What one organization's requests of a kind may take of a process at once (docs/operating.md, "Alarm data
// writes"): alarm data writes are never refused for rate, so without a bound one organization's flood
// of large writes would take the process's time, and another organization's alarm would wait behind
// it. Each organization gets at most `concurrency` writes in flight, holding at most `bytes` of
// declared body between them (one write is always let in, whatever its size): small alarm updates go
// in parallel, large ones one after another. The others wait in the organization's own queue, in
// arrival order, their bodies unread, for at most `waitMs`, up to `queue` of them; beyond that they
// are answered 503 with Retry-After. Another organization's writes never wait in this queue.
import { AppError } from '../errors.js';

export interface OrganizationGateOptions {
  /** Requests in flight per organization; 0: no bound at all. */
  concurrency: number;
  /** Declared body bytes in flight per organization (a single request is let in whatever its size). */
  bytes: number;
  /** Requests waiting per organization. */
  queue: number;
  /** How long a request waits for its turn. */
  waitMs: number;
}

interface Waiter {
  bytes: number;
  go(): void;
}

interface Lane {
  active: number;
  bytes: number;
  waiting: Waiter[];
}

const busy = (why: string) =>
  new AppError(
    503,
    'unavailable',
    `This organization has too many alarm data writes in flight (${why}); try again`,
    undefined,
    { 'Retry-After': '1' },
  );

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

  /** Waits for the turn of a request of `bytes` declared body bytes; resolves with its release. */
  async enter(organizationId: number, bytes: number): Promise<() => void> {
    const { concurrency, queue, waitMs } = this.options;
    if (concurrency <= 0) return () => {};
    let lane = this.lanes.get(organizationId);
    if (!lane) this.lanes.set(organizationId, (lane = { active: 0, bytes: 0, waiting: [] }));
    if (lane.waiting.length === 0 && this.fits(lane, bytes)) {
      this.take(lane, bytes);
      return this.release(organizationId, lane, bytes);
    }
    if (lane.waiting.length >= queue) {
      this.refused++;
      throw busy(`${queue} waiting`);
    }
    const current = lane;
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        current.waiting.splice(current.waiting.indexOf(waiter), 1);
        this.refused++;
        reject(busy(`waited ${waitMs} ms`));
        // The request behind a large one that gave up may fit now.
        this.admit(organizationId, current);
      }, waitMs);
      current.waiting.push(waiter);
    });
    // `admit` counted this request in before letting it go.
    return this.release(organizationId, current, bytes);
  }

  private fits(lane: Lane, bytes: number): boolean {
    return lane.active === 0 || (lane.active < this.options.concurrency && lane.bytes + bytes <= this.options.bytes);
  }

  private take(lane: Lane, bytes: number): void {
    lane.active++;
    lane.bytes += bytes;
  }

  // Lets waiting requests in from the head of the queue while they fit.
  private admit(organizationId: number, lane: Lane): void {
    while (lane.waiting.length > 0 && this.fits(lane, lane.waiting[0].bytes)) {
      const next = lane.waiting.shift()!;
      this.take(lane, next.bytes);
      next.go();
    }
    if (lane.active === 0 && lane.waiting.length === 0) this.lanes.delete(organizationId);
  }

  private release(organizationId: number, lane: Lane, bytes: number): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      lane.active--;
      lane.bytes -= bytes;
      this.admit(organizationId, lane);
    };
  }
}
