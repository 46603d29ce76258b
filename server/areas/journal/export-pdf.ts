// The journal as a PDF (docs/api.md "Journal export"): A4, DejaVu Sans embedded, a header, every entry
// (deleted ones struck through), and on every page its number and the entries' SHA-256. Rendered in
// turns, so that the process answers others in between.
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type PDFKit from 'pdfkit';
import { WORDS, localTime, type EventSummary, type ExportLanguage, type Row } from './export-words.js';
import type { JournalDoc } from './models.js';

// A PDF is rendered in turns of about this long, so that the process answers others in between
// (entries of 10,000 characters take milliseconds each; a fixed count of rows was a second's stall).
const TURN_MS = 8;

// "B3 Wohnungsbrand, Goethestraße 5 (2)": the keyword and address of an alarm the service raised, else
// the event's number as the journal was opened with it.
function eventLine(eventId: number | null, event: EventSummary | null, none: string): string {
  if (eventId === null) return none;
  if (!event) return String(eventId);
  return `${[event.event, event.address].filter(Boolean).join(', ')} (${eventId})`;
}

/**
 * A text pdfkit can lay out in time: a zero-width space after every 40 characters without a space. A
 * word wider than the line is otherwise split by measuring its rest again for every line (a
 * 10,000-character word took 3 s and 150 MB). The printed text reads the same; the hash is the stored text's.
 */
function breakable(text: string): string {
  return text.replace(/(\S{40})(?=\S)/g, '$1\u200B');
}

const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = path.join(fontDir, 'DejaVuSans.ttf');
const FONT_BOLD = path.join(fontDir, 'DejaVuSans-Bold.ttf');

/** The PDF of the rows, with the header `h`. */
export async function renderPdf(
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

  let turn = performance.now();
  for (const { entry: e, author, deletedBy } of rows) {
    if (performance.now() - turn >= TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
    if (doc.y > doc.page.height - 140) doc.addPage();
    const head = [`#${e.serial}`, local(e.created.time), author, e.category?.name ?? ''].filter(Boolean).join('  ·  ');
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
    if (performance.now() - turn >= TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
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
