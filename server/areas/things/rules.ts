// T10–T12: an entity's rules. Readers of the entity list them; admins and API keys save them, and every
// save is checked against the entity's fields (rule-check.ts).
import { randomUUID } from 'node:crypto';
import type { RuleInput, T10QueryInput } from '../../../schemas/things-rules.js';
import type { Database } from '../../db/database.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { Actor } from '../../identity/actor.js';
import { loadEntity } from './access.js';
import type { EntityDoc, RuleDoc } from './models.js';
import { presentRule, type RuleView } from './presenter.js';
import { ruleProblem } from './rule-check.js';

function invalid(message: string, path: string) {
  return badRequest('invalid_body', message, [{ in: 'body', path, problem: message }]);
}

/** The saved form of a rule body, after checking it against the entity. */
function ruleFields(entity: EntityDoc, input: RuleInput) {
  if (input.entityID !== undefined && input.entityID !== entity._id) throw invalid('entityID does not match the entity in the path', 'entityID');
  const problem = ruleProblem(input, entity);
  if (problem) throw invalid(problem.message, problem.path);
  const t = input.actionAlarmTemplate;
  return {
    name: input.name,
    description: input.description ?? '',
    action: input.action,
    actionAlarmTemplate: t ? {
      alarmMessage: t.alarmMessage,
      alarmTemplateID: t.alarmTemplateID ?? null,
      documentKeysFieldID: t.documentKeysFieldID ?? '',
      eventName: t.eventName ?? '',
      positionFieldID: t.positionFieldID ?? '',
    } : null,
    conditions: (input.conditions ?? []).map((c) => ({ fieldID: c.fieldID, operator: c.operator, comparison: c.comparison ?? '' })),
    triggers: input.triggers,
  };
}

/** The rule commands (T10–T12). */
export class RuleCommands {
  constructor(private readonly db: Database) {}

  /** T10: one page of an entity's rules in creation order. */
  async list(actor: Actor, entityId: string, query: T10QueryInput): Promise<{ rules: RuleView[]; total: number }> {
    await loadEntity(this.db.models, actor, entityId, 'read');
    const offset = query.offset ?? 0;
    const rules = await this.db.models.ThingRule.find({ entityID: entityId }).sort({ createdAt: 1, _id: 1 }).lean();
    return { rules: rules.slice(offset, offset + (query.limit ?? 10)).map(presentRule), total: rules.length };
  }

  /** T11: saves a new rule of the entity. */
  async create(actor: Actor, entityId: string, input: RuleInput): Promise<RuleView> {
    const entity = await loadEntity(this.db.models, actor, entityId, 'configure');
    const now = new Date();
    const doc: RuleDoc = { _id: randomUUID(), organizationID: entity.organizationID, entityID: entityId, ...ruleFields(entity, input), createdAt: now, updatedAt: now };
    await this.db.models.ThingRule.create(doc);
    return presentRule(doc);
  }

  /** T12: replaces a rule of the entity. */
  async update(actor: Actor, entityId: string, ruleId: string, input: RuleInput): Promise<RuleView> {
    const entity = await loadEntity(this.db.models, actor, entityId, 'configure');
    const { ThingRule } = this.db.models;
    const current = await ThingRule.findById(ruleId).lean();
    if (!current || current.entityID !== entityId) throw notFound('Rule not found');
    if (input.id !== undefined && input.id !== ruleId) throw invalid('id does not match the rule in the path', 'id');
    const doc: RuleDoc = { ...current, ...ruleFields(entity, input), updatedAt: new Date() };
    const { _id, ...set } = doc;
    const { matchedCount } = await ThingRule.updateOne({ _id }, { $set: set });
    if (matchedCount === 0) throw notFound('Rule not found');
    return presentRule(doc);
  }
}
