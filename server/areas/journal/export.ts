// A journal as a record to hand over (docs/api.md "Journal export"): every entry, deleted ones kept and
// marked, as CSV (RFC 4180, UTF-8 with BOM, formulas neutralised) or PDF (DejaVu Sans embedded, page
// numbers and the entries' SHA-256 on every page). The SHA-256 is computed over the entries themselves,
// not over a file, so the CSV, the PDF and the response header name the same value whatever the
// format, time zone or language, and a printed copy can be checked against the service.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import type PDFKit from 'pdfkit';
import type { Database } from '../../db/database.js';
import { namesOf, organizationName } from '../../identity/lookup.js';
import type { Actor } from '../../identity/actor.js';
import { unavailable } from '../../errors.js';
import { entriesAsOf, MissingEntry } from './chunks.js';
import type { JournalLog } from './log.js';
import type { JournalStateData } from './state.js';
import { journalModels, type EntryDoc, type JournalDoc, type Stamp } from './models.js';
import type { JournalCommands } from './journals.js';

export type ExportFormat = 'csv' | 'pdf';
export type ExportLanguage = 'de' | 'en';

/** A file to send: its bytes, media type, name, and the entries' SHA-256. */
export interface ExportFile {
  body: Buffer;
  type: string;
  filename: string;
  sha256: string;
}

/** Reads of a journal that changes while it is exported, before the export gives up (503). */
const SNAPSHOT_TRIES = 3;
/** PDF entries laid out between two turns of the event loop: an export never holds the process long. */
const ROWS_PER_TURN = 25;

/** What the export names of the event a journal belongs to. */
export interface EventSummary {
  event: string;
  address: string;
}

// "B3 Wohnungsbrand, Goethestraße 5 (2)": the keyword and address of an alarm the service raised, else
// the event's number as the journal was opened with it.
function eventLine(eventId: number | null, event: EventSummary | null, none: string): string {
  if (eventId === null) return none;
  if (!event) return String(eventId);
  return `${[event.event, event.address].filter(Boolean).join(', ')} (${eventId})`;
}

const WORDS = {
  en: {
    title: 'Operations journal',
    organization: 'Organization',
    event: 'Event',
    none: "none (the organization's journal)",
    first: 'First entry',
    last: 'Last entry',
    state: 'State',
    closed: 'closed',
    open: 'open',
    exported: 'Exported',
    timeZone: 'Time zone',
    entries: 'Entries',
    deletedCount: 'deleted',
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    deleted: 'DELETED',
    by: 'by',
    at: 'at',
    custom: 'stated time',
    location: 'Location',
    attachment: 'Attachment',
    noEntries: 'No entries.',
    apiKey: 'API key',
    columns: [
      'serialNumber',
      'time',
      'localTime',
      'customTime',
      'author',
      'category',
      'text',
      'location',
      'attachment',
      'deleted',
      'deletedTime',
      'deletedBy',
    ],
  },
  de: {
    title: 'Einsatztagebuch',
    organization: 'Organisation',
    event: 'Einsatz',
    none: 'keiner (Tagebuch der Organisation)',
    first: 'Erster Eintrag',
    last: 'Letzter Eintrag',
    state: 'Status',
    closed: 'abgeschlossen',
    open: 'offen',
    exported: 'Exportiert',
    timeZone: 'Zeitzone',
    entries: 'Einträge',
    deletedCount: 'gelöscht',
    page: (n: number, of: number) => `Seite ${n} von ${of}`,
    deleted: 'GELÖSCHT',
    by: 'von',
    at: 'am',
    custom: 'angegebene Zeit',
    location: 'Ort',
    attachment: 'Anhang',
    noEntries: 'Keine Einträge.',
    apiKey: 'API-Schlüssel',
    columns: [
      'Nr',
      'Zeit',
      'Ortszeit',
      'angegebene Zeit',
      'Verfasser',
      'Kategorie',
      'Text',
      'Ort',
      'Anhang',
      'gelöscht',
      'Löschzeit',
      'gelöscht von',
    ],
  },
} as const;

/** One entry as exported, with its author's and deleter's names resolved. */
interface Row {
  entry: EntryDoc;
  author: string;
  deletedBy: string | null;
}

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

// Building a formatter costs far more than using one: one per zone and language.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-22 14:02:37 MEZ"-style local time in `timeZone`. */
function localTime(iso: string, timeZone: string, language: ExportLanguage): string {
  const date = new Date(iso);
  // A time JavaScript cannot read (a leap second) is shown as stored.
  if (Number.isNaN(date.getTime())) return iso;
  const key = `${timeZone}|${language}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    if (formatters.size > 100) formatters.clear();
    formatters.set(key, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
}

/**
 * A text pdfkit can lay out in time: a zero-width space after every 40 characters without a space. A
 * word wider than the line is otherwise split by measuring its rest again for every line (a
 * 10,000-character word took 3 s and 150 MB). The printed text reads the same; the hash is the stored text's.
 */
function breakable(text: string): string {
  return text.replace(/(\S{40})(?=\S)/g, '$1\u200B');
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

const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = path.join(fontDir, 'DejaVuSans.ttf');
const FONT_BOLD = path.join(fontDir, 'DejaVuSans-Bold.ttf');

/** The journal export command. */
export class JournalExport {
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
    return { body: await this.pdf(rows, header, language), type: 'application/pdf', filename, sha256 };
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

  private async pdf(
    rows: Row[],
    h: {
      journal: JournalDoc;
      organization: string | null;
      event: EventSummary | null;
      closed: boolean;
      total: number;
      sha256: string;
      timeZone: string;
    },
    language: ExportLanguage,
  ): Promise<Buffer> {
    const w = WORDS[language];
    // Loaded on the first PDF: pdfkit and its fonts cost a start (and every admin command) a third of a second.
    const PDFDocument: typeof PDFKit = (await import('pdfkit')).default;
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: 50, bottom: 60, left: 50, right: 50 },
      bufferPages: true,
      info: { Title: `${w.title} ${h.journal._id}`, Producer: 'alarm-hub' },
    });
    doc.registerFont('text', FONT);
    doc.registerFont('bold', FONT_BOLD);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve, reject) => {
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
    const local = (iso: string) => localTime(iso, h.timeZone, language);
    const width = doc.page.width - 100;

    doc.font('bold').fontSize(16).text(`${w.title} #${h.journal._id}`);
    doc.moveDown(0.4).font('text').fontSize(10);
    const deleted = rows.filter((r) => r.entry.deleted).length;
    for (const [label, value] of [
      [w.organization, `${h.organization ?? ''} (ID ${h.journal.organizationId})`.trim()],
      [w.event, eventLine(h.journal.eventId, h.event, w.none)],
      [w.first, rows.length ? `${local(rows[0].entry.created.time)} (${rows[0].entry.created.time})` : '–'],
      [w.last, rows.length ? `${local(rows.at(-1)!.entry.created.time)} (${rows.at(-1)!.entry.created.time})` : '–'],
      [w.state, h.closed ? w.closed : w.open],
      [w.entries, `${h.total} (${deleted} ${w.deletedCount})`],
      [w.timeZone, h.timeZone],
      [w.exported, new Date().toISOString()],
      ['SHA-256', h.sha256],
    ])
      doc.font('bold').text(`${label}: `, { continued: true }).font('text').text(value);
    doc.moveDown(0.8);
    if (rows.length === 0) doc.text(w.noEntries);

    for (const [index, { entry: e, author, deletedBy }] of rows.entries()) {
      if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
      if (doc.y > doc.page.height - 140) doc.addPage();
      const head = [`#${e.serial}`, local(e.created.time), author, e.category?.name ?? '']
        .filter(Boolean)
        .join('  ·  ');
      doc
        .font('bold')
        .fontSize(10)
        .fillColor(e.deleted ? '#666666' : '#000000')
        .text(head, { width });
      if (e.created.timeCustom)
        doc
          .font('text')
          .fontSize(9)
          .text(`${w.custom}: ${local(e.created.timeCustom)}`, { width });
      doc
        .font('text')
        .fontSize(10)
        .text(breakable(e.text), { width, strike: Boolean(e.deleted) });
      if (e.location)
        doc.fontSize(9).text(`${w.location}: ${breakable(e.location)}`, { width, strike: Boolean(e.deleted) });
      if (e.attachment)
        doc.fontSize(9).text(`${w.attachment}: ${breakable(e.attachment)}`, { width, strike: Boolean(e.deleted) });
      if (e.deleted)
        doc
          .font('bold')
          .fontSize(9)
          .fillColor('#b00020')
          .text(`${w.deleted} ${w.by} ${deletedBy} ${w.at} ${local(e.deleted.time)} (${e.deleted.time})`, { width });
      doc.fillColor('#000000').moveDown(0.6);
    }

    // Every page: its number and the entries' SHA-256, below the bottom margin.
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const y = doc.page.height - 45;
      doc.page.margins.bottom = 0;
      doc
        .font('text')
        .fontSize(8)
        .fillColor('#333333')
        .text(`${w.title} #${h.journal._id} · ${w.page(i - range.start + 1, range.count)}`, 50, y, {
          width,
          lineBreak: false,
        })
        .text(`SHA-256 ${h.sha256}`, 50, y + 11, { width, lineBreak: false });
    }
    doc.end();
    return done;
  }
}
