// The member's answer to a running alarm (docs/members-app.md "Answering"): "Komme" with the minutes he
// needs to the station, one tap each (5, 10, 15, 20), or "Komme nicht", as large buttons at the bottom of
// the screen where the thumb is. Sent as alarm feedback (A10) with one of his devices, this browser's
// first: unlike the notification's answer (A11, once per push), it can be changed as often as he likes,
// and his latest answer counts.
import { useState } from 'preact/hooks';
import { api } from '../../console/src/api.js';
import { explain } from '../../console/src/ui.js';
import { answersOf, type ShownAlarm } from './alarms.js';
import type { Device } from './device.js';
import { notificationWords } from './push-words.js';
import type { Push } from './push.js';
import { w } from './words.js';
import { lang, t } from '../../console/src/i18n.js';

export const MINUTES = [5, 10, 15, 20] as const;

/** The device an answer is given with: this browser's, else an active one of his, else any of his. */
export function answeringDevice(push: Push): Device | null {
  return push.here ?? push.devices?.find((d) => d.active) ?? push.devices?.[0] ?? null;
}

export function AnswerBar({
  alarm,
  userId,
  push,
  onAnswered,
}: {
  /** The list's entry (AL2) until the alarm's answers by name (AL3) came. */
  alarm: ShownAlarm;
  userId: number;
  push: Push;
  onAnswered: () => Promise<void>;
}) {
  const [sending, setSending] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const words = notificationWords(lang);
  const answers = answersOf(alarm);
  const mine = answers?.find((a) => a.userId === userId);
  const device = answeringDevice(push);

  const answer = async (coming: boolean, minutes: number | null, key: string) => {
    if (!device) return;
    setSending(key);
    setProblem(null);
    try {
      await api('POST', `/app/feedback?organization_id=${alarm.organizationId}`, {
        alarmID: alarm.id,
        deviceID: device.id,
        response: coming,
        answerData: minutes === null ? {} : { duration: minutes },
      });
      await onAnswered();
    } catch (err) {
      setProblem(`${w.answerProblem} ${explain(err)}`);
    } finally {
      setSending(null);
    }
  };

  const state = !answers
    ? t.loading
    : !mine
      ? w.youNotYet
      : mine.response
        ? w.youComing(mine.duration)
        : w.youNotComing;
  return (
    <section class="answer-bar" aria-labelledby="answer-title">
      <h2 id="answer-title" class="answer-title">
        {w.yourAnswer}:{' '}
        <span
          class={`answer-state${mine ? (mine.response ? ' answer-state-yes' : ' answer-state-no') : ''}`}
          data-testid="my-answer"
          aria-live="polite"
        >
          {state}
        </span>
      </h2>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {push.devices !== null && !device ? (
        <div class="answer-need-device">
          <p>{w.needDevice}</p>
          {push.support !== 'unsupported' && push.support !== 'denied' && (
            <button class="button" type="button" onClick={push.enable} disabled={push.busy} aria-busy={push.busy}>
              {push.busy ? w.pushBusy : w.pushButton}
            </button>
          )}
        </div>
      ) : (
        <>
          <p class="answer-question" id="answer-question">
            {w.comeQuestion}
          </p>
          <div class="answer-yes" role="group" aria-labelledby="answer-question">
            {MINUTES.map((minutes) => {
              // Neither pressed nor not while his answer is being read.
              const chosen = answers ? !!mine?.response && mine.duration === minutes : undefined;
              return (
                <button
                  key={minutes}
                  type="button"
                  class="answer-button answer-button-yes"
                  aria-pressed={chosen}
                  disabled={sending !== null || !device}
                  aria-busy={sending === `yes-${minutes}`}
                  onClick={() => answer(true, minutes, `yes-${minutes}`)}
                >
                  <span class="answer-small">{words.coming}</span>{' '}
                  <span class="answer-big">
                    {minutes} <span class="answer-unit">{w.minutesUnit}</span>
                  </span>
                </button>
              );
            })}
          </div>
          <button
            type="button"
            class="answer-button answer-button-no"
            aria-pressed={answers ? mine?.response === false : undefined}
            disabled={sending !== null || !device}
            aria-busy={sending === 'no'}
            onClick={() => answer(false, null, 'no')}
          >
            {words.notComing}
          </button>
        </>
      )}
    </section>
  );
}
