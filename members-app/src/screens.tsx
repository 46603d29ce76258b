// The app's screens besides one alarm (docs/members-app.md "The app"): the start (the running alarm in
// full, or a quiet "no alarm" with what still needs doing), past alarms (AL2), the member's availability
// (W2, W3: the console's form), and "Mehr": notifications on this device, language, account, signing out.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../console/src/api.js';
import { formatTime, lang, t } from '../../console/src/i18n.js';
import { AvailabilityForm, availabilityText, aw, useAvailability } from '../../console/src/pages/availability.js';
import { pickOrganization, currentOrganization, type Session } from '../../console/src/session.js';
import { Problem, explain } from '../../console/src/ui.js';
import { AlarmScreen } from './alarm-screen.js';
import { useAlarms, type AlarmView } from './alarms.js';
import { NotificationCard } from './notifications.js';
import type { Push } from './push.js';
import { href } from './router.js';
import { DATA_CACHE } from './settings.js';
import { w } from './words.js';

function AlarmList({ alarms, session }: { alarms: AlarmView[]; session: Session }) {
  const several = session.organizations.length > 1;
  return (
    <ul class="alarm-list" data-testid="alarm-list">
      {alarms.map((alarm) => (
        <li key={alarm.id}>
          <a class={`alarm-item${alarm.endedAt ? '' : ' alarm-item-running'}`} href={href(`/app/alarm/${alarm.id}`)}>
            <strong class="alarm-item-event">{alarm.event}</strong>
            {alarm.address && <span class="alarm-item-address">{alarm.address}</span>}
            <span class="meta">
              {formatTime(alarm.startedAt)}
              {several && ` · ${session.organizations.find((o) => o.id === alarm.organizationId)?.name ?? ''}`}
              {' · '}
              {alarm.responses.positive} {t.coming}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** What the member said he is, in one line, leading to the availability screen. */
function MyAvailability({ session }: { session: Session }) {
  const organization = currentOrganization(session);
  const summary = useAvailability(organization?.id);
  const mine = summary?.members.find((m) => m.userId === session.user.id);
  if (!summary) return null;
  return (
    <a class="app-card app-link" href={href('/app/availability')}>
      <span class="meta">{aw.title}</span>
      <strong>{availabilityText(mine ?? { available: null, until: null })}</strong>
      <span class="meta">{aw.counts(summary.available, summary.unavailable, summary.unknown)}</span>
    </a>
  );
}

/** /app: the running alarm in full (or the running ones to choose from), else the quiet start. */
export function HomeScreen({ session, push }: { session: Session; push: Push }) {
  const { alarms, problem } = useAlarms(session);
  const running = (alarms ?? []).filter((a) => !a.endedAt);
  if (running.length === 1) return <AlarmScreen id={running[0].id} listed={running[0]} session={session} push={push} />;
  return (
    <>
      {running.length > 1 ? (
        <section aria-labelledby="running">
          <h1 id="running">{w.running}</h1>
          <AlarmList alarms={running} session={session} />
        </section>
      ) : (
        <section class="standby" aria-labelledby="standby">
          <h1 id="standby">{alarms === null && !problem ? t.loading : w.noAlarm}</h1>
          <p class="hint">{w.noAlarmLead}</p>
        </section>
      )}
      {problem && <Problem text={`${w.loadProblem} ${problem}`} />}
      <NotificationCard push={push} />
      <MyAvailability session={session} />
      {alarms && alarms.some((a) => a.endedAt) && (
        <section aria-labelledby="recent">
          <h2 id="recent">{w.lastAlarms}</h2>
          <AlarmList alarms={alarms.filter((a) => a.endedAt).slice(0, 3)} session={session} />
          <a class="app-more" href={href('/app/history')}>
            {w.allAlarms}
          </a>
        </section>
      )}
    </>
  );
}

/** /app/history: the alarms of his organizations, newest first. */
export function HistoryScreen({ session }: { session: Session }) {
  const { alarms, problem } = useAlarms(session);
  return (
    <section aria-labelledby="history">
      <h1 id="history">{w.historyTitle}</h1>
      {problem && <Problem text={`${w.loadProblem} ${problem}`} />}
      {alarms === null ? (
        !problem && <p class="hint">{t.loading}</p>
      ) : alarms.length === 0 ? (
        <p class="hint">{w.noAlarms}</p>
      ) : (
        <AlarmList alarms={alarms} session={session} />
      )}
    </section>
  );
}

interface Said {
  available: boolean | null;
  until: string | null;
}

/**
 * "Can you come?" with one tap, at the bottom where the thumb is (W2, until he changes it); a time limit
 * and a note are the form's above.
 */
function QuickAvailability({ organizationId, mine }: { organizationId: number; mine: Said | null }) {
  const [said, setSaid] = useState<Said | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // What the hub brings (W3 read again) replaces what this tap answered: it may be newer (the form above).
  useEffect(() => setSaid(null), [mine?.available, mine?.until]);
  const now = said ?? mine;
  const say = async (available: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      setSaid(await api<Said>('PUT', '/availability', { organizationID: organizationId, available }));
    } catch (err) {
      setProblem(explain(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="answer-bar" aria-labelledby="quick-title">
      <h2 id="quick-title" class="answer-title">
        {aw.question}{' '}
        <span class="answer-state" data-testid="my-availability" aria-live="polite">
          {availabilityText(now ?? { available: null, until: null })}
        </span>
      </h2>
      <Problem text={problem} />
      <div class="quick-availability">
        {[true, false].map((available) => (
          <button
            key={String(available)}
            type="button"
            class={`answer-button ${available ? 'answer-button-yes' : 'answer-button-no'}`}
            aria-pressed={now?.available === available && !now.until}
            disabled={busy}
            onClick={() => say(available)}
          >
            {available ? aw.available : aw.unavailable}
          </button>
        ))}
      </div>
    </section>
  );
}

/** /app/availability: whether he can come, per organization (the console's form, W2), and the counts (W3). */
export function AvailabilityScreen({ session }: { session: Session }) {
  const [organization, setOrganization] = useState(currentOrganization(session));
  const summary = useAvailability(organization?.id);
  if (!organization) return <p>{t.noOrganization}</p>;
  return (
    <>
      <h1>{w.availabilityTitle}</h1>
      {session.organizations.length > 1 && (
        <div class="stack">
          <label for="app-organization">{t.organization}</label>
          <select
            id="app-organization"
            value={organization.id}
            onChange={(e) => {
              const id = Number((e.target as HTMLSelectElement).value);
              pickOrganization(id);
              setOrganization(session.organizations.find((o) => o.id === id) ?? organization);
            }}
          >
            {session.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {summary && (
        <p class="app-counts" data-testid="availability-counts">
          <span class="app-count app-count-yes">
            <strong data-testid="available-count">{summary.available}</strong> {aw.available}
          </span>
          <span class="app-count app-count-no">
            <strong>{summary.unavailable}</strong> {aw.unavailable}
          </span>
          <span class="app-count">
            <strong>{summary.unknown}</strong> {aw.unknown}
          </span>
        </p>
      )}
      <div class="app-card">
        <AvailabilityForm key={organization.id} organizationId={organization.id} userId={session.user.id} />
      </div>
      <QuickAvailability
        key={organization.id}
        organizationId={organization.id}
        mine={summary?.members.find((m) => m.userId === session.user.id) ?? null}
      />
    </>
  );
}

/** The same screen in the other language (a page load: the words are chosen at the start). */
function LanguageSwitch() {
  const other = lang === 'de' ? 'en' : 'de';
  const url = new URL(location.href);
  url.searchParams.set('lang', other);
  return (
    <a class="button secondary app-wide" href={url.toString()} hreflang={other} lang={other}>
      {other === 'en' ? 'English' : 'Deutsch'}
    </a>
  );
}

/** /app/more: notifications on this device, the language, his account, signing out. */
export function MoreScreen({ session, push }: { session: Session; push: Push }) {
  const [problem, setProblem] = useState<string | null>(null);
  const signOut = async () => {
    setProblem(null);
    try {
      // This device stops receiving his alarms, and what the app kept of his goes with him.
      if (push.here) await push.disable();
      await api('DELETE', '/session');
      await caches.delete(DATA_CACHE);
      location.assign(href('/app'));
    } catch (err) {
      setProblem(explain(err));
    }
  };
  return (
    <>
      <h1>{w.moreTitle}</h1>
      <p>{w.signedInAs(session.user.name)}</p>
      <NotificationCard push={push} full />
      <section class="app-card" aria-labelledby="language">
        <h2 id="language">{w.language}</h2>
        <LanguageSwitch />
      </section>
      <section class="app-card app-actions-column" aria-labelledby="account">
        <h2 id="account">{t.navAccount}</h2>
        <a class="button secondary app-wide" href={`/console/account${location.search}`}>
          {w.account}
        </a>
        {session.organizations.some((o) => o.role === 'admin') && (
          <a class="button secondary app-wide" href={`/console${location.search}`}>
            {w.console}
          </a>
        )}
        <Problem text={problem} />
        <button class="button danger app-wide" type="button" onClick={signOut}>
          {t.signOut}
        </button>
      </section>
    </>
  );
}
