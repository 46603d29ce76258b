// What an input received (IP6): the newest 50 documents, newest first, each with what became of it — an
// alarm raised or merged (a link to it), ignored or failed with the reason — and its text to unfold.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { formatTime, t } from '../i18n.js';
import { Problem } from '../ui.js';
import type { InputDocument, Outcome } from './inputs-model.js';
import { ago, reasonInWords, w } from './inputs-words.js';

const BADGE: Record<Outcome, string> = { raised: 'yes', merged: 'yes', ignored: 'inputs-ignored', failed: 'failed' };

/** The time now, moved on every half minute while shown: "vor 3 Min." stays true without asking the API. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

// The hub's alarm:created (or alarm:updated, merged) for a document comes just before the input notes the
// document in IP6 and its lastReceivedAt: the page reads at once and, while nothing changed, a few times
// more shortly after. Only an alarm an input raised or merged sets this off; nothing asks on a timer.
const AFTER_ALARM_MS = [0, 700, 2_000, 5_000];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `load` reads the page's data (`read` answers a short signature of what it read; null when it failed or
 * caught the service between two writes);
 * `follow` reads again after an input's alarm until what was read changes.
 */
export function useFollow(read: () => Promise<string | null>): { load: () => Promise<void>; follow: () => void } {
  const seen = useRef<string | null>(null);
  const busy = useRef(false);
  const load = useCallback(async () => {
    const signature = await read();
    if (signature !== null) seen.current = signature;
  }, [read]);
  const follow = useCallback(() => {
    if (busy.current) return;
    busy.current = true;
    const before = seen.current;
    void (async () => {
      try {
        for (const ms of AFTER_ALARM_MS) {
          await pause(ms);
          await load();
          if (seen.current !== before) break;
        }
      } finally {
        busy.current = false;
      }
    })();
  }, [load]);
  return { load, follow };
}

export function DocumentsSection({
  documents,
  problem,
  onReload,
}: {
  documents: InputDocument[] | null;
  problem: string | null;
  onReload: () => void;
}) {
  const now = useNow();
  return (
    <section aria-labelledby="input-documents" class="inputs-section">
      <div class="row spread wrap">
        <h2 id="input-documents">{w.documentsTitle}</h2>
        <button class="button small secondary" type="button" onClick={onReload}>
          {w.reload}
        </button>
      </div>
      <p class="hint">{w.documentsLead}</p>
      <Problem text={problem} />
      {documents === null ? (
        !problem && <p aria-busy="true">{t.loading}</p>
      ) : documents.length === 0 ? (
        <p class="hint">{w.noDocuments}</p>
      ) : (
        <ul class="list inputs-documents" aria-live="polite">
          {documents.map((doc) => (
            <li key={doc.id} class="column" data-testid="input-document">
              <div class="row spread wrap">
                <span class={`badge ${BADGE[doc.outcome]}`}>{w.outcome[doc.outcome]}</span>
                <span class="meta">
                  <time dateTime={doc.receivedAt} title={formatTime(doc.receivedAt)}>
                    {ago(doc.receivedAt, now)}
                  </time>{' '}
                  · {w.from(doc.from)} · {doc.type}
                </span>
              </div>
              {doc.alarmId !== null && (doc.outcome === 'raised' || doc.outcome === 'merged') && (
                <a href={`/console/alarms/${doc.alarmId}${location.search}`}>{w.toAlarm(doc.alarmId)}</a>
              )}
              {doc.reason && <p class="inputs-reason">{reasonInWords(doc.reason)}</p>}
              {doc.text && (
                <details class="inputs-text">
                  <summary>{w.showText}</summary>
                  <pre>{doc.text}</pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
