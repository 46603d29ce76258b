// The card that turns alarms on for this phone (docs/members-app.md "Notifications"): it says why the app
// wants to notify before the browser asks, and asks only on the member's tap. On the start screen while
// notifications are off; on "Mehr" always, with a test notification (A5) and turning them off here.
import { useId } from 'preact/hooks';
import type { Push } from './push.js';
import { w } from './words.js';

export function NotificationCard({ push, full = false }: { push: Push; full?: boolean }) {
  const title = useId();
  const on = !!push.here?.active && push.support === 'granted';
  if (on && !full) return null;
  return (
    <section class="app-card" aria-labelledby={title} data-testid="push-card">
      <h2 id={title}>{w.pushTitle}</h2>
      {push.support === 'unsupported' ? (
        <p>{w.pushUnsupported}</p>
      ) : on ? (
        <>
          <p class="notice" data-testid="push-on">
            {w.pushOn}
          </p>
          <p class="hint">{w.pushDevice(push.here!.name)}</p>
          <div class="app-actions">
            <button class="button secondary" type="button" onClick={push.test} disabled={push.busy}>
              {w.pushTest}
            </button>
            <button class="button secondary" type="button" onClick={push.disable} disabled={push.busy}>
              {w.pushOff}
            </button>
          </div>
        </>
      ) : push.support === 'denied' ? (
        <p>{w.pushDenied}</p>
      ) : (
        <>
          <p>{w.pushLead}</p>
          <button
            class="button app-wide"
            type="button"
            onClick={push.enable}
            disabled={push.busy}
            aria-busy={push.busy}
          >
            {push.busy ? w.pushBusy : w.pushButton}
          </button>
        </>
      )}
      {push.problem && (
        <p class="problem" role="alert">
          {push.problem}
        </p>
      )}
      {push.notice && (
        <p class="notice" role="status">
          {push.notice}
        </p>
      )}
    </section>
  );
}
