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
//
// This file writes; the reads (probing for the newest version, the bodies kept) are chain-reads.ts, the
// links' lookups, body storage and pruning chain-links.ts, the documents chain-models.ts.
import { randomBytes } from 'node:crypto';
import type { CacheGeneration } from './generation.js';
import { KeyedLock } from './keyed-lock.js';
import { contentId, linkId } from './chain-links.js';
import { ChainReads, type ChainReadOptions } from './chain-reads.js';
import type { ChainModels, Version, VersionRef } from './chain-models.js';
import { insertInOrder, isDuplicateKey } from './errors.js';
import { unavailable } from '../errors.js';

export type { ChainModels, ContentDoc, HeadDoc, LinkDoc, Version, VersionRef } from './chain-models.js';

export interface ChainOptions extends ChainReadOptions {
  /** Largest body in bytes (UTF-8 JSON); a larger one is refused with `tooLarge(bytes)`. */
  maxBodyBytes?: number;
  tooLarge?: (bytes: number) => Error;
}

/** The head document (where a process without a hint starts probing) follows every HEAD_EVERY versions. */
const HEAD_EVERY = 10;
const WRITE_DEADLINE_MS = 20_000;
const MAX_QUEUED_WRITES = 100;
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

const newEpoch = () => randomBytes(9).toString('base64url');

/** Appends and reads versions of keyed histories. */
export class Chain<T> extends ChainReads<T> {
  // Turns of a key (and its removal) one after another; at most one turn waits (`scheduled`), and the
  // writes' own limit is MAX_QUEUED_WRITES (append).
  private readonly lock = new KeyedLock<string>(Number.POSITIVE_INFINITY);
  /** Writes that found their version taken (another process wrote first) and were built again. */
  collisions = 0;
  // Writes waiting for their key's turn, in call order; how many the running turn took; keys whose
  // next turn is queued.
  private readonly waiting = new Map<string, Array<Pending<T>>>();
  private readonly inTurn = new Map<string, number>();
  private readonly scheduled = new Set<string>();

  constructor(
    models: ChainModels,
    generation: CacheGeneration,
    private readonly options: ChainOptions,
  ) {
    super(models, generation, options);
  }

  /** Starts a history with version 0 (the genesis). Starting twice keeps the first. */
  async start(key: string, body: T): Promise<Version<T>> {
    this.removed.delete(key);
    const genesis = { n: 0, epoch: newEpoch() };
    const json = this.serialise(body);
    try {
      const inline = await this.links.storeBody(key, genesis, json);
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
      this.links.laidOut(key, { n: 0, epoch: genesis.epoch }, inline.apart === true);
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
      for (const { version, json } of built) inline.push(await this.links.storeBody(key, version, json));
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
      for (let i = inserted; i < built.length; i++)
        if (inline[i].apart) await this.links.dropContent(key, built[i].version);
      if (inserted > 0 && !(await this.links.intact(key, head))) {
        const stray = built.slice(0, inserted);
        await this.models.links.bulkWrite(
          stray.map(({ version }) => ({
            deleteOne: { filter: { _id: linkId(key, version.n), epoch: version.epoch } },
          })),
          { ordered: true },
        );
        for (let i = 0; i < inserted; i++) if (inline[i].apart) await this.links.dropContent(key, built[i].version);
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
      this.links.laidOut(key, version, apart);
      // A lag of up to HEAD_EVERY versions costs a cold probe a few more exact lookups (it gallops).
      if (version.n % HEAD_EVERY === 0) void this.links.advanceHead(key, version.n);
      void this.links.prune(key, version.n).catch(this.housekeepingFailed(key, 'pruning'));
    }
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
}
