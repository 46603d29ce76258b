// Where an alarm, its deliveries and its answers are read (docs/alarms.md): an alarm lives in its
// organization's collection, found by its ID through alarm_ids; its deliveries in a head and its parts
// (delivery-store.ts); the answers per organization. Every part of the area reads through here.
import type { Actor } from '../../identity/actor.js';
import { canRead } from '../../identity/policy.js';
import { notFound } from '../../errors.js';
import type { Database } from '../../db/database.js';
import { Recent } from '../../db/recent.js';
import { alarmModels, type AlarmDoc, type AlarmModels, type AnswerDoc, type DeliveriesDoc } from './models.js';
import { deliveriesOf } from './delivery-store.js';

/**
 * The claim lock every write of an alarm's own document takes (AL4's end, an incident's merge): on the
 * embedded engine an update writes back the whole document it read (docs/storage.md "Rules for a model").
 */
export const alarmLockKey = (alarmId: number) => `alarm:${alarmId}`;

/** An alarm's record with what was sent and answered for it. */
export class AlarmRecords {
  readonly models: AlarmModels;
  // The alarm's record for deliveries: it never changes where it matters to them (its event, message and
  // place), so it is read once per alarm and process, not once per recipient.
  private readonly kept: Recent<number, Promise<AlarmDoc | null>>;

  constructor(db: Database) {
    this.models = alarmModels(db);
    this.kept = new Recent(100, db.generation);
  }

  /** The alarm with this ID, wherever it lives, or null. */
  async find(alarmId: number): Promise<AlarmDoc | null> {
    const home = await this.models.AlarmId.findById(String(alarmId)).lean();
    if (!home) return null;
    return (await this.models.alarms.of(home.organizationId)).findById(String(alarmId)).lean();
  }

  /** As find(), kept for the last 100 alarms (a failed read is asked again): for what never changes. */
  unchanging(alarmId: number): Promise<AlarmDoc | null> {
    let value = this.kept.get(alarmId);
    if (!value) {
      value = this.find(alarmId);
      // Not kept: the next caller reads again (the caller of this one hears of the failure).
      value.catch(() => this.kept.delete(alarmId));
      this.kept.set(alarmId, value);
    }
    return value;
  }

  /** 404 for an alarm the actor's organizations do not hold: another organization's alarm is not confirmed. */
  async readable(actor: Actor, alarmId: number): Promise<AlarmDoc> {
    const doc = await this.find(alarmId);
    if (!doc || !canRead(actor, doc.organizationId)) throw notFound('Alarm not found');
    return doc;
  }

  deliveries(doc: Pick<AlarmDoc, '_id'>): Promise<DeliveriesDoc | null> {
    return deliveriesOf(this.models).read(Number(doc._id));
  }

  /** The alarm's answers, oldest first. */
  async answers(doc: Pick<AlarmDoc, 'id' | 'organizationId'>): Promise<AnswerDoc[]> {
    const answers = await (await this.models.answers.of(doc.organizationId)).find({ alarmId: doc.id }).lean();
    return answers.sort((a, b) => a.at.getTime() - b.at.getTime());
  }
}
