// T5, T6, T8, T9 and T13: records of an entity and the organization's usage. Load → authorize → check
// values → index the positions they will have → write → what follows a write (effects.ts: positions, rules).
import type { T5QueryInput, ValueInput } from '../../../schemas/things.js';
import type { Database } from '../../db/database.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canRead } from '../../identity/policy.js';
import { authorize, loadEntity, type Right } from './access.js';
import { byCreation, orderRecords, searchRecords, type Listed } from './listing.js';
import { thingsModels, type EntityDoc, type RecordDoc } from './models.js';
import { presentRecord, valuesOf, type RecordView, type ValueMap } from './presenter.js';
import { written, type RecordEffects } from './effects.js';
import { draftOf, type RecordSlots } from './slots.js';
import type { RecordStore } from './store.js';
import { applyValues, requireValues, type ValueChanges } from './values.js';

/**
 * Applies checked changes to the record's values as stored at the moment of the write (a revision
 * claim keeps concurrent writers, on any process, from overwriting each other); null when the record
 * is gone. `known` is the record as just read.
 */
export async function writeValues(
  db: Database,
  store: RecordStore,
  entity: EntityDoc,
  recordId: string,
  changes: ValueChanges,
  known?: RecordDoc,
): Promise<ValueMap | null> {
  const written = await db.revisions.change(
    await store.of(entity.organizationID),
    recordId,
    (doc) => ({
      values: JSON.stringify(applyValues(entity, valuesOf(doc), changes)),
      updatedAt: new Date(),
    }),
    known,
  );
  return written && valuesOf(written);
}

/** The record commands (T5, T6, T8, T9) and usage (T13). */
export class RecordCommands {
  constructor(
    private readonly db: Database,
    private readonly store: RecordStore,
    private readonly slots: RecordSlots,
    private readonly effects: RecordEffects,
  ) {}

  /**
   * T5: one page of an entity's records. Without search and orderby the page comes from the database in
   * creation order; with them the entity's records are searched and ordered here (see listing.ts).
   */
  async list(actor: Actor, entityId: string, query: T5QueryInput): Promise<{ records: RecordView[]; total: number }> {
    const entity = await loadEntity(thingsModels(this.db), actor, entityId, 'read');
    if (query.orderby !== undefined && !entity.fields.some((f) => f.id === query.orderby)) {
      throw badRequest('invalid_parameter', `orderby "${query.orderby}" is not a field ID of this entity`, [
        { in: 'query', path: 'orderby', problem: 'is not a field ID of this entity' },
      ]);
    }
    const ThingRecord = await this.store.of(entity.organizationID);
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 10;
    const show = (r: Listed) => presentRecord(entity, r);
    if (!query.search && query.orderby === undefined) {
      const [docs, total] = await Promise.all([
        ThingRecord.find({ entityID: entityId }, { values: 1, createdAt: 1, seq: 1 })
          .sort({ createdAt: 1, seq: 1, _id: 1 })
          .skip(offset)
          .limit(limit)
          .lean(),
        ThingRecord.countDocuments({ entityID: entityId }),
      ]);
      return { records: docs.map((d) => show({ ...d, values: valuesOf(d) })), total };
    }
    const docs = await ThingRecord.find({ entityID: entityId }, { values: 1, createdAt: 1, seq: 1 }).lean();
    let listed: Listed[] = docs.map((d) => ({ ...d, values: valuesOf(d) }));
    if (query.search) listed = searchRecords(entity, listed, query.search);
    listed =
      query.orderby !== undefined
        ? orderRecords(entity, listed, query.orderby, query.orderdir ?? 'asc')
        : listed.sort(byCreation);
    return { records: listed.slice(offset, offset + limit).map(show), total: listed.length };
  }

  /** T6: creates a record; 409 record_limit_reached when the organization is at its limit. */
  async create(actor: Actor, entityId: string, input: ValueInput[]): Promise<RecordView> {
    const entity = await loadEntity(thingsModels(this.db), actor, entityId, 'write');
    const values = applyValues(entity, {}, requireValues(entity, input));
    const draft = draftOf(entity, values, new Date(), 0);
    await this.effects.before(entity, [{ recordId: draft._id, values }]);
    const { inserted } = await this.slots.insert(entity.organizationID, [draft]);
    if (inserted.length === 0) {
      throw conflict(
        'record_limit_reached',
        `The organization has reached its record limit of ${await this.slots.limitOf(entity.organizationID)} records`,
      );
    }
    await this.effects.run(entity, [{ trigger: 'record_created', recordId: draft._id, values }]);
    return presentRecord(entity, { _id: draft._id, values });
  }

  /** T8: one record the actor can read. */
  async get(actor: Actor, recordId: string): Promise<RecordView> {
    const { entity, record } = await this.load(actor, recordId, 'read');
    return presentRecord(entity, { _id: record._id, values: valuesOf(record) });
  }

  /** T9: sets the given fields' values ('' clears one); the other values stay. */
  async update(actor: Actor, recordId: string, input: ValueInput[]): Promise<RecordView> {
    const { entity, record } = await this.load(actor, recordId, 'write');
    const changes = requireValues(entity, input);
    await this.effects.before(entity, [
      { recordId, values: written(applyValues(entity, valuesOf(record), changes), changes) },
    ]);
    const values = await writeValues(this.db, this.store, entity, recordId, changes, record);
    if (!values) throw notFound('Record not found');
    await this.effects.run(entity, [{ trigger: 'record_updated', recordId, values, previous: valuesOf(record) }]);
    return presentRecord(entity, { _id: recordId, values });
  }

  /** T13: the organization's record count and limit, for any member. */
  async usage(actor: Actor, organizationId: number): Promise<{ recordCount: number; recordLimit: number }> {
    if (!canRead(actor, organizationId)) throw forbidden('Not allowed in this organization');
    const [recordCount, recordLimit] = await Promise.all([
      this.slots.count(organizationId),
      this.slots.limitOf(organizationId),
    ]);
    return { recordCount, recordLimit };
  }

  /** A record and its entity, when the actor has `right` on the entity (404 across organizations). */
  private async load(actor: Actor, recordId: string, right: Right): Promise<{ entity: EntityDoc; record: RecordDoc }> {
    const found = await this.store.find(recordId);
    const record = found?.record;
    const entity = record && (await thingsModels(this.db).ThingEntity.findById(record.entityID).lean());
    if (!record || !entity) throw notFound('Record not found');
    return { entity: authorize(actor, entity, right, 'Record'), record };
  }
}
