// T10–T12 and T12-delete: an entity's rules. Readers of the entity list them; admins and API keys save
// and delete them, and every save is checked against the entity's fields (rule-check.ts). The rules
// are kept in the entity's rule set (rule-sets.ts), at most THINGS_LIMITS.rulesPerEntity of them.
import { randomUUID } from 'node:crypto';
import type { RuleInput, T10QueryInput } from '../../../schemas/things-rules.js';
import { RULE_COOLDOWN, THINGS_LIMITS } from '../../../schemas/things.js';
import type { Database } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { loadEntity } from './access.js';
import { thingsModels, type EntityDoc, type RuleDoc, type RuleRef } from './models.js';
import { presentRule, type RuleView } from './presenter.js';
import { ruleProblem } from './rule-check.js';
import { newVersion, versionKey, type RuleSets } from './rule-sets.js';

const LIMIT = THINGS_LIMITS.rulesPerEntity;

function invalid(message: string, path: string) {
  return badRequest('invalid_body', message, [{ in: 'body', path, problem: message }]);
}

/** The saved form of a rule body, after checking it against the entity. */
function ruleFields(entity: EntityDoc, input: RuleInput) {
  if (input.entityID !== undefined && input.entityID !== entity._id)
    throw invalid('entityID does not match the entity in the path', 'entityID');
  const problem = ruleProblem(input, entity);
  if (problem) throw invalid(problem.message, problem.path);
  const t = input.actionAlarmTemplate;
  return {
    name: input.name,
    description: input.description ?? '',
    action: input.action,
    actionAlarmTemplate: t
      ? {
          alarmMessage: t.alarmMessage,
          alarmTemplateID: t.alarmTemplateID ?? null,
          documentKeysFieldID: t.documentKeysFieldID ?? '',
          eventName: t.eventName ?? '',
          positionFieldID: t.positionFieldID ?? '',
        }
      : null,
    conditions: (input.conditions ?? []).map((c) => ({
      fieldID: c.fieldID,
      operator: c.operator,
      comparison: c.comparison ?? '',
    })),
    triggers: input.triggers,
    cooldownSeconds: input.cooldownSeconds ?? RULE_COOLDOWN.defaultSeconds,
  };
}

/** The rule commands (T10–T12, T12-delete). */
export class RuleCommands {
  constructor(
    private readonly db: Database,
    private readonly sets: RuleSets,
  ) {}

  /** T10: one page of an entity's rules in creation order (only the page's rules are read). */
  async list(actor: Actor, entityId: string, query: T10QueryInput): Promise<{ rules: RuleView[]; total: number }> {
    await loadEntity(thingsModels(this.db), actor, entityId, 'read');
    const offset = query.offset ?? 0;
    const refs = await this.sets.refs(entityId);
    const page = await this.sets.rules(refs.slice(offset, offset + (query.limit ?? 10)));
    return { rules: page.map(presentRule), total: refs.length };
  }

  /** T11: saves a new rule of the entity; 409 conflict when the entity has as many as it may. */
  async create(actor: Actor, entityId: string, input: RuleInput): Promise<RuleView> {
    const entity = await loadEntity(thingsModels(this.db), actor, entityId, 'configure');
    const now = new Date();
    const { ref, key } = newVersion(randomUUID());
    const doc: RuleDoc = {
      _id: key,
      ruleID: ref.id,
      organizationID: entity.organizationID,
      entityID: entityId,
      ...ruleFields(entity, input),
      createdAt: now,
      updatedAt: now,
    };
    await this.saved(doc, () =>
      this.sets.change(entity, (refs) => {
        if (refs.length >= LIMIT)
          throw conflict(
            'conflict',
            `The entity has reached its limit of ${LIMIT} rules; delete one (DELETE …/rules/{ruleUUID}) ` +
              `before creating another`,
          );
        return [...refs, ref];
      }),
    );
    return presentRule(doc);
  }

  /** T12: replaces a rule of the entity with a new version (of two at once, the one listed later wins). */
  async update(actor: Actor, entityId: string, ruleId: string, input: RuleInput): Promise<RuleView> {
    const entity = await loadEntity(thingsModels(this.db), actor, entityId, 'configure');
    const listed = (await this.sets.refs(entityId)).find((r) => r.id === ruleId);
    const [current] = listed ? await this.sets.rules([listed]) : [];
    if (!current) throw notFound('Rule not found');
    if (input.id !== undefined && input.id !== ruleId) throw invalid('id does not match the rule in the path', 'id');
    const { ref, key } = newVersion(ruleId);
    const doc: RuleDoc = { ...current, ...ruleFields(entity, input), _id: key, updatedAt: new Date() };
    let replaced: RuleRef | undefined;
    await this.saved(doc, () =>
      this.sets.change(entity, (refs) => {
        replaced = refs.find((r) => r.id === ruleId);
        if (!replaced) throw notFound('Rule not found');
        return refs.map((r) => (r === replaced ? ref : r));
      }),
    );
    await this.forget(replaced!);
    return presentRule(doc);
  }

  /** T12-delete: removes a rule of the entity; record writes after the answer no longer run it. */
  async remove(actor: Actor, entityId: string, ruleId: string): Promise<{ status: 'deleted' }> {
    const entity = await loadEntity(thingsModels(this.db), actor, entityId, 'configure');
    let removed: RuleRef | undefined;
    await this.sets.change(entity, (refs) => {
      removed = refs.find((r) => r.id === ruleId);
      if (!removed) throw notFound('Rule not found');
      return refs.filter((r) => r !== removed);
    });
    await this.forget(removed!);
    return { status: 'deleted' };
  }

  // Writes a version, then lists it; a version the set refused to list goes again.
  private async saved(doc: RuleDoc, list: () => Promise<void>): Promise<void> {
    await thingsModels(this.db).ThingRule.create(doc);
    try {
      await list();
    } catch (err) {
      // A version the set never listed is never read; should its removal fail too, it is only space.
      await thingsModels(this.db)
        .ThingRule.deleteOne({ _id: doc._id })
        .catch(() => {});
      throw err;
    }
  }

  // A version the set no longer names.
  private async forget(ref: RuleRef): Promise<void> {
    await thingsModels(this.db).ThingRule.deleteOne({ _id: versionKey(ref) });
  }
}
