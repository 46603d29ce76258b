// Pairing from the screen's side (docs/hub.md "The screen fleet"): ask for a code (F1), show it, and poll (F2) every
// two seconds until an admin bound it (F3). An expired pairing starts a new one by itself; a refusal
// for too many requests and a network fault back off and try again, so a station screen that boots
// before the service or the network recovers without anyone touching it. DOM-free: the network and
// the timers are injected (unit tested in Node).

/** What F2 hands over once. */
export interface Paired {
  token: string;
  screenId: number;
  monitorId: number;
  name: string;
}

/** What the pairing screen is told. */
export interface PairingHooks {
  /** A new code to show; `expiresAt` in server time (ms). */
  onCode: (code: string, expiresAt: number) => void;
  onPaired: (paired: Paired) => void;
  /** Something keeps the pairing from going on; null once it goes on again. `retryMs`: the wait before the next try. */
  onTrouble: (trouble: { kind: 'rate_limited' | 'unreachable'; retryMs: number } | null) => void;
}

/** The outside world of the pairing: the network, timers, the random source of the jitter, a server-time sink. */
export interface PairingDeps {
  fetch: (url: string, init: { method: string; headers: Record<string, string> }) => Promise<Response>;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  random?: () => number;
  /** Every answer's Date header, with the round trip on the monotonic clock (ServerClock.sample). */
  onDate?: (sentAt: number, receivedAt: number, serverMs: number) => void;
  monotonic?: () => number;
}

export const POLL_MS = 2_000;
const MAX_BACKOFF_MS = 30_000;
const START = '/api/v1/screens/pairing';

/**
 * The wait after `failures` failures in a row: 2, 4, 8 … 30 s, never less than the server's Retry-After,
 * spread by ±25 % so that the screens of a station that lost power do not all ask in the same second.
 */
export function backoffMs(failures: number, retryAfterSec: number | null, random = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** Math.max(0, failures - 1));
  const spread = base * (0.75 + 0.5 * random());
  return Math.round(Math.max(spread, (retryAfterSec ?? 0) * 1000));
}

/** A code as the screen shows it: groups of four joined by dashes (`ACDEFHJK` → `ACDE-FHJK`). */
export function groupCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? '';
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterSec: number | null,
  ) {
    super(`HTTP ${status}`);
  }
}

/** Runs the pairing until paired or stopped; returns the stop function. */
export function runPairing(deps: PairingDeps, hooks: PairingHooks): () => void {
  const monotonic = deps.monotonic ?? (() => performance.now());
  let timer: unknown;
  let stopped = false;
  let failures = 0;
  // `polled`: the service has answered "waiting" for it at least once.
  let pairing: { id: string; secret: string; polled: boolean } | null = null;

  const later = (ms: number) => {
    if (!stopped) timer = deps.setTimeout(() => void step(), ms);
  };

  async function call(
    method: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    const sentAt = monotonic();
    const res = await deps.fetch(path, { method, headers: { Accept: 'application/json', ...headers } });
    const date = Date.parse(res.headers.get('Date') ?? '');
    if (Number.isFinite(date)) deps.onDate?.(sentAt, monotonic(), date);
    if (!res.ok) {
      const retryAfter = Number(res.headers.get('Retry-After'));
      throw new Refused(res.status, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
    }
    return (await res.json()) as Record<string, unknown>;
  }

  async function step(): Promise<void> {
    if (stopped) return;
    try {
      if (!pairing) {
        const started = await call('POST', START);
        pairing = { id: String(started.pairingId), secret: String(started.pollSecret), polled: false };
        hooks.onCode(String(started.code), Date.parse(String(started.expiresAt)));
      } else {
        const state = await call('GET', `${START}/${encodeURIComponent(pairing.id)}`, {
          'Pairing-Secret': pairing.secret,
        });
        if (stopped) return;
        if (state.status === 'paired') {
          stopped = true;
          hooks.onPaired({
            token: String(state.token),
            screenId: Number(state.screenId),
            monitorId: Number(state.monitorId),
            name: String(state.name ?? ''),
          });
          return;
        }
        pairing.polled = true;
      }
      if (failures > 0) hooks.onTrouble(null);
      failures = 0;
      later(POLL_MS);
    } catch (err) {
      if (stopped) return;
      const gone = err instanceof Refused && err.status === 404;
      // Expired (or forgotten by a restored database): a new code at once. A pairing that was never
      // seen waiting is a fault (say, a proxy sending the poll elsewhere): backing off keeps it no loop.
      if (gone && pairing?.polled) {
        pairing = null;
        later(0);
        return;
      }
      if (gone) pairing = null;
      failures++;
      const retryMs = backoffMs(failures, err instanceof Refused ? err.retryAfterSec : null, deps.random);
      hooks.onTrouble({ kind: err instanceof Refused && err.status === 429 ? 'rate_limited' : 'unreachable', retryMs });
      later(retryMs);
    }
  }

  void step();
  return () => {
    stopped = true;
    deps.clearTimeout(timer);
  };
}
