// The screen's controller: holds the store, the connection and the clock, and decides what the wall shows.
import type { MonitorData } from '../../server/areas/monitor/reduce.js';
import type { AuthScheme, PatchEvent, SubscribeResult } from '../../server/hub/protocol.js';
import { activeAlarms, alarmSignature, chooseView, endedAlarm, lastAlarmChange, type Alarm } from './alarms.js';
import { createAnnouncer } from './announce.js';
import { bool } from './config.js';
import { connect, type Connection } from './connection.js';
import { fitAll, tickClocks } from './refresh.js';
import { audioBlocked } from './sound.js';
import { DisplayStore, type DisplayState } from './store.js';
import { alarmPanel } from './views/alarm.js';
import { soundBlockedBadge } from './views/badge.js';
import { banner, type BannerState } from './views/banner.js';
import { fallbackView } from './views/fallback.js';
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
  let previous: MonitorData | null = null;
  let lastShown: Alarm | null = null;
  const announcer = createAnnouncer();
  let renderedKey = '';
  let failedKey = '';
  const badge = soundBlockedBadge();
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
    makeRoom();
  }

  // The banner gets a strip of its own above the view, so it never covers the keyword.
  function makeRoom(): void {
    const top = bannerState ? `${Math.ceil(o.bannerRoot.getBoundingClientRect().bottom)}px` : '';
    if (o.root.style.top === top) return;
    o.root.style.top = top;
    fitAll(o.root);
  }

  function onData(state: DisplayState): void {
    const now = Date.now();
    const first = previous === null;
    // Both sides are read at the same instant, so an event that ended meanwhile counts on neither.
    if (previous && alarmSignature(previous, now) !== alarmSignature(state.data, now)) observedChange = now;
    previous = state.data;
    announcer.announce(activeAlarms(state.data, now), state.monitor?.configuration ?? {}, first);
    render(true);
  }

  function view(data: MonitorData, now: number): { key: string; alarms: Alarm[]; build: () => HTMLElement } {
    const monitor = store.state.monitor;
    const configuration = monitor?.configuration ?? {};
    const alarms = activeAlarms(data, now);
    if (alarms.length > 0) lastShown = alarms[alarms.length - 1];
    const mode = chooseView(alarms, lastAlarmChange(data, observedChange, now), monitor?.standbyDelay ?? 0, now);
    // Once standby is reached the old alarm is done with: a later change must not bring it back.
    if (mode === 'standby') lastShown = null;
    const shown = alarms.length > 0 ? alarms[alarms.length - 1] : endedAlarm(lastShown, data);
    const base = `${store.state.version}|${JSON.stringify(monitor)}|${mode}|${alarms.map((a) => a.key).join(',')}`;
    if (mode === 'split') {
      return { key: base, alarms, build: () => splitView(alarms, configuration, monitor?.configurationSplitScreen ?? {}, now) };
    }
    if (mode === 'alarm' && shown) {
      const ended = alarms.length === 0;
      return {
        key: `${base}|${ended}|${shown.key}`,
        alarms: [shown],
        build: () => alarmPanel(shown, { configuration, nowMs: now, compact: false, showMap: true, showUnits: true, ended }),
      };
    }
    return {
      key: `${base}|standby|${new Date(now).toDateString()}`,
      alarms: [],
      build: () => standbyView(monitor?.configurationStandby ?? {}, monitor?.name ?? 'Station', data.metaData ?? {}, now),
    };
  }

  function render(force: boolean): void {
    if (!store.state.monitor) return;
    const now = Date.now();
    const next = view(store.state.data, now);
    if (force || next.key !== renderedKey) {
      try {
        o.root.replaceChildren(next.build());
        renderedKey = next.key;
        failedKey = '';
      } catch (error) {
        // The wall must still say what is going on; the next tick tries the real view again.
        if (failedKey !== next.key) console.error('display: building the view failed', error);
        failedKey = next.key;
        renderedKey = '';
        o.root.replaceChildren(fallbackView(next.alarms));
      }
      fitAll(o.root);
    }
    tickClocks(o.root, now);
    showSoundBlocked(now);
  }

  // Only a screen that should gong asks for the tap that lets it.
  function showSoundBlocked(now: number): void {
    const blocked = bool(store.state.monitor?.configuration ?? {}, 'gong', true) && audioBlocked(now);
    if (blocked && !badge.isConnected) document.body.append(badge);
    else if (!blocked && badge.isConnected) badge.remove();
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
        connection?.retryLater(3000);
      }
    },
    onSnapshot: (event) => {
      store.applySnapshot(event);
      // A snapshot the hub pushed may close the gap before any ack does.
      if (!store.stale && bannerState) setBanner(null);
    },
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
  const onResize = () => {
    makeRoom();
    fitAll(o.root);
  };
  window.addEventListener('resize', onResize);

  function stop(): void {
    window.clearInterval(timer);
    window.removeEventListener('resize', onResize);
    connection?.close();
    setBanner(null);
    badge.remove();
  }
  return stop;
}
