// Which alarm a member's reply SMS or the keys of his alarm call answer (docs/alarms.md "Answering without
// the app"): the latest alarm an SMS or a call went to at his number, when it started within the reply
// window and no other member was reached there within the window before it. Sending an alarm only
// inserts: a note per number and alarm (`alarm_reached`, "<number>@<alarmId>"), once a week per number
// the organizations it came from (`alarm_numbers`, "<number>@w<week>"), once per alarm and process the
// alarm in its organization's list of recent alarms (`alarm_recent`, under the organization's lock). A
// reply reads them back by exact _id: the number's organizations, their recent alarms, the number's note
// of each. No note is ever rewritten, so an alarm's notes cost what its first did (docs/storage.md "Rules
// for a model": an update costs the embedded engine as much as dozens of documents inserted in a batch).
import type { Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { Recent } from '../../db/recent.js';
import { insertEach, WriteBatch } from '../../db/write-batch.js';
import { answerModels, type AnswerModels, type ReachedDoc, type ReachedNumberDoc } from './answer-models.js';
import type { AlarmDoc, DeliveryItem } from './models.js';

/** A reply answers an alarm that started at most this long ago. */
export const REPLY_WINDOW_MS = 2 * 3_600_000;

/**
 * Notes and lists are kept for twice the window: a number that reached another member within the window
 * before the latest alarm there is shared, even once that member's alarm is past answering.
 */
const KEPT_MS = 2 * REPLY_WINDOW_MS;

/** The recent alarms an organization's list keeps, newest first: a reply looks among these. */
const RECENT_ALARMS = 100;

/** A number's organizations are kept per week (`<number>@w<week>`): written once a week, never changed but to add one. */
const WEEK_MS = 7 * 24 * 3_600_000;
const weekOf = (ms: number) => Math.floor(ms / WEEK_MS);

/** A failed listing of an alarm is tried again this much later, doubling, this many times. */
const LIST_RETRY_MS = 2_000;
const LIST_RETRIES = 6;

/** The alarm a member's reply answers. */
export interface MemberAlarm {
  userId: number;
  alarmId: number;
  organizationId: number;
}

const reachedKey = (number: string, alarmId: number) => `${number}@${alarmId}`;
const numberKey = (number: string, week: number) => `${number}@w${week}`;
/** The claim lock of an organization's recent list (server/db/claim-lock.ts). */
const listLock = (organizationId: string) => `alarm-recent:${organizationId}`;
/** Later first: by start, then by ID. */
const later = (a: ReachedDoc, b: ReachedDoc) => b.startedAt.getTime() - a.startedAt.getTime() || b.alarmId - a.alarmId;

/** The notes of the numbers an alarm's SMS and calls went to, and what a reply from one answers. */
export class LatestAlarms {
  private readonly models: AnswerModels;
  private readonly locks: Model<LockDoc>;
  // What this process stores or stored: a retry, or the call to the number the SMS went to, writes nothing.
  private readonly noted: Recent<string, Promise<void>>;
  private readonly listed: Recent<string, Promise<void>>;
  private readonly confirmed: Recent<string, true>;
  // The notes and numbers of SMS and calls sent in the same moment are inserted together (write-batch.ts).
  private readonly notes: WriteBatch<ReachedDoc>;
  private readonly numbers: WriteBatch<ReachedNumberDoc>;

  constructor(db: Database) {
    this.models = answerModels(db);
    this.locks = db.system.Lock;
    this.noted = new Recent(10_000, db.generation);
    this.listed = new Recent(1_000, db.generation);
    this.confirmed = new Recent(10_000, db.generation);
    this.notes = new WriteBatch(insertEach(this.models.Reached));
    this.numbers = new WriteBatch(insertEach(this.models.ReachedNumber));
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
      // Swept in between (an alarm older than twice the window): written again, as the first.
      await this.models.Reached.updateOne({ _id: note._id }, { $set: note }, { upsert: true });
      return;
    }
    if (held.userId !== note.userId && !held.shared)
      await this.models.Reached.updateOne({ _id: note._id }, { $set: { shared: true } });
  }

  // The number names the alarm's organization this week: inserted with the week's first note there;
  // another organization added under the number's lock (a locked writer never overwrites an insert: it
  // writes only where the week's entry exists). The sweep removes only weeks no one writes any more.
  private async number(number: string, organizationId: number): Promise<void> {
    const week = weekOf(Date.now());
    const _id = numberKey(number, week);
    const key = `${_id}:${organizationId}`;
    if (this.confirmed.get(key)) return;
    const has = (doc: ReachedNumberDoc | null) => Boolean(doc?.organizationIds.includes(organizationId));
    try {
      await this.numbers.add({ _id, organizationIds: [organizationId], week });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const { ReachedNumber } = this.models;
      if (!has(await ReachedNumber.findById(_id).lean()))
        await withClaimLock(this.locks, `alarm-number:${_id}`, async () => {
          let doc = await ReachedNumber.findById(_id).lean();
          if (has(doc)) return;
          if (!doc) {
            try {
              await ReachedNumber.create({ _id, organizationIds: [organizationId], week });
              return;
            } catch (err) {
              if (!isDuplicateKey(err)) throw err;
              doc = await ReachedNumber.findById(_id).lean();
            }
          }
          const organizationIds = [...new Set([...(doc?.organizationIds ?? []), organizationId])];
          await ReachedNumber.updateOne({ _id }, { $set: { organizationIds } });
        });
    }
    this.confirmed.set(key, true);
  }

  // The alarm in its organization's recent list, once per alarm and process (under the organization's
  // lock when it is missing): a handful of commands per alarm, not per number. A listing that failed is
  // tried again apart from the tries (a sent SMS has no next try to do it) while its replies may come.
  private list(alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>, attempt = 0): Promise<void> {
    const key = `${alarm.organizationId}:${alarm.id}`;
    let listing = this.listed.get(key);
    if (!listing) {
      listing = this.listNow(alarm);
      listing.catch(() => {
        this.listed.delete(key);
        if (attempt >= LIST_RETRIES || Date.now() - alarm.startedAt.getTime() > REPLY_WINDOW_MS) return;
        setTimeout(
          () => void this.list(alarm, attempt + 1).catch(() => undefined),
          LIST_RETRY_MS * 2 ** attempt,
        ).unref();
      });
      this.listed.set(key, listing);
    }
    return listing;
  }

  private async listNow(alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>): Promise<void> {
    const _id = String(alarm.organizationId);
    const has = (doc: { alarms: Array<{ id: number }> } | null) => Boolean(doc?.alarms.some((a) => a.id === alarm.id));
    if (has(await this.models.RecentAlarms.findById(_id).lean())) return;
    await withClaimLock(this.locks, listLock(_id), async () => {
      const doc = await this.models.RecentAlarms.findById(_id).lean();
      if (has(doc)) return;
      const since = Date.now() - KEPT_MS;
      const alarms = [...(doc?.alarms ?? []).filter((a) => a.startedAt.getTime() >= since), alarm]
        .map(({ id, startedAt }) => ({ id, startedAt }))
        .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || b.id - a.id)
        .slice(0, RECENT_ALARMS);
      const latestAt = new Date(Math.max(...alarms.map((a) => a.startedAt.getTime())));
      await this.models.RecentAlarms.updateOne({ _id }, { $set: { alarms, latestAt } }, { upsert: true });
    });
  }

  /**
   * The alarm a reply from this number (as stored: 0049…) answers: the latest alarm of the window whose
   * SMS or call went there; null when none did; 'shared' when an alarm that went to another member there
   * started within the window before it (or the alarm itself went to two members there).
   */
  async ofNumber(number: string, now = Date.now()): Promise<MemberAlarm | 'shared' | null> {
    const { ReachedNumber, RecentAlarms, Reached } = this.models;
    const weeks = [...new Set([weekOf(now), weekOf(now - KEPT_MS)])];
    const entries = await Promise.all(weeks.map((week) => ReachedNumber.findById(numberKey(number, week)).lean()));
    const organizationIds = [...new Set(entries.flatMap((entry) => entry?.organizationIds ?? []))];
    if (organizationIds.length === 0) return null;
    const lists = await Promise.all(organizationIds.map((id) => RecentAlarms.findById(String(id)).lean()));
    const alarmIds = new Set(
      lists
        .flatMap((doc) => doc?.alarms ?? [])
        .filter((a) => a.startedAt.getTime() >= now - KEPT_MS)
        .map((a) => a.id),
    );
    const read = await Promise.all(
      [...alarmIds].map((id) => Reached.findById(reachedKey(number, id)).lean<ReachedDoc>()),
    );
    const notes = read.filter((note): note is ReachedDoc => note !== null).sort(later);
    const latest = notes[0];
    if (!latest || latest.startedAt.getTime() < now - REPLY_WINDOW_MS) return null;
    const before = latest.startedAt.getTime() - REPLY_WINDOW_MS;
    const others = notes.some(
      (note) => note.startedAt.getTime() >= before && (note.shared || note.userId !== latest.userId),
    );
    if (others) return 'shared';
    return { userId: latest.userId, alarmId: latest.alarmId, organizationId: latest.organizationId };
  }

  /** Removes what no reply can use any more (the hourly sweep); how many went. */
  async sweep(now = Date.now()): Promise<number> {
    const past = new Date(now - KEPT_MS);
    const notes = await this.models.Reached.deleteMany({ startedAt: { $lt: past } });
    // Weeks before the last are neither written nor read any more.
    const numbers = await this.models.ReachedNumber.deleteMany({ week: { $lt: weekOf(now - KEPT_MS) } });
    // A list is removed under the lock its writers take, after a look at it there: a list given a new
    // alarm in the same moment stays.
    const { RecentAlarms } = this.models;
    let lists = 0;
    for (const { _id } of await RecentAlarms.find({ latestAt: { $lt: past } }, { _id: 1 }).lean())
      lists += await withClaimLock(this.locks, listLock(_id), async () => {
        const doc = await RecentAlarms.findById(_id).lean();
        return doc && doc.latestAt < past ? (await RecentAlarms.deleteOne({ _id })).deletedCount : 0;
      });
    return notes.deletedCount + numbers.deletedCount + lists;
  }
}
