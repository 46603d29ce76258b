// /console: the organization at a glance — the running alarms with their answers, the screens online
// and offline, the members, the last journal entries — each kept live by the hub (alarm:created/updated,
// screen:online/offline, members:changed, journal:changed) and linking to its page.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { JournalChangedEvent } from '../../../common/hub-protocol.js';
import type { AlarmView } from '../../../schemas/alarms.js';
import { api } from '../api.js';
import { ALARM_EVENTS, useHubEvent, useNewest } from '../hub.js';
import { aw, useAvailability } from './availability.js';
import { formatTime, t, words } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain } from '../ui.js';
import { EntrySummary, withEntry, type JournalEntryView, type JournalView, type Names } from './journal-common.js';

const w = words(
  {
    journalTitle: 'Letzte Tagebucheinträge',
    noEntries: 'Noch keine Einträge im Tagebuch der Organisation.',
    toJournal: 'Zum Tagebuch',
  },
  {
    journalTitle: 'Latest journal entries',
    noEntries: "No entries in the organization's journal yet.",
    toJournal: 'To the journal',
  },
);

/** How many of the journal's entries the overview shows. */
const LATEST = 5;

interface Screen {
  id: number;
  online: boolean;
}

export function OverviewPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const availability = useAvailability(organization?.id);
  const [alarms, setAlarms] = useState<AlarmView[] | null>(null);
  const [screens, setScreens] = useState<Screen[] | null>(null);
  const [members, setMembers] = useState<number | null>(null);
  const [names, setNames] = useState<Names>(new Map());
  const [latest, setLatest] = useState<JournalEntryView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const org = organization?.id;
  const suffix = location.search;

  const alarmReads = useNewest(ALARM_EVENTS);
  const screenReads = useNewest(['screen:online', 'screen:offline']);
  const memberReads = useNewest();
  const journalReads = useNewest(['journal:changed']);
  const loadAlarms = useCallback(async () => {
    if (!org) return;
    try {
      const found = await alarmReads(() =>
        api<{ alarms: AlarmView[] }>('GET', `/alarms?organization_id=${org}&active=true&limit=10`),
      );
      if (found) setAlarms(found.alarms);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  const loadScreens = useCallback(async () => {
    if (!org) return;
    try {
      const lists = await screenReads(async () => {
        const monitors = await api<Array<{ id: number }>>('GET', `/monitor?organization=${org}`);
        return Promise.all(monitors.map((m) => api<Screen[]>('GET', `/monitor/${m.id}/screens`)));
      });
      if (!lists) return;
      setScreens(lists.flat());
      setProblem(null);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  const loadMembers = useCallback(async () => {
    if (!org) return;
    try {
      const found = await memberReads(() =>
        api<{ members: Array<{ userId: number; name: string }> }>('GET', `/organizations/${org}/members`),
      );
      if (!found) return;
      const list = found.members;
      setMembers(list.length);
      setNames(new Map(list.map((m) => [m.userId, m.name])));
      setProblem(null);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  // The organization's own journal (J6 with organization_id alone), its newest entries.
  const loadJournal = useCallback(async () => {
    if (!org) return;
    try {
      const journal = await journalReads(() =>
        api<JournalView>('GET', `/journal?organization_id=${org}&limit=${LATEST}`),
      );
      if (!journal) return;
      setLatest(journal.entryList.entries);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  useEffect(() => {
    void loadAlarms();
    void loadScreens();
    void loadMembers();
    void loadJournal();
  }, [loadAlarms, loadScreens, loadMembers, loadJournal]);

  const alarmChanged = useCallback(
    ({ alarm }: { alarm: AlarmView }) => {
      if (alarm.organizationId !== org) return;
      setAlarms((list) =>
        [alarm, ...(list ?? []).filter((a) => a.id !== alarm.id)].filter((a) => !a.endedAt).sort((a, b) => b.id - a.id),
      );
    },
    [org],
  );
  useHubEvent('alarm:created', alarmChanged, loadAlarms);
  useHubEvent('alarm:updated', alarmChanged, loadAlarms);
  // A screen's change is applied as it comes; only a screen not known here yet is read (a storm of
  // reconnecting screens after a restart costs no request each).
  const screenState = (online: boolean) => (event: { screenId: number }) =>
    setScreens((list) => {
      if (list && list.some((s) => s.id === event.screenId))
        return list.map((s) => (s.id === event.screenId ? { ...s, online } : s));
      void loadScreens();
      return list;
    });
  const screenOnline = useCallback(screenState(true), [loadScreens]);
  const screenOffline = useCallback(screenState(false), [loadScreens]);
  useHubEvent('screen:online', screenOnline, loadScreens);
  useHubEvent('screen:offline', screenOffline, loadScreens);
  const membersChanged = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === org) void loadMembers();
    },
    [org, loadMembers],
  );
  useHubEvent('members:changed', membersChanged, loadMembers);
  // An entry written or deleted goes into the list as it comes; one that does not fit (some were
  // missed in between) has the list read again.
  const journalChanged = useCallback(
    ({ journal, entry }: JournalChangedEvent) => {
      if (journal.organizationId !== org || journal.eventId !== null || !entry) return;
      setLatest((list) => {
        const next = list && withEntry(list, entry);
        if (next) return next.slice(0, LATEST);
        void loadJournal();
        return list;
      });
    },
    [org, loadJournal],
  );
  useHubEvent('journal:changed', journalChanged, loadJournal);

  const online = (screens ?? []).filter((s) => s.online).length;
  return (
    <Shell current="overview" title={t.overviewTitle} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : (
        <>
          <p class="meta">{organization.name}</p>
          <Problem text={problem} />
          <section aria-labelledby="running">
            <h2 id="running">{t.running}</h2>
            {alarms === null ? (
              <p aria-busy="true">{t.loading}</p>
            ) : alarms.length === 0 ? (
              <p class="hint">{t.noRunning}</p>
            ) : (
              <ul class="list alarms">
                {alarms.map((a) => (
                  <li key={a.id}>
                    <a class="alarm-link" href={`/console/alarms/${a.id}${suffix}`}>
                      <strong>{a.event}</strong>
                      <span class="meta">
                        {a.address && `${a.address} · `}
                        {t.started} {formatTime(a.startedAt)}
                      </span>
                    </a>
                    <div class="counts" aria-live="polite">
                      <span class="count yes">
                        <strong>{a.responses.positive}</strong> {t.coming}
                      </span>
                      <span class="count no">
                        <strong>{a.responses.negative}</strong> {t.notComing}
                      </span>
                      <span class="count wait">
                        <strong>{a.responses.awaiting}</strong> {t.awaiting}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <div class="tiles">
            <a class="tile" href={`/console/monitors${suffix}`}>
              <span class="tile-title">{t.screens}</span>
              <span class="tile-value" aria-live="polite">
                {screens === null
                  ? t.loading
                  : screens.length
                    ? t.screensSummary(online, screens.length - online)
                    : t.noScreensYet}
              </span>
            </a>
            <a class="tile" href={`/console/members${suffix}`}>
              <span class="tile-title">{t.navMembers}</span>
              <span class="tile-value" aria-live="polite">
                {members === null ? t.loading : t.membersCount(members)}
              </span>
              {availability && (
                <span class="tile-detail" aria-live="polite" data-testid="availability-counts">
                  {aw.counts(availability.available, availability.unavailable, availability.unknown)}
                </span>
              )}
            </a>
          </div>
          <section aria-labelledby="latest-journal">
            <h2 id="latest-journal">{w.journalTitle}</h2>
            <div aria-live="polite">
              {latest === null ? (
                <p aria-busy="true">{t.loading}</p>
              ) : latest.length === 0 ? (
                <p class="hint">{w.noEntries}</p>
              ) : (
                <ul class="list journal-latest">
                  {latest.map((e) => (
                    <li key={e.serialNumber}>
                      <EntrySummary entry={e} names={names} />
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <p>
              <a class="button secondary" href={`/console/journal${suffix}`}>
                {w.toJournal}
              </a>
            </p>
          </section>
        </>
      )}
    </Shell>
  );
}
