// Availability (W2, W3; docs/people.md "Availability"): the counts the overview shows, each member's on
// the members page, and the form where a person says whether he can come. Live through the hub's
// `availability:changed`; when someone's `until` passes, read again at that moment (W3's nextChangeAt).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { formatTime, shortTime, t, words } from '../i18n.js';
import { Problem, fieldProblems } from '../ui.js';

export const aw = words(
  {
    title: 'Ihre Verfügbarkeit',
    question: 'Können Sie kommen?',
    lead: 'Sagen Sie Ihrer Wehr, ob Sie kommen können. Die Übersicht und die Wache zählen mit.',
    available: 'Verfügbar',
    unavailable: 'Nicht verfügbar',
    unknown: 'Keine Angabe',
    until: 'Bis',
    untilOpen: 'bis ich es ändere',
    untilTime: 'bis zu einer Uhrzeit',
    untilWhen: 'Bis wann?',
    note: 'Notiz (optional)',
    noteHint: 'z. B. „nur tagsüber“',
    save: 'Sagen',
    now: (state: string, until: string | null) => `Jetzt: ${state}${until ? ` bis ${until}` : ''}`,
    saved: 'Gespeichert.',
    badUntil: 'Bitte eine Zeit in der Zukunft wählen.',
    badNote: 'Höchstens 200 Zeichen in einer Zeile.',
    counts: (a: number, u: number, n: number) => `${a} verfügbar · ${u} nicht verfügbar · ${n} ohne Angabe`,
    availableCount: 'verfügbar',
  },
  {
    title: 'Your availability',
    question: 'Can you come?',
    lead: 'Tell your fire brigade whether you can come. The overview and the station count it.',
    available: 'Available',
    unavailable: 'Not available',
    unknown: 'Not said',
    until: 'Until',
    untilOpen: 'until I change it',
    untilTime: 'until a time',
    untilWhen: 'Until when?',
    note: 'Note (optional)',
    noteHint: 'e.g. "daytime only"',
    save: 'Save',
    now: (state: string, until: string | null) => `Now: ${state}${until ? ` until ${until}` : ''}`,
    saved: 'Saved.',
    badUntil: 'Please pick a time in the future.',
    badNote: 'At most 200 characters on one line.',
    counts: (a: number, u: number, n: number) => `${a} available · ${u} not available · ${n} not said`,
    availableCount: 'available',
  },
);

export interface MemberAvailability {
  userId: number;
  name: string;
  available: boolean | null;
  until: string | null;
  note: string | null;
}

export interface AvailabilitySummary {
  available: number;
  unavailable: number;
  unknown: number;
  nextChangeAt: string | null;
  members: MemberAvailability[];
}

/** What a member said, in words: "Verfügbar bis 22:00". */
export function availabilityText(a: { available: boolean | null; until: string | null }): string {
  const state = a.available === null ? aw.unknown : a.available ? aw.available : aw.unavailable;
  return a.until ? `${state} ${aw.until.toLowerCase()} ${shortTime(a.until)}` : state;
}

/** A member's availability as a badge, with his note. */
export function AvailabilityBadge({ said }: { said: MemberAvailability | undefined }) {
  if (!said || said.available === null) return null;
  return (
    <span class="availability">
      <span class={`badge ${said.available ? 'yes' : 'no'}`}>{availabilityText(said)}</span>
      {said.note && <span class="meta"> {said.note}</span>}
    </span>
  );
}

/** The organization's availability (W3), kept live; null until read (or when it cannot be read). */
export function useAvailability(organizationId: number | undefined): AvailabilitySummary | null {
  const [summary, setSummary] = useState<AvailabilitySummary | null>(null);
  const reads = useNewest();
  const load = useCallback(async () => {
    if (organizationId === undefined) return;
    try {
      const found = await reads(() => api<AvailabilitySummary>('GET', `/organizations/${organizationId}/availability`));
      if (found) setSummary(found);
    } catch {
      // The counts are an extra on the pages that show them: the page's own problems are said there.
    }
  }, [organizationId]);
  useEffect(() => void load(), [load]);
  const changed = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === organizationId) void load();
    },
    [organizationId, load],
  );
  useHubEvent('availability:changed', changed, load);
  useHubEvent('members:changed', changed, load);
  // Someone's "until" passes at a known moment: the counts change then, without anyone writing.
  useEffect(() => {
    if (!summary?.nextChangeAt) return;
    const wait = Math.max(0, new Date(summary.nextChangeAt).getTime() - Date.now()) + 500;
    const timer = setTimeout(() => void load(), Math.min(wait, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [summary?.nextChangeAt, load]);
  return summary;
}

/** A datetime-local input's value for a time. */
function localValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The person's own availability in an organization (W2). */
export function AvailabilityForm({ organizationId, userId }: { organizationId: number; userId: number }) {
  const summary = useAvailability(organizationId);
  const mine = summary?.members.find((m) => m.userId === userId) ?? null;
  const [available, setAvailable] = useState<boolean>(true);
  const [bounded, setBounded] = useState(false);
  const [until, setUntil] = useState(() => localValue(new Date(Date.now() + 8 * 3_600_000)));
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    const end = bounded ? new Date(until) : null;
    if (end && !(end.getTime() > Date.now())) {
      setProblems({ until: aw.badUntil });
      return;
    }
    setProblems({});
    setBusy(true);
    try {
      await api('PUT', '/availability', {
        organizationID: organizationId,
        available,
        ...(end ? { until: end.toISOString() } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setSaved(true);
    } catch (err) {
      const byField = fieldProblems(err, ['until', 'note']);
      if (byField.note) byField.note = aw.badNote;
      if (byField.until) byField.until = aw.badUntil;
      setProblems(byField);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="availability">
      <h2 id="availability">{aw.title}</h2>
      <p class="hint">{aw.lead}</p>
      {mine && (
        <p class="notice">
          {aw.now(
            mine.available === null ? aw.unknown : mine.available ? aw.available : aw.unavailable,
            mine.until && formatTime(mine.until),
          )}
          {mine.note && ` – ${mine.note}`}
        </p>
      )}
      <form class="stack" onSubmit={submit} noValidate>
        <fieldset class="choices">
          <legend>{aw.question}</legend>
          {[true, false].map((value) => (
            <label key={String(value)} class="choice">
              <input type="radio" name="available" checked={available === value} onChange={() => setAvailable(value)} />
              {value ? aw.available : aw.unavailable}
            </label>
          ))}
        </fieldset>
        <fieldset class="choices">
          <legend>{aw.until}</legend>
          {[false, true].map((value) => (
            <label key={String(value)} class="choice">
              <input type="radio" name="bounded" checked={bounded === value} onChange={() => setBounded(value)} />
              {value ? aw.untilTime : aw.untilOpen}
            </label>
          ))}
        </fieldset>
        {bounded && (
          <>
            <label for="availability-until">{aw.untilWhen}</label>
            <input
              id="availability-until"
              type="datetime-local"
              value={until}
              aria-invalid={problems.until ? true : undefined}
              aria-describedby={problems.until ? 'availability-until-problem' : undefined}
              onInput={(e) => setUntil((e.target as HTMLInputElement).value)}
            />
            {problems.until && (
              <span id="availability-until-problem" class="field-problem">
                {problems.until}
              </span>
            )}
          </>
        )}
        <label for="availability-note">{aw.note}</label>
        <input
          id="availability-note"
          value={note}
          maxLength={200}
          placeholder={aw.noteHint}
          aria-invalid={problems.note ? true : undefined}
          aria-describedby={problems.note ? 'availability-note-problem' : undefined}
          onInput={(e) => setNote((e.target as HTMLInputElement).value)}
        />
        {problems.note && (
          <span id="availability-note-problem" class="field-problem">
            {problems.note}
          </span>
        )}
        <Problem text={problems.form ?? null} />
        {saved && (
          <p class="notice" role="status">
            {aw.saved}
          </p>
        )}
        <button class="button" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : aw.save}
        </button>
      </form>
    </section>
  );
}
