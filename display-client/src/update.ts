// A wall screen runs for months without anyone pressing reload. When the service is upgraded or its
// display settings change (the page's ETag changes), the screen reloads itself, but only while no
// alarm is on it, so an upgrade never blanks an alarm.

/** Tests may shorten the interval; screens use the default. */
const intervalMs = (): number =>
  (globalThis as { __alarmHubUpdateCheckMs?: number }).__alarmHubUpdateCheckMs ?? 5 * 60_000;

/** A server time read from a response's Date header, between `sentAt` and `receivedAt` (monotonic ms). */
export type DateSample = (sentAt: number, receivedAt: number, serverMs: number) => void;

/**
 * Checks the page's ETag now and then; reloads when it changed and `busy()` is false. Every answer's
 * Date header goes to `onDate` (the server's clock, to the second). Returns a stop function.
 */
export function watchForUpdates(busy: () => boolean, onDate: DateSample = () => undefined): () => void {
  let known: string | null = null;
  const check = async () => {
    try {
      const sentAt = performance.now();
      const res = await fetch(location.pathname + location.search, { method: 'HEAD', cache: 'no-store' });
      const date = Date.parse(res.headers.get('Date') ?? '');
      if (Number.isFinite(date)) onDate(sentAt, performance.now(), date);
      const tag = res.ok ? res.headers.get('ETag') : null;
      if (!tag) return;
      if (known === null) known = tag;
      else if (tag !== known && !busy()) location.reload();
    } catch {
      // Offline: the connection banner says so; try again at the next interval.
    }
  };
  void check();
  const timer = setInterval(() => void check(), intervalMs());
  return () => clearInterval(timer);
}
