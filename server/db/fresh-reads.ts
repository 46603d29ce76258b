// Reads of one key shared by the callers that ask at once, such as every screen of a monitor coming back
// after a restart (docs/hub.md "Reconnect storms"). A caller shares only a read that begins after it
// asked, so it never gets a state older than its own call: while a read is in flight, later callers wait
// for the next one, which starts when it settles. Per key, at most one read runs and one waits.

interface Slot<V> {
  running: Promise<V>;
  queued: Promise<V> | null;
}

const ignore = () => undefined;

export class FreshReads<K, V> {
  private readonly slots = new Map<K, Slot<V>>();

  constructor(private readonly read: (key: K) => Promise<V>) {}

  get(key: K): Promise<V> {
    const slot = this.slots.get(key);
    if (!slot) {
      const fresh: Slot<V> = { running: Promise.resolve() as Promise<V>, queued: null };
      this.slots.set(key, fresh);
      fresh.running = this.run(key, fresh);
      return fresh.running;
    }
    slot.queued ??= slot.running.then(ignore, ignore).then(() => {
      slot.running = slot.queued!;
      slot.queued = null;
      return this.run(key, slot);
    });
    return slot.queued;
  }

  /** Keys with a read in flight (for tests and metrics). */
  get size(): number {
    return this.slots.size;
  }

  private async run(key: K, slot: Slot<V>): Promise<V> {
    try {
      return await this.read(key);
    } finally {
      if (slot.queued === null && this.slots.get(key) === slot) this.slots.delete(key);
    }
  }
}
