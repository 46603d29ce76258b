// Profiles (docs/inputs.md "Profiles"): per field a regular expression whose first group is the value,
// tried on a document's text; what they find becomes the alarm. An admin writes the expressions, so they
// run in a context of their own under a time limit: a pattern that backtracks without end costs one
// document ("took too long"), never the service's event loop.
import vm from 'node:vm';
import { PROFILE_FIELDS, type ProfileInput } from '../../../schemas/inputs.js';
import type { ErrorDetail } from '../../errors.js';

export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type FieldValues = Partial<Record<ProfileField, string | string[] | null>>;

/** What a document would raise. */
export interface IncidentFields {
  event: string;
  message: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  units: string[];
  dispatchNumber: string | null;
  keyword: string | null;
}

export interface Extracted {
  fields: FieldValues;
  alarm: IncidentFields | null;
  /** Why nothing would be raised. */
  reason: string | null;
}

/** The time all of one profile's expressions may take on one text. */
const LIMIT_MS = 200;
const MAX_UNITS = 50;

/** The profile's expressions that do not compile, as 400 details. */
export function profileProblems(profile: ProfileInput | null | undefined): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [field, source] of Object.entries(profile?.fields ?? {})) {
    try {
      new RegExp(source, 'm');
    } catch (err) {
      problems.push({
        in: 'body',
        path: `profile.fields.${field}`,
        problem: `is no regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
      });
    }
  }
  return problems;
}

// One context for every run: the expressions get the text and their sources, nothing else.
const sandbox = vm.createContext(Object.create(null) as object);
const RUN = new vm.Script(`(() => {
  const out = {};
  for (const [field, source] of Object.entries(patterns)) {
    if (field === 'units') {
      const all = [];
      for (const m of text.matchAll(new RegExp(source, 'gm'))) {
        all.push((m[1] ?? m[0]).trim());
        if (all.length >= ${MAX_UNITS}) break;
      }
      out[field] = all;
    } else {
      const m = new RegExp(source, 'm').exec(text);
      out[field] = m ? (m[1] ?? m[0]).trim() : null;
    }
  }
  return JSON.stringify(out);
})()`);

/** The profile's fields found in the text. Throws when the expressions take longer than the limit. */
export function fieldsOf(text: string, profile: ProfileInput): FieldValues {
  Object.assign(sandbox, { text, patterns: profile.fields });
  try {
    return JSON.parse(RUN.runInContext(sandbox, { timeout: LIMIT_MS }) as string) as FieldValues;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new Error(`the profile's expressions took longer than ${LIMIT_MS} ms on this text`, { cause: err });
    throw err;
  } finally {
    Object.assign(sandbox, { text: '', patterns: {} });
  }
}

// "50,7766" and "50.7766" alike; null when it is no number in range.
function coordinate(value: string | string[] | null | undefined, max: number): number | null {
  if (typeof value !== 'string') return null;
  const n = Number(value.replace(',', '.').replace(/[^0-9.+-]/g, ''));
  return value.trim() !== '' && Number.isFinite(n) && Math.abs(n) <= max ? n : null;
}

const squeeze = (name: string) => name.toLowerCase().replace(/[\s/_.-]+/g, '');

/** Unit names as the organization writes them ("HLF20" → "HLF 20"), others as found. */
export function matchUnits(found: string[], known: string[]): string[] {
  const byKey = new Map(known.map((name) => [squeeze(name), name]));
  const out: string[] = [];
  for (const name of found) {
    const unit = (byKey.get(squeeze(name)) ?? name).slice(0, 100);
    if (unit && !out.includes(unit)) out.push(unit);
  }
  return out;
}

const text = (value: string | string[] | null | undefined) => (typeof value === 'string' ? value : '');

/** The fields a text gives under the profile, and the alarm they make (null, with the reason, when none). */
export function extract(textIn: string, profile: ProfileInput, knownUnits: string[] = []): Extracted {
  const fields = fieldsOf(textIn, profile);
  const event = text(fields.event).slice(0, 500);
  if (!event)
    return { fields, alarm: null, reason: 'the profile found no event (its "event" expression matched nothing)' };
  const latitude = coordinate(fields.latitude, 90);
  const longitude = coordinate(fields.longitude, 180);
  const placed = latitude !== null && longitude !== null;
  const address = text(fields.address) || [text(fields.street), text(fields.city)].filter(Boolean).join(', ');
  return {
    fields,
    alarm: {
      event,
      message: text(fields.message).slice(0, 10_000),
      address: address.slice(0, 500),
      latitude: placed ? latitude : null,
      longitude: placed ? longitude : null,
      units: matchUnits(Array.isArray(fields.units) ? fields.units : [], knownUnits),
      dispatchNumber: text(fields.dispatchNumber).slice(0, 100) || null,
      keyword: text(fields.keyword).slice(0, 200) || null,
    },
    reason: null,
  };
}
