// T1–T4: entities. Load → authorize → check → write. A T4 that removes or retypes fields is refused
// while stored records or saved rules would no longer fit, so an update never corrupts them.
import { randomUUID } from 'node:crypto';
import type { FieldInput, T1QueryInput, T2Input, T4Input } from '../../../schemas/things.js';
import type { Database } from '../../db/database.js';
import { withClaimLock } from '../../db/claim-lock.js';
import { IdIndex } from '../../db/id-index.js';
import { badRequest, forbidden } from '../../errors.js';
import type { OrganizationEvents } from '../../hub/events.js';
import type { Actor } from '../../identity/actor.js';
import { membersAmong } from '../../identity/lookup.js';
import { canConfigure, canRead, canReadRecords } from '../../identity/policy.js';
import { loadEntity } from './access.js';
import { mergeFields, newFields } from './entity-fields.js';
import { valueProblem } from './fields.js';
import { thingsModels, type EntityDoc, type FieldDoc } from './models.js';
import { presentEntity, valuesOf, type EntityView } from './presenter.js';
import { ruleProblem } from './rule-check.js';
import type { RuleSets } from './rule-sets.js';
import type { RecordStore } from './store.js';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function invalid(message: string, path: string) {
  return badRequest('invalid_body', message, [{ in: 'body', path, problem: message }]);
}

/** The entity commands (T1–T4). */
export class EntityCommands {
  // An organization's entities, listed by exact lookups (docs/storage.md "Lists by exact lookups").
  private readonly byOrganization: IdIndex;

  constructor(
    private readonly db: Database,
    private readonly store: RecordStore,
    private readonly rules: RuleSets,
    private readonly events: OrganizationEvents,
  ) {
    const { ThingEntity, ThingEntityIndex } = thingsModels(db);
    this.byOrganization = new IdIndex(ThingEntityIndex, db.system.Lock, 'entities', async (organizationId) =>
      (await ThingEntity.find({ organizationID: Number(organizationId) }, { _id: 1 }).lean()).map((d) => d._id),
    );
  }

  /** T1: the entities of an organization the actor can read, by name, one page, with their total. */
  async list(actor: Actor, query: T1QueryInput): Promise<{ entities: EntityView[]; total: number }> {
    if (!canRead(actor, query.organization_id)) throw forbidden('Not allowed in this organization');
    const search = (query.search ?? '').toLowerCase();
    const { ThingEntity } = thingsModels(this.db);
    const docs = (await this.byOrganization.load(query.organization_id, (id) => ThingEntity.findById(id).lean()))
      .filter(
        (d) =>
          d.organizationID === query.organization_id &&
          canReadRecords(actor, d) &&
          d.name.toLowerCase().includes(search),
      )
      .sort((a, b) => collator.compare(a.name, b.name) || (a._id < b._id ? -1 : 1));
    const offset = query.offset ?? 0;
    const page = docs.slice(offset, offset + (query.limit ?? 10));
    const counts = await this.counts(
      query.organization_id,
      page.map((d) => d._id),
    );
    return { entities: page.map((d) => presentEntity(d, actor, counts.get(d._id) ?? 0)), total: docs.length };
  }

  /** T2: creates an entity in an organization the actor configures. */
  async create(actor: Actor, input: T2Input): Promise<EntityView> {
    if (!canConfigure(actor, input.organizationID))
      throw forbidden("Creating entities needs an organization admin or the organization's API key");
    await this.checkUsers(input.organizationID, input);
    const now = new Date();
    const doc: EntityDoc = {
      _id: randomUUID(),
      organizationID: input.organizationID,
      name: input.name,
      description: input.description ?? '',
      icon: input.icon ?? '',
      fields: newFields(input.fields ?? []),
      readOnlyUserIDs: input.readOnlyUserIDs ?? [],
      readWriteUserIDs: input.readWriteUserIDs ?? [],
      createdAt: now,
      updatedAt: now,
    };
    await this.byOrganization.add(doc.organizationID, doc._id);
    await thingsModels(this.db).ThingEntity.create(doc);
    this.changed(doc);
    return presentEntity(doc, actor, 0);
  }

  // The staff's pages read the entity again (docs/hub.md: things:changed names no field or value).
  private changed(doc: { organizationID: number; _id: string }): void {
    this.events.toOrganization(doc.organizationID, 'things:changed', {
      organizationId: doc.organizationID,
      entityId: doc._id,
    });
  }

  /** T3: one entity the actor can read. */
  async get(actor: Actor, id: string): Promise<EntityView> {
    const doc = await loadEntity(thingsModels(this.db), actor, id, 'read');
    return presentEntity(doc, actor, await this.countOf(doc));
  }

  /**
   * T4: replaces the given properties; `fields` is the complete new field list. Read, checked and
   * written under the entity's claim lock, one update at a time across processes: each writes the
   * whole entity from what it read, so two at once would otherwise lose the first one's change.
   */
  async update(actor: Actor, id: string, input: T4Input): Promise<EntityView> {
    // Refused before the lock when the actor may not configure it (nor learn that it exists).
    await loadEntity(thingsModels(this.db), actor, id, 'configure');
    return withClaimLock(this.db.system.Lock, `things-entity:${id}`, () => this.updateLocked(actor, id, input));
  }

  private async updateLocked(actor: Actor, id: string, input: T4Input): Promise<EntityView> {
    const current = await loadEntity(thingsModels(this.db), actor, id, 'configure');
    if (input.id !== undefined && input.id !== id) throw invalid('id does not match the entity in the path', 'id');
    if (input.organizationID !== undefined && input.organizationID !== current.organizationID)
      throw invalid('organizationID cannot be changed', 'organizationID');
    await this.checkUsers(current.organizationID, input);
    const next: EntityDoc = {
      ...current,
      name: input.name ?? current.name,
      description: input.description ?? current.description,
      icon: input.icon ?? current.icon,
      readOnlyUserIDs: input.readOnlyUserIDs ?? current.readOnlyUserIDs,
      readWriteUserIDs: input.readWriteUserIDs ?? current.readWriteUserIDs,
      updatedAt: new Date(),
    };
    if (input.fields) {
      const change = mergeFields(current.fields, input.fields as FieldInput[]);
      next.fields = change.fields;
      await this.checkRules(next);
      await this.checkStoredValues(current, change.retyped);
    }
    const { _id, ...set } = next;
    await thingsModels(this.db).ThingEntity.updateOne({ _id }, { $set: set });
    this.changed(next);
    return presentEntity(next, actor, await this.countOf(next));
  }

  /** The entity's record count. */
  private async countOf(entity: EntityDoc): Promise<number> {
    return (await this.store.of(entity.organizationID)).countDocuments({ entityID: entity._id });
  }

  /** Record counts of an organization's entities, in one query. */
  private async counts(organizationId: number, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await (
      await this.store.of(organizationId)
    ).aggregate<{ _id: string; n: number }>([
      { $match: { entityID: { $in: ids } } },
      { $group: { _id: '$entityID', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /** Granted users must be members of the organization (a typo would otherwise grant nobody). */
  private async checkUsers(
    organizationId: number,
    input: { readOnlyUserIDs?: number[]; readWriteUserIDs?: number[] },
  ): Promise<void> {
    for (const key of ['readOnlyUserIDs', 'readWriteUserIDs'] as const) {
      const ids = input[key] ?? [];
      const members = await membersAmong(this.db, organizationId, ids);
      const index = ids.findIndex((u) => !members.has(u));
      if (index >= 0)
        throw invalid(`User ${ids[index]} in ${key} is not a member of the organization`, `${key}.${index}`);
    }
  }

  /** Every saved rule must still fit the entity's new fields. */
  private async checkRules(next: EntityDoc): Promise<void> {
    const rules = await this.rules.list(next._id);
    for (const rule of rules) {
      const problem = ruleProblem(rule, next);
      if (problem)
        throw invalid(
          `Rule "${rule.name}" (${rule.ruleID}) would no longer fit the entity: ${problem.message}`,
          'fields',
        );
    }
  }

  /** A field's type (or selection values) changes only while every stored value fits the new definition. */
  private async checkStoredValues(entity: EntityDoc, retyped: FieldDoc[]): Promise<void> {
    if (retyped.length === 0) return;
    const records = await (
      await this.store.of(entity.organizationID)
    )
      .find({ entityID: entity._id }, { values: 1 })
      .lean();
    for (const field of retyped) {
      let failing = 0;
      let example = '';
      for (const record of records) {
        const value = valuesOf(record)[field.id]?.v;
        const problem = value === undefined ? null : valueProblem(field, value);
        if (problem && failing++ === 0) example = problem;
      }
      if (failing > 0) {
        throw invalid(
          `Field "${field.name}" cannot become ${field.type}${field.type === 'selection' ? ' with these values' : ''}: ` +
            `${failing} record(s) hold values that do not fit (e.g. ${example}); change or clear them first`,
          'fields',
        );
      }
    }
  }
}
