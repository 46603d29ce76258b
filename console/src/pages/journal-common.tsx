// What the journal's parts share (/console/journal and the overview's latest entries): the API's shapes
// (docs/api.md "Journal"), who did something in words, the state table's refusals in words, and the
// rule by which an entry the hub sends joins a list read page by page.
import type { JournalEntryView, JournalStateView, StampView } from '../../../common/hub-protocol.js';
import { ApiError } from '../api.js';
import { formatTime, words } from '../i18n.js';
import { explain } from '../ui.js';

export type { JournalEntryView, JournalView, StampView } from '../../../common/hub-protocol.js';
export type { CategoryView } from '../../../schemas/journal.js';

/** A journal's state as the hub sends it after every change: lock, closed, how many entries. */
export type JournalState = JournalStateView & { totalEntries: number };

/** Names by user ID (P6), for authors and the lock's holder. */
export type Names = ReadonlyMap<number, string>;

export const jw = words(
  {
    person: (id: number) => `Person ${id}`,
    apiKey: (id: number) => `API-Schlüssel ${id}`,
    serial: (n: number) => `Nr. ${n}`,
    noCategory: 'ohne Kategorie',
    place: 'Ort',
    writtenAt: (time: string) => `eingetragen ${time}`,
    deletedBy: (who: string, time: string) => `gelöscht von ${who}, ${time}`,
    refusedLocked: 'Jemand anderes hat das Tagebuch gesperrt: nur diese Person schreibt gerade.',
    refusedNotLocked: 'Das Tagebuch ist nicht von Ihnen gesperrt. Sperren Sie es, um zu schreiben.',
    refusedClosed: 'Das Tagebuch ist abgeschlossen: nichts kann mehr geändert werden.',
    refusedInUse: 'Diese Kategorie wird schon von Einträgen benutzt und kann nicht gelöscht werden.',
  },
  {
    person: (id: number) => `Person ${id}`,
    apiKey: (id: number) => `API key ${id}`,
    serial: (n: number) => `No. ${n}`,
    noCategory: 'no category',
    place: 'Place',
    writtenAt: (time: string) => `written ${time}`,
    deletedBy: (who: string, time: string) => `deleted by ${who}, ${time}`,
    refusedLocked: 'Someone else has locked the journal: only that person writes now.',
    refusedNotLocked: 'The journal is not locked by you. Lock it to write.',
    refusedClosed: 'The journal is closed: nothing can be changed any more.',
    refusedInUse: 'Entries already use this category, so it cannot be deleted.',
  },
);

/** Who did something: a member by name, the organization's API key, or a former member by ID. */
export function who(stamp: StampView, names: Names): string {
  if (stamp.userId === null) return jw.apiKey(stamp.apiKeyId ?? 0);
  return names.get(stamp.userId) ?? jw.person(stamp.userId);
}

/** A failed journal request in words: the state table's refusals (409) by their code, else as every page. */
export function refusal(err: unknown): string {
  if (err instanceof ApiError && err.status === 409) {
    const known: Record<string, string> = {
      journal_locked: jw.refusedLocked,
      journal_not_locked: jw.refusedNotLocked,
      journal_closed: jw.refusedClosed,
      category_in_use: jw.refusedInUse,
    };
    if (known[err.code]) return known[err.code];
  }
  return explain(err);
}

/**
 * The list with an entry the hub sent: a new one goes on top, a deleted one replaces itself; null when
 * the list cannot take it exactly (entries were missed in between: read again). Serials run 1…n
 * without gaps (docs/api.md "Journal"), so a list newest first is whole from its top down.
 */
export function withEntry(list: JournalEntryView[], entry: JournalEntryView): JournalEntryView[] | null {
  const top = list[0]?.serialNumber ?? 0;
  if (entry.serialNumber > top + 1) return null;
  if (entry.serialNumber === top + 1) return [entry, ...list];
  return list.map((e) => (e.serialNumber === entry.serialNumber ? entry : e));
}

/** Pages read one after another, newest first, merged by serial number (a page may overlap the last). */
export function merged(list: JournalEntryView[], more: JournalEntryView[]): JournalEntryView[] {
  const bySerial = new Map(list.map((e) => [e.serialNumber, e]));
  for (const e of more) bySerial.set(e.serialNumber, e);
  return [...bySerial.values()].sort((a, b) => b.serialNumber - a.serialNumber);
}

/** When it happened (the stated time if one was given) as people read it. */
export const entryTime = (entry: JournalEntryView) => entry.created.timeCustom ?? entry.created.time;

/** One entry in short, for the overview: its text, then time, author and category. */
export function EntrySummary({ entry, names }: { entry: JournalEntryView; names: Names }) {
  const text = entry.deleted ? <del>{entry.text}</del> : entry.text;
  return (
    <div>
      <span class="journal-summary">{text}</span>
      <span class="meta">
        <time dateTime={entryTime(entry)}>{formatTime(entryTime(entry))}</time> · {who(entry.created, names)} ·{' '}
        {entry.category?.name ?? jw.noCategory}
        {entry.deleted && ` · ${jw.deletedBy(who(entry.deleted, names), formatTime(entry.deleted.time))}`}
      </span>
    </div>
  );
}
