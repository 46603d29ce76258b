// What the journal's CSV and PDF share (docs/api.md "Journal export"): the labels in German and English,
// the exported row, the local time, and what the header names of the event.
import type { EntryDoc } from './models.js';

export type ExportLanguage = 'de' | 'en';

/** What the export names of the event a journal belongs to. */
export interface EventSummary {
  event: string;
  address: string;
}

export const WORDS = {
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
export interface Row {
  entry: EntryDoc;
  author: string;
  deletedBy: string | null;
}

// Building a formatter costs far more than using one: one per zone and language.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** "2026-11-22 14:02:37 MEZ"-style local time in `timeZone`. */
export function localTime(iso: string, timeZone: string, language: ExportLanguage): string {
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
