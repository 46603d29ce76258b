// Profiles (docs/inputs.md "Profiles"): per field a regular expression whose first group is the value,
// tried on a document's text; what they find becomes the alarm. An admin writes the expressions, so they
// run in a context of their own under a time limit: a pattern that backtracks without end costs one
// document ("took too long"), never the service's event loop.
import { Worker } from 'node:worker_threads';
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

// The expressions run on a thread of their own, in a context that gets the text and their sources and
// nothing else, under the time limit: the service's event loop never waits for them. The thread's code
// is plain JavaScript (evaluated, not a module file), the same in the sources and the compiled build.
const THREAD = `
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const sandbox = vm.createContext(Object.create(null));
const run = new vm.Script(\`(() => {
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
})()\`);
parentPort.on('message', ({ id, text, patterns }) => {
  Object.assign(sandbox, { text, patterns });
  try {
    parentPort.postMessage({ id, fields: run.runInContext(sandbox, { timeout: ${LIMIT_MS} }) });
  } catch (err) {
    parentPort.postMessage({ id, timeout: err && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT', error: String(err && err.message) });
  } finally {
    Object.assign(sandbox, { text: '', patterns: {} });
  }
});
`;

interface Pending {
  resolve: (fields: FieldValues) => void;
  reject: (err: Error) => void;
}

/** Runs profiles on its thread, one after another; a thread that stops answering is replaced. */
export class ProfileRunner {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  /** The profile's fields found in the text. Rejects when the expressions take longer than the limit. */
  fieldsOf(text: string, profile: ProfileInput): Promise<FieldValues> {
    const id = ++this.next;
    const worker = this.thread();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, text, patterns: profile.fields });
    });
  }

  /** Ends the thread (the service stops); what waits is refused. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.fail(new Error('the service is stopping'));
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });
    worker.unref();
    worker.on('message', (m: { id: number; fields?: string; timeout?: boolean; error?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!waiting) return;
      if (m.fields !== undefined) waiting.resolve(JSON.parse(m.fields) as FieldValues);
      else if (m.timeout)
        waiting.reject(new Error(`the profile's expressions took longer than ${LIMIT_MS} ms on this text`));
      else waiting.reject(new Error(`the profile could not be run: ${m.error}`));
    });
    // Out of memory (a match list too large) or gone: what waited fails, the next run starts a new thread.
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = null;
      this.fail(new Error(`the profile could not be run: ${why}`));
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', () => lost('its thread ended'));
    this.worker = worker;
    return worker;
  }

  private fail(err: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
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
export async function extract(
  runner: ProfileRunner,
  textIn: string,
  profile: ProfileInput,
  knownUnits: string[] = [],
): Promise<Extracted> {
  const fields = await runner.fieldsOf(textIn, profile);
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
