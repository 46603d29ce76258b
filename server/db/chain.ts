// A history of versions per key (a monitor's data, a monitor's configuration): each version is a tiny
// link document with the string _id "<key>:<n>", so exactly one writer gets each version on MongoDB and
// on FerretDB (whose updates are read-modify-write without a lock), and every lookup is an exact
// string-_id lookup — the only query FerretDB answers from an index. A small body (up to 32 KiB of JSON)
// is kept in its link, so a write is one insert; a larger one lives apart, in a content document
// "<key>:<n>:<epoch>" written first, so probing for the newest version never parses a large document.
// Bodies never change: each process caches the newest one of each key (an older one is read again only
// by a late reader, from its link).
//
// Each version has a random epoch and names its base's epoch. Together they identify one history:
// after a database restore, version 50 of the new history and version 50 of the old one differ in
// their epochs, so screens and processes notice the reset whatever the numbers.
//
// Old versions are deleted as a prefix. A writer whose base is very old (a stalled request) could insert
// version n+1 again after the first one was pruned; so after inserting it checks that its base is still
// there with the epoch it built on. Had n+1 been written and pruned before, n (or the genesis version 0,
// which is pruned like any other) would have gone with it. A failed check removes the insert and starts
// over; nothing in this depends on clocks.
import { randomBytes } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { CacheGeneration } from './generation.js';
import { KeyedLock } from './keyed-lock.js';
import { ByteCache } from './byte-cache.js';
import { Recent } from './recent.js';
import { insertInOrder, isDuplicateKey } from './errors.js';
import { unavailable } from '../errors.js';

export interface LinkDoc {
  _id: string;
  key: string;
  n: number;
  epoch: string;
  base: string;
  at: Date;
  /** The body as JSON when it is small; absent when it lives in a content document. */
  body?: string;
  /** True when the body lives in a content document (what pruning drops). */
  apart?: boolean;
}

export interface HeadDoc {
  _id: string;
  n: number;
}

export interface ContentDoc {
  _id: string;
  key: string;
  body: string;
}

export interface ChainModels {
  links: Model<LinkDoc>;
  heads: Model<HeadDoc>;
  contents: Model<ContentDoc>;
}

/** One version of a key's history. */
export interface Version<T> {
  n: number;
  epoch: string;
  body: T;
}

/** The identity of a version without its body. */
export type VersionRef = Omit<Version<unknown>, 'body'>;

export interface ChainOptions {
  /** Largest body in bytes (UTF-8 JSON); a larger one is refused with `tooLarge(bytes)`. */
  maxBodyBytes?: number;
  tooLarge?: (bytes: number) => Error;
  /** Bytes of bodies this process keeps in memory. */
  cacheBytes?: number;
  /** Where a failed housekeeping write (head hint, pruning) is logged; it never fails the write itself. */
  log?: Pick<Logger, 'warn'>;
}

const LINKS_KEPT = 20;
const INLINE_BYTES = 32 * 1024;
const BODIES_KEPT = 3;
const PRUNE_EVERY = 10;
/** The head document (where a process without a hint starts probing) follows every HEAD_EVERY versions. */
const HEAD_EVERY = 10;
const MAX_LAYOUTS = 10_000;
const WRITE_DEADLINE_MS = 20_000;
const MAX_QUEUED_WRITES = 100;
const MAX_HINTS = 10_000;
/** Writes of one key stored together in one turn at most. */
const MAX_BATCH = 10;

/** A write waiting for its key's turn. */
interface Pending<T> {
  make: (head: Version<T>) => T;
  absent: () => Error;
  resolve: (version: Version<T> & { base: string }) => void;
  reject: (err: unknown) => void;
  settled: boolean;
}

function settle<T>(write: Pending<T>, err: unknown, version?: Version<T> & { base: string }): void {
  if (write.settled) return;
  write.settled = true;
  if (version) write.resolve(version);
  else write.reject(err);
}

const linkId = (key: string, n: number) => `${key}:${n}`;
const contentId = (key: string, ref: VersionRef) => `${key}:${ref.n}:${ref.epoch}`;
const newEpoch = () => randomBytes(9).toString('base64url');

/** Appends and reads versions of keyed histories. */
export class Chain<T> {
  // Turns of a key (and its removal) one after another; at most one turn waits (`scheduled`), and the
  // writes' own limit is MAX_QUEUED_WRITES (append).
  private readonly lock = new KeyedLock<string>(Number.POSITIVE_INFINITY);
  // The newest version this process wrote or read per key: where the next probe starts.
  private readonly hints = new Map<string, VersionRef>();
  // The newest version per key this process has seen stored (every version it remembers, and also one
  // inserted and still being checked, or a link read after a collision): its publication may still be
  // on its way (stored). Unlike the hint, it never moves back.
  private readonly seen: Recent<string, number>;
  // Where recent versions keep their bodies (known for those written or learned here), so pruning
  // needs no read to find a body stored apart.
  private readonly layouts: Recent<string, { epoch: string; apart: boolean }>;
  /** Writes that found their version taken (another process wrote first) and were built again. */
  collisions = 0;
  private readonly bodies: ByteCache<T>;
  private readonly reading = new Map<string, Promise<VersionRef | null>>();
  private readonly removed = new Set<string>();
  // Writes waiting for their key's turn, in call order; how many the running turn took; keys whose
  // next turn is queued.
  private readonly waiting = new Map<string, Array<Pending<T>>>();
  private readonly inTurn = new Map<string, number>();
  private readonly scheduled = new Set<string>();

  constructor(
    private readonly models: ChainModels,
    private readonly generation: CacheGeneration,
    private readonly options: ChainOptions,
  ) {
    this.seen = new Recent(MAX_HINTS, generation);
    this.layouts = new Recent(MAX_LAYOUTS, generation);
    this.bodies = new ByteCache<T>(options.cacheBytes ?? 64 * 1024 * 1024, generation);
  }

  // A lost head hint costs a later cold read a few more lookups, a lost pruning leaves old links for the
  // next one: logged, never thrown.
  private housekeepingFailed(key: string, what: string): (err: unknown) => void {
    return (err) => this.options.log?.warn({ err, key }, `version chain ${what} failed`);
  }

  /** Starts a history with version 0 (the genesis). Starting twice keeps the first. */
  async start(key: string, body: T): Promise<Version<T>> {
    this.removed.delete(key);
    const genesis = { n: 0, epoch: newEpoch() };
    const json = this.serialise(body);
    try {
      const inline = await this.storeBody(key, genesis, json);
      await this.models.links.create({
        _id: linkId(key, 0),
        key,
        n: 0,
        epoch: genesis.epoch,
        base: '',
        at: new Date(),
        ...inline,
      });
      // Where its body lives, so that pruning it needs no read.
      this.layouts.set(linkId(key, 0), { epoch: genesis.epoch, apart: inline.apart === true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await this.latest(key);
      if (existing) return existing;
      throw err;
    }
    this.bodies.set(contentId(key, genesis), body, Buffer.byteLength(json));
    this.remember(key, genesis);
    return { ...genesis, body };
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
    return (await this.link(key, n + 1)) !== null;
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
   * Appends the version `make` builds from the newest one (called again when another process won the
   * version). `make` may throw to refuse the write. Without a history, `absent()` answers.
   *
   * Writes of one key take turns in this process; a turn takes every write waiting for it (up to
   * MAX_BATCH) and stores their versions with one ordered insert and one base check, so a key written
   * faster than a round trip queues one turn, not one round trip per write (group commit).
   */
  append(key: string, make: (head: Version<T>) => T, absent: () => Error): Promise<Version<T> & { base: string }> {
    let waiting = this.waiting.get(key);
    // Each waiting write holds its body (up to 1 MiB): a key flooded with writes answers 503 instead.
    if ((waiting?.length ?? 0) + (this.inTurn.get(key) ?? 0) >= MAX_QUEUED_WRITES)
      return Promise.reject(unavailable('Too many writes queued; try again', 1));
    if (!waiting) this.waiting.set(key, (waiting = []));
    const queue = waiting;
    return new Promise((resolve, reject) => {
      queue.push({ make, absent, resolve, reject, settled: false });
      this.schedule(key);
    });
  }

  // One turn at most waits behind the running one; it takes whatever waits when it begins.
  private schedule(key: string): void {
    if (this.scheduled.has(key)) return;
    this.scheduled.add(key);
    void this.lock.run(key, () => this.turn(key));
  }

  // Settles every write it takes; never fails.
  private async turn(key: string): Promise<void> {
    this.scheduled.delete(key);
    const waiting = this.waiting.get(key);
    if (!waiting) return;
    const writes = waiting.splice(0, MAX_BATCH);
    if (waiting.length === 0) this.waiting.delete(key);
    else this.schedule(key);
    this.inTurn.set(key, writes.length);
    try {
      await this.write(key, writes);
    } catch (err) {
      for (const write of writes) settle(write, err);
    } finally {
      this.inTurn.delete(key);
    }
  }

  // Builds on what this process knows, without reading first: if another process wrote meanwhile, the
  // insert collides and the version that took its place is the next base (taken); the base check
  // covers a long-stale hint. Each write is settled once; writes are resolved in version order.
  private async write(key: string, writes: Array<Pending<T>>): Promise<void> {
    const deadline = Date.now() + WRITE_DEADLINE_MS;
    const cached = this.known(key);
    let head = cached ?? (await this.latest(key));
    let fresh = cached === null;
    let rest = writes;
    while (rest.length > 0 && head && Date.now() < deadline) {
      // A write queued behind this process's removal of the key must not bring it back.
      if (this.removed.has(key)) break;
      // Each write builds on the one before it. A refusal decided on a version of this turn holds once
      // that version is stored; one decided on the head holds when the head was read from the store.
      const built: Array<{ write: Pending<T>; version: Version<T>; json: string; base: string }> = [];
      const refused = new Map<Pending<T>, { err: unknown; after: number }>();
      let at: Version<T> = head;
      let undecided = false;
      for (const write of rest) {
        try {
          const body = write.make(at);
          const json = this.serialise(body);
          const version = { n: at.n + 1, epoch: newEpoch(), body };
          built.push({ write, version, json, base: at.epoch });
          at = version;
        } catch (err) {
          if (built.length === 0 && !fresh) {
            undecided = true;
            break;
          }
          refused.set(write, { err, after: built.length });
        }
      }
      if (undecided) {
        // A refusal decided on a remembered head may not hold on the stored one: decide on that.
        head = await this.latest(key);
        fresh = true;
        continue;
      }
      // Large bodies first: a link that is visible always has its body.
      const inline: Array<{ body?: string; apart?: true }> = [];
      for (const { version, json } of built) inline.push(await this.storeBody(key, version, json));
      const now = new Date();
      const docs = built.map(({ version, base }, i) => ({
        _id: linkId(key, version.n),
        key,
        n: version.n,
        epoch: version.epoch,
        base,
        at: now,
        ...inline[i],
      }));
      const { inserted, failure, duplicate } =
        docs.length > 0 ? await insertInOrder(this.models.links.collection, docs) : { inserted: 0 };
      if (inserted > 0) this.saw(key, built[inserted - 1].version.n);
      for (let i = inserted; i < built.length; i++) if (inline[i].apart) await this.dropContent(key, built[i].version);
      if (inserted > 0 && !(await this.intact(key, head))) {
        const stray = built.slice(0, inserted);
        await this.models.links.bulkWrite(
          stray.map(({ version }) => ({
            deleteOne: { filter: { _id: linkId(key, version.n), epoch: version.epoch } },
          })),
          { ordered: true },
        );
        for (let i = 0; i < inserted; i++) if (inline[i].apart) await this.dropContent(key, built[i].version);
        this.hints.delete(key);
        this.seen.delete(key);
        head = await this.latest(key);
        fresh = true;
        continue;
      }
      if (inserted > 0)
        this.committed(
          key,
          head,
          built.slice(0, inserted).map(({ version, json }, i) => ({
            version,
            bytes: Buffer.byteLength(json),
            apart: inline[i].apart === true,
          })),
        );
      // Settled in order: the stored versions, and the refusals decided on the head or on a stored version.
      const left: Array<Pending<T>> = [];
      const versions = new Map(built.map((b, i) => [b.write, { index: i, ...b }]));
      for (const write of rest) {
        const made = versions.get(write);
        const refusal = refused.get(write);
        if (made && made.index < inserted) settle(write, null, { ...made.version, base: made.base });
        else if (refusal && refusal.after <= inserted) settle(write, refusal.err);
        else left.push(write);
      }
      rest = left;
      if (rest.length === 0) return;
      if (!duplicate) {
        for (const write of rest) settle(write, failure);
        return;
      }
      // Another writer took the first version not stored: build the rest on that one.
      this.collisions++;
      head = await this.taken(key, built[inserted].version.n);
      fresh = head === null;
      head ??= await this.latest(key);
    }
    for (const write of rest)
      settle(
        write,
        !head || this.removed.has(key) ? write.absent() : unavailable('Too many concurrent writes; try again', 1),
      );
  }

  // Versions this process stored (in order, on `base`): the newest is remembered with its body, and
  // housekeeping follows each; its failure must not fail the writes.
  private committed(
    key: string,
    base: VersionRef,
    versions: Array<{ version: Version<T>; bytes: number; apart: boolean }>,
  ): void {
    const { version: newest, bytes } = versions.at(-1)!;
    this.bodies.set(contentId(key, newest), newest.body, bytes);
    // Only the newest body of a key is read again (a late reader of an older one reads its link).
    this.bodies.delete(contentId(key, base));
    this.remember(key, newest);
    for (const { version, apart } of versions) {
      this.layouts.set(linkId(key, version.n), { epoch: version.epoch, apart });
      // A lag of up to HEAD_EVERY versions costs a cold probe a few more exact lookups (it gallops).
      if (version.n % HEAD_EVERY === 0) void this.advanceHead(key, version.n);
      void this.prune(key, version.n).catch(this.housekeepingFailed(key, 'pruning'));
    }
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
    if (bytes < INLINE_BYTES - 1024) this.layouts.set(linkId(key, ref.n), { epoch: ref.epoch, apart: false });
  }

  /**
   * The version `n` another writer took, as the base of the next try: learned from its publication
   * meanwhile (no read), else read from its link (a small body travels in it) when it is the newest.
   * Null when its body lives apart, the link is gone or has a successor: then the newest is read.
   */
  private async taken(key: string, n: number): Promise<Version<T> | null> {
    const learned = this.known(key);
    if (learned && learned.n >= n) return learned;
    // Its successor too, at once: a writer further behind reads the newest instead of walking.
    const [link, after] = await Promise.all([
      this.models.links.findById(linkId(key, n), { n: 1, epoch: 1, body: 1 }).lean(),
      this.link(key, n + 1),
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
  private known(key: string): Version<T> | null {
    const ref = this.hints.get(key);
    const body = ref && this.bodies.get(contentId(key, ref));
    return ref && body !== undefined ? { ...ref, body } : null;
  }

  /**
   * Removes a key's whole history, after any write of this process in flight; with `keep`, the link of
   * that version stays (a tombstone others can find by its exact _id).
   */
  remove(key: string, keep?: number): Promise<void> {
    this.removed.add(key);
    this.hints.delete(key);
    this.seen.delete(key);
    // Not subject to the queue limit: a removal must never be refused for the writes it ends.
    return this.lock.run(
      key,
      async () => {
        await this.models.links.deleteMany(keep === undefined ? { key } : { key, n: { $ne: keep } });
        await this.models.heads.deleteOne({ _id: key });
        // Rare (a monitor is deleted): the only scan of the content collection.
        await this.models.contents.deleteMany({ key });
      },
      { force: true },
    );
  }

  private serialise(body: T): string {
    const json = JSON.stringify(body);
    const bytes = Buffer.byteLength(json);
    if (this.options.maxBodyBytes && bytes > this.options.maxBodyBytes) throw this.options.tooLarge!(bytes);
    return json;
  }

  // A link's identity only: a small body travelling in it is not fetched. The service's most frequent
  // read (every read of a monitor asks whether a newer version exists), so it is the driver's findOne on
  // the model's collection, without a mongoose query around an exact string _id.
  private async link(key: string, n: number): Promise<Pick<LinkDoc, 'n' | 'epoch'> | null> {
    return this.models.links.collection.findOne<Pick<LinkDoc, 'n' | 'epoch'>>(
      { _id: linkId(key, n) as never },
      { projection: { n: 1, epoch: 1 } },
    );
  }

  // The base a new version was built on is still the one read: see the comment at the top.
  private async intact(key: string, base: VersionRef): Promise<boolean> {
    const found = await this.link(key, base.n);
    return found !== null && found.epoch === base.epoch;
  }

  // From this process's last known version, exact lookups only: usually two (the hint is there, its
  // successor is not). Links exist as one contiguous range.
  private async probe(key: string): Promise<VersionRef | null> {
    const hint = this.hints.get(key)?.n;
    if (hint === undefined) return this.coldProbe(key);
    const [at, after] = await Promise.all([this.link(key, hint), this.link(key, hint + 1)]);
    let found: Pick<LinkDoc, 'n' | 'epoch'> | null;
    if (!at) found = await this.scan(key);
    else if (!after) found = at;
    else found = await this.gallop(key, after);
    return found && this.found(key, found);
  }

  // Without a hint (as after a restart), from the head document: the successor first, and only when
  // it is absent the link itself, whole. Found there after its successor was seen absent, that link was
  // the newest then (had the successor been written and pruned, the link would have gone before it), so
  // its small body is the newest version's and needs no second read. A link found by galloping was read
  // before the absence that ended the search: its body is read again (latest), which checks just that.
  private async coldProbe(key: string): Promise<VersionRef | null> {
    const generation = this.generation.current;
    const start = (await this.models.heads.findById(key).lean())?.n ?? 0;
    const after = await this.link(key, start + 1);
    if (after) {
      const newest = await this.gallop(key, after);
      void this.advanceHead(key, newest.n, generation);
      return this.found(key, newest);
    }
    const at = await this.models.links.findById(linkId(key, start), { n: 1, epoch: 1, body: 1 }).lean();
    if (!at) {
      const newest = await this.scan(key);
      if (newest) void this.advanceHead(key, newest.n, generation);
      return newest && this.found(key, newest);
    }
    const ref = this.found(key, at);
    if (at.body !== undefined)
      this.bodies.set(contentId(key, ref), JSON.parse(at.body) as T, Buffer.byteLength(at.body));
    return ref;
  }

  // The head hint moves to `n`: $max never moves it back, whoever updates it late. Writers move it every
  // HEAD_EVERY versions; a cold probe that had to search past it moves it to what it found, so that the
  // next process without a hint (the other processes of a restart, the next restart) starts there. Two
  // processes creating it at once: one upsert loses (FerretDB), and the head may stay behind, as a late
  // writer's would. A probe of a history that a restore has replaced meanwhile (`since`: the cache
  // generation it began in) leaves the restored head alone.
  private async advanceHead(key: string, n: number, since = this.generation.current): Promise<void> {
    if (this.removed.has(key) || this.generation.current !== since) return;
    await this.models.heads.updateOne({ _id: key }, { $max: { n } }, { upsert: true }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) this.housekeepingFailed(key, 'head hint')(err);
    });
  }

  private found(key: string, link: Pick<LinkDoc, 'n' | 'epoch'>): VersionRef {
    const ref = { n: link.n, epoch: link.epoch };
    this.remember(key, ref);
    return ref;
  }

  private saw(key: string, n: number): void {
    if ((this.seen.get(key) ?? -1) < n) this.seen.set(key, n);
  }

  // Doubling steps from a known link, then bisection: log2 of the distance in exact lookups.
  private async gallop(key: string, known: Pick<LinkDoc, 'n' | 'epoch'>): Promise<Pick<LinkDoc, 'n' | 'epoch'>> {
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

  // The hint was pruned or never existed: read the newest link of the key (rare: FerretDB reads every
  // link, small bodies included, to answer it).
  private async scan(key: string): Promise<Pick<LinkDoc, 'n' | 'epoch'> | null> {
    return this.models.links.findOne({ key }, { n: 1, epoch: 1 }).sort({ n: -1 }).lean();
  }

  private remember(key: string, ref: VersionRef): void {
    this.hints.delete(key);
    this.hints.set(key, ref);
    if (this.hints.size > MAX_HINTS) this.hints.delete(this.hints.keys().next().value!);
    this.saw(key, ref.n);
  }

  // A small body goes into the link (returned to spread into it); a large one into its own document.
  private async storeBody(key: string, ref: VersionRef, json: string): Promise<{ body?: string; apart?: true }> {
    if (Buffer.byteLength(json) <= INLINE_BYTES) return { body: json };
    await this.models.contents.create({ _id: contentId(key, ref), key, body: json });
    return { apart: true };
  }

  // A body document nobody links to is never read; one whose removal fails is only space.
  private async dropContent(key: string, ref: VersionRef): Promise<void> {
    await this.models.contents.deleteOne({ _id: contentId(key, ref) }).catch(() => {});
  }

  // Bodies older than BODIES_KEPT go at once (each by its exact _id); links older than LINKS_KEPT as a
  // prefix every PRUNE_EVERY versions.
  private async prune(key: string, n: number): Promise<void> {
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
