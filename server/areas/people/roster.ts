// A station's roster in one request (P9, docs/people.md "The roster import"): JSON, or CSV with the
// header `name,role,mobile,phone,units` (any order; units separated by `;`). Every line is checked
// before anything is created, and every bad line is named.
import { badRequest, type AppError, type ErrorDetail } from '../../errors.js';
import { MAX_IMPORT } from '../../../schemas/people.js';

const COLUMNS = ['name', 'role', 'mobile', 'phone', 'units'] as const;
type Column = (typeof COLUMNS)[number];

const PROBLEM = 'The roster has problems; nothing was imported';

/** Splits CSV text (RFC 4180: quotes, doubled quotes, CRLF or LF) into rows of fields. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
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
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The CSV roster as the JSON body (empty cells left out); its lines must then pass the body's schema. */
export function rosterFromCsv(text: string): { members: Array<Partial<Record<Column, unknown>>> } {
  const rows = csvRows(text);
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
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
  const lines = rows.slice(1).filter((r) => r.some((f) => f.trim() !== ''));
  if (lines.length > MAX_IMPORT)
    throw badRequest('invalid_body', `A roster import takes at most ${MAX_IMPORT} members; split it`);
  return {
    members: lines.map((fields) => {
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
    }),
  };
}

/** A body path (`members.3.mobile`) named as the CSV line it came from (`line 5: mobile`). */
export function csvLineOf(path: string): string {
  const match = /^members\.(\d+)(?:\.(\w+))?/.exec(path);
  if (!match) return path;
  return `line ${Number(match[1]) + 2}${match[2] ? `: ${match[2]}` : ''}`;
}

/** The numbers of every line checked by `check` (it throws the number's 400); every bad one is named. */
export function checkNumbers<T extends { mobile?: string; phone?: string }>(
  members: T[],
  check: (gsm: string) => string,
  csv: boolean,
): T[] {
  const details: ErrorDetail[] = [];
  const checked = members.map((m, i) => {
    const out = { ...m };
    for (const field of ['mobile', 'phone'] as const) {
      const value = m[field];
      if (value === undefined) continue;
      try {
        out[field] = check(value);
      } catch (err) {
        const problem = (err as AppError).details?.[0]?.problem ?? (err as Error).message;
        const path = `members.${i}.${field}`;
        details.push({ in: 'body', path: csv ? csvLineOf(path) : path, problem });
      }
    }
    return out;
  });
  if (details.length) throw badRequest('invalid_body', PROBLEM, details);
  return checked;
}
