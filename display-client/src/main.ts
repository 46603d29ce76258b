// Entry of the station display bundle: sign in once, then run the live screen.
import { startApp } from './app.js';
import { clearToken, loadToken, monitorIdFromUrl, rememberMonitorId, saveToken, schemeFor } from './credentials.js';
import { unlockAudioOnGesture } from './sound.js';
import { watchForUpdates } from './update.js';
import { noticeView, signInView } from './views/signin.js';

const root = document.getElementById('app') ?? document.body;
const bannerRoot = document.getElementById('banner') ?? document.body;

/** Shows the sign-in form; a message explains why it is back. */
function signIn(message?: string, monitorId = monitorIdFromUrl()): void {
  root.replaceChildren(signInView({
    message,
    monitorId,
    hasToken: loadToken() !== null,
    onSubmit: (result) => {
      if (result.token) saveToken(result.token);
      rememberMonitorId(result.monitorId);
      run();
    },
  }));
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
  startApp({
    root,
    bannerRoot,
    monitorId,
    token,
    scheme,
    onSignInNeeded: (message, keepToken) => {
      if (!keepToken) clearToken();
      signIn(message, monitorId);
    },
    onDeleted: (id) => {
      root.replaceChildren(noticeView(
        'Monitor deleted',
        `Monitor ${id} was deleted. This screen has nothing to show until it is set to another monitor.`,
        'monitor-deleted',
        () => signIn(undefined, null),
      ));
    },
  });
}

unlockAudioOnGesture();
// "Busy" while an alarm is on the wall: its keyword element is only rendered in alarm and split views.
watchForUpdates(() => document.querySelector('[data-testid="alarm-event"]') !== null);
run();
