// /a/<token>: the answer link at the end of a member's alarm SMS (docs/alarms.md "Answering without the
// app"). No sign-in: the token is the credential (AN1 reads the alarm, AN2 takes the answer). One hand,
// at night: the alarm, then two big buttons — coming (with the travel minutes) or not — and the answer
// said back. A later answer replaces the earlier one, whichever way that came.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { formatTime, words } from '../i18n.js';
import { Frame, Problem, fieldProblems } from '../ui.js';

interface Answer {
  response: boolean;
  duration: number | null;
  at: string;
}

interface AnswerView {
  event: string;
  message: string;
  address: string;
  startedAt: string;
  endedAt: string | null;
  organizationName: string;
  name: string;
  answer: Answer | null;
}

const w = words(
  {
    loading: 'Lädt …',
    invalidTitle: 'Link ungültig',
    invalid:
      'Dieser Antwort-Link ist unbekannt oder abgelaufen. Er gilt, solange der Einsatz läuft. Antworten Sie per SMS mit „J“ oder „N“.',
    forWhom: (name: string) => `Antwort für ${name}`,
    address: 'Adresse',
    alarmed: 'Alarmiert',
    organization: 'Organisation',
    ended: 'Dieser Einsatz ist beendet. Eine Antwort ist nicht mehr nötig.',
    minutes: 'Anfahrt in Minuten',
    minutesOther: 'Andere Minutenzahl',
    coming: 'Komme',
    notComing: 'Komme nicht',
    sending: 'Wird gesendet …',
    minuteCount: (n: number) => (n === 1 ? '1 Minute' : `${n} Minuten`),
    yours: 'Ihre Antwort',
    thanks: 'Danke – Ihre Antwort',
    changeHint: 'Sie können Ihre Antwort jederzeit ändern: Die letzte zählt.',
    minutesInvalid: 'Bitte eine ganze Zahl von 0 bis 1440.',
  },
  {
    loading: 'Loading …',
    invalidTitle: 'Link not valid',
    invalid:
      'This answer link is unknown or has expired. It works while the alarm runs. Reply to the SMS with "J" or "N".',
    forWhom: (name: string) => `Answer for ${name}`,
    address: 'Address',
    alarmed: 'Alarmed',
    organization: 'Organization',
    ended: 'This alarm has ended. No answer is needed any more.',
    minutes: 'Travel time in minutes',
    minutesOther: 'Other number of minutes',
    coming: 'Coming',
    notComing: 'Not coming',
    sending: 'Sending …',
    minuteCount: (n: number) => (n === 1 ? '1 minute' : `${n} minutes`),
    yours: 'Your answer',
    thanks: 'Thank you – your answer',
    changeHint: 'You can change your answer at any time: the latest counts.',
    minutesInvalid: 'Please a whole number from 0 to 1440.',
  },
);

const CHOICES = [5, 10, 15, 20];

/** "Komme, 10 Minuten" / "Komme nicht". */
function said(answer: Pick<Answer, 'response' | 'duration'>): string {
  if (!answer.response) return w.notComing;
  return answer.duration === null ? w.coming : `${w.coming}, ${w.minuteCount(answer.duration)}`;
}

export function AnswerPage({ token }: { token: string }) {
  const [view, setView] = useState<AnswerView | null>(null);
  const [state, setState] = useState<'loading' | 'invalid' | 'ready' | 'sending'>('loading');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [thanked, setThanked] = useState(false);
  const [choice, setChoice] = useState<number | null>(null);
  const [typed, setTyped] = useState('');

  const failed = (err: unknown) => {
    if (err instanceof ApiError && err.code === 'invalid_code') setState('invalid');
    else setProblems(fieldProblems(err, ['duration']));
  };
  useEffect(() => {
    api<AnswerView>('GET', `/answer/${encodeURIComponent(token)}`).then(
      (found) => {
        setView(found);
        setState('ready');
        document.title = `${found.event} – alarm-hub`;
      },
      (err) => {
        failed(err);
        if (!(err instanceof ApiError && err.code === 'invalid_code')) setState('ready');
      },
    );
  }, [token]);

  const send = async (response: boolean) => {
    let duration: number | undefined;
    if (response && typed.trim() !== '') {
      duration = Number(typed);
      if (!Number.isInteger(duration) || duration < 0 || duration > 1440) {
        setProblems({ duration: w.minutesInvalid });
        return;
      }
    } else if (response && choice !== null) duration = choice;
    setProblems({});
    setState('sending');
    try {
      const body = duration === undefined ? { response } : { response, duration };
      setView(await api<AnswerView>('POST', `/answer/${encodeURIComponent(token)}`, body));
      setThanked(true);
    } catch (err) {
      // The alarm ended meanwhile: the page says so instead of an error.
      if (err instanceof ApiError && err.code === 'alarm_ended')
        setView((shown) => shown && { ...shown, endedAt: shown.endedAt ?? new Date().toISOString() });
      else failed(err);
    }
    setState((now) => (now === 'sending' ? 'ready' : now));
  };

  if (state === 'invalid')
    return (
      <Frame title={w.invalidTitle}>
        <p>{w.invalid}</p>
      </Frame>
    );
  if (!view)
    return (
      <Frame title="alarm-hub">
        {state === 'loading' ? <p aria-busy="true">{w.loading}</p> : <Problem text={problems.form ?? null} />}
      </Frame>
    );
  const busy = state === 'sending';
  return (
    <Frame title={view.event}>
      <dl class="answer-facts">
        {view.address && (
          <div class="answer-fact">
            <dt>{w.address}</dt>
            <dd>{view.address}</dd>
          </div>
        )}
        <div class="answer-fact">
          <dt>{w.alarmed}</dt>
          <dd>{formatTime(view.startedAt)}</dd>
        </div>
        <div class="answer-fact">
          <dt>{w.organization}</dt>
          <dd>{view.organizationName}</dd>
        </div>
      </dl>
      {view.message && <p class="message">{view.message}</p>}
      <p class="hint">{w.forWhom(view.name)}</p>
      <div role="status" class="answer-said">
        {view.answer && (
          <p>
            <strong>{thanked ? w.thanks : w.yours}:</strong> {said(view.answer)}
          </p>
        )}
      </div>
      <Problem text={problems.form ?? null} />
      {view.endedAt ? (
        <p class="notice">{w.ended}</p>
      ) : (
        <>
          <fieldset class="answer-minutes">
            <legend>{w.minutes}</legend>
            {CHOICES.map((n) => (
              <label class="answer-minute" key={n}>
                <input
                  class="answer-radio"
                  type="radio"
                  name="minutes"
                  value={n}
                  checked={choice === n && typed === ''}
                  onChange={() => {
                    setChoice(n);
                    setTyped('');
                  }}
                />
                {n}
              </label>
            ))}
            <div class="stack answer-other">
              <label for="answer-other">{w.minutesOther}</label>
              <input
                id="answer-other"
                class="answer-other-input"
                type="number"
                inputMode="numeric"
                min={0}
                max={1440}
                value={typed}
                aria-invalid={problems.duration ? true : undefined}
                aria-describedby={problems.duration ? 'answer-other-problem' : undefined}
                onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
              />
              {problems.duration && (
                <span id="answer-other-problem" class="field-problem" role="alert">
                  {problems.duration}
                </span>
              )}
            </div>
          </fieldset>
          <div class="answer-buttons">
            <button type="button" class="button answer-yes" disabled={busy} aria-busy={busy} onClick={() => send(true)}>
              {busy ? w.sending : w.coming}
            </button>
            <button type="button" class="button secondary answer-no" disabled={busy} onClick={() => send(false)}>
              {w.notComing}
            </button>
          </div>
          <p class="hint">{w.changeHint}</p>
        </>
      )}
    </Frame>
  );
}
