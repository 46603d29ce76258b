// T5's search and ordering over an entity's records, done by the service: values are stored as text and
// ordered by their field's type, which neither engine's sort does. Pure functions (unit-tested).
import { compareKeys, keyOf } from './fields.js';
import type { EntityDoc } from './models.js';
import type { ValueMap } from './presenter.js';

/** A record as listing needs it. */
export interface Listed {
  _id: string;
  values: ValueMap;
  createdAt: Date;
  seq: number;
}

/** Creation order, the default and every tie-breaker. */
export function byCreation(a: Listed, b: Listed): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

/** Records with `search` (plain text, any case) in a value of one of the entity's current fields. */
export function searchRecords(entity: EntityDoc, records: Listed[], search: string): Listed[] {
  const needle = search.toLowerCase();
  const fieldIds = entity.fields.map((f) => f.id);
  return records.filter((r) => fieldIds.some((id) => r.values[id]?.v.toLowerCase().includes(needle)));
}

/** Records ordered by one field's typed value; empty (or unreadable) values last in both directions. */
export function orderRecords(entity: EntityDoc, records: Listed[], fieldId: string, dir: 'asc' | 'desc'): Listed[] {
  const field = entity.fields.find((f) => f.id === fieldId)!;
  const sign = dir === 'desc' ? -1 : 1;
  const keyed = records.map((r) => ({ r, key: keyOf(field, r.values[fieldId]?.v) }));
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? byCreation(a.r, b.r) : a.key === null ? 1 : -1;
    return sign * compareKeys(a.key, b.key) || byCreation(a.r, b.r);
  });
  return keyed.map((k) => k.r);
}
