// Reads of one key shared by the callers that ask at once, such as every screen of a monitor coming back
// after a restart (docs/hub.md "Reconnect storms"). A caller shares only a read that begins after it
// asked, so it never gets a state older than its own call: while a read is in flight, later callers wait
// for the next one, which starts when it settles. Per key, at most one read runs and one waits.
import type { CacheGeneration } from './generation.js';

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

/**
 * Fresh reads whose answers are kept for the next callers while this process learns of no change to
 * the key: for `trustMs` at most (the bound on what a change this process never heard of can cost),
 * and only while `trusted()` says changes are being heard (the hub's Redis is up). A read that a
 * change overtook is answered but not kept. A restored database (server/db/generation.ts) empties it.
 *
 * A caller of get() that finds nothing kept but a read in flight that no change has overtaken shares
 * that read: it is what would be kept a moment later, and no change was heard since it began, so it is
 * as current as a kept answer (a storm's first screens of a monitor then cause one read, not two).
 */
export class KeptReads<K, V> {
  private readonly reads: FreshReads<K, V>;
  private readonly kept = new Map<K, { value: V; at: number; generation: number }>();
  private readonly reading = new Map<K, Set<{ overtaken: boolean }>>();
  // The newest read of each key begun by fresh(), while it runs.
  private readonly inFlight = new Map<
    K,
    { answer: Promise<V>; mark: { overtaken: boolean }; at: number; generation: number }
  >();
  private swept = Date.now();

  constructor(
    read: (key: K) => Promise<V>,
    private readonly trustMs: number,
    private readonly generation: CacheGeneration,
    private readonly trusted: () => boolean = () => true,
  ) {
    this.reads = new FreshReads(read);
  }

  /** The kept answer while it may be trusted, else a fresh read. */
  get(key: K): Promise<V> {
    if (Date.now() - this.swept >= this.trustMs) this.dropExpired();
    const kept = this.kept.get(key);
    if (kept && Date.now() - kept.at < this.trustMs && kept.generation === this.generation.current && this.trusted())
      return Promise.resolve(kept.value);
    const running = this.inFlight.get(key);
    if (
      running &&
      !running.mark.overtaken &&
      Date.now() - running.at < this.trustMs &&
      running.generation === this.generation.current &&
      this.trusted()
    )
      return running.answer;
    return this.fresh(key);
  }

  /** A read begun after this call, kept unless a change overtakes it. */
  fresh(key: K): Promise<V> {
    const [mark, generation, asked] = [{ overtaken: false }, this.generation.current, Date.now()];
    const marks = this.reading.get(key) ?? new Set();
    this.reading.set(key, marks.add(mark));
    const answer = (async () => {
      try {
        const value = await this.reads.get(key);
        if (!mark.overtaken && this.generation.current === generation)
          this.kept.set(key, { value, at: asked, generation });
        return value;
      } finally {
        marks.delete(mark);
        if (!marks.size && this.reading.get(key) === marks) this.reading.delete(key);
        if (this.inFlight.get(key)?.mark === mark) this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, { answer, mark, at: asked, generation });
    return answer;
  }

  /** A change to the key reached this process; `value`: the state it leaves, kept from now on. */
  changed(key: K, ...value: [V] | []): void {
    for (const mark of this.reading.get(key) ?? []) mark.overtaken = true;
    if (value.length) this.kept.set(key, { value: value[0], at: Date.now(), generation: this.generation.current });
    else this.kept.delete(key);
  }

  /** Nothing kept is trusted any more (changes may have gone unheard). */
  forget(): void {
    this.kept.clear();
    for (const marks of this.reading.values()) for (const mark of marks) mark.overtaken = true;
  }

  // Answers past their trust, dropped at most once per trust period (keys are not otherwise removed).
  private dropExpired(): void {
    this.swept = Date.now();
    for (const [key, { at }] of this.kept) if (Date.now() - at >= this.trustMs) this.kept.delete(key);
  }
}
