// The links, bodies and head hints of the version chains (server/db/chain.ts explains the layout): the
// exact lookups that find a key's newest version, where a body is stored, and the pruning that keeps a
// history short. Chain builds its histories on these; it keeps what it knows of each key itself.
import type { CacheGeneration } from './generation.js';
import type { ChainModels, LinkDoc, VersionRef } from './chain-models.js';
import { isDuplicateKey } from './errors.js';
import { Recent } from './recent.js';

const LINKS_KEPT = 20;
/** Bodies up to this size (bytes of JSON) travel in their link. */
export const INLINE_BYTES = 32 * 1024;
const BODIES_KEPT = 3;
const PRUNE_EVERY = 10;
const MAX_LAYOUTS = 10_000;

/** The _id of a key's version `n`. */
export const linkId = (key: string, n: number) => `${key}:${n}`;
/** The _id of a body stored apart (and of a body in the cache). */
export const contentId = (key: string, ref: VersionRef) => `${key}:${ref.n}:${ref.epoch}`;

/** A link's identity, without its body. */
export type LinkRef = Pick<LinkDoc, 'n' | 'epoch'>;

/** Reads and housekeeping of the chains' documents, by exact _id wherever a request waits. */
export class ChainLinks {
  // Where recent versions keep their bodies (known for those written or learned here), so pruning
  // needs no read to find a body stored apart.
  private readonly layouts: Recent<string, { epoch: string; apart: boolean }>;

  constructor(
    private readonly models: ChainModels,
    private readonly generation: CacheGeneration,
    /** True for a key this process is removing: its head hint is not moved again. */
    private readonly removed: (key: string) => boolean,
    /** Where a failed housekeeping write is reported; it never fails the write it follows. */
    private readonly failed: (key: string, what: string, err: unknown) => void,
  ) {
    this.layouts = new Recent(MAX_LAYOUTS, generation);
  }

  /**
   * A link's identity only: a small body travelling in it is not fetched. The service's most frequent
   * read (every read of a monitor asks whether a newer version exists), so it is the driver's findOne on
   * the model's collection, without a mongoose query around an exact string _id.
   */
  async link(key: string, n: number): Promise<LinkRef | null> {
    return this.models.links.collection.findOne<LinkRef>(
      { _id: linkId(key, n) as never },
      { projection: { n: 1, epoch: 1 } },
    );
  }

  /** The base a new version was built on is still the one read (server/db/chain.ts says why it matters). */
  async intact(key: string, base: VersionRef): Promise<boolean> {
    const found = await this.link(key, base.n);
    return found !== null && found.epoch === base.epoch;
  }

  /**
   * The head hint moves to `n`: $max never moves it back, whoever updates it late. Writers move it every
   * HEAD_EVERY versions; a cold probe that had to search past it moves it to what it found, so that the
   * next process without a hint (the other processes of a restart, the next restart) starts there. Two
   * processes creating it at once: one upsert loses (FerretDB), and the head may stay behind, as a late
   * writer's would. A probe of a history that a restore has replaced meanwhile (`since`: the cache
   * generation it began in) leaves the restored head alone.
   */
  async advanceHead(key: string, n: number, since = this.generation.current): Promise<void> {
    if (this.removed(key) || this.generation.current !== since) return;
    await this.models.heads.updateOne({ _id: key }, { $max: { n } }, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) this.failed(key, 'head hint', err);
    });
  }

  /** The newest link from a known one: doubling steps, then bisection (log2 of the distance in exact lookups). */
  async gallop(key: string, known: LinkRef): Promise<LinkRef> {
    let low = known;
    let step = 1;
    let high = -1;
    while (high < 0) {
      const candidate = await this.link(key, low.n + step);
      if (candidate) {
        low = candidate;
        step *= 2;
      } else high = low.n + step;
    }
    while (high - low.n > 1) {
      const mid = Math.floor((low.n + high) / 2);
      const candidate = await this.link(key, mid);
      if (candidate) low = candidate;
      else high = mid;
    }
    return low;
  }

  /**
   * The newest link of the key, when the hint was pruned or never existed (rare: FerretDB reads every
   * link, small bodies included, to answer it).
   */
  async scan(key: string): Promise<LinkRef | null> {
    return this.models.links.findOne({ key }, { n: 1, epoch: 1 }).sort({ n: -1 }).lean();
  }

  /** A small body goes into the link (returned to spread into it); a large one into its own document. */
  async storeBody(key: string, ref: VersionRef, json: string): Promise<{ body?: string; apart?: true }> {
    if (Buffer.byteLength(json) <= INLINE_BYTES) return { body: json };
    await this.models.contents.create({ _id: contentId(key, ref), key, body: json });
    return { apart: true };
  }

  /**
   * Removes a body stored apart. A body document nobody links to is never read; one whose removal fails is only space.
   */
  async dropContent(key: string, ref: VersionRef): Promise<void> {
    await this.models.contents.deleteOne({ _id: contentId(key, ref) }).catch(() => {});
  }

  /** Where a version's body lives, so that pruning it needs no read. */
  laidOut(key: string, ref: VersionRef, apart: boolean): void {
    this.layouts.set(linkId(key, ref.n), { epoch: ref.epoch, apart });
  }

  /**
   * Bodies older than BODIES_KEPT go at once (each by its exact _id); links older than LINKS_KEPT as a prefix every
   * PRUNE_EVERY versions.
   */
  async prune(key: string, n: number): Promise<void> {
    const old = n - BODIES_KEPT;
    if (old >= 0) {
      const id = linkId(key, old);
      const link = this.layouts.get(id) ?? (await this.models.links.findById(id, { epoch: 1, apart: 1 }).lean());
      this.layouts.delete(id);
      if (link?.apart) await this.dropContent(key, { n: old, epoch: link.epoch });
    }
    // Each multiple of PRUNE_EVERY deletes the window of links behind it: one delete command whose
    // statements each name an exact _id, oldest first (a filter on `key` or `_id: {$in}` would read
    // every link of every monitor on FerretDB, bodies included; a command per link cost a write its
    // share of ten round trips).
    if (n % PRUNE_EVERY !== 0) return;
    const window: Array<{ deleteOne: { filter: { _id: string } } }> = [];
    for (let old = Math.max(0, n - LINKS_KEPT - PRUNE_EVERY + 1); old <= n - LINKS_KEPT; old++)
      window.push({ deleteOne: { filter: { _id: linkId(key, old) } } });
    if (window.length > 0) await this.models.links.bulkWrite(window, { ordered: true });
  }
}
