// A hand-written slippy map: absolutely placed <img> tiles over a dark grid. Stations often sit behind
// strict firewalls, so tiles are optional: a failed or missing tile leaves the grid, the markers and the
// printed coordinates, and the page never shows a broken image.
import { h } from './dom.js';
import { coveringTiles, fitZoom, project, TILE, tileUrl } from './tiles.js';

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
    const zoom = fitZoom({ lat: o.lat, lon: o.lon }, o.station, { width, height }, o.maxZoom, 3);
    const center = project(o.lat, o.lon, zoom);
    // The grid follows tile edges, so the fallback still reads as a map at the right scale.
    root.style.backgroundPosition = `${-(center.x - width / 2) % TILE}px ${-(center.y - height / 2) % TILE}px`;
    place(alarm, width / 2, height / 2);
    if (station && o.station) {
      const p = project(o.station.lat, o.station.lon, zoom);
      place(station, p.x - center.x + width / 2, p.y - center.y + height / 2);
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

function place(el: HTMLElement, x: number, y: number): void {
  el.style.left = `${Math.round(x)}px`;
  el.style.top = `${Math.round(y)}px`;
}
