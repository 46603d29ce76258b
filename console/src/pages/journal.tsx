// /console/journal (and /console/journal/<alarm id>): the organization's journal or an alarm's — an
// event's journal is J6 with event_id = the alarm's id (docs/api.md "Journal", docs/alarms.md) — written
// during an incident: lock, entries, unlock, and exported. The hub's journal:changed brings entries and
// lock changes made elsewhere, alarm:created/updated keep the choice of journals current, members:changed
// the authors' names; every (re)connection reads it all again.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { JournalChangedEvent } from '../../../common/hub-protocol.js';
import type { AlarmView } from '../../../schemas/alarms.js';
import { api } from '../api.js';
import { ALARM_EVENTS, useHubEvent, useNewest } from '../hub.js';
import { formatTime, t, words } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain } from '../ui.js';
import {
  merged,
  withEntry,
  type CategoryView,
  type JournalEntryView,
  type JournalState,
  type JournalView,
  type Names,
} from './journal-common.js';
import { EntryList } from './journal-entries.js';
import { ExportForm } from './journal-export.js';
import { LockPanel, type Change } from './journal-lock.js';
import { Categories, EntryForm, hasDraft } from './journal-write.js';

const w = words(
  {
    pick: 'Welches Tagebuch',
    organizationJournal: 'Tagebuch der Organisation',
    alarmJournal: (event: string, time: string) => `Alarm ${event} – ${time}`,
    unknownAlarm: (id: number) => `Alarm ${id}`,
    running: (event: string) => `Ein Alarm läuft: ${event}.`,
    openRunning: (event: string) => `Tagebuch des Alarms ${event} öffnen`,
  },
  {
    pick: 'Which journal',
    organizationJournal: "The organization's journal",
    alarmJournal: (event: string, time: string) => `Alarm ${event} – ${time}`,
    unknownAlarm: (id: number) => `Alarm ${id}`,
    running: (event: string) => `An alarm is running: ${event}.`,
    openRunning: (event: string) => `Open the journal of alarm ${event}`,
  },
);

/** Entries read at first and per "load older". */
const PAGE = 20;
/** J6's largest page. */
const MAX_LIMIT = 50;

/** The alarm whose journal the address names (/console/journal/<id>), else null: the organization's. */
function eventInPath(): number | null {
  const found = /^\/console\/journal\/(\d{1,15})\/?$/.exec(location.pathname);
  return found ? Number(found[1]) : null;
}

export function JournalPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const org = organization?.id;
  const admin = organization?.role === 'admin';
  const [eventId, setEventId] = useState<number | null>(eventInPath);
  const [alarms, setAlarms] = useState<AlarmView[]>([]);
  const [journal, setJournal] = useState<JournalState | null>(null);
  const [entries, setEntries] = useState<JournalEntryView[] | null>(null);
  const [names, setNames] = useState<Names>(new Map());
  const [categories, setCategories] = useState<CategoryView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [focusWrite, setFocusWrite] = useState(0);
  // What is shown now, for answers and hub events that arrive late: only the newest read is shown
  // (`read` counts them), only for the journal picked now, and a change that came while a read was under
  // way (`reading`; its answer may be older) has it read once more (`dirty`).
  const shown = useRef({
    query: '',
    read: 0,
    reading: false,
    dirty: false,
    journal: null as JournalState | null,
    entries: null as JournalEntryView[] | null,
  });
  const query = `organization_id=${org}${eventId === null ? '' : `&event_id=${eventId}`}`;
  const showJournal = (state: JournalState | null) => {
    shown.current.journal = state;
    setJournal(state);
  };
  const showEntries = (list: JournalEntryView[] | null) => {
    shown.current.entries = list;
    setEntries(list);
  };

  // As many entries as are shown (at least a page), newest first: a re-read after a reconnection keeps
  // the older pages the person had loaded.
  const load = useCallback(async () => {
    if (!org) return;
    const read = ++shown.current.read;
    const current = () => shown.current.read === read && shown.current.query === query;
    shown.current.query = query;
    shown.current.reading = true;
    const want = Math.max(PAGE, shown.current.entries?.length ?? 0);
    try {
      let list: JournalEntryView[] = [];
      let state: JournalState | null = null;
      for (let offset = 0; list.length < want;) {
        const limit = Math.min(MAX_LIMIT, want - list.length);
        const page = await api<JournalView>('GET', `/journal?${query}&limit=${limit}&offset=${offset}`);
        if (!current()) return;
        const { entryList, ...rest } = page;
        state ??= { ...rest, totalEntries: entryList.totalEntries };
        list = merged(list, entryList.entries);
        offset += entryList.entries.length;
        if (entryList.entries.length < limit) break;
      }
      showJournal(state);
      showEntries(list);
      setProblem(null);
    } catch (err) {
      if (current()) setProblem(explain(err));
    } finally {
      if (current()) {
        shown.current.reading = false;
        if (shown.current.dirty) {
          shown.current.dirty = false;
          void load();
        }
      }
    }
  }, [org, query]);
  const loadMore = async () => {
    const { journal: current, entries: list } = shown.current;
    if (!current || !list?.length) return;
    const offset = current.totalEntries - list[list.length - 1].serialNumber + 1;
    const page = await api<JournalView>('GET', `/journal?${query}&limit=${PAGE}&offset=${offset}`);
    // An entry shown already stays as shown: an event may have changed it while this page was read.
    if (shown.current.query === query) showEntries(merged(page.entryList.entries, shown.current.entries ?? []));
  };
  const alarmReads = useNewest(ALARM_EVENTS);
  const nameReads = useNewest();
  const categoryReads = useNewest();
  const loadAlarms = useCallback(async () => {
    if (!org) return;
    try {
      const found = await alarmReads(() =>
        api<{ alarms: AlarmView[] }>('GET', `/alarms?organization_id=${org}&limit=20`),
      );
      if (found) setAlarms(found.alarms);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  const loadNames = useCallback(async () => {
    if (!org) return;
    try {
      const found = await nameReads(() =>
        api<{ members: Array<{ userId: number; name: string }> }>('GET', `/organizations/${org}/members`),
      );
      if (found) setNames(new Map(found.members.map((m) => [m.userId, m.name])));
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  const loadCategories = useCallback(async () => {
    if (!org) return;
    try {
      const found = await categoryReads(() => api<CategoryView[]>('GET', `/journal/categories?organization_id=${org}`));
      if (found) setCategories(found);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [org]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    void loadAlarms();
    void loadNames();
    void loadCategories();
  }, [loadAlarms, loadNames, loadCategories]);

  // An entry written or deleted, here or elsewhere: into the list when it fits, else the list is read again.
  const takeEntry = (entry: JournalEntryView) => {
    const next = withEntry(shown.current.entries ?? [], entry);
    if (next) showEntries(next);
    else void load();
  };
  const changed = useCallback(
    (event: JournalChangedEvent) => {
      if (event.journal.organizationId !== org || event.journal.eventId !== eventId) return;
      if (shown.current.reading) {
        shown.current.dirty = true;
        return;
      }
      if (!shown.current.journal) return void load();
      showJournal(event.journal);
      if (event.entry) takeEntry(event.entry);
    },
    [org, eventId, load],
  );
  const again = useCallback(() => {
    void load();
    void loadCategories();
  }, [load, loadCategories]);
  useHubEvent('journal:changed', changed, again);
  const alarmChanged = useCallback(
    ({ alarm }: { alarm: AlarmView }) => {
      if (alarm.organizationId === org)
        setAlarms((list) => [alarm, ...list.filter((a) => a.id !== alarm.id)].sort((a, b) => b.id - a.id));
    },
    [org],
  );
  useHubEvent('alarm:created', alarmChanged, loadAlarms);
  useHubEvent('alarm:updated', alarmChanged, loadAlarms);
  const membersChanged = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === org) void loadNames();
    },
    [org, loadNames],
  );
  useHubEvent('members:changed', membersChanged, loadNames);

  const pick = (id: number | null) => {
    shown.current = { ...shown.current, query: '', reading: false, dirty: false, journal: null, entries: null };
    setJournal(null);
    setEntries(null);
    setFocusWrite(0);
    setEventId(id);
    history.replaceState(null, '', `/console/journal${id === null ? '' : `/${id}`}${location.search}`);
  };
  const stateChanged = (state: Omit<JournalState, 'totalEntries'>, kind: Change) => {
    const current = shown.current.journal;
    if (current?.id === state.id) showJournal({ ...state, totalEntries: current.totalEntries });
    if (kind === 'lock') setFocusWrite((n) => n + 1);
    // Breaking a lock writes an entry that records it.
    if (kind === 'force-unlock') void load();
  };
  const written = (entry: JournalEntryView) => {
    const current = shown.current.journal;
    if (current?.id === entry.journalId && entry.serialNumber > current.totalEntries)
      showJournal({ ...current, totalEntries: entry.serialNumber });
    takeEntry(entry);
  };

  const running = alarms.filter((a) => !a.endedAt);
  const ended = alarms.filter((a) => a.endedAt);
  const mine = journal?.locked?.userId === session.user.id && !journal.closed;
  const option = (a: AlarmView) => (
    <option key={a.id} value={a.id}>
      {w.alarmJournal(a.event, formatTime(a.startedAt))}
    </option>
  );
  return (
    <Shell current="journal" title={t.navJournal} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : (
        <>
          <p class="meta">{organization.name}</p>
          {eventId === null && running.length > 0 && (
            <div class="notice journal-running">
              <p>{w.running(running[0].event)}</p>
              <button class="button" type="button" onClick={() => pick(running[0].id)}>
                {w.openRunning(running[0].event)}
              </button>
            </div>
          )}
          <div class="stack">
            <label for="journal-pick">{w.pick}</label>
            <select
              id="journal-pick"
              value={eventId ?? ''}
              onChange={(e) => {
                const value = (e.target as HTMLSelectElement).value;
                pick(value ? Number(value) : null);
              }}
            >
              <option value="">{w.organizationJournal}</option>
              {running.length > 0 && <optgroup label={t.running}>{running.map(option)}</optgroup>}
              {ended.length > 0 && <optgroup label={t.recent}>{ended.map(option)}</optgroup>}
              {eventId !== null && !alarms.some((a) => a.id === eventId) && (
                <option value={eventId}>{w.unknownAlarm(eventId)}</option>
              )}
            </select>
          </div>
          <Problem text={problem} />
          {journal === null ? (
            !problem && <p aria-busy="true">{t.loading}</p>
          ) : (
            <>
              <LockPanel
                journal={journal}
                userId={session.user.id}
                admin={admin}
                names={names}
                onState={stateChanged}
                onRefused={load}
              />
              {(mine || (!journal.closed && hasDraft(journal.id))) &&
                (categories === null ? (
                  <p aria-busy="true">{t.loading}</p>
                ) : (
                  <EntryForm
                    key={journal.id}
                    journalId={journal.id}
                    categories={categories}
                    admin={admin}
                    canSave={mine}
                    focus={focusWrite}
                    onWritten={written}
                    onRefused={load}
                  />
                ))}
              <EntryList
                journalId={journal.id}
                entries={entries}
                total={journal.totalEntries}
                names={names}
                canDelete={mine}
                onChanged={written}
                onRefused={load}
                onMore={loadMore}
              />
              <ExportForm journalId={journal.id} />
            </>
          )}
          {admin && categories !== null && (
            <Categories
              organizationId={organization.id}
              categories={categories}
              onCreated={(c) => setCategories([...categories.filter((x) => x.id !== c.id), c])}
            />
          )}
        </>
      )}
    </Shell>
  );
}
