// Entry of the station display bundle: sign in once, then run the live screen.
import { startApp, type App } from './app.js';
import { ServerClock } from './clock.js';
import { languageOf, stringsFor } from './strings.js';
import { clearToken, loadToken, monitorIdFromUrl, rememberMonitorId, saveToken, schemeFor } from './credentials.js';
import { unlockAudioOnGesture } from './sound.js';
import { watchForUpdates } from './update.js';
import { noticeView, signInView } from './views/signin.js';

const root = document.getElementById('app') ?? document.body;
const bannerRoot = document.getElementById('banner') ?? document.body;

// A monitor that is missing or hidden from the token may appear later (created, or access granted).
const RETRY_SIGN_IN_MS = 60_000;
let signInRetry: number | undefined;
// One server clock for the page: its samples outlive a sign-in again.
const clock = new ServerClock();
let app: App | null = null;
// Before a monitor (and its language) is known, the browser's language speaks.
const t = stringsFor(languageOf(undefined, navigator.language));

/** Shows the sign-in form; a message explains why it is back. With `retry`, it tries again every minute until someone types. */
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
  });
  // Someone at the screen is fixing it: the form must not vanish under their fingers.
  form.addEventListener('input', () => window.clearTimeout(signInRetry), { once: true });
  if (retry) signInRetry = window.setTimeout(() => form.isConnected && run(), RETRY_SIGN_IN_MS);
  root.replaceChildren(form);
}

/** Starts the live screen when a usable token and monitor id are known, else asks for them. */
function run(): void {
  const token = loadToken();
  const scheme = token ? schemeFor(token) : null;
  const monitorId = monitorIdFromUrl();
  if (!token || !scheme || monitorId === null) {
    signIn();
    return;
  }
  root.replaceChildren();
  app = startApp({
    root,
    bannerRoot,
    monitorId,
    token,
    scheme,
    clock,
    onSignInNeeded: (message, keepToken) => {
      if (!keepToken) clearToken();
      // A kept token is good; only the monitor was out of reach, which may change without anyone here.
      signIn(message, monitorId, keepToken);
    },
    onDeleted: (id) => {
      root.replaceChildren(noticeView(t.deletedTitle, t.deletedDetail(id), 'monitor-deleted', t.chooseMonitor, () => signIn(undefined, null)));
    },
  });
}

unlockAudioOnGesture();
// No self-reload while an alarm, running or ended, is on the wall; the Date headers feed the clock.
watchForUpdates(() => app?.busy() ?? false, (sentAt, receivedAt, serverMs) => clock.sample(sentAt, receivedAt, serverMs, 1000));
run();
