// The split screen: several active events side by side (landscape) or stacked (portrait).
//
// monitor.configurationSplitScreen keys:
//   columns          panels per row in landscape; default: the number of events, at most 3
//   portraitColumns  panels per row in portrait; default 1 (stacked)
//   maxPanels        events shown at once, 2..9, default 4; the oldest are kept, a "+N more" note
//                    tells the rest
//   showMap          boolean, default true: a map in each panel
//   showUnits        boolean, default true: the units with member feedback in each panel
import type { JsonObject } from '../../../server/areas/monitor/reduce.js';
import type { Alarm } from '../alarms.js';
import { bool, int } from '../config.js';
import { h } from '../dom.js';
import { alarmPanel } from './alarm.js';

/** Builds the split view for the active alarms (two or more). */
export function splitView(alarms: Alarm[], configuration: JsonObject, split: JsonObject, nowMs: number): HTMLElement {
  const max = int(split, 'maxPanels', 4, 2, 9);
  const shown = alarms.slice(0, max);
  const columns = int(split, 'columns', Math.min(shown.length, 3), 1, 9);
  const portraitColumns = int(split, 'portraitColumns', 1, 1, 9);
  const ctx = {
    configuration,
    nowMs,
    compact: true,
    showMap: bool(split, 'showMap', true),
    showUnits: bool(split, 'showUnits', true),
    ended: false,
  };
  const root = h('div', {
    class: 'split',
    'data-testid': 'split',
    'data-count': shown.length,
    style: `--cols-landscape:${columns};--rows-landscape:${Math.ceil(shown.length / columns)};` +
      `--cols-portrait:${portraitColumns};--rows-portrait:${Math.ceil(shown.length / portraitColumns)}`,
  },
  ...shown.map((alarm) => h('div', { class: 'split__cell', 'data-testid': 'split-panel' }, alarmPanel(alarm, ctx))));
  if (alarms.length > shown.length) {
    root.append(h('div', { class: 'split__more', 'data-testid': 'split-more' }, `+${alarms.length - shown.length} more`));
  }
  return root;
}
