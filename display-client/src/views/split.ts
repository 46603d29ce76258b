// The split screen: several active events in balanced rows (layout.ts: 2 side by side, 3 as 2 + 1,
// 4 as 2 × 2 on a landscape screen; stacked on a portrait one), never an empty cell.
//
// monitor.configurationSplitScreen keys:
//   columns          panels per row in landscape; default: chosen by the screen's shape
//   portraitColumns  panels per row in portrait; default: chosen by the screen's shape
//   maxPanels        events shown at once, 2..9, default 4; the oldest are kept, a "+N more" note
//                    tells the rest
//   showMap          boolean, default true: a map in each panel
//   showUnits        boolean, default true: the units with member feedback in each panel
import type { JsonObject } from '../../../common/monitor-data.js';
import type { Alarm } from '../alarms.js';
import { bool, int } from '../config.js';
import { h } from '../dom.js';
import { splitRows } from '../layout.js';
import type { Strings } from '../strings.js';
import { alarmPanel, type PanelContext } from './alarm.js';

/** Builds the split view for the active alarms (two or more) on a `screen`-sized area. */
export function splitView(
  alarms: Alarm[],
  configuration: JsonObject,
  split: JsonObject,
  nowMs: number,
  screen: { width: number; height: number },
  t: Strings,
  waters?: PanelContext['waters'],
  vehicles?: PanelContext['vehicles'],
): HTMLElement {
  const max = int(split, 'maxPanels', 4, 2, 9);
  const shown = alarms.slice(0, max);
  const portrait = screen.height > screen.width;
  const columns = int(split, portrait ? 'portraitColumns' : 'columns', 0, 0, 9);
  const ctx = {
    configuration,
    nowMs,
    compact: true,
    showMap: bool(split, 'showMap', true),
    showUnits: bool(split, 'showUnits', true),
    ended: false,
    t,
    waters,
    vehicles,
  };
  let next = 0;
  const root = h(
    'div',
    { class: 'split', 'data-testid': 'split', 'data-count': shown.length },
    ...splitRows(shown.length, screen.width, screen.height, columns || undefined).map((count) =>
      h(
        'div',
        { class: 'split__row', 'data-testid': 'split-row' },
        ...shown
          .slice(next, (next += count))
          .map((alarm) => h('div', { class: 'split__cell', 'data-testid': 'split-panel' }, alarmPanel(alarm, ctx))),
      ),
    ),
  );
  if (alarms.length > shown.length) {
    root.append(
      h('div', { class: 'split__more', 'data-testid': 'split-more' }, t.moreAlarms(alarms.length - shown.length)),
    );
  }
  return root;
}
