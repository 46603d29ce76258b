// How many members can come, on the standby view (docs/display.md "Configuration keys it understands"), when the monitor's
// configurationStandby.showAvailability is true: asked of the hub (`availability:watch`), which then
// sends every change (`availability:changed`); asked again after a reconnect (the hub forgets who
// listens), when a member's `until` passes (the answer says when), and after a failed answer.
import type { Ack, AvailabilityCounts } from '../../common/hub-protocol.js';

const RETRY_MS = 15_000;

export interface AvailabilityWatch {
  /** The counts shown, null until the first answer (or while not shown). */
  counts: () => AvailabilityCounts | null;
  /** Whether the view shows availability now: asks when it starts to, forgets when it stops. */
  show: (enabled: boolean) => void;
  changed: (counts: AvailabilityCounts) => void;
  reconnected: () => void;
  stop: () => void;
}

/** `ask` sends one `availability:watch` (null: no answer in time); `onChange` redraws. */
export function createAvailabilityWatch(
  ask: () => Promise<Ack<AvailabilityCounts> | null>,
  onChange: () => void,
): AvailabilityWatch {
  let enabled = false;
  let counts: AvailabilityCounts | null = null;
  let asking = false;
  let timer: number | undefined;

  const take = (next: AvailabilityCounts | null) => {
    if (JSON.stringify(next) === JSON.stringify(counts)) return;
    counts = next;
    window.clearTimeout(timer);
    // The counts change without an event when someone's "until" passes: ask again then.
    if (next?.nextChangeAt)
      timer = window.setTimeout(
        request,
        Math.min(2 ** 31 - 1, Math.max(0, Date.parse(next.nextChangeAt) - Date.now()) + 500),
      );
    onChange();
  };

  function request(): void {
    if (!enabled || asking) return;
    asking = true;
    void ask().then((answer) => {
      asking = false;
      if (!enabled) return;
      if (answer && 'data' in answer) take(answer.data);
      else {
        window.clearTimeout(timer);
        timer = window.setTimeout(request, RETRY_MS);
      }
    });
  }

  return {
    counts: () => (enabled ? counts : null),
    show: (next) => {
      if (next === enabled) return;
      enabled = next;
      if (enabled) request();
      else {
        window.clearTimeout(timer);
        counts = null;
      }
    },
    changed: (next) => {
      if (enabled && (!counts || counts.organizationId === next.organizationId)) take(next);
    },
    reconnected: request,
    stop: () => {
      enabled = false;
      window.clearTimeout(timer);
    },
  };
}
