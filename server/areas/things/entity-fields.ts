// An entity's field definitions on create (T2) and update (T4). Field IDs are UUIDs the service assigns
// and never reuses, so a field keeps its ID across updates and a removed field's values can never come
// back under a new field. Pure functions; the checks against stored records live in entities.ts.
import { randomUUID } from 'node:crypto';
import type { FieldInput } from '../../../schemas/things.js';
import { badRequest } from '../../errors.js';
import type { FieldDoc } from './models.js';

/** The result of applying a new field list to the current one. */
export interface FieldChange {
  fields: FieldDoc[];
  /** Kept fields whose type changed or that lost selection values: stored values must still fit. */
  retyped: FieldDoc[];
  removed: FieldDoc[];
}

function invalid(message: string, path: string) {
  return badRequest('invalid_body', message, [{ in: 'body', path, problem: message }]);
}

function checkDefinition(field: FieldDoc, path: string): void {
  if (field.type === 'selection' && field.selectionValues.length === 0)
    throw invalid(`Field "${field.name}" of type selection needs selectionValues`, `${path}.selectionValues`);
  if (field.type !== 'selection' && field.selectionValues.length > 0)
    throw invalid(`Field "${field.name}" of type ${field.type} takes no selectionValues`, `${path}.selectionValues`);
}

function checkNames(fields: FieldDoc[]): void {
  const seen = new Set<string>();
  for (const [index, field] of fields.entries()) {
    const key = field.name.trim().toLowerCase();
    if (seen.has(key))
      throw invalid(`Two fields are named "${field.name}" (names are compared without case)`, `fields.${index}.name`);
    seen.add(key);
  }
}

/** T2: every field is new and gets a new ID (IDs a client sends are ignored). */
export function newFields(input: FieldInput[]): FieldDoc[] {
  const fields = input.map((f, index) => {
    const field: FieldDoc = { id: randomUUID(), name: f.name, type: f.type, selectionValues: f.selectionValues ?? [] };
    checkDefinition(field, `fields.${index}`);
    return field;
  });
  checkNames(fields);
  return fields;
}

/** T4: `input` is the complete new list; an item with an id keeps that field, one without is new. */
export function mergeFields(current: FieldDoc[], input: FieldInput[]): FieldChange {
  const byId = new Map(current.map((f) => [f.id, f]));
  const kept = new Set<string>();
  const retyped: FieldDoc[] = [];
  const fields = input.map((f, index) => {
    const path = `fields.${index}`;
    const before = f.id ? byId.get(f.id) : undefined;
    if (f.id && !before)
      throw invalid(`Field ID "${f.id}" is not a field of this entity (leave id out to add a field)`, `${path}.id`);
    if (before && kept.has(before.id)) throw invalid(`Field ID "${before.id}" is given twice`, `${path}.id`);
    const field: FieldDoc = {
      id: before?.id ?? randomUUID(),
      name: f.name,
      type: f.type,
      selectionValues: f.selectionValues ?? [],
    };
    checkDefinition(field, path);
    if (before) {
      kept.add(before.id);
      // Adding or reordering selection values cannot invalidate a stored value; removing one can.
      const lostValue = before.selectionValues.some((v) => !field.selectionValues.includes(v));
      if (before.type !== field.type || lostValue) retyped.push(field);
    }
    return field;
  });
  checkNames(fields);
  return { fields, retyped, removed: current.filter((f) => !kept.has(f.id)) };
}
