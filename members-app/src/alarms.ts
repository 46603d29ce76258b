// The member's alarms (docs/members-app.md "The app"): those of every organization he belongs to (AL2
// for each, newest first), and one alarm with its answers by name (AL3). Read once, then kept live by
// the hub's alarm:created and alarm:updated on his organizations' rooms, and read again on every
// (re)connection of the socket (an answer older than an event or a newer read is not used:
// console/src/fresh.ts); nothing asks again on a timer.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { AlarmDetailView, AlarmView } from '../../schemas/alarms.js';
import { api } from '../../console/src/api.js';
import { ALARM_EVENTS, useHubEvent, useNewest } from '../../console/src/hub.js';
import type { Session } from '../../console/src/session.js';
import { explain } from '../../console/src/ui.js';

export type { AlarmDetailView, AlarmView };

/** The alarm as far as it is known: from the list (AL2) at once, with its answers by name once AL3 came. */
export type ShownAlarm = AlarmView | AlarmDetailView;

/** Who answered, by name; null while only the list's entry is known. */
export const answersOf = (alarm: ShownAlarm) => ('answers' in alarm ? alarm.answers : null);

const newestFirst = (a: AlarmView, b: AlarmView) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || b.id - a.id;

// One request per organization, the same on every screen, so that what the worker kept for one shows on
// all of them offline.
const LIMIT = 20;

/** The alarms of all his organizations, newest first (null until read), and what could not be read. */
export function useAlarms(session: Session): { alarms: AlarmView[] | null; problem: string | null } {
  const [alarms, setAlarms] = useState<AlarmView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = session.organizations.map((o) => o.id).join(',');
  const reads = useNewest(ALARM_EVENTS);
  const load = useCallback(async () => {
    const read = await reads(() =>
      Promise.allSettled(
        session.organizations.map((o) =>
          api<{ alarms: AlarmView[] }>('GET', `/alarms?organization_id=${o.id}&limit=${LIMIT}`),
        ),
      ),
    );
    if (!read) return;
    const failed = read.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    setProblem(failed ? explain(failed.reason) : null);
    if (failed && read.every((r) => r.status === 'rejected')) return;
    setAlarms(read.flatMap((r) => (r.status === 'fulfilled' ? r.value.alarms : [])).sort(newestFirst));
  }, [ids]);
  useEffect(() => void load(), [load]);
  const changed = useCallback(
    ({ alarm }: { alarm: AlarmView }) => {
      if (!session.organizations.some((o) => o.id === alarm.organizationId)) return;
      setAlarms((list) => [alarm, ...(list ?? []).filter((a) => a.id !== alarm.id)].sort(newestFirst));
    },
    [ids],
  );
  useHubEvent('alarm:created', changed, load);
  useHubEvent('alarm:updated', changed, load);
  return { alarms, problem };
}

/** One alarm with its answers by name (AL3), read again whenever it changes. */
export function useAlarm(id: number): {
  alarm: AlarmDetailView | null;
  problem: string | null;
  reload: () => Promise<void>;
} {
  const [alarm, setAlarm] = useState<AlarmDetailView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const found = await reads(() => api<AlarmDetailView>('GET', `/alarms/${id}`));
      if (!found) return;
      setAlarm(found);
      setProblem(null);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [id]);
  useEffect(() => {
    setAlarm(null);
    setProblem(null);
    void load();
  }, [load]);
  // The event carries the counts; the names of those who answered come with AL3.
  const changed = useCallback(
    ({ alarm: changed }: { alarm: AlarmView }) => {
      if (changed.id === id) void load();
    },
    [id, load],
  );
  useHubEvent('alarm:updated', changed, load);
  return { alarm, problem, reload: load };
}

/** Minutes since `iso`, kept current while shown (the clock, not the server, moves it). */
export function useMinutesSince(iso: string): number {
  const since = () => Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60_000));
  const [minutes, setMinutes] = useState(since);
  useEffect(() => {
    setMinutes(since());
    const timer = setInterval(() => setMinutes(since()), 15_000);
    return () => clearInterval(timer);
  }, [iso]);
  return minutes;
}
