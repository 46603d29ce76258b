// The field types: what a value of each looks like, how values of a type compare (ordering and rule
// conditions), and which rule operators fit a type. Values travel and are stored as text.
import type { FieldType, RuleOperator } from '../../../schemas/things.js';
import type { FieldDoc } from './models.js';

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const COORDINATES = /^(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE = /^\+?[\d ()/.-]+$/;

/** A value's comparable form: a number, a coordinate pair, or text compared without case; null when empty. */
export type Key = number | string | [number, number] | null;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCMonth() + 1 === Number(m[2]) && d.getUTCDate() === Number(m[3]);
}

/** A coordinates value as [latitude, longitude]; null when empty or not one. */
export function coordinatesOf(text: string | undefined): [number, number] | null {
  if (text === undefined) return null;
  const m = COORDINATES.exec(text.trim());
  if (!m) return null;
  const [lat, lon] = [Number(m[1]), Number(m[2])];
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
}

function validUrl(text: string): boolean {
  if (text.length > 2000) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Why `value` (non-empty) is not a value of `field`, or null when it is one. */
export function valueProblem(field: FieldDoc, value: string): string | null {
  switch (field.type) {
    case 'text':
      return null;
    case 'address':
      return value.length > 500 ? 'is longer than 500 characters' : null;
    case 'number':
      return NUMBER.test(value) && Number.isFinite(Number(value))
        ? null
        : `"${clip(value)}" is not a number (digits, optional sign, decimal point and exponent)`;
    case 'boolean':
      return value === 'true' || value === 'false' ? null : `"${clip(value)}" is not true or false`;
    case 'date':
      return validDate(value) ? null : `"${clip(value)}" is not a date (YYYY-MM-DD)`;
    case 'datetime':
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : `"${clip(value)}" is not an RFC 3339 date-time (e.g. 2026-11-22T14:00:00Z)`;
    case 'selection':
      return field.selectionValues.includes(value)
        ? null
        : `"${clip(value)}" is not one of ${field.selectionValues.map((v) => `"${v}"`).join(', ')}`;
    case 'coordinates':
      return coordinatesOf(value) ? null : `"${clip(value)}" is not "latitude,longitude" (-90…90, -180…180)`;
    case 'url':
      return validUrl(value) ? null : `"${clip(value)}" is not an http or https URL`;
    case 'email':
      return value.length <= 254 && EMAIL.test(value) ? null : `"${clip(value)}" is not an e-mail address`;
    case 'phone': {
      const digits = value.replace(/\D/g, '').length;
      return PHONE.test(value) && digits >= 3 && digits <= 20
        ? null
        : `"${clip(value)}" is not a phone number (3–20 digits, optional +, spaces, ( ) / . -)`;
    }
  }
}

function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** The comparable form of a value of `field` (text-like types compare without case). */
export function keyOf(field: FieldDoc, value: string | undefined): Key {
  if (value === undefined || value === '') return null;
  switch (field.type) {
    case 'number':
      return finite(Number(value));
    case 'boolean':
      return value === 'true' ? 1 : value === 'false' ? 0 : null;
    case 'date':
      return finite(Date.parse(`${value}T00:00:00Z`));
    case 'datetime':
      return finite(Date.parse(value));
    case 'selection': {
      // Selections order as the entity lists their values.
      const index = field.selectionValues.indexOf(value);
      return index < 0 ? null : index;
    }
    // Latitude first, longitude breaks ties.
    case 'coordinates':
      return coordinatesOf(value);
    default:
      return value.toLowerCase();
  }
}

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Orders two non-null keys of one field. */
export function compareKeys(a: Exclude<Key, null>, b: Exclude<Key, null>): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (Array.isArray(a) && Array.isArray(b)) return a[0] - b[0] || a[1] - b[1];
  return collator.compare(String(a), String(b));
}

const TEXT_OPERATORS: RuleOperator[] = ['eq', 'ne', 'contains', 'empty', 'not_empty'];
const ORDERED_OPERATORS: RuleOperator[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'empty', 'not_empty'];
const EQUALITY_OPERATORS: RuleOperator[] = ['eq', 'ne', 'empty', 'not_empty'];

/** The rule operators that make sense for a field type. */
export const OPERATORS_BY_TYPE: Record<FieldType, RuleOperator[]> = {
  text: TEXT_OPERATORS,
  address: TEXT_OPERATORS,
  url: TEXT_OPERATORS,
  email: TEXT_OPERATORS,
  phone: TEXT_OPERATORS,
  number: ORDERED_OPERATORS,
  date: ORDERED_OPERATORS,
  datetime: ORDERED_OPERATORS,
  boolean: EQUALITY_OPERATORS,
  selection: EQUALITY_OPERATORS,
  coordinates: ['empty', 'not_empty'],
};
