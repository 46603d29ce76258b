// Entry of the station display bundle: pair the screen (or sign in with a token) once, then run the
// live screen.
import type { AuthScheme } from '../../common/hub-protocol.js';
import { startApp, type App } from './app.js';
import { ServerClock } from './clock.js';
import {
  clearToken,
  loadPairing,
  loadToken,
  monitorIdFromUrl,
  rememberMonitorId,
  saveToken,
  schemeFor,
  type PairedScreen,
} from './credentials.js';
import { showPairing } from './pair-screen.js';
import { unlockAudioOnGesture } from './sound.js';
import { languageOf, stringsFor } from './strings.js';
import { watchForUpdates } from './update.js';
import { noticeView, signInView } from './views/signin.js';

const root = document.getElementById('app') ?? document.body;
const bannerRoot = document.getElementById('banner') ?? document.body;

// A monitor that is missing or hidden from the token may appear later (created, or access granted).
const RETRY_SIGN_IN_MS = 60_000;
let signInRetry: number | undefined;
let stopPairing: (() => void) | null = null;
// One server clock for the page: its samples outlive a sign-in again.
const clock = new ServerClock();
let app: App | null = null;
// Before a monitor (and its language) is known: ?lang= (a station's screens may be set up so), else the browser's.
const t = stringsFor(languageOf(new URLSearchParams(location.search).get('lang') ?? undefined, navigator.language));

/** Shows the pairing code until an admin pairs the screen; `message` says why it is (back) here. */
function pair(message?: string): void {
  window.clearTimeout(signInRetry);
  stopPairing?.();
  stopPairing = showPairing({
    root,
    clock,
    t,
    message,
    onPaired: () => {
      stopPairing = null;
      run();
    },
    onUseToken: () => {
      stopPairing = null;
      signIn();
    },
  });
}

/**
 * Shows the sign-in form for API keys and personal tokens; with `retry`, it tries again every minute until someone
 * types.
 */
function signIn(message?: string, monitorId = monitorIdFromUrl(), retry = false): void {
  window.clearTimeout(signInRetry);
  const form = signInView({
    message,
    monitorId,
    hasToken: loadToken() !== null,
    t,
    onSubmit: (result) => {
      window.clearTimeout(signInRetry);
      if (result.token) saveToken(result.token);
      rememberMonitorId(result.monitorId);
      run();
    },
    onPair: () => pair(),
  });
  // Someone at the screen is fixing it: the form must not vanish under their fingers.
  form.addEventListener('input', () => window.clearTimeout(signInRetry), { once: true });
  if (retry) signInRetry = window.setTimeout(() => form.isConnected && run(), RETRY_SIGN_IN_MS);
  root.replaceChildren(form);
}

/** Starts the live screen when a usable credential is known: a pairing, or a token and a monitor id. */
function run(): void {
  const token = loadToken();
  const scheme = token ? schemeFor(token) : null;
  if (!token || !scheme) {
    if (token) clearToken();
    pair();
    return;
  }
  // A paired screen shows the monitor it was paired with, whatever the address says.
  const paired = scheme === 'screen-token' ? loadPairing() : null;
  if (scheme === 'screen-token' && !paired) {
    clearToken();
    pair();
    return;
  }
  if (paired && monitorIdFromUrl() !== paired.monitorId) rememberMonitorId(paired.monitorId);
  const monitorId = paired?.monitorId ?? monitorIdFromUrl();
  if (monitorId === null) signIn();
  else start(token, scheme, monitorId, paired);
}

function start(token: string, scheme: AuthScheme, monitorId: number, paired: PairedScreen | null): void {
  root.replaceChildren();
  app = startApp({
    root,
    bannerRoot,
    monitorId,
    token,
    scheme,
    clock,
    screen: paired,
    onSignInNeeded: (message, keepToken) => {
      // A screen token is this screen's only credential: refused or out of reach, the screen pairs anew.
      if (paired) return forget(t.screenRemoved);
      if (!keepToken) clearToken();
      // A kept token is good; only the monitor was out of reach, which may change without anyone here.
      signIn(message, monitorId, keepToken);
    },
    onDeleted: (id) => {
      if (paired) return forget(t.screenRemoved);
      root.replaceChildren(
        noticeView(t.deletedTitle, t.deletedDetail(id), 'monitor-deleted', t.chooseMonitor, () =>
          signIn(undefined, null),
        ),
      );
    },
  });
}

function forget(message: string): void {
  clearToken();
  pair(message);
}

unlockAudioOnGesture();
// No self-reload while an alarm, running or ended, is on the wall; the Date headers feed the clock.
watchForUpdates(
  () => app?.busy() ?? false,
  (sentAt, receivedAt, serverMs) => clock.sample(sentAt, receivedAt, serverMs, 1000),
);
run();
