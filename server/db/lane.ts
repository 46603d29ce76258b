// Writes nobody waits for (a screen's health, a credential's last use) run a few at a time on their own
// lane, so that a reconnect storm's bookkeeping does not take the connection pool ahead of the reads the
// screens and requests are waiting for (docs/storage.md "Bookkeeping writes"). Each opened database has
// its lane (server/db/database.ts).

/** At most this many bookkeeping commands in flight per connection pool (MONGODB_POOL_SIZE: 20 by default). */
export const BOOKKEEPING_IN_FLIGHT = 4;

/** Runs tasks with at most `concurrency` of them running, the others waiting in the order they came. */
export class Lane {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly concurrency: number) {}

  /** Tasks running and waiting. */
  get size(): number {
    return this.running + this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its slot to the next waiting one, so `running` stays counted for it.
    if (this.running < this.concurrency) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
