// A record's values as clients send them, checked against the entity's fields, and merged into what is
// stored. Used by T6, T9 and every item of T7, so a value is judged the same way everywhere.
import { randomUUID } from 'node:crypto';
import type { ValueInput } from '../../../schemas/things.js';
import { badRequest } from '../../errors.js';
import { valueProblem } from './fields.js';
import type { EntityDoc } from './models.js';
import type { ValueMap } from './presenter.js';

/** Why a values list was refused: a message naming the field and the problem, and where it was. */
export interface ValuesProblem {
  message: string;
  path: string;
}

/** The checked changes: field ID → new text ('' clears the field). */
export type ValueChanges = Map<string, string>;

/** Checks values against the entity's fields; returns the changes or the first problem. */
export function checkValues(
  entity: EntityDoc,
  input: ValueInput[],
): { changes: ValueChanges } | { problem: ValuesProblem } {
  const fields = new Map(entity.fields.map((f) => [f.id, f]));
  const changes: ValueChanges = new Map();
  for (const [index, item] of input.entries()) {
    const path = `values.${index}`;
    const field = fields.get(item.fieldID);
    if (!field)
      return {
        problem: {
          message: `Unknown field "${item.fieldID}": the entity has no field with this ID`,
          path: `${path}.fieldID`,
        },
      };
    if (changes.has(field.id))
      return { problem: { message: `Field "${field.name}" (${field.id}) is given twice`, path: `${path}.fieldID` } };
    const problem = item.value === '' ? null : valueProblem(field, item.value);
    if (problem)
      return {
        problem: {
          message: `Invalid value for field "${field.name}" (${field.type}): ${problem}`,
          path: `${path}.value`,
        },
      };
    changes.set(field.id, item.value);
  }
  return { changes };
}

/** checkValues for a single request: a problem is a 400 naming the field. */
export function requireValues(entity: EntityDoc, input: ValueInput[]): ValueChanges {
  const checked = checkValues(entity, input);
  if ('problem' in checked) {
    throw badRequest('invalid_body', checked.problem.message, [
      { in: 'body', path: checked.problem.path, problem: checked.problem.message },
    ]);
  }
  return checked.changes;
}

/**
 * The values after applying `changes` to `current`: values of fields the entity no longer has are
 * dropped, a value item keeps its ID while its field keeps a value, '' removes the value.
 */
export function applyValues(entity: EntityDoc, current: ValueMap, changes: ValueChanges): ValueMap {
  const next: ValueMap = {};
  for (const field of entity.fields) {
    const text = changes.has(field.id) ? changes.get(field.id)! : current[field.id]?.v;
    if (text === undefined || text === '') continue;
    next[field.id] = { i: current[field.id]?.i ?? randomUUID(), v: text };
  }
  return next;
}
