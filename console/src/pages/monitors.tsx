// /console/monitors: the organization's monitors (M1, M3) and their screens (F3–F8): pairing a screen by
// the code its /display page shows, each screen's health as the hub reports it (screen:online,
// screen:offline), its commands, and a test alarm on a monitor.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { formatTime, t } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { formatPosition } from '../map.js';
import { Problem, Shell, explain, fieldProblems } from '../ui.js';
import { MonitorForm } from './monitor-place.js';

interface Monitor {
  id: number;
  name: string;
  organizationID: number;
  configuration: { address?: string; latitude?: unknown; longitude?: unknown } & Record<string, unknown>;
}

interface Screen {
  id: number;
  name: string;
  monitorId: number;
  online: boolean;
  lastSeen: string | null;
}

const COMMANDS = [
  ['reload', () => t.commandReload],
  ['identify', () => t.commandIdentify],
  ['sleep', () => t.commandSleep],
  ['wake', () => t.commandWake],
] as const;

function MonitorCard({ monitor, admin, onChanged }: { monitor: Monitor; admin: boolean; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [screens, setScreens] = useState<Screen[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [pairProblems, setPairProblems] = useState<Record<string, string>>({});
  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const found = await reads(() => api<Screen[]>('GET', `/monitor/${monitor.id}/screens`));
      if (found) setScreens(found);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [monitor.id]);
  useEffect(() => void load(), [load]);
  const health = useCallback(
    (event: { monitorId: number }) => {
      if (event.monitorId === monitor.id) void load();
    },
    [monitor.id, load],
  );
  useHubEvent('screen:online', health, load);
  useHubEvent('screen:offline', health, load);

  const pair = async (e: Event) => {
    e.preventDefault();
    setPairProblems({});
    setNotice(null);
    try {
      const screen = await api<Screen>('POST', `/monitor/${monitor.id}/screens`, { code, name: name.trim() || code });
      setNotice(t.paired(screen.name));
      setCode('');
      setName('');
      await load();
    } catch (err) {
      setPairProblems(
        err instanceof ApiError && err.status === 404
          ? { code: t.pairingNotFound }
          : fieldProblems(err, ['code', 'name']),
      );
    }
  };
  const command = async (screen: Screen | null, command: string) => {
    setProblem(null);
    setNotice(null);
    try {
      const result = await api<{ acknowledged: number[]; missing: number[] }>(
        'POST',
        screen ? `/screens/${screen.id}/commands` : `/monitor/${monitor.id}/screens/commands`,
        { command },
      );
      setNotice(t.commandDone(result.acknowledged.length, result.missing.length));
    } catch (err) {
      setProblem(explain(err));
    }
  };
  const remove = async (screen: Screen) => {
    if (!confirm(t.removeScreenConfirm(screen.name))) return;
    try {
      await api('DELETE', `/screens/${screen.id}`);
      await load();
    } catch (err) {
      setProblem(explain(err));
    }
  };
  const testAlarm = async () => {
    setProblem(null);
    try {
      const { endsAt } = await api<{ endsAt: string }>('POST', `/monitor/${monitor.id}/test-alarm`, {});
      setNotice(t.testAlarmRunning(formatTime(endsAt)));
    } catch (err) {
      setProblem(explain(err));
    }
  };

  const headingId = `monitor-${monitor.id}`;
  return (
    <section class="monitor" aria-labelledby={headingId}>
      <div class="row spread">
        <h2 id={headingId}>{monitor.name}</h2>
        {admin && !editing && (
          <button
            class="button small secondary"
            type="button"
            aria-label={t.editMonitor(monitor.name)}
            onClick={() => setEditing(true)}
          >
            {t.edit}
          </button>
        )}
      </div>
      {editing ? (
        <MonitorForm
          organizationId={monitor.organizationID}
          monitor={monitor}
          onDone={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : (
        <p class="meta">
          {monitor.configuration.address ?? ''}
          {typeof monitor.configuration.latitude === 'number' &&
            typeof monitor.configuration.longitude === 'number' &&
            ` (${formatPosition(monitor.configuration.latitude, monitor.configuration.longitude)})`}
        </p>
      )}
      <Problem text={problem} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <h3>{t.screens}</h3>
      {screens === null ? (
        <p aria-busy="true">{t.loading}</p>
      ) : screens.length === 0 ? (
        <p class="hint">{t.noScreens}</p>
      ) : (
        <ul class="list">
          {screens.map((s) => (
            <li key={s.id} class="column">
              <div class="row spread">
                <div>
                  <strong>{s.name}</strong>{' '}
                  <span class={`badge ${s.online ? 'yes' : 'no'}`}>{s.online ? t.screenOnline : t.screenOffline}</span>
                  {s.lastSeen && !s.online && <span class="meta"> · {t.lastSeenAt(formatTime(s.lastSeen))}</span>}
                </div>
                {admin && (
                  <button
                    class="button small danger"
                    type="button"
                    aria-label={t.removeScreen(s.name)}
                    onClick={() => remove(s)}
                  >
                    ✕
                  </button>
                )}
              </div>
              {admin && (
                <div class="row wrap">
                  {COMMANDS.map(([c, label]) => (
                    <button
                      key={c}
                      class="button small secondary"
                      type="button"
                      aria-label={t.commandFor(label(), s.name)}
                      onClick={() => command(s, c)}
                    >
                      {label()}
                    </button>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {admin && (
        <>
          <button class="button secondary" type="button" aria-label={t.testAlarmFor(monitor.name)} onClick={testAlarm}>
            {t.testAlarm}
          </button>
          <form class="stack" onSubmit={pair} noValidate>
            <h3>{t.pairTitle}</h3>
            <p class="hint">{t.pairLead}</p>
            <label for={`pair-code-${monitor.id}`}>{t.pairCode}</label>
            <input
              id={`pair-code-${monitor.id}`}
              value={code}
              autoComplete="off"
              autoCapitalize="characters"
              maxLength={32}
              aria-invalid={pairProblems.code ? true : undefined}
              aria-describedby={pairProblems.code ? `pair-code-${monitor.id}-problem` : undefined}
              onInput={(e) => setCode((e.target as HTMLInputElement).value)}
            />
            {pairProblems.code && (
              <span id={`pair-code-${monitor.id}-problem`} class="field-problem">
                {pairProblems.code}
              </span>
            )}
            <label for={`pair-name-${monitor.id}`}>{t.screenName}</label>
            <input
              id={`pair-name-${monitor.id}`}
              value={name}
              maxLength={200}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
            <Problem text={pairProblems.form ?? pairProblems.name ?? null} />
            <button class="button" type="submit">
              {t.pairButton}
            </button>
          </form>
        </>
      )}
    </section>
  );
}

export function MonitorsPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const [monitors, setMonitors] = useState<Monitor[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const admin = organization?.role === 'admin';
  const reads = useNewest();
  const load = useCallback(async () => {
    if (!organization) return;
    try {
      const found = await reads(() => api<Monitor[]>('GET', `/monitor?organization=${organization.id}`));
      if (found) setMonitors(found);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organization?.id]);
  useEffect(() => void load(), [load]);
  const changed = useCallback(() => void load(), [load]);
  useHubEvent('monitor:created', changed, load);
  useHubEvent('monitor:updated', changed, load);
  useHubEvent('monitor:deleted', changed, load);

  return (
    <Shell current="monitors" title={t.monitorsTitle} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : (
        <>
          <Problem text={problem} />
          {!admin && <p class="hint">{t.monitorsReadOnly}</p>}
          {monitors === null ? (
            <p aria-busy="true">{t.loading}</p>
          ) : monitors.length === 0 ? (
            <p class="hint">{t.noMonitors}</p>
          ) : (
            monitors.map((m) => <MonitorCard key={m.id} monitor={m} admin={admin} onChanged={load} />)
          )}
          {admin && (
            <section aria-labelledby="new-monitor">
              <h2 id="new-monitor">{t.newMonitor}</h2>
              {adding || monitors?.length === 0 ? (
                <MonitorForm
                  organizationId={organization.id}
                  onDone={() => {
                    setAdding(false);
                    void load();
                  }}
                />
              ) : (
                <button class="button secondary" type="button" onClick={() => setAdding(true)}>
                  {t.createMonitor}
                </button>
              )}
            </section>
          )}
        </>
      )}
    </Shell>
  );
}
