// A map that keeps only the most recently used entries: caches of facts that never change once
// written (a journal's organization, a monitor's organization, where a version keeps its body) or only
// move forward (a log's head). A restored database empties them (server/db/generation.ts).
import type { CacheGeneration } from './generation.js';

/** At most `max` entries; the least recently used one leaves first. */
export class Recent<K, V> {
  private readonly map = new Map<K, V>();
  private seen: number;

  constructor(
    private readonly max: number,
    private readonly generation: CacheGeneration,
  ) {
    this.seen = generation.current;
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    this.check();
    const value = this.map.get(key);
    if (value !== undefined) this.set(key, value);
    return value;
  }

  /** Stores the value, evicting the least recently used entry beyond the bound. */
  set(key: K, value: V): void {
    this.check();
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  private check(): void {
    if (this.seen === this.generation.current) return;
    this.map.clear();
    this.seen = this.generation.current;
  }
}
