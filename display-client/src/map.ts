// A hand-written slippy map: absolutely placed <img> tiles over a dark grid. Stations often sit behind
// strict firewalls, so tiles are optional: a failed or missing tile leaves the grid, the markers and the
// printed coordinates, and the page never shows a broken image.
import { h } from './dom.js';
import { LABEL_GAP, placeMarkers, type LabelSide, type MarkerSize } from './placement.js';
import { coveringTiles, TILE, tileUrl } from './tiles.js';

/** Where and what to draw. */
export interface MapOptions {
  lat: number;
  lon: number;
  station: { lat: number; lon: number } | null;
  template: string;
  maxZoom: number;
  attribution: string;
}

/** The tile template: monitor configuration first, else the server's `<meta name="tile-url">` (may be empty). */
export function tileTemplate(configured: unknown): string {
  if (typeof configured === 'string' && configured.includes('{z}')) return configured;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="tile-url"]');
  const value = meta?.content.trim() ?? '';
  return value.includes('{z}') ? value : '';
}

// Maps are reused across re-renders (a patch to the counters must not reload tiles or flicker).
const cache = new Map<string, HTMLElement>();

/** A map element for the options, reused when the same map was drawn before for the same event. */
export function mapElement(options: MapOptions, eventKey: string): HTMLElement {
  // The event is part of the key: two events at one spot need two elements on a split screen.
  const key = JSON.stringify([eventKey, options]);
  const cached = cache.get(key);
  if (cached) return cached;
  const el = createMap(options);
  cache.set(key, el);
  if (cache.size > 12) cache.delete(cache.keys().next().value as string);
  return el;
}

function marker(kind: 'alarm' | 'station', label: string): HTMLElement {
  return h('div', { class: `map-marker map-marker--${kind}`, 'data-testid': `map-${kind}` },
    h('span', { class: 'map-marker__dot' }), h('span', { class: 'map-marker__label' }, label));
}

function coords(lat: number, lon: number): string {
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}  ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;
}

function createMap(o: MapOptions): HTMLElement {
  const tiles = h('div', { class: 'map-tiles' });
  const alarm = marker('alarm', 'Alarm');
  const station = o.station ? marker('station', 'Station') : null;
  const note = h('div', { class: 'map-note' }, o.template ? 'Map tiles unavailable' : 'No map tiles configured');
  const root = h('div', { class: `map${o.template ? '' : ' map--no-tiles'}`, 'data-testid': 'map' },
    tiles, station, alarm,
    h('div', { class: 'map-coords', 'data-testid': 'map-coords' }, coords(o.lat, o.lon)),
    note,
    o.attribution && o.template ? h('div', { class: 'map-attribution' }, o.attribution) : null);

  let drawn = '';
  const draw = () => {
    const width = root.clientWidth;
    const height = root.clientHeight;
    if (width === 0 || height === 0 || drawn === `${width}x${height}`) return;
    drawn = `${width}x${height}`;
    const placed = placeMarkers({
      alarm: { lat: o.lat, lon: o.lon },
      station: o.station,
      width,
      height,
      alarmSize: sizeOf(alarm),
      stationSize: station ? sizeOf(station) : sizeOf(alarm),
      maxZoom: o.maxZoom,
      minZoom: 3,
      gap: LABEL_GAP,
    });
    const { zoom, center } = placed;
    // The grid follows tile edges around the same centre as the tiles and the markers, so without tiles
    // the markers still stand at their true distance on a map of the right scale.
    root.style.backgroundPosition = `${mod(width / 2 - center.x, TILE)}px ${mod(height / 2 - center.y, TILE)}px`;
    place(alarm, placed.alarm.x, placed.alarm.y);
    if (station && placed.station) {
      place(station, placed.station.x, placed.station.y);
      setSide(station, placed.station.side);
    }
    tiles.replaceChildren();
    if (!o.template) return;
    for (const t of coveringTiles(center, zoom, width, height)) {
      const img = h('img', { class: 'map-tile', alt: '', draggable: 'false', style: `left:${Math.round(t.left)}px;top:${Math.round(t.top)}px` });
      img.addEventListener('error', () => {
        img.style.visibility = 'hidden';
        root.classList.add('map--tiles-failed');
      });
      img.src = tileUrl(o.template, zoom, t.x, t.y);
      tiles.append(img);
    }
  };
  // Sizes are known only once the map is laid out, and change with orientation or split layout.
  if (typeof ResizeObserver === 'function') new ResizeObserver(draw).observe(root);
  requestAnimationFrame(draw);
  return root;
}

/** A marker's drawn size: the dot with its outline shadow (3 px each side), and the label's box. */
function sizeOf(marker: HTMLElement): MarkerSize {
  const dot = marker.querySelector<HTMLElement>('.map-marker__dot');
  const label = marker.querySelector<HTMLElement>('.map-marker__label');
  return { dot: (dot?.offsetWidth ?? 0) + 6, labelWidth: label?.offsetWidth ?? 0, labelHeight: label?.offsetHeight ?? 0 };
}

function setSide(marker: HTMLElement, side: LabelSide): void {
  for (const s of ['right', 'left', 'below', 'above'] as const) marker.classList.toggle(`map-marker--label-${s}`, s === side);
  marker.dataset.labelSide = side;
}

function mod(value: number, n: number): number {
  return ((value % n) + n) % n;
}

function place(el: HTMLElement, x: number, y: number): void {
  el.style.left = `${Math.round(x)}px`;
  el.style.top = `${Math.round(y)}px`;
}
