// What the wall shows when building a view failed: the bare facts, from elements that cannot fail.
import type { Alarm } from '../alarms.js';
import { h } from '../dom.js';
import type { Strings } from '../strings.js';

/** Keyword and address of the alarms, or a plain notice when there is none to tell. */
export function fallbackView(alarms: Alarm[], t: Strings): HTMLElement {
  const shown = alarms.filter((a) => a.event || a.address);
  if (shown.length === 0)
    return h(
      'div',
      { class: 'fallback', 'data-testid': 'display-error' },
      h('p', { class: 'fallback__notice' }, t.displayError),
    );
  return h(
    'div',
    { class: 'fallback fallback--alarm', 'data-testid': 'fallback' },
    ...shown.map((a) =>
      h(
        'section',
        { class: 'fallback__alarm' },
        h('h1', { class: 'fallback__event', 'data-testid': 'fallback-event' }, a.event || t.alarm),
        a.address ? h('p', { class: 'fallback__address', 'data-testid': 'fallback-address' }, a.address) : null,
      ),
    ),
  );
}
