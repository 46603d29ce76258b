// The alarm panel: one event filling the wall (or one cell of the split screen).
//
// monitor.configuration keys used here and by the app:
//   address, latitude, longitude  the station, marked on the map (number lat/lon)
//   tileUrl          map tile URL template with {z}/{x}/{y} and optionally subdomains ({a-c}, {s:t1,t2}, {s});
//                    else <meta name="tile-url">
//   tileAttribution  text shown in the map corner when tiles are used (e.g. "© OpenStreetMap")
//   mapZoom          highest zoom level, default 16 (lowered automatically, in fractions, to fit the station)
//   showMap          boolean, default true
//   waterSources     {entityId, radiusMeters = 300, max = 8, …}: the things entity of hydrants and other
//                    water sources; the nearest within the radius are marked on the alarm's map
//                    (common/water-sources.ts, docs/display.md "Water sources")
//   gong             boolean, default true: gong on a new alarm
//   speech           boolean, default false: speak event and address on a new alarm
//   speechLang       BCP 47 language of the voice (default: the display's language)
//   language         "de" or "en" (or a tag such as "de-AT"): the display's language, default the browser's
import type { WaterSourceView } from '../../../common/hub-protocol.js';
import type { VehicleStatus } from '../vehicles.js';
import type { JsonObject } from '../../../common/monitor-data.js';
import type { Alarm } from '../alarms.js';
import { bool, coordinate, int, text } from '../config.js';
import { h, svg } from '../dom.js';
import { mapElement, showWaterSources, tileTemplate } from '../map.js';
import { elapsedText, type Strings } from '../strings.js';
import { crewView } from './crew.js';
import { responseIcon, type Response } from './icons.js';

/** What a panel needs besides the alarm itself. */
export interface PanelContext {
  configuration: JsonObject;
  nowMs: number;
  compact: boolean;
  showMap: boolean;
  showUnits: boolean;
  ended: boolean;
  /** When an ended alarm ended: its elapsed time shows the time it ran and no longer ticks. */
  endedAt?: number;
  /** A test alarm (F8): striped and bannered so nobody takes it for a real one. */
  test?: boolean;
  t: Strings;
  /** The water sources near a position (null: not known yet); absent when none are configured. */
  waters?: (latitude: number, longitude: number) => WaterSourceView[] | null;
  /** The FMS status of the vehicle named like a unit (vehicles.ts), shown on its tile; absent: none. */
  vehicles?: (unitName: string) => VehicleStatus | null;
}

function counter(kind: Response, value: number, label: string): HTMLElement {
  return h(
    'div',
    { class: `counter counter--${kind}`, 'data-testid': `counter-${kind}` },
    responseIcon(kind),
    h('span', { class: 'counter__value', 'data-testid': `counter-${kind}-value` }, value),
    h('span', { class: 'counter__label' }, label),
  );
}

// Ticks with the clock (data-since) while the alarm runs; an ENDED panel shows the time it ran, frozen.
function elapsed(start: number | null, ctx: PanelContext): HTMLElement {
  if (start === null) return h('span', { class: 'elapsed__value' }, '–:––');
  if (ctx.ended && ctx.endedAt !== undefined)
    return h(
      'span',
      { class: 'elapsed__value', 'data-testid': 'alarm-ran' },
      elapsedText(start, Math.max(start, ctx.endedAt)),
    );
  return h('span', { class: 'elapsed__value', 'data-since': start }, elapsedText(start, ctx.nowMs));
}

function pin(): SVGElement {
  return svg(
    'svg',
    { class: 'pin', viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    svg('path', { d: 'M12 22s7-6.6 7-12.2A7 7 0 0 0 5 9.8C5 15.4 12 22 12 22z' }),
    svg('circle', { cx: 12, cy: 9.8, r: 2.6 }),
  );
}

// The alarm's map: only for an alarm with a position (alarmPanel leaves it out otherwise).
function map(alarm: Alarm & { latitude: number; longitude: number }, ctx: PanelContext): HTMLElement {
  const { configuration, t } = ctx;
  const lat = coordinate(configuration, 'latitude');
  const lon = coordinate(configuration, 'longitude');
  const station = lat !== null && lon !== null ? { lat, lon } : null;
  const el = mapElement(
    {
      lat: alarm.latitude,
      lon: alarm.longitude,
      station,
      template: tileTemplate(configuration.tileUrl),
      maxZoom: int(configuration, 'mapZoom', 16, 3, 19),
      // Around water sources the view may come closer: they are metres from the alarm.
      waterMaxZoom: Math.max(int(configuration, 'mapZoom', 16, 3, 19), 18),
      attribution: text(configuration, 'tileAttribution'),
      labels: { alarm: t.alarm, station: t.station, noTiles: t.noTiles, tilesFailed: t.tilesFailed },
    },
    alarm.key,
  );
  showWaterSources(el, ctx.waters?.(alarm.latitude, alarm.longitude) ?? [], t.outOfService);
  return el;
}

/** Builds one alarm panel; elements marked data-since tick with the clock without a re-render. */
export function alarmPanel(alarm: Alarm, ctx: PanelContext): HTMLElement {
  const { t } = ctx;
  // Without a position (an SMS or call alarm) there is nothing to map: the space goes to the text.
  const showMap =
    ctx.showMap && bool(ctx.configuration, 'showMap', true) && alarm.latitude !== null && alarm.longitude !== null;
  const showCrew = ctx.showUnits && alarm.units.length > 0;
  return h(
    'article',
    {
      class: [
        'panel',
        ctx.compact && 'panel--compact',
        ctx.ended && 'panel--ended',
        ctx.test && 'panel--test',
        !showMap && 'panel--no-map',
        !showCrew && 'panel--no-crew',
      ]
        .filter(Boolean)
        .join(' '),
      'data-testid': 'alarm-panel',
      'data-event-id': alarm.eventId ?? '',
      'data-test-alarm': ctx.test ? '' : null,
    },
    // Keyword, elapsed time, message and address are placed by the CSS grid: side by side on a wall, the
    // keyword on a row of its own in a split cell (it must never be cut).
    h(
      'header',
      { class: 'panel__head' },
      ctx.test ? h('p', { class: 'test-banner', 'data-testid': 'test-banner' }, t.testBanner) : null,
      h(
        'h1',
        { class: 'keyword', 'data-testid': 'alarm-event', 'data-fit': 'head' },
        alarm.kind === 'phone' ? t.phoneAlarm : alarm.event || t.alarm,
      ),
      h(
        'div',
        { class: 'elapsed', 'data-testid': 'alarm-elapsed' },
        ctx.ended ? h('span', { class: 'elapsed__ended', 'data-testid': 'alarm-ended' }, t.ended) : null,
        elapsed(alarm.start, ctx),
      ),
      alarm.message ? h('p', { class: 'message', 'data-testid': 'alarm-message' }, alarm.message) : null,
      alarm.address
        ? h('p', { class: 'address', 'data-testid': 'alarm-address' }, pin(), h('span', {}, alarm.address))
        : null,
    ),
    h(
      'div',
      { class: 'panel__body' },
      showMap
        ? h('div', { class: 'panel__map' }, map(alarm as Alarm & { latitude: number; longitude: number }, ctx))
        : null,
      h(
        'div',
        { class: 'panel__side' },
        h(
          'div',
          { class: 'counters', 'data-testid': 'counters' },
          counter('positive', alarm.positive, t.coming),
          counter('negative', alarm.negative, t.declined),
          counter('awaiting', alarm.awaiting, t.awaiting),
        ),
        showCrew ? crewView(alarm.units, t, ctx.vehicles) : null,
      ),
    ),
  );
}
