// A least-recently-used cache bounded by bytes, not entries: one monitor's 4 MiB data must not be able
// to push a process's memory up by the entry count times its size. A restored database empties it
// (server/db/generation.ts).
import type { CacheGeneration } from './generation.js';

/** Values with their size in bytes; the least recently used leave first once `maxBytes` is exceeded. */
export class ByteCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;
  private seen: number;

  constructor(
    private readonly maxBytes: number,
    private readonly generation: CacheGeneration,
  ) {
    this.seen = generation.current;
  }

  /** The bytes held now. */
  get bytes(): number {
    this.check();
    return this.total;
  }

  /** The value under `key`, marking it recently used. */
  get(key: string): V | undefined {
    this.check();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value of `bytes` bytes; a value larger than the whole cache is not kept. */
  set(key: string, value: V, bytes: number): void {
    this.check();
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  private check(): void {
    if (this.seen === this.generation.current) return;
    this.entries.clear();
    this.total = 0;
    this.seen = this.generation.current;
  }
}
