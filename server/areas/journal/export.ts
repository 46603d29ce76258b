// A journal as a record to hand over (docs/api.md "Journal export"): every entry, deleted ones kept and
// marked, as CSV (RFC 4180, UTF-8 with BOM, formulas neutralised) or PDF (DejaVu Sans embedded, page
// numbers and the entries' SHA-256 on every page). The SHA-256 is computed over the entries themselves,
// not over a file, so the CSV, the PDF and the response header name the same value whatever the
// format, time zone or language, and a printed copy can be checked against the service.
import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { namesOf, organizationName } from '../../identity/lookup.js';
import type { Actor } from '../../identity/actor.js';
import { rateLimited, unavailable } from '../../errors.js';
import { entriesAsOf, MissingEntry } from './chunks.js';
import type { JournalLog } from './log.js';
import type { JournalStateData } from './state.js';
import { journalModels, type EntryDoc, type JournalDoc, type Stamp } from './models.js';
import type { JournalCommands } from './journals.js';
import { renderPdf } from './export-pdf.js';
import { WORDS, localTime, type EventSummary, type ExportLanguage, type Row } from './export-words.js';

export type { EventSummary, ExportLanguage } from './export-words.js';

export type ExportFormat = 'csv' | 'pdf';

/** A file to send: its bytes, media type, name, and the entries' SHA-256. */
export interface ExportFile {
  body: Buffer;
  type: string;
  filename: string;
  sha256: string;
}

/** Reads of a journal that changes while it is exported, before the export gives up (503). */
const SNAPSHOT_TRIES = 3;
/** PDFs rendered at once by one process; further ones wait their turn (at most QUEUED_PDFS of them). */
export const CONCURRENT_PDFS = 2;
const QUEUED_PDFS = 8;

/** The entries' SHA-256: over one JSON array per entry in serial order, joined by "\n" (docs/api.md). */
export function entriesDigest(entries: EntryDoc[]): string {
  const hash = createHash('sha256');
  const who = (s: Stamp) => (s.by.apiKeyId !== null ? `apikey:${s.by.apiKeyId}` : `user:${s.by.userId}`);
  entries.forEach((e, i) => {
    hash.update(
      (i > 0 ? '\n' : '') +
        JSON.stringify([
          e.serial,
          e.created.time,
          e.created.timeCustom,
          who(e.created),
          e.category?.name ?? null,
          e.text,
          e.location,
          e.attachment,
          e.deleted ? e.deleted.time : null,
          e.deleted ? who(e.deleted) : null,
        ]),
    );
  });
  return hash.digest('hex');
}

// What a spreadsheet may read as the start of a formula: =, +, -, @ (also their full-width forms), after
// any leading white space (a space, NBSP, a line feed, a zero-width space: spreadsheets trim some), or a
// tab or carriage return first.
const FORMULA = /^[\s\u200b]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r]/;

/** A cell for a spreadsheet: a text that starts like a formula stays text (prefixed with '). */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  // A semicolon or tab is quoted too: spreadsheets set to another separator (German Excel splits at ";")
  // then keep the cell whole, so a formula after it never becomes a cell of its own.
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The journal export command. */
export class JournalExport {
  // Organizations with a PDF export being made or waiting on this process: one at a time each.
  private readonly exporting = new Set<number>();
  private rendering = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly db: Database,
    private readonly log: JournalLog,
    private readonly journals: JournalCommands,
    /** The alarm an event's journal belongs to (its keyword and address), when the service raised it. */
    private readonly eventOf: (organizationId: number, eventId: number) => Promise<EventSummary | null> = async () =>
      null,
  ) {}

  /** Every entry of a journal the actor may use (another organization's is not found), as a file. */
  async export(
    actor: Actor,
    journalId: number,
    format: ExportFormat,
    timeZone: string,
    language: ExportLanguage,
  ): Promise<ExportFile> {
    const journal = await this.journals.readable(actor, journalId);
    if (format === 'csv') return this.file(journal, format, timeZone, language);
    // A PDF export of an organization runs while no other of it does on this process (429 at once,
    // before anything is read), and at most CONCURRENT_PDFS render at once (the others wait; beyond
    // QUEUED_PDFS waiting, 503): three exports at once cost others no more than one does.
    if (this.exporting.has(journal.organizationId)) throw rateLimited(5);
    this.exporting.add(journal.organizationId);
    try {
      return await this.file(journal, format, timeZone, language);
    } finally {
      this.exporting.delete(journal.organizationId);
    }
  }

  private async file(
    journal: JournalDoc,
    format: ExportFormat,
    timeZone: string,
    language: ExportLanguage,
  ): Promise<ExportFile> {
    const journalId = Number(journal._id);
    const { state, entries } = await this.snapshot(journalId);
    const userIds = entries
      .flatMap((e) => [e.created.by.userId, e.deleted?.by.userId])
      .filter((id): id is number => typeof id === 'number');
    const [names, organization] = await Promise.all([
      namesOf(this.db, userIds),
      organizationName(this.db, journal.organizationId),
    ]);
    const words = WORDS[language];
    const who = (s: Stamp) =>
      s.by.apiKeyId !== null
        ? `${words.apiKey} ${s.by.apiKeyId}`
        : `${names.get(s.by.userId ?? -1) ?? ''} (user ${s.by.userId})`.trim();
    const rows: Row[] = entries.map((entry) => ({
      entry,
      author: who(entry.created),
      deletedBy: entry.deleted ? who(entry.deleted) : null,
    }));
    const sha256 = entriesDigest(entries);
    const filename = `journal-${journalId}.${format}`;
    if (format === 'csv')
      return { body: this.csv(rows, timeZone, language), type: 'text/csv; charset=utf-8', filename, sha256 };
    const event = journal.eventId === null ? null : await this.eventOf(journal.organizationId, journal.eventId);
    const header = { journal, organization, event, closed: state.closed, total: entries.length, sha256, timeZone };
    const body = await this.inTurn(() => renderPdf(rows, header, language));
    return { body, type: 'application/pdf', filename, sha256 };
  }

  // At most CONCURRENT_PDFS render at once on this process; the others wait their turn.
  private async inTurn<T>(render: () => Promise<T>): Promise<T> {
    if (this.rendering >= CONCURRENT_PDFS) {
      if (this.waiting.length >= QUEUED_PDFS)
        throw unavailable('Too many journal PDFs are being made on this process; try again', 5);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.rendering++;
    try {
      return await render();
    } finally {
      // The turn passes to the next waiting export (the count stays), or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.rendering--;
    }
  }

  /**
   * Every entry as of one log position: read, then the head looked at again; when a change came in
   * between (a delete marked after its entry was read), read again, so the file never shows a state
   * the journal never had. Every serial up to the head's count must be there: a gap is refused (503),
   * never hashed over.
   */
  private async snapshot(journalId: number): Promise<{ state: JournalStateData; entries: EntryDoc[] }> {
    for (let attempt = 0; attempt < SNAPSHOT_TRIES; attempt++) {
      const { position, state } = await this.log.head(journalId);
      let entries: EntryDoc[];
      try {
        entries = await entriesAsOf(journalModels(this.db), journalId, state);
      } catch (err) {
        if (err instanceof MissingEntry)
          throw unavailable(`Entry ${err.serial} of journal ${journalId} cannot be read yet; try again`);
        throw err;
      }
      if ((await this.log.head(journalId)).position === position) return { state, entries };
    }
    throw unavailable('The journal changed during every attempt to export it; try again');
  }

  private csv(rows: Row[], timeZone: string, language: ExportLanguage): Buffer {
    const lines = [WORDS[language].columns.map(csvCell).join(',')];
    for (const { entry: e, author, deletedBy } of rows) {
      lines.push(
        [
          e.serial,
          e.created.time,
          localTime(e.created.time, timeZone, language),
          e.created.timeCustom ?? '',
          author,
          e.category?.name ?? '',
          e.text,
          e.location,
          e.attachment,
          e.deleted ? 'true' : 'false',
          e.deleted?.time ?? '',
          deletedBy ?? '',
        ]
          .map(csvCell)
          .join(','),
      );
    }
    return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
  }
}
