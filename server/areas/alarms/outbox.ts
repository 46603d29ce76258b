// The durable outbox of alarm deliveries (docs/alarms.md "Delivered"). An alarm's deliveries are read and
// written whole (a head and its parts, delivery-store.ts), changed only under the alarm's claim lock
// (FerretDB's updates are read-modify-write without a lock); an item is sent only by the process that
// claimed it, and a claim that outlives its holder (a process that died mid-send) expires and is taken over. alarm_outbox names the alarms with
// unfinished items: every process sweeps it, so work left by a stopped process is finished by another.
// Items the escalation policy holds (escalation.ts) wait in the same document until they are due.
// Each try of an item goes to its gateway once, whoever holds the claim: a unique insert per try decides
// who sends it and keeps its outcome (delivery-tries.ts). A gateway may see a repeated try only when a
// process died between handing it over and noting that; it can recognise it by the item's id.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { AlarmChannel } from '../../../schemas/alarms.js';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import { isDuplicateKey } from '../../db/errors.js';
import { DeliveryTries } from './delivery-tries.js';
import { releaseDue, skipAnswered, skipWaiting } from './escalation.js';
import type { AlarmDoc, AlarmModels, DeliveryItem } from './models.js';
import { deliveriesOf, type DeliveryStore } from './delivery-store.js';

/** Waits before the 2nd … 5th try: at most 5 tries, the last about a minute after the first. */
export const RETRY_DELAYS_MS = [2_000, 4_000, 14_000, 40_000];

/** A try that failed; `final` when retrying cannot help (no gateway configured, a dead device). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly final = false,
  ) {
    super(message);
  }
}

/**
 * Sends one item over its channel; resolves when the gateway took it, throws DeliveryError otherwise.
 * `signal` aborts when the try's limit is over: nothing may leave for the gateway after that (its retry
 * sends it), so a sender checks it right before it sends and hands it to the request.
 */
export type Sender = (item: DeliveryItem, alarmId: number, signal: AbortSignal) => Promise<void>;

export interface OutboxOptions {
  /** How often the outbox is swept for due and orphaned work. */
  sweepMs: number;
  /** How long a claim holds: longer than a try can take (the gateways' timeout). */
  claimMs: number;
  /**
   * Tries under way at once per alarm. Most of a try's time is its bookkeeping (its take, its note, a
   * push's token, an SMS's link and number), written in batches (write-batch.ts): the more tries at once,
   * the larger and fewer those commands. The gateways and push services see at most 64 connections each
   * (gateways.ts, push/web-client.ts).
   */
  concurrency?: number;
  retryDelaysMs?: number[];
  /** How long the raising process has to store an alarm's deliveries before a sweeper builds them. */
  prepareAfterMs?: number;
  /** The longest a try may take, whatever its channel (then it counts as failed): at most a third of the claim. */
  tryMs?: number;
}

/** What the outbox asks of the alarms area. */
export interface OutboxHooks {
  /** The deliveries of an alarm whose raise did not store them (its process died); null: the alarm is gone. */
  prepare(alarmId: number): Promise<{ organizationId: number; items: DeliveryItem[] } | null>;
  /** Why a channel may not send for the organization now (disabled), or null. */
  blocked(channel: AlarmChannel, organizationId: number): Promise<string | null>;
  /** Told after an alarm's deliveries changed (the alarms area announces the new counts). */
  changed(alarmId: number): void;
  /** Of these members, those who answered the alarm (held deliveries are skipped for them); none if absent. */
  answered?(alarmId: number, organizationId: number, userIds: number[]): Promise<Set<number>>;
  /** Whether the alarm has ended (its held deliveries are skipped then); never, if absent. */
  ended?(alarmId: number): Promise<boolean>;
}

const FINAL = new Set(['sent', 'delivered', 'failed', 'skipped']);
/** What a try or a record changes in an item. */
type Change = Partial<DeliveryItem>;
/** Items claimed at once per alarm. */
const BATCH = 250;
/** The longest a push receipt waits for the alarm's lock before it is answered (it is kept by then). */
const RECEIPT_WAIT_MS = 2_000;
/** At most this long between recording a batch's results and extending its claims. */
const CHECKPOINT_MS = 2_000;

/** An alarm's push receipts waiting to be written (markDelivered), and whether a write is under way. */
interface Receipts {
  next: Array<{ deviceId: number; done: () => void; fail: (err: unknown) => void }>;
  writing: boolean;
}

/** Sends and retries every alarm's deliveries; one per process, all sharing the database's outbox. */
export class AlarmOutbox {
  private readonly running = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  // Alarms whose deliveries this process's last claim found promised but missing.
  private readonly building = new Set<number>();
  // Deliveries being built after their alarm's raise answered (prepareNow), for stop() to wait for.
  private readonly preparing = new Set<Promise<void>>();
  // Their alarms: a build this process is still running is not taken over by its own sweep.
  private readonly preparingIds = new Set<number>();
  // Push receipts per alarm: those waiting for the next write, and whether one is under way.
  private readonly receipts = new Map<number, Receipts>();
  private stopped = false;
  /** Tries that failed (each counted once). */
  failedTries = 0;
  private readonly tries: DeliveryTries;
  private readonly deliveries: DeliveryStore;

  constructor(
    private readonly models: Pick<AlarmModels, 'Deliveries' | 'DeliveryParts' | 'Outbox' | 'Escalation' | 'Tries'>,
    private readonly locks: Model<LockDoc>,
    private readonly senders: Record<AlarmChannel, Sender>,
    private readonly hooks: OutboxHooks,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
    private readonly options: OutboxOptions,
  ) {
    this.tries = new DeliveryTries(models.Tries, log, options.claimMs);
    this.deliveries = deliveriesOf(models);
  }

  /**
   * Promises an alarm's deliveries before the alarm is stored: should the raising process die before
   * `store`, a sweeper builds them (hooks.prepare) once `prepareAfterMs` has passed.
   */
  async open(alarmId: number, organizationId: number): Promise<void> {
    await this.models.Outbox.create({
      _id: String(alarmId),
      organizationId,
      dueAt: new Date(Date.now() + (this.options.prepareAfterMs ?? 30_000)),
    });
  }

  /**
   * Stores an alarm's deliveries (the first store wins) and starts sending them here. `more`: the first of
   * several chunks, the rest added by `append` while this process is taken to be alive.
   */
  async store(alarmId: number, organizationId: number, items: DeliveryItem[], more = false): Promise<void> {
    try {
      await this.deliveries.create(
        alarmId,
        { organizationId, ...(more ? { buildingUntil: this.buildingUntil() } : {}) },
        items,
      );
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    try {
      // An upsert: a sweeper may have dropped the entry while this raise stalled.
      await this.models.Outbox.updateOne(
        { _id: String(alarmId) },
        { $set: { organizationId, dueAt: new Date() } },
        { upsert: true },
      );
    } finally {
      this.kick(alarmId);
    }
  }

  /**
   * Builds an opened alarm's deliveries here, now, a chunk at a time, and stores each as it comes (the first
   * go out while the next are read), without the caller waiting: the raise answers first. `stored` is told
   * each chunk's items. Should the build or a store fail, or the process die meanwhile, the promise made by
   * `open` stands: a sweeper builds what is missing once the build's time is up (`prepareAfterMs` after the
   * last chunk stored).
   */
  prepareNow(
    alarmId: number,
    organizationId: number,
    build: () => AsyncIterable<DeliveryItem[]>,
    stored: (items: DeliveryItem[]) => void,
  ): void {
    if (this.stopped) {
      // Stopping: any other process builds them at its next sweep (this one's sending is over).
      void this.models.Outbox.updateOne({ _id: String(alarmId) }, { $set: { dueAt: new Date() } }).catch((err) =>
        this.log.warn(
          { err, alarmId },
          'alarm deliveries not handed to the next sweep: they are built once their promise’s time is up',
        ),
      );
      return;
    }
    const work = (async () => {
      let started = false;
      for await (const items of build()) {
        if (!started) await this.store(alarmId, organizationId, items, true);
        // Another process built the rest meanwhile (this one stalled past its time): nothing more here.
        else if (!(await this.append(alarmId, items, true))) return;
        started = true;
        stored(items);
      }
      if (!started) await this.store(alarmId, organizationId, []);
      else await this.append(alarmId, [], false);
    })().catch((err) =>
      this.log.warn({ err, alarmId }, 'alarm deliveries not all stored now; the outbox sweep builds the rest'),
    );
    this.preparing.add(work);
    this.preparingIds.add(alarmId);
    void work.finally(() => {
      this.preparing.delete(work);
      this.preparingIds.delete(alarmId);
    });
  }

  // Under the lock: a chunk added to deliveries still being built (numbered on from those stored), and
  // whether more follow; false when they are no longer being built here (a sweeper finished them).
  private async append(alarmId: number, items: DeliveryItem[], more: boolean): Promise<boolean> {
    const added = await withClaimLock(this.locks, `alarm-deliveries:${alarmId}`, async () => {
      const doc = await this.deliveries.read(alarmId);
      if (!doc?.buildingUntil) return false;
      for (const item of items) doc.items.push({ ...item, id: `${alarmId}-${doc.items.length}` });
      await this.deliveries.write(doc, more ? this.buildingUntil() : null);
      return true;
    });
    if (added) this.kick(alarmId);
    return added;
  }

  // Until when a build that just stored a chunk is taken to be alive.
  private buildingUntil(): Date {
    return new Date(Date.now() + (this.options.prepareAfterMs ?? 30_000));
  }

  /**
   * Waits for the deliveries being built (they are stored), stops sending (the sweep stopped with the
   * scheduler) and waits for the sends in flight (their results are recorded).
   */
  async stop(): Promise<void> {
    // Raises still answering may start builds meanwhile.
    while (this.preparing.size > 0) await Promise.allSettled([...this.preparing]);
    this.stopped = true;
    await Promise.allSettled([...this.running.values()]);
    await this.tries.noted();
  }

  /**
   * Runs every alarm whose work is due (another process's orphaned claims included); the scheduler runs it every
   * `sweepMs`.
   */
  async sweep(): Promise<void> {
    const due = await this.models.Outbox.find({ dueAt: { $lte: new Date() } }, { _id: 1 }).lean();
    for (const { _id } of due) this.kick(Number(_id));
  }

  /** Sends what is due of one alarm here, now (once at a time per alarm and process). */
  kick(alarmId: number): void {
    if (this.stopped) return;
    if (this.running.has(alarmId)) {
      this.again.add(alarmId);
      return;
    }
    const run = this.run(alarmId)
      .catch((err) => this.log.warn({ err, alarmId }, 'alarm deliveries could not be sent now; the sweep tries again'))
      .finally(() => {
        this.running.delete(alarmId);
        if (this.again.delete(alarmId)) this.kick(alarmId);
      });
    this.running.set(alarmId, run);
  }

  /**
   * A push of the alarm reached the device (push/delivered, or its answer): its delivery is delivered, and
   * its owner's deliveries that wait for that receipt are skipped (docs/alarms.md "Escalation"). The
   * receipt is kept first, without the alarm's lock: should the lock stay busy (a process died holding it
   * leaves it for 30 s), the release and the next claim read it, and the receipt is answered after at most
   * RECEIPT_WAIT_MS. The receipts of one alarm that come while its last ones are being written go together,
   * in one hold of its lock, instead of queueing for it one by one.
   */
  async markDelivered(alarmId: number, deviceId: number): Promise<void> {
    await this.tries.receipt(alarmId, String(deviceId));
    const written = new Promise<void>((done, fail) => {
      let receipts = this.receipts.get(alarmId);
      if (!receipts) this.receipts.set(alarmId, (receipts = { next: [], writing: false }));
      receipts.next.push({ deviceId, done, fail });
      if (!receipts.writing) this.writeReceipts(alarmId, receipts);
    }).catch((err) =>
      this.log.warn({ err, alarmId, deviceId }, 'a push receipt is kept but not yet written; the release reads it'),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([written, new Promise((resolve) => (timer = setTimeout(resolve, RECEIPT_WAIT_MS)))]);
    clearTimeout(timer);
  }

  // The receipts gathered for the alarm, in one hold of its lock; then those that came meanwhile.
  private writeReceipts(alarmId: number, receipts: Receipts): void {
    receipts.writing = true;
    // A turn later: the receipts of requests answered together join the first write.
    setImmediate(async () => {
      const batch = receipts.next.splice(0);
      try {
        const devices = new Set(batch.map((r) => String(r.deviceId)));
        const found = await withClaimLock(this.locks, `alarm-deliveries:${alarmId}`, async () => {
          const doc = await this.deliveries.read(alarmId);
          if (!doc) return false;
          let changed = false;
          for (const item of doc.items) {
            if (item.channel !== 'app' || !devices.has(item.target) || item.status === 'delivered') continue;
            Object.assign(item, {
              status: 'delivered',
              claim: null,
              lastError: null,
              attempts: Math.max(item.attempts, 1),
            });
            skipWaiting(doc.items, item.recipientUserId, 'push confirmed');
            changed = true;
          }
          if (changed) await this.deliveries.write(doc);
          return changed;
        });
        if (found) this.hooks.changed(alarmId);
        for (const r of batch) r.done();
      } catch (err) {
        for (const r of batch) r.fail(err);
      }
      if (receipts.next.length > 0) this.writeReceipts(alarmId, receipts);
      else this.receipts.delete(alarmId);
    });
  }

  /** He answered the alarm: his deliveries that wait for his push's receipt are skipped. */
  skipAnswered(alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>, userId: number): Promise<void> {
    return skipAnswered({ models: this.models, locks: this.locks, log: this.log }, alarm, userId);
  }

  // A batch is claimed at once and sent `concurrency` items at a time. Every `checkpointMs` (well within
  // the claim) the results so far are recorded and the claims of the rest extended, under the lock: a
  // live process never loses its claim to another's sweep, and one that dies leaves little sent but
  // unrecorded. Items another process took over meanwhile (this one stalled) are not sent here, nor is
  // any try begun once this run's claim ran out.
  private async run(alarmId: number): Promise<void> {
    const checkpointMs = Math.min(this.options.claimMs / 3, CHECKPOINT_MS);
    while (!this.stopped) {
      const claim = randomBytes(6).toString('base64url');
      const batch = await this.claim(alarmId, claim);
      if (!batch) {
        if (this.building.delete(alarmId) && (await this.build(alarmId))) continue;
        return;
      }
      // The channels' flags are read before each batch's first try (the next batch's too), while no
      // checkpoint extends the claims: a read that stalls (the database slow) lets them run out for
      // another process to take over, and nothing is sent here once they did.
      const blocked = new Map<AlarmChannel, string | null>();
      const readFlags = async (items: DeliveryItem[]) => {
        const channels = [...new Set(items.map((item) => item.channel))];
        const flags = await Promise.all(
          channels.map((channel) =>
            this.hooks.blocked(channel, batch.organizationId).catch((err) => {
              // A flag that cannot be read does not hold an alarm back: sent as if not disabled.
              this.log.warn({ err, alarmId, channel }, 'a channel flag could not be read; sending');
              return null;
            }),
          ),
        );
        channels.forEach((channel, i) => blocked.set(channel, flags[i]));
      };
      await readFlags(batch.items);
      let queue = batch.items;
      let results = new Map<string, Change>();
      let until = batch.items[0].claim!.until.getTime();
      // The claims' time runs from the claim, not from the end of the flag read: the first checkpoint
      // comes checkpointMs after the claim, however long the read took.
      let since = until - this.options.claimMs;
      // A pool, not waves: each try holds its own slot, and the next item goes out as soon as any try
      // ends, so a push service that never answers costs its own deliveries their try's limit, not the
      // others (RELIABILITY.md "Web Push as a door to the service's network").
      const limit = this.options.concurrency ?? 10;
      const flying = new Map<string, Promise<void>>();
      // A try that threw (none should: attempt() notes its failures): the run ends after recording.
      const failures: unknown[] = [];
      const send = async (item: DeliveryItem) => {
        const reason = blocked.get(item.channel) ?? null;
        // Left claimed: whoever claims it once the claim has run out sends it (or reads its try).
        if (!reason && Date.now() >= until) return;
        // Into the results of the checkpoint to come, whichever that is when the try ends.
        // (`results` is read once the try ended: a checkpoint meanwhile started a new map.)
        const change = reason
          ? { status: 'failed' as const, lastError: reason, claim: null }
          : await this.attempt(alarmId, item);
        results.set(item.id, change);
      };
      // More due than one batch (or more stored since the claim): the next batch is claimed, under the
      // same claim, as soon as this one's last items are under way, so that the pool never runs dry
      // between batches while their slowest tries end. The claim runs beside the loop, which goes on
      // recording and extending the claims meanwhile (it waits for the alarm's lock, like a record).
      let more = batch.items.length >= BATCH;
      let refilling: Promise<void> | null = null;
      // Told when a try ends, or the next batch is in.
      let wake: (() => void) | null = null;
      const refill = async () => {
        const next = await this.claim(alarmId, claim, true);
        if (!next) return;
        await readFlags(next.items);
        // Items of this run's own that the claim found out of time (they are still this claim's) are
        // in flight or have their result waiting for the next record: not sent again.
        queue.push(...next.items.filter((item) => !flying.has(item.id) && !results.has(item.id)));
        more = next.items.length >= BATCH;
      };
      while ((queue.length > 0 || flying.size > 0 || refilling) && !this.stopped && failures.length === 0) {
        if (!refilling && queue.length === 0 && Date.now() < until && (more || this.again.delete(alarmId))) {
          more = false;
          refilling = refill()
            .catch((err: unknown) =>
              this.log.warn({ err, alarmId }, 'more alarm deliveries could not be claimed now; they follow this batch'),
            )
            .finally(() => {
              refilling = null;
              wake?.();
            });
        }
        while (queue.length > 0 && flying.size < limit) {
          const item = queue.shift()!;
          flying.set(
            item.id,
            send(item)
              .catch((err: unknown) => void failures.push(err))
              .finally(() => {
                flying.delete(item.id);
                wake?.();
              }),
          );
        }
        // Until a try ends or the checkpoint is due (one waiter and one timer: not a race over every try in
        // flight, nor a sleep aborted at every turn, each abort making an AbortError with its stack).
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, Math.max(0, checkpointMs - (Date.now() - since)));
        });
        wake = null;
        clearTimeout(timer);
        if (
          (queue.length > 0 || flying.size > 0 || refilling) &&
          failures.length === 0 &&
          Date.now() - since >= checkpointMs
        ) {
          // The tries in flight keep their claims, as the queued items do.
          const pending = new Set([...queue.map((item) => item.id), ...flying.keys()]);
          let kept: Set<string>;
          const [recorded, previous] = [results, since];
          results = new Map();
          since = Date.now();
          ({ kept, until } = await this.recordRetrying(alarmId, claim, recorded, pending, previous));
          // (Items the next batch brought meanwhile are not among those asked about.)
          queue = queue.filter((item) => kept.has(item.id) || !pending.has(item.id));
        }
      }
      // Stopping (or a try threw): the tries in flight end first, so that their results are recorded, and
      // what was not sent (the next batch's items claimed meanwhile too) goes back to the queue for any
      // process, at once.
      await refilling;
      await Promise.all(flying.values());
      await this.recordRetrying(alarmId, claim, results, new Set(), since, new Set(queue.map((item) => item.id)));
      if (failures.length > 0) throw failures[0];
    }
  }

  // A record that fails (the lock busy) is tried again while this run's claims hold: otherwise the
  // batch's unsent items wait for their claims to run out (its sent ones are known by their tries).
  private async recordRetrying(
    alarmId: number,
    claim: string,
    results: Map<string, Change>,
    pending: Set<string>,
    since: number,
    release = new Set<string>(),
  ): Promise<{ kept: Set<string>; until: number }> {
    // The notes of the tries recorded are written first: once a record makes the last items final, any
    // process may remove the alarm's tries, and a note written after that would stay.
    await this.tries.noted();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.record(alarmId, claim, results, pending, release);
      } catch (err) {
        if (Date.now() - since > (this.options.claimMs * 2) / 3 || attempt >= 5) throw err;
        this.log.warn({ err, alarmId, attempt }, 'alarm deliveries could not be recorded now; trying again');
        await sleep(200 * attempt);
      }
    }
  }

  // Under the lock: marks the due items (and those whose claim expired) as this run's, and brings the
  // outbox entry up to date; none due: the entry says when the next is, or goes when all are final.
  // Deliveries that were promised (open) but never stored are built here once their time is up.
  private async claim(
    alarmId: number,
    claim: string,
    /** The next batch of a run still sending: none due is all it says (the run's end brings the entry up to date). */
    next = false,
  ): Promise<{ organizationId: number; items: DeliveryItem[] } | null> {
    // Receipts applied or deliveries released with nothing to send: the wall and the room hear of it here.
    let announce = false;
    const batch = await withClaimLock(this.locks, `alarm-deliveries:${alarmId}`, async () => {
      const doc = await this.deliveries.read(alarmId);
      if (!doc) {
        // Built outside the lock (hundreds of members take a while), then claimed by the next run.
        const entry = await this.models.Outbox.findById(String(alarmId)).lean();
        if (entry && entry.dueAt.getTime() <= Date.now()) this.building.add(alarmId);
        return null;
      }
      const now = Date.now();
      // Receipts kept while the lock was busy count before anything is released or sent again.
      const confirmed = await this.applyReceipts(alarmId, doc.items, now);
      // Held deliveries whose time came are released (queued, due now) or skipped first.
      const released = await releaseDue(
        doc.items,
        now,
        (userIds) =>
          this.hooks.answered ? this.hooks.answered(alarmId, doc.organizationId, userIds) : Promise.resolve(new Set()),
        () => (this.hooks.ended ? this.hooks.ended(alarmId) : Promise.resolve(false)),
      );
      const items: DeliveryItem[] = [];
      for (const item of doc.items) {
        if (items.length >= BATCH) break;
        const due = item.status === 'queued' && item.nextAt.getTime() <= now;
        const orphaned = item.status === 'sending' && (item.claim?.until.getTime() ?? 0) <= now;
        if (!due && !orphaned) continue;
        item.status = 'sending';
        item.claim = { by: claim, until: new Date(now + this.options.claimMs) };
        items.push(item);
      }
      if (items.length > 0 || released || confirmed) await this.deliveries.write(doc);
      if (items.length > 0) return { organizationId: doc.organizationId, items };
      announce = released || confirmed;
      // Tries of this run are still under way: the alarm is not finished, whatever the items say (a receipt
      // may have come before its push's answer).
      if (next) return null;
      const open = doc.items.filter((item) => !FINAL.has(item.status));
      // Still being built: its builder's time, or, once that is up, the rest built here.
      const building = doc.buildingUntil?.getTime();
      if (building !== undefined && building <= now && !this.preparingIds.has(alarmId)) this.building.add(alarmId);
      if (open.length === 0 && building === undefined) {
        // Tries and replaced parts first: should this process die between, the entry brings the sweep
        // back to them.
        await this.tries.forget(alarmId, doc.items);
        await this.deliveries.forgetRetired(doc);
        await this.models.Outbox.deleteOne({ _id: String(alarmId) });
      } else {
        const next = Math.min(
          ...open.map((item) => (item.status === 'sending' ? item.claim!.until : item.nextAt).getTime()),
          building ?? Infinity,
        );
        await this.models.Outbox.updateOne(
          { _id: String(alarmId) },
          { $set: { organizationId: doc.organizationId, dueAt: new Date(next) } },
          { upsert: true },
        );
      }
      return null;
    });
    if (announce) this.hooks.changed(alarmId);
    return batch;
  }
  // Under the lock: pushes whose receipt was kept but not written (markDelivered found the lock busy) are
  // delivered, and their members' waiting deliveries skipped. Looked up only where it matters now: the
  // pushes of members whose waiting deliveries are due, and pushes due to be sent again (a retry, or the
  // claim of a process that died) — not the first sends of a new alarm.
  private async applyReceipts(alarmId: number, items: DeliveryItem[], now: number): Promise<boolean> {
    // Released as releaseDue releases them: due, or early once every push to the member failed (a push
    // service may have taken a try that timed out, and its receipt been kept).
    const pushFailed = new Map<number, boolean>();
    for (const i of items)
      if (i.channel === 'app')
        pushFailed.set(i.recipientUserId, (pushFailed.get(i.recipientUserId) ?? true) && i.status === 'failed');
    const releasing = new Set(
      items
        .filter(
          (i) => i.status === 'waiting' && (i.nextAt.getTime() <= now || (pushFailed.get(i.recipientUserId) ?? true)),
        )
        .map((i) => i.recipientUserId),
    );
    const again = (i: DeliveryItem) =>
      (i.status === 'queued' && i.attempts > 0 && i.nextAt.getTime() <= now) ||
      (i.status === 'sending' && (i.claim?.until.getTime() ?? 0) <= now);
    const pushes = items.filter(
      (i) => i.channel === 'app' && (again(i) || (releasing.has(i.recipientUserId) && i.status !== 'delivered')),
    );
    if (pushes.length === 0) return false;
    const kept = await this.tries.receipts(
      alarmId,
      pushes.map((i) => i.target),
    );
    for (const item of pushes) {
      if (!kept.has(item.target)) continue;
      Object.assign(item, { status: 'delivered', claim: null, lastError: null, attempts: Math.max(item.attempts, 1) });
      skipWaiting(items, item.recipientUserId, 'push confirmed');
    }
    return kept.size > 0;
  }

  // The deliveries of an alarm whose raise did not store them; false when it is gone (its entry too).
  private async build(alarmId: number): Promise<boolean> {
    const prepared = await this.hooks.prepare(alarmId);
    if (!prepared) {
      await this.models.Outbox.deleteOne({ _id: String(alarmId) });
      return false;
    }
    this.log.info(
      { alarmId, items: prepared.items.length },
      'alarm deliveries built by the sweep (their raise did not store them all)',
    );
    try {
      await this.deliveries.create(alarmId, { organizationId: prepared.organizationId }, prepared.items);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await this.complete(alarmId, prepared.items);
    }
    this.hooks.changed(alarmId);
    return true;
  }

  // Under the lock: deliveries whose builder stopped part-way get those it did not store (by channel and
  // target, numbered on), unless it came back and finished them meanwhile.
  private async complete(alarmId: number, items: DeliveryItem[]): Promise<void> {
    await withClaimLock(this.locks, `alarm-deliveries:${alarmId}`, async () => {
      const doc = await this.deliveries.read(alarmId);
      if (!doc?.buildingUntil || doc.buildingUntil.getTime() > Date.now()) return;
      const stored = new Set(doc.items.map((item) => `${item.channel}:${item.target}`));
      for (const item of items)
        if (!stored.has(`${item.channel}:${item.target}`))
          doc.items.push({ ...item, id: `${alarmId}-${doc.items.length}` });
      await this.deliveries.write(doc, null);
    });
  }

  // One try of one item: what changes in it; taken first, so that no other holder sends it again.
  private attempt(alarmId: number, item: DeliveryItem): Promise<Change> {
    const attempts = item.attempts + 1;
    const limitMs = Math.min(this.options.tryMs ?? this.options.claimMs / 3, this.options.claimMs / 3);
    return this.tries.once(
      { alarmId, item, n: attempts, limitMs },
      (signal) => this.senders[item.channel](item, alarmId, signal),
      (err, reason) => this.failure(alarmId, item, attempts, err, reason),
    );
  }

  // A failed try (`known`: why, when no error says it): queued for its retry, or failed after the last.
  private failure(alarmId: number, item: DeliveryItem, attempts: number, err: unknown, known?: string): Change {
    this.failedTries++;
    const reason =
      known ?? (err instanceof DeliveryError ? err.message : `unexpected error: ${(err as Error).message}`);
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const final = (err instanceof DeliveryError && err.final) || attempts > delays.length;
    this.log.warn(
      { alarmId, delivery: item.id, channel: item.channel, attempts, final, reason },
      'alarm delivery try failed',
    );
    if (final) return { status: 'failed', attempts, lastError: reason, claim: null };
    return {
      status: 'queued',
      attempts,
      lastError: reason,
      nextAt: new Date(Date.now() + delays[attempts - 1]),
      claim: null,
    };
  }

  // Under the lock: the results of this run's items, unless another process took an item over meanwhile
  // or the device already confirmed the push (either clears this run's claim).
  // `pending`: items of this batch not yet sent, whose claims are extended; answers those still this run's.
  // `release`: items of this batch given back unsent (the process stops).
  private async record(
    alarmId: number,
    claim: string,
    results: Map<string, Change>,
    pending: Set<string>,
    release: Set<string>,
  ): Promise<{ kept: Set<string>; until: number }> {
    const kept = await withClaimLock(this.locks, `alarm-deliveries:${alarmId}`, async () => {
      const doc = await this.deliveries.read(alarmId);
      const mine = new Set<string>();
      const until = new Date(Date.now() + this.options.claimMs);
      if (!doc) return { kept: mine, until: until.getTime() };
      for (const item of doc.items) {
        if (item.claim?.by !== claim) continue;
        const result = results.get(item.id);
        if (result) Object.assign(item, result);
        else if (release.has(item.id)) Object.assign(item, { status: 'queued', claim: null, nextAt: new Date() });
        else if (pending.has(item.id)) {
          item.claim = { by: claim, until };
          mine.add(item.id);
        }
      }
      await this.deliveries.write(doc);
      // Released (this process stops): due at once for any other process's next sweep, not when the
      // claim would have run out.
      if (release.size > 0)
        await this.models.Outbox.updateOne(
          { _id: String(alarmId) },
          { $set: { organizationId: doc.organizationId, dueAt: new Date() } },
          { upsert: true },
        );
      return { kept: mine, until: until.getTime() };
    });
    this.hooks.changed(alarmId);
    return kept;
  }
}
