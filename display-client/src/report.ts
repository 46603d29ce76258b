// Health reports (screen:report): after each change of the version shown, at most one per interval
// (the service records them at most every 2 s anyway); the latest version always goes out in the end.
// DOM-free: the timers are injected (unit tested in Node).

/** The timers a reporter uses; the page's by default. */
export interface ReportTimers {
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const REPORT_EVERY_MS = 2_000;

const pageTimers: ReportTimers = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A throttled reporter of the version shown: `shown()` after every render, `stop()` when the screen stops. */
export function createReporter(
  send: (versionShown: number) => void,
  everyMs = REPORT_EVERY_MS,
  timers = pageTimers,
): { shown: (version: number) => void; stop: () => void } {
  let sent: number | null = null;
  let sentAt = -Infinity;
  let pending: number | null = null;
  let timer: unknown = null;

  const flush = () => {
    timer = null;
    if (pending === null || pending === sent) return;
    sent = pending;
    pending = null;
    sentAt = timers.now();
    send(sent);
  };

  return {
    shown(version) {
      if (version === sent && timer === null) return;
      pending = version;
      if (timer !== null) return;
      const wait = sentAt + everyMs - timers.now();
      if (wait <= 0) flush();
      else timer = timers.setTimeout(flush, wait);
    },
    stop() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
