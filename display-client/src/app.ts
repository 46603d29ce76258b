// The screen's controller: holds the store, the connection and the server clock, asks decide.ts what
// the wall shows, and draws it. It exposes busy() for the self-reload guard. A paired screen also
// reports what it shows and obeys remote commands.
import type { AuthScheme, PatchEvent, SubscribeResult, TestAlarmEvent } from '../../common/hub-protocol.js';
import { activeAlarms } from './alarms.js';
import { createAnnouncer } from './announce.js';
import type { ServerClock } from './clock.js';
import { bool, text } from './config.js';
import { connect, type Connection } from './connection.js';
import type { PairedScreen } from './credentials.js';
import { decideView, initialMemory, isBusy, observe, receiveTest, type ViewDecision } from './decide.js';
import { retryFailedTiles } from './map.js';
import { fitAll, tickClocks } from './refresh.js';
import { createRemote } from './remote.js';
import { createReporter } from './report.js';
import { audioBlocked } from './sound.js';
import { DisplayStore, type DisplayState } from './store.js';
import { languageOf, localeFor, stringsFor, type Strings } from './strings.js';
import { readTestAlarm, testAlarmAsAlarm } from './test-alarm.js';
import { soundBlockedBadge } from './views/badge.js';
import { banner, type BannerState } from './views/banner.js';
import { fallbackView } from './views/fallback.js';
import { renderView } from './views/screen.js';
import { createAvailabilityWatch } from './availability.js';
import { createVehicleWatch } from './vehicles.js';
import { createWaterBook } from './water.js';
import { waterSourcesOf } from '../../common/water-sources.js';

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
  clock: ServerClock;
  /** Set on a paired screen (screen token): its id answers commands. */
  screen: PairedScreen | null;
}

/** A running screen. */
export interface App {
  stop: () => void;
  /** True while an alarm (running, ended or a test) is on the wall. */
  busy: () => boolean;
}

/** Starts the live screen for one monitor. */
export function startApp(o: AppOptions): App {
  const { clock } = o;
  let bannerState: BannerState = null;
  let memory = initialMemory();
  let shown: ViewDecision | null = null;
  let first = true;
  const announcer = createAnnouncer();
  let renderedKey = '';
  let failedKey = '';
  const badge = soundBlockedBadge();
  let connection: Connection | null = null;

  const store = new DisplayStore(o.monitorId, {
    onChange: (state) => onData(state),
    onResync: () => {
      setBanner(bannerState ?? { kind: 'stale', sinceMs: clock.now() });
      connection?.resubscribe();
    },
  });

  const configuration = () => store.state.monitor?.configuration ?? {};
  const waters = createWaterBook(
    o.monitorId,
    (request) => connection?.waterNearby(request) ?? Promise.resolve(null),
    () => render(false),
  );
  const availability = createAvailabilityWatch(
    () => connection?.availabilityWatch(o.monitorId) ?? Promise.resolve(null),
    () => render(false),
  );
  // The vehicles' statuses on the unit tiles: always asked (nothing to configure), for the monitor's organization.
  const vehicles = createVehicleWatch(
    () => connection?.vehiclesWatch(o.monitorId) ?? Promise.resolve(null),
    () => store.state.monitor?.organizationID ?? null,
    () => render(false),
  );
  // The monitor's configured language, else the address's ?lang= (a kiosk set up for its station), else the browser's.
  const language = () =>
    languageOf(configuration().language, new URLSearchParams(location.search).get('lang'), navigator.language);
  const strings = (): Strings => stringsFor(language());
  const voice = () => localeFor(language(), text(configuration(), 'speechLang'));
  const remote = createRemote({
    screen: o.screen,
    monitorName: () => store.state.monitor?.name ?? '',
    strings,
    emitPower: (state) => connection?.power(state),
  });
  // The page's version is put into the page by the server; the service records both per screen.
  const pageVersion = document.querySelector<HTMLMetaElement>('meta[name="page-version"]')?.content ?? '';
  const reporter = o.screen
    ? createReporter((versionShown) => connection?.report({ versionShown, pageVersion }))
    : null;

  function setBanner(next: BannerState): void {
    bannerState = next;
    // The standby "Ready" must not claim a live screen while the banner says otherwise.
    document.body.classList.toggle('offline', next !== null);
    o.bannerRoot.replaceChildren(...[banner(next, strings())].filter((n): n is HTMLElement => n !== null));
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
    const now = clock.now();
    memory = observe(memory, state.data, now);
    announcer.announce(activeAlarms(state.data, now), configuration(), first, voice());
    first = false;
    render(true);
  }

  // A test alarm never touches the store: it lives in the view memory until it ends or a real alarm comes.
  function onTestAlarm(event: TestAlarmEvent): void {
    const now = clock.now();
    const test = event.monitorId === o.monitorId ? readTestAlarm(event, now) : null;
    if (!test || now >= test.endsAtMs) return;
    const next = receiveTest(memory, test);
    if (next === memory) return; // the same test, sent again on a resubscribe
    memory = next;
    if (activeAlarms(store.state.data, now).length === 0) {
      announcer.announceTest(
        testAlarmAsAlarm(test, configuration(), strings().testKeyword, strings().testMessage),
        configuration(),
        voice(),
      );
    }
    render(true);
  }

  function render(force: boolean): void {
    const monitor = store.state.monitor;
    if (!monitor) return;
    const now = clock.now();
    const decided = decideView(store.state.data, memory, now, monitor.standbyDelay);
    memory = decided.memory;
    shown = decided.view;
    showWaters(decided.view);
    availability.show(bool(monitor.configurationStandby, 'showAvailability', false));
    remote.sync(isBusy(shown));
    reporter?.shown(store.state.version);
    const t = strings();
    document.documentElement.lang = language();
    const next = renderView(decided.view, {
      monitor,
      data: store.state.data,
      version: store.state.version,
      nowMs: now,
      t,
      language: language(),
      screen: { width: innerWidth, height: innerHeight },
      waters,
      availability: availability.counts(),
      vehicles,
    });
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
        o.root.replaceChildren(fallbackView(next.alarms, t));
      }
      fitAll(o.root);
    }
    tickClocks(o.root, now);
    showSoundBlocked(t);
  }

  // The water sources near the alarms on the wall, when the monitor names an entity of them.
  function showWaters(view: ViewDecision): void {
    const setting = waterSourcesOf(configuration());
    const alarms =
      view.mode === 'split' ? view.alarms : view.mode === 'alarm' || view.mode === 'ended' ? [view.alarm] : [];
    const positions = setting
      ? alarms.flatMap((a) =>
          a.latitude !== null && a.longitude !== null ? [{ latitude: a.latitude, longitude: a.longitude }] : [],
        )
      : [];
    waters.show(positions, JSON.stringify(setting));
  }

  // Only a screen that should gong asks for the tap that lets it.
  function showSoundBlocked(t: Strings): void {
    const blocked = bool(configuration(), 'gong', true) && audioBlocked(Date.now());
    if (blocked && badge.textContent !== t.soundBlocked) badge.textContent = t.soundBlocked;
    if (blocked && !badge.isConnected) document.body.append(badge);
    else if (!blocked && badge.isConnected) badge.remove();
  }

  function subscribed(result: SubscribeResult, sentAt: number, receivedAt: number): void {
    // The clock first: the snapshot in this answer is drawn at server time.
    if (typeof result.serverTime === 'number') clock.sample(sentAt, receivedAt, result.serverTime);
    store.applyAck(result);
    if (!store.stale) setBanner(null);
    // Whatever kept tiles from loading may have gone with the connection: try them again now.
    retryFailedTiles();
    // The hub forgot this socket's water sources, availability and vehicles with the old connection.
    waters.reconnected();
    availability.reconnected();
    vehicles.reconnected();
  }

  connection = connect(o.token, o.scheme, {
    request: () => store.subscribeRequest(),
    onSubscribed: subscribed,
    onSubscribeError: (error) => {
      if (error.error === 'not_found' || error.error === 'forbidden') {
        stop();
        o.onSignInNeeded(strings().notVisible(o.monitorId, error.error), true);
      } else {
        setBanner(bannerState ?? { kind: 'stale', sinceMs: clock.now() });
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
      if (bannerState?.kind !== 'disconnected')
        setBanner({ kind: 'disconnected', sinceMs: bannerState?.sinceMs ?? clock.now() });
    },
    onRevoked: () => {
      stop();
      o.onSignInNeeded(strings().revoked, false);
    },
    onCommand: remote.command,
    onTestAlarm,
    onWaterChanged: (event) => waters.changed(event),
    onAvailabilityChanged: (counts) => availability.changed(counts),
    onVehicleStatus: (event) => vehicles.changed(event),
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
    remote.stop();
    reporter?.stop();
    waters.stop();
    availability.stop();
    vehicles.stop();
    setBanner(null);
    badge.remove();
    shown = null;
  }
  return { stop, busy: () => isBusy(shown) };
}
