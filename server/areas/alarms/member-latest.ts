// Which alarm a member's reply SMS or the keys of his alarm call answer (docs/alarms.md "Answering without
// the app"): the latest alarm an SMS or a call went to at his number, kept as it is sent, so that a reply
// is one exact read and never a scan. `_id` is the number as stored (0049…): a number an alarm of any of
// his organizations reached names him and that alarm. A reply answers it when it started within the
// reply window.
import type { Database } from '../../db/database.js';
import { Recent } from '../../db/recent.js';
import { answerModels, type AnswerModels, type LatestAlarmDoc } from './answer-models.js';
import type { AlarmDoc, DeliveryItem } from './models.js';
import { isDuplicateKey } from '../../db/errors.js';
import { itemErrors, WriteBatch } from '../../db/write-batch.js';

/** The entry that marks a number as reaching several members within the reply window. */
const sharedKey = (number: string) => `${number}:shared`;

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
  // The latest alarm this process noted for each member at each number: his retries write nothing, his
  // older alarm's late first try does not replace a later one.
  private readonly noted: Recent<string, number>;
  // The notes of SMS and calls sent in the same moment are written together (write-batch.ts); each
  // answers whether it was taken.
  private readonly upserts: WriteBatch<LatestAlarmDoc>;

  constructor(db: Database) {
    this.models = answerModels(db);
    this.noted = new Recent(10_000, db.generation);
    this.upserts = new WriteBatch((docs) => this.note(docs));
  }

  // A number's first note is inserted; a number noted before is read, and its note replaced when it
  // names an earlier alarm of the same member. Exact reads and writes by _id only: a filter on _id and
  // another field reads the whole collection on the embedded engine (docs/storage.md), once per note.
  // Another member's entry under the number answers a duplicate key (contested()).
  private async note(docs: LatestAlarmDoc[]): Promise<Array<{ code?: number; message?: string } | null>> {
    let errors: Array<{ code?: number; message?: string } | null>;
    try {
      await this.models.LatestAlarm.insertMany(docs, { ordered: false, lean: true });
      return docs.map(() => null);
    } catch (err) {
      errors = itemErrors(err, docs.length);
    }
    const noted = docs.map((doc, i) => (isDuplicateKey(errors[i]) ? doc : null));
    const held = await Promise.all(
      noted.map((doc) => (doc ? this.models.LatestAlarm.findById(doc._id).lean() : Promise.resolve(null))),
    );
    const replace: LatestAlarmDoc[] = [];
    const answers = noted.map((doc, i) => {
      if (!doc) return errors[i];
      const entry = held[i];
      if (entry && entry.userId !== doc.userId) return errors[i];
      // His earlier alarm there (or the entry swept in between): this one is the number's now.
      if (!entry || entry.alarmId < doc.alarmId) replace.push(doc);
      return null;
    });
    if (replace.length > 0)
      await this.models.LatestAlarm.bulkWrite(
        replace.map(({ _id, ...set }) => ({ updateOne: { filter: { _id }, update: { $set: set }, upsert: true } })),
        { ordered: false },
      );
    return answers;
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

  // The number's entry is another member's, or names a later alarm of this one.
  private async contested(doc: LatestAlarmDoc): Promise<void> {
    const held = await this.models.LatestAlarm.findById(doc._id).lean();
    if (!held) {
      // Swept in between: this note is the number's first again.
      await this.models.LatestAlarm.updateOne({ _id: doc._id }, { $set: doc }, { upsert: true });
      return;
    }
    if (held.userId === doc.userId) return;
    if (held.startedAt.getTime() < doc.startedAt.getTime() - REPLY_WINDOW_MS) {
      // The other member's alarm there is past answering by reply: the number names this one now.
      const { matchedCount } = await this.models.LatestAlarm.updateOne(
        { _id: doc._id, userId: held.userId, alarmId: held.alarmId },
        { $set: doc },
      );
      if (matchedCount === 1) return;
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
