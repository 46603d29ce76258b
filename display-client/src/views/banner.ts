// The banner that says the screen may be out of date. A wall screen must never look live when it is not.
import { h } from '../dom.js';
import { clockText, type Strings } from '../strings.js';

/** Why the screen is not live; `sinceMs` is server time. */
export type BannerState = { kind: 'disconnected'; sinceMs: number } | { kind: 'stale'; sinceMs: number } | null;

/** Builds the banner for a state (null = live, nothing to show). */
export function banner(state: BannerState, t: Strings): HTMLElement | null {
  if (!state) return null;
  const since = clockText(state.sinceMs).hm;
  return h(
    'div',
    { class: `banner banner--${state.kind}`, 'data-testid': 'banner', 'data-kind': state.kind, role: 'status' },
    h('span', { class: 'banner__pulse' }),
    state.kind === 'disconnected' ? t.disconnected(since) : t.stale(since),
  );
}
