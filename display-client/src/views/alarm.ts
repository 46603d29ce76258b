// The alarm panel: one event filling the wall (or one cell of the split screen).
//
// monitor.configuration keys used here and by the app:
//   address, latitude, longitude  the station, marked on the map (number lat/lon)
//   tileUrl          map tile URL template with {z}/{x}/{y} (and optional {s}); else <meta name="tile-url">
//   tileAttribution  text shown in the map corner when tiles are used (e.g. "© OpenStreetMap")
//   mapZoom          highest zoom level, default 16 (lowered automatically to fit the station)
//   showMap          boolean, default true
//   gong             boolean, default true: gong on a new alarm
//   speech           boolean, default false: speak event and address on a new alarm
//   speechLang       BCP 47 language for speech, e.g. "de-DE" (default: the browser's)
import type { JsonObject } from '../../../server/areas/monitor/reduce.js';
import type { Alarm, Member } from '../alarms.js';
import { bool, coordinate, int, text } from '../config.js';
import { elapsed, h, svg } from '../dom.js';
import { mapElement, tileTemplate } from '../map.js';
import { responseIcon, responseOf, type Response } from './icons.js';

/** What a panel needs besides the alarm itself. */
export interface PanelContext {
  configuration: JsonObject;
  nowMs: number;
  compact: boolean;
  showMap: boolean;
  showUnits: boolean;
  ended: boolean;
}

const ORDER: Record<Response, number> = { positive: 0, awaiting: 1, negative: 2, unknown: 3 };
const WORDS: Record<Response, string> = { positive: 'coming', negative: 'not coming', awaiting: 'awaiting', unknown: 'unknown' };

// Label colours come from outside; only a value the browser accepts as a colour reaches the style.
function safeColor(color: string | null): string | null {
  if (!color) return null;
  try {
    return CSS.supports('color', color) ? color : null;
  } catch {
    return null;
  }
}

function counter(kind: Response, value: number, label: string): HTMLElement {
  return h('div', { class: `counter counter--${kind}`, 'data-testid': `counter-${kind}` },
    responseIcon(kind),
    h('span', { class: 'counter__value', 'data-testid': `counter-${kind}-value` }, value),
    h('span', { class: 'counter__label' }, label));
}

function pin(): SVGElement {
  return svg('svg', { class: 'pin', viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    svg('path', { d: 'M12 22s7-6.6 7-12.2A7 7 0 0 0 5 9.8C5 15.4 12 22 12 22z' }), svg('circle', { cx: 12, cy: 9.8, r: 2.6 }));
}

function memberRow(m: Member): HTMLElement {
  const kind = responseOf(m.feedback);
  const color = safeColor(m.labelColor);
  return h('li', {
    class: `member member--${kind}${color ? '' : ' member--neutral'}`,
    'data-testid': 'member',
    'data-feedback': m.feedback ?? '',
    style: color ? `--label:${color}` : null,
    title: WORDS[kind],
  },
  responseIcon(kind),
  // Two lines: the name must stay whole at five metres; position and label are the second glance.
  h('span', { class: 'member__text' },
    h('span', { class: 'member__name' }, m.name),
    h('span', { class: 'member__sub' },
      m.labelName ? h('span', { class: 'member__label' }, m.labelName) : null,
      m.position ? h('span', { class: 'member__position' }, m.position) : null)));
}

function units(alarm: Alarm): HTMLElement {
  return h('div', { class: 'units', 'data-testid': 'units', 'data-fit-box': '' },
    ...alarm.units.map((unit) => {
      // Who is coming matters most when the crew looks up: positive first, then awaiting, then declined.
      const members = [...unit.members].sort((a, b) => ORDER[responseOf(a.feedback)] - ORDER[responseOf(b.feedback)]);
      const coming = members.filter((m) => m.feedback === 1).length;
      return h('section', { class: 'unit', 'data-testid': 'unit' },
        h('h3', { class: 'unit__name' }, h('span', {}, unit.name || 'Unit'), h('span', { class: 'unit__count' }, `${coming}/${members.length}`)),
        h('ul', { class: 'unit__members' }, ...members.map(memberRow)));
    }));
}

function map(alarm: Alarm, configuration: JsonObject): HTMLElement {
  const lat = coordinate(configuration, 'latitude');
  const lon = coordinate(configuration, 'longitude');
  const station = lat !== null && lon !== null ? { lat, lon } : null;
  const center = alarm.latitude !== null && alarm.longitude !== null ? { lat: alarm.latitude, lon: alarm.longitude } : null;
  if (!center) return h('div', { class: 'map map--no-tiles map--empty', 'data-testid': 'map' }, h('div', { class: 'map-note' }, 'No coordinates for this alarm'));
  return mapElement({
    lat: center.lat,
    lon: center.lon,
    station,
    template: tileTemplate(configuration.tileUrl),
    maxZoom: int(configuration, 'mapZoom', 16, 3, 19),
    attribution: text(configuration, 'tileAttribution'),
  }, alarm.key);
}

/** Builds one alarm panel; elements marked data-since tick with the clock without a re-render. */
export function alarmPanel(alarm: Alarm, ctx: PanelContext): HTMLElement {
  const showMap = ctx.showMap && bool(ctx.configuration, 'showMap', true);
  return h('article', {
    class: `panel${ctx.compact ? ' panel--compact' : ''}${ctx.ended ? ' panel--ended' : ''}${showMap ? '' : ' panel--no-map'}`,
    'data-testid': 'alarm-panel',
    'data-event-id': alarm.eventId ?? '',
  },
  h('header', { class: 'panel__head' },
    h('div', { class: 'panel__top' },
      h('h1', { class: 'keyword', 'data-testid': 'alarm-event', 'data-fit': '' }, alarm.event || 'Alarm'),
      h('div', { class: 'elapsed', 'data-testid': 'alarm-elapsed' },
        ctx.ended ? h('span', { class: 'elapsed__ended', 'data-testid': 'alarm-ended' }, 'ENDED') : null,
        h('span', { class: 'elapsed__value', 'data-since': alarm.start ?? '' }, alarm.start !== null ? elapsed(alarm.start, ctx.nowMs) : '–:––'))),
    alarm.message ? h('p', { class: 'message', 'data-testid': 'alarm-message' }, alarm.message) : null,
    alarm.address ? h('p', { class: 'address', 'data-testid': 'alarm-address' }, pin(), h('span', {}, alarm.address)) : null),
  h('div', { class: 'panel__body' },
    showMap ? h('div', { class: 'panel__map' }, map(alarm, ctx.configuration)) : null,
    h('div', { class: 'panel__side' },
      h('div', { class: 'counters', 'data-testid': 'counters' },
        counter('positive', alarm.positive, 'coming'),
        counter('negative', alarm.negative, 'declined'),
        counter('awaiting', alarm.awaiting, 'awaiting')),
      ctx.showUnits && alarm.units.length > 0 ? units(alarm) : null)));
}
