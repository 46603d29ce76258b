// The standby view: what the station sees between alarms. Clock and date are the server's time.
//
// monitor.configurationStandby keys:
//   title             heading, default: the monitor's name
//   text              a free line under the date (e.g. "Training Tuesday 19:00")
//   showSeconds       boolean, default true: seconds next to the clock
//   showLatestAlarms  boolean, default true: data.metaData.latestAlarms
//   latestAlarmsCount 1..20, default 6
//   showPagers        boolean, default true: data.metaData.pagers.activePager / inactivePager
//   showAvailability  boolean, default false: how many members can come (the hub's availability:watch)
//   locale            BCP 47 locale for the date, default: the display's language (de-DE or en-GB)
import type { AvailabilityCounts } from '../../../common/hub-protocol.js';
import type { JsonObject } from '../../../common/monitor-data.js';
import { bool, int, text } from '../config.js';
import { h } from '../dom.js';
import { clockText, dateText, type Strings } from '../strings.js';

/** Builds the clock parts: they tick via data-clock without a re-render. */
function clock(nowMs: number, seconds: boolean): HTMLElement {
  const now = clockText(nowMs);
  return h(
    'div',
    { class: 'clock', 'data-testid': 'standby-clock' },
    h('span', { 'data-clock': 'hm' }, now.hm),
    seconds ? h('span', { class: 'clock__seconds', 'data-clock': 's' }, now.s) : null,
  );
}

function pagers(meta: JsonObject, t: Strings): HTMLElement | null {
  const raw = meta.pagers;
  const p = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : null;
  if (!p) return null;
  const pager = (key: string, kind: string, label: string) =>
    h(
      'div',
      { class: `pager pager--${kind}` },
      h(
        'span',
        { class: 'pager__value', 'data-testid': `pagers-${kind}` },
        typeof p[key] === 'number' ? String(p[key]) : '–',
      ),
      h('span', { class: 'pager__label' }, label),
    );
  return h(
    'div',
    { class: 'pagers', 'data-testid': 'standby-pagers' },
    pager('activePager', 'active', t.pagersActive),
    pager('inactivePager', 'inactive', t.pagersInactive),
  );
}

/** How many members can come; dashes until the hub has answered. */
function availability(counts: AvailabilityCounts | null, t: Strings): HTMLElement {
  const tile = (value: number | undefined, kind: string, label: string) =>
    h(
      'div',
      { class: `pager pager--${kind}` },
      h(
        'span',
        { class: 'pager__value', 'data-testid': `availability-${kind}` },
        value === undefined ? '–' : String(value),
      ),
      h('span', { class: 'pager__label' }, label),
    );
  return h(
    'div',
    { class: 'pagers', 'data-testid': 'standby-availability' },
    tile(counts?.available, 'active', t.membersAvailable),
    tile(counts?.unavailable, 'inactive', t.membersUnavailable),
  );
}

function latest(meta: JsonObject, count: number, t: Strings): HTMLElement | null {
  const list = Array.isArray(meta.latestAlarms)
    ? meta.latestAlarms.filter((v): v is string => typeof v === 'string')
    : [];
  if (list.length === 0) return null;
  return h(
    'section',
    { class: 'latest', 'data-testid': 'standby-latest' },
    h('h2', { class: 'latest__title' }, t.latestAlarms),
    h('ol', { class: 'latest__list' }, ...list.slice(0, count).map((item) => h('li', { class: 'latest__item' }, item))),
  );
}

/**
 * Builds the standby view from configurationStandby and data.metaData; `locale` formats the date,
 * `counts` are the members' availability when the view shows it.
 */
export function standbyView(
  standby: JsonObject,
  monitorName: string,
  meta: JsonObject,
  nowMs: number,
  locale: string,
  t: Strings,
  counts: AvailabilityCounts | null = null,
): HTMLElement {
  const pagerTiles = bool(standby, 'showPagers', true) ? pagers(meta, t) : null;
  const availabilityTiles = bool(standby, 'showAvailability', false) ? availability(counts, t) : null;
  return h(
    'div',
    { class: 'standby', 'data-testid': 'standby' },
    h(
      'header',
      { class: 'standby__head' },
      h('div', { class: 'standby__title', 'data-testid': 'standby-title' }, text(standby, 'title', monitorName)),
      h(
        'div',
        { class: 'standby__state', 'data-testid': 'standby-state' },
        h('span', { class: 'standby__dot' }),
        t.ready,
      ),
    ),
    h(
      'div',
      { class: 'standby__main' },
      clock(nowMs, bool(standby, 'showSeconds', true)),
      h('div', { class: 'date', 'data-testid': 'standby-date', 'data-date-locale': locale }, dateText(nowMs, locale)),
      text(standby, 'text') ? h('div', { class: 'standby__text' }, text(standby, 'text')) : null,
    ),
    h(
      'div',
      { class: 'standby__info' },
      bool(standby, 'showLatestAlarms', true) ? latest(meta, int(standby, 'latestAlarmsCount', 6, 1, 20), t) : null,
      pagerTiles && availabilityTiles
        ? h('div', { class: 'standby__tiles' }, availabilityTiles, pagerTiles)
        : (availabilityTiles ?? pagerTiles),
    ),
  );
}
