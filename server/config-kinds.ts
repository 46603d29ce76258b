// The kinds of environment variables (server/config-variables.ts declares each one with these): an
// integer or a time in milliseconds with its bounds, a text with its format, a flag, a file; each knows
// how to read its text, its JSON schema, its default and how it is printed.
import path from 'node:path';

/** One environment variable. `T` is the value the service uses. */
export interface Variable<T = unknown> {
  /** JSON schema of the value `read` makes of the text (an unset or empty variable is not checked). */
  schema: Record<string, unknown>;
  /** The text as the schema sees it: digits become a number, anything else stays text (and fails). */
  read(text: string): unknown;
  /** The checked value as the service uses it (a 0 that means the default, a resolved path). */
  finish(value: never): T;
  default: T;
  /** README's Default column. */
  defaultText: string;
  /** README's Meaning column (Markdown, one line). */
  help: string;
  /** What a valid value is, after "must be" in the start-up error. */
  expect: string;
  /** Its value in the start-up lines; `all` holds every variable's. Secrets are never shown. */
  show?(value: T, all: Record<string, unknown>): string;
  /** After the origin in the start-up lines, e.g. "no cap" for a 0. */
  note?(value: T): string | undefined;
  /** Never echoed, neither in the start-up lines nor in an error. */
  secret?: boolean;
  /** What leaving it unset does, for the error's fix. */
  unset?: string;
  /** The text as an error may echo it: a connection string without its credentials. */
  redact?(text: string): string;
}

/** Largest delay a Node.js timer takes; a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface IntegerOptions {
  default: number;
  help: string;
  max?: number;
  /** The smallest value taken (0 unless named). */
  min?: number;
  /** A 0 means the default (documented in the help) rather than a timer that spins. */
  zeroIsDefault?: boolean;
  note?(value: number): string | undefined;
}

export function integer(o: IntegerOptions): Variable<number> {
  const max = o.max ?? Number.MAX_SAFE_INTEGER;
  return {
    schema: { type: 'integer', minimum: o.min ?? 0, maximum: max },
    read: (text) => (/^[0-9]+$/.test(text) ? Number(text) : text),
    finish: (value: number) => (o.zeroIsDefault && value === 0 ? o.default : value),
    default: o.default,
    defaultText: String(o.default),
    help: o.help,
    expect: `${o.min ? `an integer of at least ${o.min}` : 'a non-negative integer'}${max === Number.MAX_SAFE_INTEGER ? '' : ` up to ${max}`}`,
    note: o.note,
  };
}

/** Milliseconds: bounded by what a timer takes. */
export const millis = (o: IntegerOptions) => integer({ max: MAX_TIMER_MS, ...o });

// A typo can make a URI unparsable, so everything up to its last "@" after the scheme is hidden.
export const withoutCredentials = (text: string) => text.replace(/^([A-Za-z0-9+.-]*:\/\/)?.*@/, '$1***@');

interface TextOptions<T> {
  default: T;
  defaultText?: string;
  help: string;
  /** A format registered in server/config.ts, and what it means for the error. */
  format?: string;
  expect?: string;
  /** What an unset variable means, shown at start: "(unset: …)". */
  unset?: string;
  show?: Variable<T>['show'];
  secret?: boolean;
  redact?(text: string): string;
  finish?(value: string): T;
}

export function text<T extends string | undefined>(o: TextOptions<T>): Variable<T> {
  return {
    schema: { type: 'string', maxLength: 4096, ...(o.format ? { format: o.format } : {}) },
    read: (value) => value,
    finish: o.finish ?? ((value: string) => value as T),
    default: o.default,
    defaultText: o.defaultText ?? (o.default === undefined || o.default === '' ? 'unset' : String(o.default)),
    help: o.help,
    expect: o.expect ?? 'text of at most 4096 characters',
    secret: o.secret,
    unset: o.unset,
    redact: o.redact,
    show:
      o.show ??
      ((value) =>
        value === undefined || value === ''
          ? `(unset${o.unset ? `: ${o.unset}` : ''})`
          : o.secret
            ? '(set, not shown)'
            : String(value)),
  };
}

/** Yes or no; anything but these four is a typo, not a no. */
export function flag(help: string): Variable<boolean> {
  return {
    schema: { type: 'string', enum: ['true', '1', 'false', '0'] },
    read: (value) => value,
    finish: (value: string) => value === 'true' || value === '1',
    default: false,
    defaultText: 'false',
    help,
    expect: 'true, 1, false or 0',
  };
}

/** A file read at start (its contents are never printed). */
export const file = (help: string, unset: string) =>
  text<string | undefined>({ default: undefined, help, unset, finish: (v) => path.resolve(v) });

/** A URL of a push gateway's host or endpoint. */
export const httpUrl = (o: TextOptions<string>) =>
  text({ format: 'http-url', expect: 'an http:// or https:// URL', ...o });

/** The variables in README's order. Kinds are declared by the helpers above. */
/** A gateway URL as printed: without user info, password or query. */
export function gatewayShown(uri: string): string {
  try {
    const url = new URL(uri);
    return `${url.origin}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return '(set, not shown)';
  }
}

/** Hides the password of a connection URI so it can be printed. */
export function redactUri(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return uri.replace(/\/\/[^@/]*@/, '//***@');
  }
}
