// The screen's controller: holds the store, the connection and the clock, and decides what the wall shows.
import type { MonitorData } from '../../server/areas/monitor/reduce.js';
import type { AuthScheme, PatchEvent, SubscribeResult } from '../../server/hub/protocol.js';
import { activeAlarms, alarmSignature, chooseView, lastAlarm, lastAlarmChange, type Alarm } from './alarms.js';
import { createAnnouncer } from './announce.js';
import { connect, type Connection } from './connection.js';
import { fitAll, tickClocks } from './refresh.js';
import { DisplayStore, type DisplayState } from './store.js';
import { alarmPanel } from './views/alarm.js';
import { banner, type BannerState } from './views/banner.js';
import { splitView } from './views/split.js';
import { standbyView } from './views/standby.js';

/** How the app leaves the live view. */
export interface AppExits {
  onSignInNeeded: (message: string, keepToken: boolean) => void;
  onDeleted: (monitorId: number) => void;
}

/** Everything a running screen needs. */
export interface AppOptions extends AppExits {
  root: HTMLElement;
  bannerRoot: HTMLElement;
  monitorId: number;
  token: string;
  scheme: AuthScheme;
}

/** Starts the live screen for one monitor; returns a function that stops it. */
export function startApp(o: AppOptions): () => void {
  let bannerState: BannerState = null;
  let observedChange = 0; // the first snapshot counts as "long ago": a screen booting into no alarm shows standby
  let signature: string | null = null;
  let lastShown: Alarm[] = [];
  const announcer = createAnnouncer();
  let renderedKey = '';
  let connection: Connection | null = null;

  const store = new DisplayStore(o.monitorId, {
    onChange: (state) => onData(state),
    onResync: () => {
      setBanner(bannerState ?? { kind: 'stale', sinceMs: Date.now() });
      connection?.resubscribe();
    },
  });

  function setBanner(next: BannerState): void {
    bannerState = next;
    // The standby "Ready" must not claim a live screen while the banner says otherwise.
    document.body.classList.toggle('offline', next !== null);
    o.bannerRoot.replaceChildren(...[banner(next)].filter((n): n is HTMLElement => n !== null));
  }

  function onData(state: DisplayState): void {
    const now = Date.now();
    const nextSignature = alarmSignature(state.data);
    const first = signature === null;
    if (!first && nextSignature !== signature) observedChange = now;
    signature = nextSignature;
    announcer.announce(activeAlarms(state.data, now), state.monitor?.configuration ?? {}, first);
    render(true);
  }

  function view(data: MonitorData, now: number): { key: string; build: () => HTMLElement } {
    const monitor = store.state.monitor;
    const configuration = monitor?.configuration ?? {};
    const alarms = activeAlarms(data, now);
    if (alarms.length > 0) lastShown = alarms;
    const mode = chooseView(alarms, lastAlarmChange(data, observedChange, now), monitor?.standbyDelay ?? 0, now);
    const shown = alarms.length > 0 ? alarms : lastShown.length > 0 ? lastShown : [lastAlarm(data)].filter((a): a is Alarm => a !== null);
    const base = `${store.state.version}|${JSON.stringify(monitor)}|${mode}|${alarms.map((a) => a.key).join(',')}`;
    if (mode === 'split') {
      return { key: base, build: () => splitView(alarms, configuration, monitor?.configurationSplitScreen ?? {}, now) };
    }
    if (mode === 'alarm' && shown.length > 0) {
      const ended = alarms.length === 0;
      return { key: `${base}|${ended}`, build: () => alarmPanel(shown[shown.length - 1], { configuration, nowMs: now, compact: false, showMap: true, showUnits: true, ended }) };
    }
    return {
      key: `${base}|standby|${new Date(now).toDateString()}`,
      build: () => standbyView(monitor?.configurationStandby ?? {}, monitor?.name ?? 'Station', data.metaData ?? {}, now),
    };
  }

  function render(force: boolean): void {
    if (!store.state.monitor) return;
    const now = Date.now();
    const next = view(store.state.data, now);
    if (force || next.key !== renderedKey) {
      renderedKey = next.key;
      o.root.replaceChildren(next.build());
      fitAll(o.root);
    }
    tickClocks(o.root, now);
  }

  function subscribed(result: SubscribeResult): void {
    store.applyAck(result);
    if (!store.stale) setBanner(null);
  }

  connection = connect(o.token, o.scheme, {
    request: () => store.subscribeRequest(),
    onSubscribed: subscribed,
    onSubscribeError: (error) => {
      if (error.error === 'not_found' || error.error === 'forbidden') {
        stop();
        o.onSignInNeeded(`Monitor ${o.monitorId} was not found, or this token may not show it (${error.error}).`, true);
      } else {
        setBanner(bannerState ?? { kind: 'stale', sinceMs: Date.now() });
        window.setTimeout(() => connection?.resubscribe(), 3000);
      }
    },
    onSnapshot: (event) => store.applySnapshot(event),
    onPatch: (event: PatchEvent) => store.applyPatch(event),
    onUpdated: (monitor, revision) => store.setMonitor(monitor, revision),
    onDeleted: (monitorId) => {
      if (monitorId !== o.monitorId) return;
      stop();
      o.onDeleted(monitorId);
    },
    onDisconnected: () => {
      store.resetResync();
      if (bannerState?.kind !== 'disconnected') setBanner({ kind: 'disconnected', sinceMs: bannerState?.sinceMs ?? Date.now() });
    },
    onRevoked: () => {
      stop();
      o.onSignInNeeded('This token was revoked or is not valid. Please sign in again.', false);
    },
  });

  // Four checks a second: the shown seconds never lag the real ones by more than a quarter second,
  // and texts are only written when they change.
  const timer = window.setInterval(() => render(false), 250);
  const onResize = () => fitAll(o.root);
  window.addEventListener('resize', onResize);

  function stop(): void {
    window.clearInterval(timer);
    window.removeEventListener('resize', onResize);
    connection?.close();
    setBanner(null);
  }
  return stop;
}
