// Who may write the journal now (docs/api.md "Journal", the state table): whoever locks it (J7) is the
// only one who writes and deletes until he unlocks it (J8). An admin breaks a lock whose holder is gone
// (force-unlock, recorded as an entry with the reason) and closes an alarm's journal for good.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { formatTime, words } from '../i18n.js';
import { Problem, fieldProblems } from '../ui.js';
import { refusal, who, type JournalState, type Names } from './journal-common.js';

const w = words(
  {
    open: 'Nicht gesperrt. Wer schreiben will, sperrt das Tagebuch; dann schreibt nur diese Person.',
    mine: (time: string) =>
      `Sie haben das Tagebuch gesperrt (seit ${time}): nur Sie schreiben. Entsperren Sie es, wenn Sie fertig sind.`,
    theirs: (name: string, time: string) => `Gesperrt von ${name} seit ${time}: nur diese Person schreibt.`,
    closed: 'Dieses Tagebuch ist abgeschlossen: nichts kann mehr geändert werden.',
    lock: 'Sperren und schreiben',
    unlock: 'Entsperren',
    working: 'Einen Moment …',
    supervise: 'Für die Verwaltung',
    breakTitle: 'Sperre aufheben',
    breakLead:
      'Wenn die Person nicht mehr schreiben kann (Gerät verloren, abgelöst). Das Aufheben wird mit dem Grund als Eintrag festgehalten.',
    reason: 'Grund',
    reasonMissing: 'Bitte einen Grund angeben.',
    breakButton: 'Sperre aufheben',
    breakConfirm: (name: string) => `Die Sperre von ${name} aufheben?`,
    closeLead:
      'Nach dem Einsatz: Das Tagebuch wird endgültig abgeschlossen. Danach kann niemand mehr schreiben oder löschen.',
    closeButton: 'Tagebuch abschließen',
    closeConfirm: 'Das Tagebuch endgültig abschließen? Das kann nicht rückgängig gemacht werden.',
  },
  {
    open: 'Not locked. Whoever wants to write locks the journal; then only that person writes.',
    mine: (time: string) => `You have locked the journal (since ${time}): only you write. Unlock it when you are done.`,
    theirs: (name: string, time: string) => `Locked by ${name} since ${time}: only that person writes.`,
    closed: 'This journal is closed: nothing can be changed any more.',
    lock: 'Lock and write',
    unlock: 'Unlock',
    working: 'One moment …',
    supervise: 'For admins',
    breakTitle: 'Break the lock',
    breakLead:
      'When that person can no longer write (device lost, relieved). Breaking it is recorded as an entry with the reason.',
    reason: 'Reason',
    reasonMissing: 'Please give a reason.',
    breakButton: 'Break the lock',
    breakConfirm: (name: string) => `Break the lock of ${name}?`,
    closeLead: 'After the operation: the journal is closed for good. Nobody can write or delete afterwards.',
    closeButton: 'Close the journal',
    closeConfirm: 'Close the journal for good? This cannot be undone.',
  },
);

export type Change = 'lock' | 'unlock' | 'close' | 'force-unlock';

export function LockPanel({
  journal,
  userId,
  admin,
  names,
  onState,
  onRefused,
}: {
  journal: JournalState;
  userId: number;
  admin: boolean;
  names: Names;
  /** The journal's state after a change made here, and which change it was. */
  onState(state: Omit<JournalState, 'totalEntries'>, kind: Change): void;
  /** The API refused: the page reads the journal again, so the panel shows why. */
  onRefused(): void;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [reasonProblems, setReasonProblems] = useState<Record<string, string>>({});
  const holder = journal.locked;
  const mine = holder !== null && holder.userId === userId;
  const holderName = holder ? who(holder, names) : '';

  const change = async (kind: Change) => {
    if (kind === 'close' && !confirm(w.closeConfirm)) return;
    if (kind === 'force-unlock') {
      if (!reason.trim()) return setReasonProblems({ reason: w.reasonMissing });
      if (!confirm(w.breakConfirm(holderName))) return;
    }
    setBusy(true);
    setProblem(null);
    setReasonProblems({});
    try {
      const body = kind === 'force-unlock' ? { reason: reason.trim() } : undefined;
      onState(await api<JournalState>('POST', `/journal/${journal.id}/${kind}`, body), kind);
      if (kind === 'force-unlock') setReason('');
    } catch (err) {
      if (kind === 'force-unlock' && !(err instanceof ApiError && err.status === 409))
        setReasonProblems(fieldProblems(err, ['reason']));
      else setProblem(refusal(err));
      onRefused();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="journal-lock">
      <p class={`journal-state${mine ? ' mine' : holder ? ' theirs' : ''}`} role="status">
        {journal.closed
          ? w.closed
          : !holder
            ? w.open
            : mine
              ? w.mine(formatTime(holder.time))
              : w.theirs(holderName, formatTime(holder.time))}
      </p>
      <Problem text={problem} />
      {!journal.closed && (!holder || mine) && (
        <button
          class={`button${mine ? ' secondary' : ''}`}
          type="button"
          disabled={busy}
          aria-busy={busy}
          onClick={() => change(mine ? 'unlock' : 'lock')}
        >
          {busy ? w.working : mine ? w.unlock : w.lock}
        </button>
      )}
      {admin && !journal.closed && ((holder && !mine) || journal.eventId !== null) && (
        <details class="journal-admin">
          <summary>{w.supervise}</summary>
          {holder && !mine && (
            <div class="stack">
              <h3>{w.breakTitle}</h3>
              <p class="hint">{w.breakLead}</p>
              <label for="journal-reason">{w.reason}</label>
              <input
                id="journal-reason"
                value={reason}
                maxLength={2000}
                aria-invalid={reasonProblems.reason ? true : undefined}
                aria-describedby={reasonProblems.reason ? 'journal-reason-problem' : undefined}
                onInput={(e) => setReason((e.target as HTMLInputElement).value)}
              />
              {reasonProblems.reason && (
                <span id="journal-reason-problem" class="field-problem">
                  {reasonProblems.reason}
                </span>
              )}
              <Problem text={reasonProblems.form ?? null} />
              <button class="button danger" type="button" disabled={busy} onClick={() => change('force-unlock')}>
                {w.breakButton}
              </button>
            </div>
          )}
          {journal.eventId !== null && (
            <div class="stack">
              <h3>{w.closeButton}</h3>
              <p class="hint">{w.closeLead}</p>
              <button class="button danger" type="button" disabled={busy} onClick={() => change('close')}>
                {w.closeButton}
              </button>
            </div>
          )}
        </details>
      )}
    </div>
  );
}
