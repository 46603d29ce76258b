// The pairing screen's controller: runs the pairing (pairing.ts) against this origin, draws it
// (views/pairing.ts) and keeps what the pairing hands over, like every other credential of the page.
import type { ServerClock } from './clock.js';
import { rememberMonitorId, savePairing, type PairedScreen } from './credentials.js';
import { runPairing } from './pairing.js';
import type { Strings } from './strings.js';
import { pairingView } from './views/pairing.js';

/** What the pairing screen needs. */
export interface PairScreenOptions {
  root: HTMLElement;
  clock: ServerClock;
  t: Strings;
  /** Why the screen is (back) here, e.g. it was removed. */
  message?: string;
  onPaired: (screen: PairedScreen) => void;
  onUseToken: () => void;
}

/** Shows the pairing screen until paired; returns the function that stops it. */
export function showPairing(o: PairScreenOptions): () => void {
  const { t, clock } = o;
  const view = pairingView(t, o.message, () => {
    stop();
    o.onUseToken();
  });
  o.root.replaceChildren(view.element);
  const ticker = window.setInterval(() => view.tick(clock.now()), 250);

  const stopPairing = runPairing(
    {
      fetch: (url, init) => fetch(url, { ...init, cache: 'no-store' }),
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (handle) => window.clearTimeout(handle as number),
      // Date headers are whole seconds: the time left is right to the second, as shown.
      onDate: (sentAt, receivedAt, serverMs) => clock.sample(sentAt, receivedAt, serverMs, 1000),
    },
    {
      onCode: (code, expiresAt) => {
        view.showCode(code, expiresAt);
        view.tick(clock.now());
      },
      onTrouble: (trouble) => {
        const seconds = Math.ceil((trouble?.retryMs ?? 0) / 1000);
        view.status(
          !trouble ? null : trouble.kind === 'rate_limited' ? t.pairRateLimited(seconds) : t.pairUnreachable(seconds),
        );
      },
      onPaired: ({ token, ...screen }) => {
        stop();
        savePairing(token, screen);
        rememberMonitorId(screen.monitorId);
        o.onPaired(screen);
      },
    },
  );

  function stop(): void {
    window.clearInterval(ticker);
    stopPairing();
  }
  return stop;
}
