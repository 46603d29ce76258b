// A journal's entries newest first (J6), page by page: each with its number, time, author, category and
// text; a deleted one stays listed, struck through, with who deleted it (the journal is an audit trail).
// The lock's holder deletes (J10), after a confirmation.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatTime, t, words } from '../i18n.js';
import { Problem } from '../ui.js';
import { entryTime, jw, refusal, who, type JournalEntryView, type Names } from './journal-common.js';

const w = words(
  {
    title: 'Einträge',
    count: (n: number) => (n === 1 ? '1 Eintrag' : `${n} Einträge`),
    none: 'Noch keine Einträge.',
    more: 'Ältere Einträge laden',
    remove: (n: number) => `Eintrag Nr. ${n} löschen`,
    removeConfirm: (n: number) =>
      `Eintrag Nr. ${n} löschen? Er bleibt durchgestrichen sichtbar, mit Ihrem Namen und der Zeit.`,
  },
  {
    title: 'Entries',
    count: (n: number) => (n === 1 ? '1 entry' : `${n} entries`),
    none: 'No entries yet.',
    more: 'Load older entries',
    remove: (n: number) => `Delete entry no. ${n}`,
    removeConfirm: (n: number) =>
      `Delete entry no. ${n}? It stays visible, struck through, with your name and the time.`,
  },
);

function Entry({
  entry,
  names,
  onRemove,
}: {
  entry: JournalEntryView;
  names: Names;
  onRemove: ((entry: JournalEntryView) => void) | null;
}) {
  const time = entryTime(entry);
  return (
    <li class={`column journal-entry${entry.deleted ? ' deleted' : ''}`}>
      <div class="row spread">
        <span class="meta">
          <strong>{jw.serial(entry.serialNumber)}</strong> · <time dateTime={time}>{formatTime(time)}</time> ·{' '}
          {who(entry.created, names)} ·{' '}
          <span class="badge journal-category">{entry.category?.name ?? jw.noCategory}</span>
        </span>
        {onRemove && !entry.deleted && (
          <button
            class="button small danger"
            type="button"
            aria-label={w.remove(entry.serialNumber)}
            onClick={() => onRemove(entry)}
          >
            ✕
          </button>
        )}
      </div>
      <p class="journal-entry-text">{entry.deleted ? <del>{entry.text}</del> : entry.text}</p>
      {(entry.location || entry.created.timeCustom) && (
        <span class="meta">
          {entry.location && `${jw.place}: ${entry.location}`}
          {entry.location && entry.created.timeCustom && ' · '}
          {entry.created.timeCustom && jw.writtenAt(formatTime(entry.created.time))}
        </span>
      )}
      {entry.deleted && (
        <span class="meta journal-deleted">
          {jw.deletedBy(who(entry.deleted, names), formatTime(entry.deleted.time))}
        </span>
      )}
    </li>
  );
}

export function EntryList({
  journalId,
  entries,
  total,
  names,
  canDelete,
  onChanged,
  onRefused,
  onMore,
}: {
  journalId: number;
  entries: JournalEntryView[] | null;
  total: number;
  names: Names;
  /** The person holds the lock of an unclosed journal. */
  canDelete: boolean;
  onChanged(entry: JournalEntryView): void;
  onRefused(): void;
  /** Reads the next older page. */
  onMore(): Promise<void>;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async (entry: JournalEntryView) => {
    if (!confirm(w.removeConfirm(entry.serialNumber))) return;
    setProblem(null);
    try {
      onChanged(await api<JournalEntryView>('DELETE', `/journal/${journalId}/entries/${entry.id}`));
    } catch (err) {
      setProblem(refusal(err));
      onRefused();
    }
  };
  const more = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await onMore();
    } catch (err) {
      setProblem(refusal(err));
    } finally {
      setBusy(false);
    }
  };

  const oldest = entries?.[entries.length - 1]?.serialNumber ?? 1;
  return (
    <section aria-labelledby="journal-entries">
      <h2 id="journal-entries">
        {w.title} <span class="meta">({w.count(total)})</span>
      </h2>
      <Problem text={problem} />
      {entries === null ? (
        <p aria-busy="true">{t.loading}</p>
      ) : entries.length === 0 ? (
        <p class="hint">{w.none}</p>
      ) : (
        <ul class="list journal-entries">
          {entries.map((e) => (
            <Entry key={e.serialNumber} entry={e} names={names} onRemove={canDelete ? remove : null} />
          ))}
        </ul>
      )}
      {entries && entries.length > 0 && oldest > 1 && (
        <button class="button secondary journal-more-button" type="button" disabled={busy} onClick={more}>
          {busy ? t.loading : w.more}
        </button>
      )}
    </section>
  );
}
