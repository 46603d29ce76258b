// Runs tasks one after another per key within this process. Writes to one monitor from one process
// then never race each other; only writers on other processes can still collide (and retry).

/** A mutex per key, freed when its queue empties; a queue longer than `maxQueue` refuses more work. */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<unknown>>();
  private readonly queued = new Map<K, number>();

  constructor(
    private readonly maxQueue = 100,
    private readonly onFull: () => Error = () => new Error('queue full'),
  ) {}

  /** Runs `task` after every earlier task of `key` has settled; `force` ignores the queue limit. */
  async run<T>(key: K, task: () => Promise<T>, opts: { force?: boolean } = {}): Promise<T> {
    const waiting = this.queued.get(key) ?? 0;
    if (waiting >= this.maxQueue && !opts.force) throw this.onFull();
    this.queued.set(key, waiting + 1);
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    // The next task of the key runs after this one whatever its outcome; this caller gets the error.
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      const left = this.queued.get(key)! - 1;
      if (left === 0) this.queued.delete(key);
      else this.queued.set(key, left);
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
