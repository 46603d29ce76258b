// Reading a version chain (server/db/chain.ts explains the layout): the newest version of a key by
// exact lookups from what this process knows (its hint), the bodies it keeps, and what it learns of
// other processes' writes. Chain adds the writes on top.
import type { Logger } from 'pino';
import { unavailable } from '../errors.js';
import { ByteCache } from './byte-cache.js';
import { ChainLinks, INLINE_BYTES, contentId, linkId, type LinkRef } from './chain-links.js';
import type { ChainModels, Version, VersionRef } from './chain-models.js';
import type { CacheGeneration } from './generation.js';
import { Recent } from './recent.js';

const MAX_HINTS = 10_000;

/** What the reads of a chain are built with. */
export interface ChainReadOptions {
  /** Bytes of bodies this process keeps in memory. */
  cacheBytes?: number;
  /** Where a failed housekeeping write (head hint, pruning) is logged; it never fails the write itself. */
  log?: Pick<Logger, 'warn'>;
}

/** The reads of keyed histories, and what this process knows of each key. */
export class ChainReads<T> {
  // The newest version this process wrote or read per key: where the next probe starts.
  protected readonly hints = new Map<string, VersionRef>();
  // The newest version per key this process has seen stored (every version it remembers, and also one
  // inserted and still being checked, or a link read after a collision): its publication may still be
  // on its way (stored). Unlike the hint, it never moves back.
  protected readonly seen: Recent<string, number>;
  protected readonly links: ChainLinks;
  protected readonly bodies: ByteCache<T>;
  private readonly reading = new Map<string, Promise<VersionRef | null>>();
  /** Keys this process is removing: nothing here brings them back. */
  protected readonly removed = new Set<string>();

  constructor(
    protected readonly models: ChainModels,
    protected readonly generation: CacheGeneration,
    private readonly readOptions: ChainReadOptions,
  ) {
    this.seen = new Recent(MAX_HINTS, generation);
    this.links = new ChainLinks(
      models,
      generation,
      (key) => this.removed.has(key),
      (key, what, err) => this.housekeepingFailed(key, what)(err),
    );
    this.bodies = new ByteCache<T>(readOptions.cacheBytes ?? 64 * 1024 * 1024, generation);
  }

  // A lost head hint costs a later cold read a few more lookups, a lost pruning leaves old links for the
  // next one: logged, never thrown.
  protected housekeepingFailed(key: string, what: string): (err: unknown) => void {
    return (err) => this.readOptions.log?.warn({ err, key }, `version chain ${what} failed`);
  }

  /** The newest version's identity, or null when the key has no history. Concurrent calls share one probe. */
  newest(key: string): Promise<VersionRef | null> {
    let pending = this.reading.get(key);
    if (!pending) {
      pending = this.probe(key).finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
    }
    return pending;
  }

  /** The newest version with its body, or null when the key has no history. */
  async latest(key: string): Promise<Version<T> | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const ref = await this.newest(key);
      if (!ref) return null;
      const body = await this.body(key, ref);
      // Pruned between the probe and the read: a newer version exists, so probe again.
      if (body !== undefined) return { ...ref, body };
      this.hints.delete(key);
    }
    throw unavailable('The history changed too fast to be read; try again', 1);
  }

  /** True when a version after `n` exists (one exact lookup): a copy of version n is then outdated. */
  async newerThan(key: string, n: number): Promise<boolean> {
    return (await this.links.link(key, n + 1)) !== null;
  }

  /** True when this process has seen version `n` of the key, or a later one, stored (inserted here or read). */
  stored(key: string, n: number): boolean {
    return (this.seen.get(key) ?? -1) >= n;
  }

  /** The body of version `ref` while it is kept (undefined after it was pruned). */
  async body(key: string, ref: VersionRef): Promise<T | undefined> {
    const id = contentId(key, ref);
    const cached = this.bodies.get(id);
    if (cached !== undefined) return cached;
    const link = await this.models.links.findById(linkId(key, ref.n)).lean();
    const doc =
      link?.epoch === ref.epoch && link.body !== undefined ? link : await this.models.contents.findById(id).lean();
    if (!doc?.body) return undefined;
    const body = JSON.parse(doc.body) as T;
    this.bodies.set(id, body, Buffer.byteLength(doc.body));
    return body;
  }

  /**
   * Takes in a version another process wrote, announced with the one it was built on: when that base is
   * the newest version known here with its body, the new body is derived here (`derive` must be the
   * writer's own pure step), so the next write here builds on it instead of colliding with it.
   */
  learn(key: string, ref: VersionRef, base: string, derive: (head: T) => T): void {
    const head = this.known(key);
    if (!head || head.n !== ref.n - 1 || head.epoch !== base || this.removed.has(key)) return;
    let json: string;
    try {
      // Through JSON, as a reader of the stored version would get it.
      json = JSON.stringify(derive(head.body));
    } catch {
      return;
    }
    const bytes = Buffer.byteLength(json);
    this.bodies.set(contentId(key, ref), JSON.parse(json) as T, bytes);
    this.bodies.delete(contentId(key, head));
    this.remember(key, ref);
    // Well below the limit it was surely kept in its link (the writer's JSON is the same text).
    if (bytes < INLINE_BYTES - 1024) this.links.laidOut(key, { n: ref.n, epoch: ref.epoch }, false);
  }

  /**
   * The version `n` another writer took, as the base of the next try: learned from its publication
   * meanwhile (no read), else read from its link (a small body travels in it) when it is the newest.
   * Null when its body lives apart, the link is gone or has a successor: then the newest is read.
   */
  protected async taken(key: string, n: number): Promise<Version<T> | null> {
    const learned = this.known(key);
    if (learned && learned.n >= n) return learned;
    // Its successor too, at once: a writer further behind reads the newest instead of walking.
    const [link, after] = await Promise.all([
      this.models.links.findById(linkId(key, n), { n: 1, epoch: 1, body: 1 }).lean(),
      this.links.link(key, n + 1),
    ]);
    if (link) this.saw(key, link.n);
    if (link?.body === undefined || after) return null;
    const ref = { n: link.n, epoch: link.epoch };
    const body = JSON.parse(link.body) as T;
    const hint = this.hints.get(key);
    // Only the newest body known here is kept, and a hint never moves back.
    if (!hint || hint.n < n) {
      if (hint) this.bodies.delete(contentId(key, hint));
      this.bodies.set(contentId(key, ref), body, Buffer.byteLength(link.body));
      this.remember(key, ref);
    }
    return { ...ref, body };
  }

  // The newest version this process knows with its body in memory, if it has both.
  protected known(key: string): Version<T> | null {
    const ref = this.hints.get(key);
    const body = ref && this.bodies.get(contentId(key, ref));
    return ref && body !== undefined ? { ...ref, body } : null;
  }

  // From this process's last known version, exact lookups only: usually two (the hint is there, its
  // successor is not). Links exist as one contiguous range.
  protected async probe(key: string): Promise<VersionRef | null> {
    const hint = this.hints.get(key)?.n;
    if (hint === undefined) return this.coldProbe(key);
    const [at, after] = await Promise.all([this.links.link(key, hint), this.links.link(key, hint + 1)]);
    let found: LinkRef | null;
    if (!at) found = await this.links.scan(key);
    else if (!after) found = at;
    else found = await this.links.gallop(key, after);
    return found && this.found(key, found);
  }

  // Without a hint (as after a restart), from the head document: the successor first, and only when
  // it is absent the link itself, whole. Found there after its successor was seen absent, that link was
  // the newest then (had the successor been written and pruned, the link would have gone before it), so
  // its small body is the newest version's and needs no second read. A link found by galloping was read
  // before the absence that ended the search: its body is read again (latest), which checks just that.
  protected async coldProbe(key: string): Promise<VersionRef | null> {
    const generation = this.generation.current;
    const start = (await this.models.heads.findById(key).lean())?.n ?? 0;
    const after = await this.links.link(key, start + 1);
    if (after) {
      const newest = await this.links.gallop(key, after);
      void this.links.advanceHead(key, newest.n, generation);
      return this.found(key, newest);
    }
    const at = await this.models.links.findById(linkId(key, start), { n: 1, epoch: 1, body: 1 }).lean();
    if (!at) {
      const newest = await this.links.scan(key);
      if (newest) void this.links.advanceHead(key, newest.n, generation);
      return newest && this.found(key, newest);
    }
    const ref = this.found(key, at);
    if (at.body !== undefined)
      this.bodies.set(contentId(key, ref), JSON.parse(at.body) as T, Buffer.byteLength(at.body));
    return ref;
  }

  protected found(key: string, link: LinkRef): VersionRef {
    const ref = { n: link.n, epoch: link.epoch };
    this.remember(key, ref);
    return ref;
  }

  protected saw(key: string, n: number): void {
    if ((this.seen.get(key) ?? -1) < n) this.seen.set(key, n);
  }

  protected remember(key: string, ref: VersionRef): void {
    this.hints.delete(key);
    this.hints.set(key, ref);
    if (this.hints.size > MAX_HINTS) this.hints.delete(this.hints.keys().next().value!);
    this.saw(key, ref.n);
  }
}
