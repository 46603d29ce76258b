// Runs tasks one after another per key within this process. Writes to one monitor from one process
// then never race each other; only writers on other processes can still collide (and retry).

/** A mutex per key, freed when its queue empties. */
export class KeyedLock<K> {
  private readonly tails = new Map<K, Promise<unknown>>();

  /** Runs `task` after every earlier task of `key` has settled. */
  async run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
