// /console/alarms: the running and recent alarms (AL2), raising one (AL1), and /console/alarms/<id>:
// following one live — each member's answer by name as it comes, each delivery's state (AL3), ending it
// (AL4). The hub's alarm:created and alarm:updated drive both; nothing is asked again on a timer.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { AlarmDetailView, AlarmView } from '../../../schemas/alarms.js';
import { api } from '../api.js';
import { ALARM_EVENTS, hub, useHubEvent, useNewest } from '../hub.js';
import { formatTime, t } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain } from '../ui.js';
import { RaiseForm } from './raise.js';

function Counts({ alarm }: { alarm: AlarmView }) {
  return (
    <div class="counts" aria-live="polite">
      <span class="count yes">
        <strong>{alarm.responses.positive}</strong> {t.coming}
      </span>
      <span class="count no">
        <strong>{alarm.responses.negative}</strong> {t.notComing}
      </span>
      <span class="count wait">
        <strong>{alarm.responses.awaiting}</strong> {t.awaiting}
      </span>
    </div>
  );
}

function AlarmRow({ alarm }: { alarm: AlarmView }) {
  return (
    <li>
      <a class="alarm-link" href={`/console/alarms/${alarm.id}${location.search}`}>
        <strong>{alarm.event}</strong>
        <span class="meta">
          {alarm.address && `${alarm.address} · `}
          {t.started} {formatTime(alarm.startedAt)}
          {alarm.endedAt && ` · ${t.ended} ${formatTime(alarm.endedAt)}`}
        </span>
      </a>
      <Counts alarm={alarm} />
    </li>
  );
}

export function AlarmsPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const [alarms, setAlarms] = useState<AlarmView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reads = useNewest(ALARM_EVENTS);
  const load = useCallback(async () => {
    if (!organization) return;
    try {
      const found = await reads(() =>
        api<{ alarms: AlarmView[] }>('GET', `/alarms?organization_id=${organization.id}&limit=20`),
      );
      if (found) setAlarms(found.alarms);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organization?.id]);
  useEffect(() => void load(), [load]);
  const changed = useCallback(
    ({ alarm }: { alarm: AlarmView }) => {
      if (alarm.organizationId !== organization?.id) return;
      setAlarms((list) => [alarm, ...(list ?? []).filter((a) => a.id !== alarm.id)].sort((a, b) => b.id - a.id));
    },
    [organization?.id],
  );
  useHubEvent('alarm:created', changed, load);
  useHubEvent('alarm:updated', changed, load);

  const running = (alarms ?? []).filter((a) => !a.endedAt);
  const past = (alarms ?? []).filter((a) => a.endedAt);
  return (
    <Shell current="alarms" title={t.alarmsTitle} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : (
        <>
          <Problem text={problem} />
          <section aria-labelledby="running">
            <h2 id="running">{t.running}</h2>
            {alarms === null ? (
              <p aria-busy="true">{t.loading}</p>
            ) : running.length ? (
              <ul class="list alarms">
                {running.map((a) => (
                  <AlarmRow key={a.id} alarm={a} />
                ))}
              </ul>
            ) : (
              <p class="hint">{t.noAlarms}</p>
            )}
          </section>
          {organization.role === 'admin' ? (
            <RaiseForm
              organizationId={organization.id}
              onRaised={(id) => location.assign(`/console/alarms/${id}${location.search}`)}
            />
          ) : (
            <p class="hint">{t.alarmsReadOnly}</p>
          )}
          {past.length > 0 && (
            <section aria-labelledby="recent">
              <h2 id="recent">{t.recent}</h2>
              <ul class="list alarms">
                {past.map((a) => (
                  <AlarmRow key={a.id} alarm={a} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </Shell>
  );
}

export function AlarmPage({
  session,
  organization,
  alarmId,
}: {
  session: Session;
  organization: Organization | null;
  alarmId: number;
}) {
  const [alarm, setAlarm] = useState<AlarmDetailView | null>(null);
  const [names, setNames] = useState<Map<number, string>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [connected, setConnected] = useState(true);
  const reads = useNewest();
  const load = useCallback(async () => {
    try {
      const found = await reads(() => api<AlarmDetailView>('GET', `/alarms/${alarmId}`));
      if (found) setAlarm(found);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [alarmId]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!alarm) return;
    api<{ members: Array<{ userId: number; name: string }> }>(
      'GET',
      `/organizations/${alarm.organizationId}/members`,
    ).then(
      (r) => setNames(new Map(r.members.map((m) => [m.userId, m.name]))),
      () => undefined,
    );
  }, [alarm?.organizationId]);
  const changed = useCallback(
    ({ alarm: updated }: { alarm: AlarmView }) => {
      if (updated.id === alarmId) void load();
    },
    [alarmId, load],
  );
  useHubEvent('alarm:updated', changed, load);
  useEffect(() => {
    const socket = hub();
    const up = () => setConnected(true);
    const down = () => setConnected(false);
    socket.on('connect', up);
    socket.on('disconnect', down);
    return () => {
      socket.off('connect', up);
      socket.off('disconnect', down);
    };
  }, []);

  const end = async () => {
    if (!confirm(t.endConfirm)) return;
    try {
      await api('POST', `/alarms/${alarmId}/end`);
      await load();
    } catch (err) {
      setProblem(explain(err));
    }
  };
  const admin = organization?.role === 'admin' && alarm?.organizationId === organization.id;
  return (
    <Shell current="alarms" title={alarm ? alarm.event : t.alarmsTitle} session={session} organization={organization}>
      <p>
        <a href={`/console/alarms${location.search}`}>← {t.backToAlarms}</a>
      </p>
      <Problem text={problem} />
      {!connected && (
        <p class="hint" role="status">
          {t.reconnecting}
        </p>
      )}
      {alarm && (
        <>
          <p class="meta">
            {alarm.address && `${alarm.address} · `}
            {t.started} {formatTime(alarm.startedAt)}
            {alarm.endedAt && ` · ${t.ended} ${formatTime(alarm.endedAt)}`}
            {alarm.units.length > 0 && ` · ${alarm.units.join(', ')}`}
          </p>
          {alarm.message && <p class="message">{alarm.message}</p>}
          <Counts alarm={alarm} />
          <p>
            <a href={`/console/journal/${alarm.id}${location.search}`}>{t.alarmJournal}</a>
          </p>
          <section aria-labelledby="answers">
            <h2 id="answers">{t.answers}</h2>
            {/* The live region is there from the start, so that the first answer is announced too. */}
            <div aria-live="polite">
              {alarm.answers.length === 0 ? (
                <p class="hint">{t.noAnswers}</p>
              ) : (
                <ul class="list answers">
                  {alarm.answers.map((a) => (
                    <li key={a.userId}>
                      <div>
                        <strong>{a.name}</strong>
                        <span class="meta">{formatTime(a.at)}</span>
                      </div>
                      <span class={`badge ${a.response ? 'yes' : 'no'}`}>{a.response ? t.answerYes : t.answerNo}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </section>
          <section aria-labelledby="deliveries">
            <h2 id="deliveries">{t.deliveries}</h2>
            <ul class="list">
              {alarm.deliveries.map((d, i) => (
                <li key={`${d.channel}:${d.recipientUserId}:${i}`}>
                  <div>
                    <span>
                      {names.get(d.recipientUserId) ?? `#${d.recipientUserId}`}{' '}
                      <span class="meta">
                        {d.channel === 'app' ? t.channelApp : d.channel === 'sms' ? t.channelSms : t.channelCall}{' '}
                        {d.target}
                      </span>
                    </span>
                    {d.status === 'failed' && d.lastError && <span class="meta">{d.lastError}</span>}
                    {d.status === 'waiting' && d.dueAt && <span class="meta">{t.dueAt(formatTime(d.dueAt))}</span>}
                    {d.status === 'skipped' && d.reason && (
                      <span class="meta">{t.skipReason[d.reason] ?? d.reason}</span>
                    )}
                  </div>
                  <span class={`badge ${d.status}`}>{t.deliveryStatus[d.status] ?? d.status}</span>
                </li>
              ))}
            </ul>
          </section>
          {admin && !alarm.endedAt && (
            <button class="button secondary" type="button" onClick={end}>
              {t.endAlarm}
            </button>
          )}
        </>
      )}
    </Shell>
  );
}
