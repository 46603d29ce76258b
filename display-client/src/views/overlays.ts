// Layers above the wall for remote commands: the identify card and the blank of a sleeping screen.
import { h } from '../dom.js';
import type { Strings } from '../strings.js';

/** The screen's name and its monitor's, large, so whoever stands in the room knows which screen this is. */
export function identifyOverlay(screenName: string, monitorName: string, t: Strings): HTMLElement {
  return h(
    'div',
    { class: 'identify', 'data-testid': 'identify', role: 'status' },
    h('p', { class: 'identify__label' }, t.identifyScreen),
    h('h1', { class: 'identify__name', 'data-testid': 'identify-name', 'data-fit': '' }, screenName),
    h('p', { class: 'identify__monitor', 'data-testid': 'identify-monitor' }, t.showsMonitor(monitorName)),
  );
}

/** The black layer of a sleeping screen; the live screen keeps running underneath. */
export function sleepOverlay(): HTMLElement {
  return h('div', { class: 'sleep', 'data-testid': 'sleep', 'aria-hidden': 'true' });
}
