// Which alarm a member's reply SMS or the keys of his alarm call answer (docs/alarms.md "Answering without
// the app"): the latest alarm an SMS or a call went to at his number, kept as it is sent, so that a reply
// is one exact read and never a scan. `_id` is the number as stored (0049…): a number an alarm of any of
// his organizations reached names him and that alarm. A reply answers it when it started within the
// reply window.
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import type { Database } from '../../db/database.js';
import { Recent } from '../../db/recent.js';
import { answerModels, type AnswerModels, type LatestAlarmDoc } from './answer-models.js';
import type { AlarmDoc, DeliveryItem } from './models.js';
import { isDuplicateKey } from '../../db/errors.js';
import { itemErrors, WriteBatch } from '../../db/write-batch.js';

/** The claim lock of a number's entries (server/db/claim-lock.ts). */
const lockKey = (number: string) => `alarm-latest:${number}`;

/** The entry that marks a number as reaching several members within the reply window. */
const sharedKey = (number: string) => `${number}:shared`;

/** Replacements of notes written at once, each its own command. */
const REPLACED_AT_ONCE = 8;

/** A reply answers an alarm that started at most this long ago. */
export const REPLY_WINDOW_MS = 2 * 3_600_000;

/** The alarm a member's reply answers. */
export interface MemberAlarm {
  userId: number;
  alarmId: number;
  organizationId: number;
}

/** The latest alarm at each number. */
export class LatestAlarms {
  private readonly models: AnswerModels;
  private readonly locks: Model<LockDoc>;
  // The latest alarm this process noted for each member at each number: his retries write nothing, his
  // older alarm's late first try does not replace a later one.
  private readonly noted: Recent<string, number>;
  // The notes of SMS and calls sent in the same moment are written together (write-batch.ts); each
  // answers whether it was taken.
  private readonly upserts: WriteBatch<LatestAlarmDoc>;

  constructor(db: Database) {
    this.models = answerModels(db);
    this.locks = db.system.Lock;
    this.noted = new Recent(10_000, db.generation);
    this.upserts = new WriteBatch((docs) => this.note(docs));
  }

  // A number's first note is inserted. A number noted before is changed only under its lock (the claim
  // lock's key and documents, server/db/claim-lock.ts), taken for the batch's numbers in one insert: read,
  // and replaced when it names an earlier alarm of the same member. Reads and writes by exact _id (a
  // filter on _id and another field reads the whole collection on the embedded engine, once per note).
  // Another member's entry answers a duplicate key: contested() decides, under the same lock.
  private async note(docs: LatestAlarmDoc[]): Promise<Array<{ code?: number; message?: string } | null>> {
    let errors: Array<{ code?: number; message?: string } | null>;
    try {
      await this.models.LatestAlarm.insertMany(docs, { ordered: false, lean: true });
      return docs.map(() => null);
    } catch (err) {
      errors = itemErrors(err, docs.length);
    }
    // A number twice in the batch (two members sharing it): the second after the first's lock is gone.
    const numbers = new Set<string>();
    const noted: LatestAlarmDoc[] = [];
    const again: LatestAlarmDoc[] = [];
    for (const [i, doc] of docs.entries()) {
      if (!isDuplicateKey(errors[i])) continue;
      (numbers.has(doc._id) ? again : noted).push(doc);
      numbers.add(doc._id);
    }
    const owner = randomUUID();
    const lockIds = noted.map((doc) => `lock:${lockKey(doc._id)}`);
    let refused: Array<{ code?: number } | null> = noted.map(() => null);
    try {
      await this.locks.insertMany(
        lockIds.map((_id) => ({ _id, at: new Date(), owner })),
        { ordered: false, lean: true },
      );
    } catch (err) {
      refused = itemErrors(err, noted.length);
    }
    const answers = new Map<LatestAlarmDoc, { code?: number; message?: string } | null>();
    try {
      const later: LatestAlarmDoc[] = [];
      await Promise.all(
        noted.map(async (doc, i) => {
          // Its lock held by another: taken in turn, and written at once.
          if (refused[i])
            answers.set(doc, await withClaimLock(this.locks, lockKey(doc._id), () => this.replace(doc, null)));
          else answers.set(doc, await this.replace(doc, later));
        }),
      );
      // The replacements of the numbers this batch holds: a command each, a few at a time. Never one
      // update command of many statements: the embedded engine keeps each statement's reading open
      // until the command ends, and one of 100 held all its connections and waited for another
      // forever, and every query of the service with it (docs/storage.md "Rules for a model").
      // Each group settles whole before a failure ends the batch: no write of it may still be on its way
      // when the locks are released below (it could land over a newer note another process wrote).
      for (let i = 0; i < later.length; i += REPLACED_AT_ONCE) {
        const settled = await Promise.allSettled(
          later
            .slice(i, i + REPLACED_AT_ONCE)
            .map(({ _id, ...set }) => this.models.LatestAlarm.updateOne({ _id }, { $set: set })),
        );
        const failure = settled.find((result) => result.status === 'rejected');
        if (failure) throw failure.reason;
      }
    } finally {
      const mine = lockIds.filter((_, i) => !refused[i]);
      if (mine.length > 0)
        await this.locks
          .bulkWrite(
            mine.map((_id) => ({ deleteOne: { filter: { _id, owner } } })),
            { ordered: false },
          )
          .catch(() => undefined);
    }
    for (const doc of again)
      answers.set(doc, await withClaimLock(this.locks, lockKey(doc._id), () => this.replace(doc, null)));
    return docs.map((doc, i) => (isDuplicateKey(errors[i]) ? answers.get(doc)! : errors[i]));
  }

  // Under the number's lock: his earlier alarm there is replaced by this one (put in `later`, written
  // while the lock holds, or written now without it); another member's entry is a duplicate key (contested()); an entry swept meanwhile is inserted again. (A first note
  // inserted without the lock can land only on a number with no entry: the hourly sweep removing this
  // one between the read and the write, and another member's first note in that moment, is the one way
  // to overwrite.)
  private async replace(
    doc: LatestAlarmDoc,
    later: LatestAlarmDoc[] | null,
  ): Promise<{ code?: number; message?: string } | null> {
    const entry = await this.models.LatestAlarm.findById(doc._id).lean();
    if (entry && entry.userId !== doc.userId) return { code: 11000, message: 'another member at the number' };
    if (!entry) {
      try {
        await this.models.LatestAlarm.create(doc);
      } catch (err) {
        if (isDuplicateKey(err)) return { code: 11000, message: 'another member at the number' };
        throw err;
      }
    } else if (entry.alarmId < doc.alarmId) {
      if (later) later.push(doc);
      else {
        const { _id, ...set } = doc;
        await this.models.LatestAlarm.updateOne({ _id }, { $set: set });
      }
    }
    return null;
  }

  /**
   * An SMS or a call of the alarm is being sent to its recipient's number: a reply from there answers this
   * alarm. Written at the alarm's first try to the number, unless a later alarm of the same member is
   * noted there. A number that reaches two members with alarms within the reply window is marked shared
   * for that window: a reply from it could be either's and answers nothing (docs/alarms.md "Answering
   * without the app").
   */
  async sending(
    item: Pick<DeliveryItem, 'channel' | 'recipientUserId' | 'target'>,
    alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>,
  ): Promise<void> {
    if (item.channel === 'app') return;
    const seen = `${item.target}:${item.recipientUserId}`;
    if ((this.noted.get(seen) ?? 0) >= alarm.id) return;
    this.noted.set(seen, alarm.id);
    const doc = {
      _id: item.target,
      userId: item.recipientUserId,
      alarmId: alarm.id,
      organizationId: alarm.organizationId,
      startedAt: alarm.startedAt,
      at: new Date(),
    };
    try {
      await this.upserts.add(doc).catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
        return this.contested(doc);
      });
    } catch (err) {
      // Not noted: the next try notes it.
      if (this.noted.get(seen) === alarm.id) this.noted.delete(seen);
      throw err;
    }
  }

  // The number's entry is another member's, or names a later alarm of this one (under its lock).
  private contested(doc: LatestAlarmDoc): Promise<void> {
    return withClaimLock(this.locks, lockKey(doc._id), () => this.contestedLocked(doc));
  }

  private async contestedLocked(doc: LatestAlarmDoc): Promise<void> {
    const held = await this.models.LatestAlarm.findById(doc._id).lean();
    if (!held) {
      // Swept in between: this note is the number's first again.
      await this.models.LatestAlarm.updateOne({ _id: doc._id }, { $set: doc }, { upsert: true });
      return;
    }
    if (held.userId === doc.userId) return;
    if (held.startedAt.getTime() < doc.startedAt.getTime() - REPLY_WINDOW_MS) {
      // The other member's alarm there is past answering by reply: the number names this one now.
      await this.models.LatestAlarm.updateOne({ _id: doc._id }, { $set: doc });
      return;
    }
    const startedAt = new Date(Math.max(held.startedAt.getTime(), doc.startedAt.getTime()));
    await this.models.LatestAlarm.updateOne(
      { _id: sharedKey(doc._id) },
      { $set: { userId: 0, alarmId: 0, organizationId: 0, startedAt, at: new Date() } },
      { upsert: true },
    );
  }

  /**
   * The alarm a reply from this number (as stored: 0049…) answers; null when none started within the
   * window, 'shared' when the number reached two members within it.
   */
  async ofNumber(number: string, now = Date.now()): Promise<MemberAlarm | 'shared' | null> {
    const [latest, shared] = await Promise.all([
      this.models.LatestAlarm.findById(number).lean(),
      this.models.LatestAlarm.findById(sharedKey(number)).lean(),
    ]);
    if (shared && shared.startedAt.getTime() >= now - REPLY_WINDOW_MS) return 'shared';
    if (!latest || latest.startedAt.getTime() < now - REPLY_WINDOW_MS) return null;
    return { userId: latest.userId, alarmId: latest.alarmId, organizationId: latest.organizationId };
  }

  /** Removes the entries no reply can use any more (the hourly sweep); how many went. */
  async sweep(now = Date.now()): Promise<number> {
    const { deletedCount } = await this.models.LatestAlarm.deleteMany({
      startedAt: { $lt: new Date(now - REPLY_WINDOW_MS) },
    });
    return deletedCount;
  }
}
