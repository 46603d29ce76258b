// What the things page reads and writes (docs/api.md, T1–T13) and how a value of each field type is shown,
// typed into a form and sent: values travel as text in the type's format (server/areas/things/fields.ts).
import { FIELD_TYPES } from '../../../schemas/things.js';
import { ApiError } from '../api.js';
import { formatDay, formatTime, lang } from '../i18n.js';
import { explain } from '../ui.js';
import { w } from './things-words.js';

// The field types are the API's own list (schemas/things.ts): one list for both sides.
export { FIELD_TYPES };
export type FieldType = (typeof FIELD_TYPES)[number];

export interface Field {
  id: string;
  name: string;
  type: FieldType;
  selectionValues: string[];
}

export interface Entity {
  id: string;
  name: string;
  description: string;
  icon: string;
  organizationID: number;
  fields: Field[];
  readOnlyUserIDs: number[];
  readWriteUserIDs: number[];
  recordCount: number;
  canRead: boolean;
  canWrite: boolean;
}

export interface ThingRecord {
  id: string;
  entityID: string;
  values: Array<{ fieldID: string; id: string; value: string }>;
}

export interface Usage {
  recordCount: number;
  recordLimit: number;
}

export interface Member {
  userId: number;
  name: string;
  role: 'admin' | 'member';
}

/** A record's values by field ID. */
export function valuesById(record: ThingRecord): Record<string, string> {
  return Object.fromEntries(record.values.map((v) => [v.fieldID, v.value]));
}

/** A coordinates value as latitude and longitude; null when empty or not one. */
export function positionOf(text: string | undefined): { lat: number; lon: number } | null {
  const m = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text ?? '');
  if (!m) return null;
  const [lat, lon] = [Number(m[1]), Number(m[2])];
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
}

// Made when first needed, not as the console's script starts: the first Intl object loads the
// browser's locale data (docs/console.md "Loading").
let numberFormat: Intl.NumberFormat | undefined;
const formatNumber = (n: number) =>
  (numberFormat ??= new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: 10 })).format(n);

/** A stored value as people read it in the page's language. */
export function showValue(field: Field, value: string | undefined): string {
  if (value === undefined || value === '') return '';
  switch (field.type) {
    case 'number':
      return Number.isFinite(Number(value)) ? formatNumber(Number(value)) : value;
    case 'boolean':
      return value === 'true' ? w.yes : value === 'false' ? w.no : value;
    case 'date': {
      const d = new Date(`${value}T00:00:00`);
      return Number.isNaN(d.getTime()) ? value : formatDay(d);
    }
    case 'datetime': {
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? value : formatTime(value);
    }
    case 'coordinates': {
      const p = positionOf(value);
      return p ? `${p.lat.toFixed(5)}, ${p.lon.toFixed(5)}` : value;
    }
    default:
      return value;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A stored value as a form's input holds it (a date-time in local time for datetime-local). */
export function toInput(field: Field, value: string | undefined): string {
  if (value === undefined) return '';
  if (field.type === 'datetime' && value) {
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return value;
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  return value;
}

/** What a form's input holds, as the API takes it ('' clears the field). */
export function fromInput(field: Field, input: string): string {
  const text = field.type === 'text' ? input : input.trim();
  if (text === '') return '';
  switch (field.type) {
    case 'number':
      // A German decimal comma is the same number.
      return /^-?\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
    case 'datetime': {
      const d = new Date(text);
      return Number.isNaN(d.getTime()) ? text : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    case 'coordinates': {
      const p = positionOf(text);
      return p ? `${p.lat},${p.lon}` : text;
    }
    default:
      return text;
  }
}

/**
 * The problems of a failed record write by field ID (`sent` is the values list as sent: the API names
 * `values.<index>.value`), in words of the field's type; anything else under `form`.
 */
export function recordProblems(
  err: unknown,
  fields: Field[],
  sent: Array<{ fieldID: string }>,
): Record<string, string> {
  const byField: Record<string, string> = {};
  if (err instanceof ApiError && err.code === 'record_limit_reached') {
    const limit = /(\d+)/.exec(err.message)?.[1];
    return { form: limit ? w.recordLimit(Number(limit)) : explain(err) };
  }
  if (err instanceof ApiError && err.status === 400 && err.details.length > 0) {
    for (const d of err.details) {
      const index = /^values\.(\d+)\./.exec(d.path)?.[1];
      const field = index === undefined ? undefined : fields.find((f) => f.id === sent[Number(index)]?.fieldID);
      if (field) byField[field.id] ??= w.valueProblems[field.type] ?? d.problem;
      else byField.form = explain(err);
    }
    return byField;
  }
  return { form: explain(err) };
}

/** The map's fallback view when nothing has a position yet: Germany as a whole. */
export const FALLBACK_VIEW = { center: { lat: 51.1657, lon: 10.4515 }, zoom: 5 };

/** The field whose values place a record on the map: the first position field. */
export function positionField(entity: Entity): Field | undefined {
  return entity.fields.find((f) => f.type === 'coordinates');
}

/** What names a record in a list or on the map: its first text-like value, else its first value shown. */
export function recordTitle(entity: Entity, record: ThingRecord, fallback: string): string {
  const values = valuesById(record);
  const named = entity.fields.find((f) => ['text', 'selection', 'address'].includes(f.type) && values[f.id]);
  const any = named ?? entity.fields.find((f) => values[f.id]);
  return any ? showValue(any, values[any.id]).slice(0, 80) : fallback;
}

/** Things kept as water sources get the drop on the map (docs/display.md "Water sources"). */
export function markerKind(entity: Entity): string {
  return /hydrant|wasser|water|zistern|cistern|brunnen|well|teich|pond|löschwasser|behälter|tank/i.test(entity.name)
    ? 'water'
    : 'plain';
}
