// A small corner badge for a problem the wall cannot fix by itself, e.g. audio blocked until a tap.
import { h } from '../dom.js';

/** The badge that asks for a tap while the browser blocks the gong. */
export function soundBlockedBadge(): HTMLElement {
  return h('div', { class: 'badge', 'data-testid': 'sound-blocked', role: 'status' });
}
