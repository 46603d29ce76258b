// The banner that says the screen may be out of date. A wall screen must never look live when it is not.
import { h, hhmm } from '../dom.js';

/** Why the screen is not live. */
export type BannerState = { kind: 'disconnected'; sinceMs: number } | { kind: 'stale'; sinceMs: number } | null;

/** Builds the banner for a state (null = live, nothing to show). */
export function banner(state: BannerState): HTMLElement | null {
  if (!state) return null;
  const text =
    state.kind === 'disconnected'
      ? `Disconnected since ${hhmm(state.sinceMs)} — reconnecting…`
      : `Out of date since ${hhmm(state.sinceMs)} — resynchronising…`;
  return h('div', { class: `banner banner--${state.kind}`, 'data-testid': 'banner', 'data-kind': state.kind, role: 'status' },
    h('span', { class: 'banner__pulse' }), text);
}
