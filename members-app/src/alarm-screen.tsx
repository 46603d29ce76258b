// One alarm as the member sees it at night (docs/members-app.md "The app"): what happened and where, how
// long ago, who is coming (by name, with their minutes) and who is not, the place on a map, and — while
// it runs — his answer at the bottom. Live through the hub (alarms.ts).
import { shortTime, t } from '../../console/src/i18n.js';
import { MapView } from '../../console/src/map.js';
import type { Session } from '../../console/src/session.js';
import { Problem } from '../../console/src/ui.js';
import { answersOf, useAlarm, useMinutesSince, type AlarmView, type ShownAlarm } from './alarms.js';
import { AnswerBar } from './answer.js';
import type { Push } from './push.js';
import { w } from './words.js';

function Counts({ alarm }: { alarm: ShownAlarm }) {
  return (
    <p class="app-counts" aria-live="polite" data-testid="counts">
      <span class="app-count app-count-yes">
        <strong>{alarm.responses.positive}</strong> {t.coming}
      </span>
      <span class="app-count app-count-no">
        <strong>{alarm.responses.negative}</strong> {t.notComing}
      </span>
      <span class="app-count">
        <strong>{alarm.responses.awaiting}</strong> {t.awaiting}
      </span>
    </p>
  );
}

function People({ alarm, coming, userId }: { alarm: ShownAlarm; coming: boolean; userId: number }) {
  const answers = answersOf(alarm);
  if (!answers)
    return coming ? (
      <section aria-labelledby="who-comes" aria-busy="true">
        <h2 id="who-comes">{w.whoComes}</h2>
        <p class="hint">{t.loading}</p>
      </section>
    ) : null;
  const people = answers
    .filter((a) => a.response === coming)
    // Those who need the fewest minutes first: they are there first.
    .sort((a, b) => (a.duration ?? 999) - (b.duration ?? 999) || a.name.localeCompare(b.name));
  if (!coming && people.length === 0) return null;
  return (
    <section aria-labelledby={coming ? 'who-comes' : 'who-not'}>
      <h2 id={coming ? 'who-comes' : 'who-not'}>{coming ? w.whoComes : w.whoNot}</h2>
      {people.length === 0 ? (
        <p class="hint">{w.nobodyYet}</p>
      ) : (
        <ul class="people" data-testid={coming ? 'coming' : 'not-coming'}>
          {people.map((p) => (
            <li key={p.userId}>
              <span class="people-name">
                {p.name} {p.userId === userId && <span class="meta">{w.you}</span>}
              </span>
              {coming && p.duration !== null && <span class="people-minutes">{w.minutes(p.duration)}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Since({ alarm }: { alarm: ShownAlarm }) {
  const minutes = useMinutesSince(alarm.startedAt);
  return (
    <p class="alarm-when">
      {alarm.endedAt ? (
        <span class="alarm-ended">{w.endedAt(shortTime(alarm.endedAt))}</span>
      ) : (
        <>
          <span class="alarm-live">{w.ago(minutes)}</span> · {w.raisedAt(shortTime(alarm.startedAt))}
        </>
      )}
    </p>
  );
}

/** The alarm with its place, answers and, while it runs, the member's answer. */
export function AlarmDetail({
  alarm,
  session,
  push,
  onAnswered,
}: {
  alarm: ShownAlarm;
  session: Session;
  push: Push;
  onAnswered: () => Promise<void>;
}) {
  const organization = session.organizations.find((o) => o.id === alarm.organizationId);
  const place = alarm.address || alarm.event;
  const located = alarm.latitude !== null && alarm.longitude !== null;
  return (
    <article class={`alarm${alarm.endedAt ? '' : ' alarm-running'}`} data-testid="alarm">
      <header class="alarm-head">
        <Since alarm={alarm} />
        <h1 class="alarm-event" data-testid="alarm-event">
          {alarm.event}
        </h1>
        {alarm.address && <p class="alarm-address">{alarm.address}</p>}
        {alarm.message && <p class="alarm-message">{alarm.message}</p>}
        {session.organizations.length > 1 && organization && <p class="meta">{organization.name}</p>}
      </header>
      <Counts alarm={alarm} />
      <People alarm={alarm} coming userId={session.user.id} />
      <People alarm={alarm} coming={false} userId={session.user.id} />
      {located && (
        <div class="app-map">
          <MapView
            label={w.mapLabel(place)}
            center={{ lat: alarm.latitude!, lon: alarm.longitude! }}
            zoom={15}
            markers={[{ lat: alarm.latitude!, lon: alarm.longitude!, label: place, kind: 'pick' }]}
          />
        </div>
      )}
      {!alarm.endedAt && <AnswerBar alarm={alarm} userId={session.user.id} push={push} onAnswered={onAnswered} />}
    </article>
  );
}

/**
 * /app/alarm/<id>: one alarm, read and kept live. `listed` is its entry in the alarms already read (the
 * start page's running alarm): shown at once, while its answers by name are read (docs/members-app.md).
 */
export function AlarmScreen({
  id,
  listed,
  session,
  push,
}: {
  id: number;
  listed?: AlarmView;
  session: Session;
  push: Push;
}) {
  const { alarm: read, problem, reload } = useAlarm(id);
  // A read of the alarm shown before (the list moved on to another) is not this one.
  const alarm = (read?.id === id ? read : null) ?? (listed?.id === id ? listed : null);
  if (!alarm)
    return problem ? (
      <Problem text={problem} />
    ) : (
      <p aria-busy="true" class="hint">
        {t.loading}
      </p>
    );
  // What the list showed stays when AL3 fails (offline, the server away); the problem is said above it.
  return (
    <>
      {problem && <Problem text={problem} />}
      <AlarmDetail alarm={alarm} session={session} push={push} onAnswered={reload} />
    </>
  );
}
