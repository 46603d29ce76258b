// T7: bulk create, update and delete. Once the request itself is well-formed and the caller may write
// the entity's records, every item is checked and applied on its own; a failing item lands in
// failedEntries with its reason and the others go on. Deletes run first (so their slots are free for
// the creates of the same request), then updates, then creates.
import type { T7Input } from '../../../schemas/things.js';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../identity/actor.js';
import { loadEntity } from './access.js';
import { thingsModels, type EntityDoc, type RecordDoc } from './models.js';
import { valuesOf, type ValueMap } from './presenter.js';
import { writeValues } from './records.js';
import { written, type RecordEffects } from './effects.js';
import type { RecordChange } from './rule-engine.js';
import type { RecordStore } from './store.js';
import { draftOf, type RecordDraft, type RecordSlots } from './slots.js';
import { applyValues, checkValues } from './values.js';

export interface BulkResult {
  createdIDs: string[];
  updatedIDs: string[];
  deletedIDs: string[];
  failedEntries: Array<{ id: string; reason: string }>;
}

type Item = NonNullable<T7Input['records']>[number];

const NOT_FOUND = 'record not found in this entity';

/** The bulk command (T7). */
export class BulkCommands {
  constructor(
    private readonly db: Database,
    private readonly store: RecordStore,
    private readonly slots: RecordSlots,
    private readonly effects: RecordEffects,
  ) {}

  /** Applies a bulk request; item failures never fail the request. */
  async apply(actor: Actor, entityId: string, input: T7Input): Promise<BulkResult> {
    const entity = await loadEntity(thingsModels(this.db), actor, entityId, 'write');
    const result: BulkResult = { createdIDs: [], updatedIDs: [], deletedIDs: [], failedEntries: [] };
    const items = input.records ?? [];
    const deleteIds = this.distinct(input.deleteIDs ?? [], 'deleteIDs', result);
    const updates = items.filter((i): i is Item & { id: string } => i.id !== undefined);
    const targets = await this.targets(entity, [...deleteIds, ...updates.map((u) => u.id)]);
    const changes = [
      ...(await this.deletes(entity, deleteIds, targets, result)),
      ...(await this.updates(entity, updates, targets, result)),
      ...(await this.creates(entity, items, result)),
    ];
    await this.effects.run(entity, changes);
    return result;
  }

  /** IDs in request order without repeats; a repeat is a failed entry. */
  private distinct(ids: string[], list: string, result: BulkResult): string[] {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) result.failedEntries.push({ id, reason: `listed twice in ${list}` });
      seen.add(id);
    }
    return [...seen];
  }

  /** The entity's records among `ids`, loaded in one query. */
  private async targets(entity: EntityDoc, ids: string[]): Promise<Map<string, RecordDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await (await this.store.of(entity.organizationID)).find({ _id: { $in: [...new Set(ids)] } }).lean();
    return new Map(docs.filter((d) => d.entityID === entity._id).map((d) => [d._id, d]));
  }

  private async deletes(
    entity: EntityDoc,
    ids: string[],
    targets: Map<string, RecordDoc>,
    result: BulkResult,
  ): Promise<RecordChange[]> {
    const found = ids.filter((id) => targets.has(id));
    for (const id of ids) if (!targets.has(id)) result.failedEntries.push({ id, reason: NOT_FOUND });
    if (found.length === 0) return [];
    // One deleteMany (one scan of the organization's records on FerretDB rather than one per record). A
    // record another request deletes at the same moment is reported as deleted by both.
    await (await this.store.of(entity.organizationID)).deleteMany({ _id: { $in: found } });
    await this.store.removeHomes(found);
    result.deletedIDs.push(...found);
    return found.map((id) => {
      const values = valuesOf(targets.get(id)!);
      targets.delete(id);
      return { trigger: 'record_deleted', recordId: id, values };
    });
  }

  /** One update at a time: FerretDB serializes concurrent updates badly, MongoDB does not mind. */
  private async updates(
    entity: EntityDoc,
    items: Array<Item & { id: string }>,
    targets: Map<string, RecordDoc>,
    result: BulkResult,
  ): Promise<RecordChange[]> {
    const changes: RecordChange[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const outcome = seen.has(item.id)
        ? 'listed twice in records'
        : await this.updateItem(entity, item, targets.get(item.id), result.deletedIDs);
      seen.add(item.id);
      if (typeof outcome === 'string') {
        result.failedEntries.push({ id: item.id, reason: outcome });
      } else {
        result.updatedIDs.push(item.id);
        changes.push(outcome);
      }
    }
    return changes;
  }

  /** Applies one update item: its change, or why it failed. */
  private async updateItem(
    entity: EntityDoc,
    item: Item & { id: string },
    record: RecordDoc | undefined,
    deleted: string[],
  ): Promise<RecordChange | string> {
    if (!record) return deleted.includes(item.id) ? 'deleted by this request' : NOT_FOUND;
    const checked = checkValues(entity, item.values);
    if ('problem' in checked) return checked.problem.message;
    await this.effects.before(entity, [
      { recordId: item.id, values: written(applyValues(entity, valuesOf(record), checked.changes), checked.changes) },
    ]);
    const values = await writeValues(this.db, this.store, entity, item.id, checked.changes, record);
    if (!values) return NOT_FOUND;
    return { trigger: 'record_updated', recordId: item.id, values, previous: valuesOf(record) };
  }

  private async creates(entity: EntityDoc, items: Item[], result: BulkResult): Promise<RecordChange[]> {
    const now = new Date();
    const drafts: Array<{ draft: RecordDraft; label: string; values: ValueMap }> = [];
    for (const [index, item] of items.entries()) {
      if (item.id !== undefined) continue;
      const label = `records[${index}]`;
      const checked = checkValues(entity, item.values);
      if ('problem' in checked) {
        result.failedEntries.push({ id: label, reason: checked.problem.message });
        continue;
      }
      const values = applyValues(entity, {}, checked.changes);
      drafts.push({ label, values, draft: draftOf(entity, values, now, index) });
    }
    if (drafts.length === 0) return [];
    await this.effects.before(
      entity,
      drafts.map((d) => ({ recordId: d.draft._id, values: d.values })),
    );
    const { inserted } = await this.slots.insert(
      entity.organizationID,
      drafts.map((d) => d.draft),
    );
    const stored = new Set(inserted.map((r) => r._id));
    const limit = stored.size < drafts.length ? await this.slots.limitOf(entity.organizationID) : 0;
    const changes: RecordChange[] = [];
    for (const d of drafts) {
      if (!stored.has(d.draft._id)) {
        result.failedEntries.push({
          id: d.label,
          reason: `record_limit_reached: the organization's limit of ${limit} records is reached`,
        });
        continue;
      }
      result.createdIDs.push(d.draft._id);
      changes.push({ trigger: 'record_created', recordId: d.draft._id, values: d.values });
    }
    return changes;
  }
}
