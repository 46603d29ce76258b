// A station's roster in one request (P9, docs/people.md "The roster import"): JSON, or CSV with the
// header `name,role,mobile,phone,units` (any order; units separated by `;`). Every line is checked
// before anything is created, and every bad line is named.
import { badRequest, type AppError, type ErrorDetail } from '../../errors.js';
import { MAX_IMPORT } from '../../../schemas/people.js';

const COLUMNS = ['name', 'role', 'mobile', 'phone', 'units'] as const;
type Column = (typeof COLUMNS)[number];

const PROBLEM = 'The roster has problems; nothing was imported';

/** Bad numbers named in one answer (as many as the schema's problems: server/http/validation.ts). */
const MAX_NUMBER_PROBLEMS = 20;

/** A CSV record and the line of the file it starts on (a quoted field may span lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Splits CSV text (RFC 4180: quotes, doubled quotes, CRLF or LF) into records with their line numbers. */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\n') line++;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') {
        i++;
        line++;
      } else if (c === '\r') line++;
      row.push(field);
      records.push({ line: start, fields: row });
      row = [];
      field = '';
      start = line;
    } else field += c;
  }
  if (quoted)
    throw badRequest('invalid_body', 'A quote in the CSV is never closed', [
      { in: 'body', path: `line ${start}`, problem: 'a field opens a quote (") that no later quote closes' },
    ]);
  if (field !== '' || row.length) {
    row.push(field);
    records.push({ line: start, fields: row });
  }
  return records;
}

/** The fields of every record. */
export function csvRows(text: string): string[][] {
  return csvRecords(text).map((r) => r.fields);
}

/**
 * The CSV roster as the JSON body (empty cells left out), and how to name a body path as the file's line
 * (`members.3.mobile` → `line 6: mobile`, blank lines and quoted line breaks counted).
 */
export function rosterFromCsv(text: string): {
  body: { members: Array<Partial<Record<Column, unknown>>> };
  line(path: string): string;
} {
  const records = csvRecords(text);
  const header = (records[0]?.fields ?? []).map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(COLUMNS as readonly string[]).includes(h));
  if (!header.includes('name') || unknown.length)
    throw badRequest('invalid_body', `The CSV's first line must be the header ${COLUMNS.join(',')}`, [
      {
        in: 'body',
        path: 'line 1',
        problem: unknown.length ? `unknown column ${unknown.map((u) => `"${u}"`).join(', ')}` : 'has no column "name"',
      },
    ]);
  // Blank lines (a trailing newline, a spreadsheet's empty rows) are no members.
  const lines = records.slice(1).filter((r) => r.fields.some((f) => f.trim() !== ''));
  if (lines.length > MAX_IMPORT)
    throw badRequest('invalid_body', `A roster import takes at most ${MAX_IMPORT} members; split it`);
  const members = lines.map(({ fields }) => {
    const entry: Partial<Record<Column, unknown>> = {};
    header.forEach((column, i) => {
      const value = (fields[i] ?? '').trim();
      if (value === '') return;
      entry[column as Column] =
        column === 'units'
          ? value
              .split(';')
              .map((u) => u.trim())
              .filter(Boolean)
          : value;
    });
    return entry;
  });
  return { body: { members }, line: (path) => csvLineOf(path, (i) => lines[i]?.line) };
}

/** A body path (`members.3.mobile`) named as the CSV line it came from (`line 5: mobile`). */
export function csvLineOf(path: string, lineOf: (index: number) => number | undefined = (i) => i + 2): string {
  const match = /^members\.(\d+)(?:\.(\w+))?/.exec(path);
  if (!match) return path;
  const line = lineOf(Number(match[1])) ?? Number(match[1]) + 2;
  return `line ${line}${match[2] ? `: ${match[2]}` : ''}`;
}

/** The problems of every number (mobile, phone) that is text, as `check` finds them (it throws the number's 400). */
export function numberProblems(members: unknown, check: (gsm: string) => string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (!Array.isArray(members)) return details;
  members.forEach((m, i) => {
    if (details.length >= MAX_NUMBER_PROBLEMS) return;
    for (const field of ['mobile', 'phone'] as const) {
      const value = (m as Record<string, unknown> | null)?.[field];
      if (typeof value !== 'string') continue;
      try {
        check(value);
      } catch (err) {
        const problem = (err as AppError).details?.[0]?.problem ?? (err as Error).message;
        details.push({ in: 'body', path: `members.${i}.${field}`, problem });
      }
    }
  });
  return details;
}

/** The lines with their numbers in the stored form; a 400 naming every bad number otherwise (`line`: CSV lines). */
export function checkNumbers<T extends { mobile?: string; phone?: string }>(
  members: T[],
  check: (gsm: string) => string,
  line: ((path: string) => string) | null,
): T[] {
  const details = numberProblems(members, check);
  if (details.length)
    throw badRequest(
      'invalid_body',
      PROBLEM,
      details.map((d) => ({ ...d, path: line ? line(d.path) : d.path })),
    );
  return members.map((m) => ({
    ...m,
    ...(m.mobile !== undefined ? { mobile: check(m.mobile) } : {}),
    ...(m.phone !== undefined ? { phone: check(m.phone) } : {}),
  }));
}
