// Raising an alarm (AL1): the keyword first, the rest optional; one Idempotency-Key per attempt, so a
// double tap or a retry after a lost answer raises one alarm, not two.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n.js';
import { Problem, fieldProblems } from '../ui.js';

const CHANNELS = ['app', 'sms', 'call'] as const;

export function RaiseForm({ organizationId, onRaised }: { organizationId: number; onRaised(id: number): void }) {
  const [event, setEvent] = useState('');
  const [message, setMessage] = useState('');
  const [address, setAddress] = useState('');
  const [units, setUnits] = useState('');
  const [channels, setChannels] = useState<string[]>([...CHANNELS]);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!event.trim()) {
      setProblems({ event: t.eventRequired });
      return;
    }
    if (!confirm(t.raiseConfirm(event.trim()))) return;
    setBusy(true);
    setProblems({});
    try {
      const body = {
        organizationID: organizationId,
        event: event.trim(),
        ...(message.trim() && { message: message.trim() }),
        ...(address.trim() && { address: address.trim() }),
        units: units
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean),
        channels,
      };
      const alarm = await api<{ id: number }>('POST', '/alarms', body, { headers: { 'Idempotency-Key': attempt } });
      setAttempt(crypto.randomUUID());
      onRaised(alarm.id);
    } catch (err) {
      setProblems(fieldProblems(err, ['event', 'message', 'address', 'units']));
    } finally {
      setBusy(false);
    }
  };

  const field = (id: string, label: string, value: string, set: (v: string) => void, hint?: string) => (
    <>
      <label for={`raise-${id}`}>{label}</label>
      <input
        id={`raise-${id}`}
        value={value}
        maxLength={500}
        autoComplete="off"
        aria-invalid={problems[id] ? true : undefined}
        aria-describedby={
          [hint && `raise-${id}-hint`, problems[id] && `raise-${id}-problem`].filter(Boolean).join(' ') || undefined
        }
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
      {hint && (
        <span id={`raise-${id}-hint`} class="meta">
          {hint}
        </span>
      )}
      {problems[id] && (
        <span id={`raise-${id}-problem`} class="field-problem">
          {problems[id]}
        </span>
      )}
    </>
  );

  return (
    <section aria-labelledby="raise">
      <h2 id="raise">{t.raiseTitle}</h2>
      <p class="hint">{t.raiseLead}</p>
      <form class="stack" onSubmit={submit} noValidate>
        {field('event', t.event, event, setEvent)}
        <label for="raise-message">{t.message}</label>
        <textarea
          id="raise-message"
          value={message}
          rows={3}
          maxLength={10_000}
          aria-invalid={problems.message ? true : undefined}
          aria-describedby={problems.message ? 'raise-message-problem' : undefined}
          onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)}
        />
        {problems.message && (
          <span id="raise-message-problem" class="field-problem">
            {problems.message}
          </span>
        )}
        {field('address', t.address, address, setAddress)}
        {field('units', t.units, units, setUnits, t.unitsHint)}
        <fieldset class="choices">
          <legend>{t.channels}</legend>
          {CHANNELS.map((c) => (
            <label key={c} class="choice">
              <input
                type="checkbox"
                checked={channels.includes(c)}
                onChange={(e) =>
                  setChannels(
                    (e.target as HTMLInputElement).checked ? [...channels, c] : channels.filter((x) => x !== c),
                  )
                }
              />
              {c === 'app' ? t.channelApp : c === 'sms' ? t.channelSms : t.channelCall}
            </label>
          ))}
        </fieldset>
        <Problem text={problems.form ?? problems.channels ?? null} />
        <button class="button alarm" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : t.raiseButton}
        </button>
      </form>
    </section>
  );
}
