// Which alarm a member's reply SMS or the keys of his alarm call answer (docs/alarms.md "Answering without
// the app"): the latest alarm an SMS or a call went to at his number, when it started within the reply
// window. Sending an alarm only inserts: a note per number and alarm (`alarm_reached`, "<number>@<alarmId>"),
// once per organization and number the organization it came from (`alarm_numbers`), once per alarm the
// alarm in its organization's list of recent alarms (`alarm_recent`). A reply reads them back by exact
// _id: the number's organizations, their recent alarms, the number's note of each. No note is ever
// rewritten, so an alarm's notes cost what its first did (docs/storage.md "Rules for a model": an update
// costs the embedded engine as much as dozens of documents inserted in a batch).
import type { Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { Recent } from '../../db/recent.js';
import { itemErrors, WriteBatch } from '../../db/write-batch.js';
import { answerModels, type AnswerModels, type ReachedDoc, type ReachedNumberDoc } from './answer-models.js';
import type { AlarmDoc, DeliveryItem } from './models.js';

/** A reply answers an alarm that started at most this long ago. */
export const REPLY_WINDOW_MS = 2 * 3_600_000;

/** The recent alarms an organization's list keeps, newest first: a reply looks among these. */
export const RECENT_ALARMS = 100;

/** A process takes a number's organizations as stored for this long, then reads them again. */
const NUMBER_CONFIRMED_MS = 24 * 3_600_000;

/** A number no alarm went to for this long leaves (well past any process's confirmation). */
export const NUMBER_KEPT_MS = 7 * 24 * 3_600_000;

/** The alarm a member's reply answers. */
export interface MemberAlarm {
  userId: number;
  alarmId: number;
  organizationId: number;
}

const reachedKey = (number: string, alarmId: number) => `${number}@${alarmId}`;

/** The notes of the numbers an alarm's SMS and calls went to, and what a reply from one answers. */
export class LatestAlarms {
  private readonly models: AnswerModels;
  private readonly locks: Model<LockDoc>;
  // What this process stores or stored: a retry, or the call to the number the SMS went to, writes nothing.
  private readonly noted: Recent<string, Promise<void>>;
  private readonly listed: Recent<string, Promise<void>>;
  private readonly confirmed: Recent<string, number>;
  // The notes and numbers of SMS and calls sent in the same moment are inserted together (write-batch.ts).
  private readonly notes: WriteBatch<ReachedDoc>;
  private readonly numbers: WriteBatch<ReachedNumberDoc>;

  constructor(db: Database) {
    this.models = answerModels(db);
    this.locks = db.system.Lock;
    this.noted = new Recent(10_000, db.generation);
    this.listed = new Recent(1_000, db.generation);
    this.confirmed = new Recent(10_000, db.generation);
    const insert =
      <T>(model: Model<T>) =>
      async (docs: T[]) => {
        try {
          await model.insertMany(docs, { ordered: false, lean: true });
          return docs.map(() => null);
        } catch (err) {
          return itemErrors(err, docs.length);
        }
      };
    this.notes = new WriteBatch(insert(this.models.Reached));
    this.numbers = new WriteBatch(insert(this.models.ReachedNumber));
  }

  /**
   * An SMS or a call of the alarm is being sent to its recipient's number: a reply from there may answer
   * this alarm (the latest there within the window, unless it reached two members: docs/alarms.md
   * "Answering without the app"). Resolves once a reply would find it.
   */
  async sending(
    item: Pick<DeliveryItem, 'channel' | 'recipientUserId' | 'target'>,
    alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>,
  ): Promise<void> {
    if (item.channel === 'app') return;
    const seen = `${reachedKey(item.target, alarm.id)}:${item.recipientUserId}`;
    let noting = this.noted.get(seen);
    if (!noting) {
      noting = this.note(item, alarm);
      // Not kept: the next try notes it.
      noting.catch(() => this.noted.delete(seen));
      this.noted.set(seen, noting);
    }
    return noting;
  }

  private async note(
    item: Pick<DeliveryItem, 'recipientUserId' | 'target'>,
    alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>,
  ): Promise<void> {
    const note: ReachedDoc = {
      _id: reachedKey(item.target, alarm.id),
      alarmId: alarm.id,
      organizationId: alarm.organizationId,
      userId: item.recipientUserId,
      startedAt: alarm.startedAt,
    };
    await Promise.all([
      this.notes.add(note).catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
        return this.again(note);
      }),
      this.number(item.target, alarm.organizationId),
      this.list(alarm),
    ]);
  }

  // The number's note of this alarm is there already: the same member's (nothing to do), or another's
  // (the number is shared for this alarm: a constant set, so two such writers agree).
  private async again(note: ReachedDoc): Promise<void> {
    const held = await this.models.Reached.findById(note._id).lean();
    if (!held) {
      // Swept in between (an alarm older than the window): written again, as the first.
      await this.models.Reached.updateOne({ _id: note._id }, { $set: note }, { upsert: true });
      return;
    }
    if (held.userId !== note.userId && !held.shared)
      await this.models.Reached.updateOne({ _id: note._id }, { $set: { shared: true } });
  }

  // The number names the alarm's organization: inserted with the first; another organization added under
  // the number's lock; confirmed once a day per process (the sweep keeps it a week past that).
  private async number(number: string, organizationId: number): Promise<void> {
    const key = `${number}:${organizationId}`;
    const at = this.confirmed.get(key);
    if (at !== undefined && Date.now() - at < NUMBER_CONFIRMED_MS) return;
    const now = new Date();
    try {
      await this.numbers.add({ _id: number, organizationIds: [organizationId], at: now });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const held = await this.models.ReachedNumber.findById(number).lean();
      if (!this.current(held, organizationId, now))
        await withClaimLock(this.locks, `alarm-number:${number}`, async () => {
          const doc = await this.models.ReachedNumber.findById(number).lean();
          if (this.current(doc, organizationId, now)) return;
          const organizationIds = [...new Set([...(doc?.organizationIds ?? []), organizationId])];
          await this.models.ReachedNumber.updateOne(
            { _id: number },
            { $set: { organizationIds, at: now } },
            { upsert: true },
          );
        });
    }
    this.confirmed.set(key, now.getTime());
  }

  private current(doc: ReachedNumberDoc | null, organizationId: number, now: Date): boolean {
    return Boolean(
      doc && doc.organizationIds.includes(organizationId) && doc.at.getTime() > now.getTime() - NUMBER_CONFIRMED_MS,
    );
  }

  // The alarm in its organization's recent list, once per alarm and process (under the organization's
  // lock when it is missing): a handful of commands per alarm, not per number.
  private list(alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>): Promise<void> {
    const key = `${alarm.organizationId}:${alarm.id}`;
    let listing = this.listed.get(key);
    if (!listing) {
      listing = this.listNow(alarm);
      listing.catch(() => this.listed.delete(key));
      this.listed.set(key, listing);
    }
    return listing;
  }

  private async listNow(alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>): Promise<void> {
    const _id = String(alarm.organizationId);
    const has = (doc: { alarms: Array<{ id: number }> } | null) => Boolean(doc?.alarms.some((a) => a.id === alarm.id));
    if (has(await this.models.RecentAlarms.findById(_id).lean())) return;
    await withClaimLock(this.locks, `alarm-recent:${_id}`, async () => {
      const doc = await this.models.RecentAlarms.findById(_id).lean();
      if (has(doc)) return;
      const since = Date.now() - REPLY_WINDOW_MS;
      const alarms = [...(doc?.alarms ?? []).filter((a) => a.startedAt.getTime() >= since), alarm]
        .map(({ id, startedAt }) => ({ id, startedAt }))
        .sort((a, b) => b.id - a.id)
        .slice(0, RECENT_ALARMS);
      const latestAt = new Date(Math.max(...alarms.map((a) => a.startedAt.getTime())));
      await this.models.RecentAlarms.updateOne({ _id }, { $set: { alarms, latestAt } }, { upsert: true });
    });
  }

  /**
   * The alarm a reply from this number (as stored: 0049…) answers: the latest of the window's alarms
   * whose SMS or call went there; null when none did, 'shared' when they went to two members.
   */
  async ofNumber(number: string, now = Date.now()): Promise<MemberAlarm | 'shared' | null> {
    const since = now - REPLY_WINDOW_MS;
    const held = await this.models.ReachedNumber.findById(number).lean();
    if (!held) return null;
    const lists = await Promise.all(
      held.organizationIds.map((id) => this.models.RecentAlarms.findById(String(id)).lean()),
    );
    const candidates = lists.flatMap((doc) => doc?.alarms ?? []).filter((a) => a.startedAt.getTime() >= since);
    const read = await Promise.all(
      candidates.map((a) => this.models.Reached.findById(reachedKey(number, a.id)).lean<ReachedDoc>()),
    );
    const notes = read.filter((note): note is ReachedDoc => note !== null && note.startedAt.getTime() >= since);
    if (notes.length === 0) return null;
    if (notes.some((note) => note.shared) || new Set(notes.map((note) => note.userId)).size > 1) return 'shared';
    const latest = notes.reduce((a, b) => (b.alarmId > a.alarmId ? b : a));
    return { userId: latest.userId, alarmId: latest.alarmId, organizationId: latest.organizationId };
  }

  /** Removes what no reply can use any more (the hourly sweep); how many went. */
  async sweep(now = Date.now()): Promise<number> {
    const past = new Date(now - REPLY_WINDOW_MS);
    const kept = new Date(now - NUMBER_KEPT_MS);
    const notes = await this.models.Reached.deleteMany({ startedAt: { $lt: past } });
    // A list or a number is removed under the lock its writers take, after a look at it there: a list
    // given a new alarm, or a number confirmed, in the same moment stays.
    const lists = await this.sweepLocked(
      this.models.RecentAlarms,
      { latestAt: { $lt: past } },
      (_id) => `alarm-recent:${_id}`,
      (doc) => doc.latestAt < past,
    );
    const numbers = await this.sweepLocked(
      this.models.ReachedNumber,
      { at: { $lt: kept } },
      (_id) => `alarm-number:${_id}`,
      (doc) => doc.at < kept,
    );
    return notes.deletedCount + lists + numbers;
  }

  private async sweepLocked<T extends { _id: string }>(
    model: Model<T>,
    filter: Record<string, unknown>,
    lockKey: (id: string) => string,
    stillOld: (doc: T) => boolean,
  ): Promise<number> {
    const old = await model.find(filter, { _id: 1 }).lean<Array<{ _id: string }>>();
    let removed = 0;
    for (const { _id } of old)
      removed += await withClaimLock(this.locks, lockKey(_id), async () => {
        const doc = await model.findById(_id).lean<T>();
        if (!doc || !stillOld(doc)) return 0;
        return (await model.deleteOne({ _id })).deletedCount;
      });
    return removed;
  }
}
