// Rules are checked against their entity when saved (T11, T12) and again when the entity changes (T4):
// every field they name exists, every operator fits its field's type, every comparison is a value of
// that type, every template placeholder names a field. Pure functions.
import type { RuleInput } from '../../../schemas/things-rules.js';
import { OPERATORS_BY_TYPE, valueProblem } from './fields.js';
import type { EntityDoc } from './models.js';

/** The parts of a rule the check looks at (a stored rule or a request body). */
export type RuleSpec = Pick<RuleInput, 'action' | 'conditions'> & {
  actionAlarmTemplate?: {
    alarmMessage: string;
    eventName?: string;
    positionFieldID?: string;
    documentKeysFieldID?: string;
  } | null;
};

/** A refused rule: what is wrong and where. */
export interface RuleProblem {
  message: string;
  path: string;
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The field IDs a template names. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/** Fills {{fieldID}} placeholders with `valueOf(fieldID)`. */
export function render(template: string, valueOf: (fieldId: string) => string): string {
  return template.replace(PLACEHOLDER, (_, id: string) => valueOf(id));
}

/** The first problem of a rule on this entity, or null when it is sound. */
export function ruleProblem(rule: RuleSpec, entity: EntityDoc): RuleProblem | null {
  const fields = new Map(entity.fields.map((f) => [f.id, f]));
  for (const [index, c] of (rule.conditions ?? []).entries()) {
    const path = `conditions.${index}`;
    const field = fields.get(c.fieldID);
    if (!field)
      return { message: `Condition ${index + 1} names the unknown field "${c.fieldID}"`, path: `${path}.fieldID` };
    if (!OPERATORS_BY_TYPE[field.type].includes(c.operator)) {
      return {
        message: `Operator ${c.operator} does not fit field "${field.name}" (${field.type}); allowed: ${OPERATORS_BY_TYPE[field.type].join(', ')}`,
        path: `${path}.operator`,
      };
    }
    const comparison = c.comparison ?? '';
    if (c.operator === 'empty' || c.operator === 'not_empty') {
      if (comparison !== '')
        return { message: `Operator ${c.operator} takes no comparison`, path: `${path}.comparison` };
      continue;
    }
    if (comparison === '') return { message: `Operator ${c.operator} needs a comparison`, path: `${path}.comparison` };
    const problem = c.operator === 'contains' ? null : valueProblem(field, comparison);
    if (problem)
      return {
        message: `Comparison of condition ${index + 1} for field "${field.name}" (${field.type}): ${problem}`,
        path: `${path}.comparison`,
      };
  }
  return templateProblem(rule, entity);
}

function templateProblem(rule: RuleSpec, entity: EntityDoc): RuleProblem | null {
  const t = rule.actionAlarmTemplate;
  if (rule.action === 'alarm' && !t)
    return { message: 'The action alarm needs an actionAlarmTemplate', path: 'actionAlarmTemplate' };
  if (!t) return null;
  const fields = new Map(entity.fields.map((f) => [f.id, f]));
  for (const key of ['alarmMessage', 'eventName'] as const) {
    const unknown = placeholders(t[key] ?? '').find((id) => !fields.has(id));
    if (unknown !== undefined)
      return {
        message: `The ${key} placeholder {{${unknown}}} names no field of the entity`,
        path: `actionAlarmTemplate.${key}`,
      };
  }
  if (t.positionFieldID) {
    const type = fields.get(t.positionFieldID)?.type;
    if (type !== 'coordinates' && type !== 'address') {
      return {
        message: `positionFieldID "${t.positionFieldID}" must name a coordinates or address field`,
        path: 'actionAlarmTemplate.positionFieldID',
      };
    }
  }
  if (t.documentKeysFieldID && !fields.has(t.documentKeysFieldID)) {
    return {
      message: `documentKeysFieldID "${t.documentKeysFieldID}" names no field of the entity`,
      path: 'actionAlarmTemplate.documentKeysFieldID',
    };
  }
  return null;
}
