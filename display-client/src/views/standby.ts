// The standby view: what the station sees between alarms.
//
// monitor.configurationStandby keys:
//   title             heading, default: the monitor's name
//   text              a free line under the date (e.g. "Training Tuesday 19:00")
//   showSeconds       boolean, default true: seconds next to the clock
//   showLatestAlarms  boolean, default true: data.metaData.latestAlarms
//   latestAlarmsCount 1..20, default 6
//   showPagers        boolean, default true: data.metaData.pagers.activePager / inactivePager
//   locale            BCP 47 locale for the date, default: the browser's
import type { JsonObject } from '../../../server/areas/monitor/reduce.js';
import { bool, int, text } from '../config.js';
import { h, pad2 } from '../dom.js';

/** Formats the standby date line (weekday, day, month, year). */
export function dateLine(nowMs: number, locale: string): string {
  try {
    return new Date(nowMs).toLocaleDateString(locale || undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  } catch {
    return new Date(nowMs).toDateString();
  }
}

/** Builds the clock parts: they tick via data-clock without a re-render. */
function clock(nowMs: number, seconds: boolean): HTMLElement {
  const d = new Date(nowMs);
  return h('div', { class: 'clock', 'data-testid': 'standby-clock' },
    h('span', { 'data-clock': 'hm' }, `${pad2(d.getHours())}:${pad2(d.getMinutes())}`),
    seconds ? h('span', { class: 'clock__seconds', 'data-clock': 's' }, pad2(d.getSeconds())) : null);
}

function pagers(meta: JsonObject): HTMLElement | null {
  const raw = meta.pagers;
  const p = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : null;
  if (!p) return null;
  const value = (key: string) => (typeof p[key] === 'number' ? String(p[key]) : '–');
  return h('div', { class: 'pagers', 'data-testid': 'standby-pagers' },
    h('div', { class: 'pager pager--active' }, h('span', { class: 'pager__value', 'data-testid': 'pagers-active' }, value('activePager')), h('span', { class: 'pager__label' }, 'pagers active')),
    h('div', { class: 'pager pager--inactive' }, h('span', { class: 'pager__value', 'data-testid': 'pagers-inactive' }, value('inactivePager')), h('span', { class: 'pager__label' }, 'pagers inactive')));
}

function latest(meta: JsonObject, count: number): HTMLElement | null {
  const list = Array.isArray(meta.latestAlarms) ? meta.latestAlarms.filter((v): v is string => typeof v === 'string') : [];
  if (list.length === 0) return null;
  return h('section', { class: 'latest', 'data-testid': 'standby-latest' },
    h('h2', { class: 'latest__title' }, 'Latest alarms'),
    h('ol', { class: 'latest__list' }, ...list.slice(0, count).map((item) => h('li', { class: 'latest__item' }, item))));
}

/** Builds the standby view from configurationStandby and data.metaData. */
export function standbyView(standby: JsonObject, monitorName: string, meta: JsonObject, nowMs: number): HTMLElement {
  const locale = text(standby, 'locale');
  return h('div', { class: 'standby', 'data-testid': 'standby' },
    h('header', { class: 'standby__head' },
      h('div', { class: 'standby__title' }, text(standby, 'title', monitorName)),
      h('div', { class: 'standby__state' }, h('span', { class: 'standby__dot' }), 'Ready')),
    h('div', { class: 'standby__main' },
      clock(nowMs, bool(standby, 'showSeconds', true)),
      h('div', { class: 'date', 'data-testid': 'standby-date', 'data-date-locale': locale }, dateLine(nowMs, locale)),
      text(standby, 'text') ? h('div', { class: 'standby__text' }, text(standby, 'text')) : null),
    h('div', { class: 'standby__info' },
      bool(standby, 'showLatestAlarms', true) ? latest(meta, int(standby, 'latestAlarmsCount', 6, 1, 20)) : null,
      bool(standby, 'showPagers', true) ? pagers(meta) : null));
}
