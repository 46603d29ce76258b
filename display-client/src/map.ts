// A hand-written slippy map: absolutely placed <img> tiles over a dark grid. Stations often sit behind
// strict firewalls, so tiles are optional: a failed or missing tile leaves the grid, the markers and the
// printed coordinates, and the page never shows a broken image. A failed tile is tried again with
// backoff (1 s, 2 s, 4 s … at most a minute), and at once after the hub connection comes back.
import { h } from './dom.js';
import { LABEL_GAP, placeMarkers, type LabelSide, type MarkerSize } from './placement.js';
import { scaledTiles, TILE, tileUrl } from './tiles.js';

/** Where and what to draw. */
export interface MapOptions {
  lat: number;
  lon: number;
  station: { lat: number; lon: number } | null;
  template: string;
  maxZoom: number;
  attribution: string;
  labels: { alarm: string; station: string; noTiles: string; tilesFailed: string };
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

/** The tile template: monitor configuration first, else the server's `<meta name="tile-url">` (may be empty). */
export function tileTemplate(configured: unknown): string {
  if (typeof configured === 'string' && configured.includes('{z}')) return configured;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="tile-url"]');
  const value = meta?.content.trim() ?? '';
  return value.includes('{z}') ? value : '';
}

// Maps are reused across re-renders (a patch to the counters must not reload tiles or flicker).
const cache = new Map<string, { el: HTMLElement; retry: () => void }>();

/** A map element for the options, reused when the same map was drawn before for the same event. */
export function mapElement(options: MapOptions, eventKey: string): HTMLElement {
  // The event is part of the key: two events at one spot need two elements on a split screen.
  const key = JSON.stringify([eventKey, options]);
  const cached = cache.get(key);
  if (cached) return cached.el;
  const created = createMap(options);
  cache.set(key, created);
  if (cache.size > 12) cache.delete(cache.keys().next().value as string);
  return created.el;
}

/** Tries every failed tile of the maps on screen again now (after a reconnect: the network is back). */
export function retryFailedTiles(): void {
  for (const { el, retry } of cache.values()) if (el.isConnected) retry();
}

function marker(kind: 'alarm' | 'station', label: string): HTMLElement {
  return h('div', { class: `map-marker map-marker--${kind}`, 'data-testid': `map-${kind}` },
    h('span', { class: 'map-marker__dot' }), h('span', { class: 'map-marker__label' }, label));
}

function coords(lat: number, lon: number): string {
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}  ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;
}

/** One tile that loads itself and, after a failure, tries again later. */
function tileImage(url: string, onChange: () => void): { img: HTMLImageElement; failed: () => boolean; retryNow: () => void; drop: () => void } {
  const img = h('img', { class: 'map-tile', alt: '', draggable: 'false', 'data-state': 'loading' });
  let attempt = 0;
  let timer: number | undefined;
  const load = () => {
    window.clearTimeout(timer);
    // A cache-busting parameter would defeat the tile server's caching: the same URL loads again.
    img.removeAttribute('src');
    img.src = url;
  };
  img.addEventListener('load', () => {
    img.dataset.state = 'loaded';
    onChange();
  });
  img.addEventListener('error', () => {
    img.dataset.state = 'failed';
    timer = window.setTimeout(load, Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt++));
    onChange();
  });
  load();
  return {
    img,
    failed: () => img.dataset.state === 'failed',
    retryNow: () => {
      attempt = 0;
      load();
    },
    drop: () => window.clearTimeout(timer),
  };
}

function createMap(o: MapOptions): { el: HTMLElement; retry: () => void } {
  const tilesEl = h('div', { class: 'map-tiles' });
  const alarm = marker('alarm', o.labels.alarm);
  const station = o.station ? marker('station', o.labels.station) : null;
  const note = h('div', { class: 'map-note' }, o.template ? o.labels.tilesFailed : o.labels.noTiles);
  const root = h('div', { class: `map${o.template ? '' : ' map--no-tiles'}`, 'data-testid': 'map' },
    tilesEl, station, alarm,
    h('div', { class: 'map-coords', 'data-testid': 'map-coords' }, coords(o.lat, o.lon)),
    note,
    o.attribution && o.template ? h('div', { class: 'map-attribution' }, o.attribution) : null);
  let tiles: ReturnType<typeof tileImage>[] = [];
  const update = () => root.classList.toggle('map--tiles-failed', tiles.some((t) => t.failed()));

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
    const layout = scaledTiles(center, zoom, width, height);
    const edge = TILE * layout.scale;
    // The grid follows tile edges around the same centre as the tiles and the markers, so without tiles
    // the markers still stand at their true distance on a map of the right scale.
    root.style.setProperty('--tile', `${edge}px`);
    root.style.backgroundPosition = `${mod(width / 2 - center.x, edge)}px ${mod(height / 2 - center.y, edge)}px`;
    place(alarm, placed.alarm.x, placed.alarm.y);
    if (station && placed.station) {
      place(station, placed.station.x, placed.station.y);
      setSide(station, placed.station.side);
    }
    tiles.forEach((t) => t.drop());
    tiles = o.template ? layout.tiles.map((t) => {
      const tile = tileImage(tileUrl(o.template, layout.tileZoom, t.x, t.y), update);
      tile.img.style.cssText = `left:${t.left}px;top:${t.top}px;width:${t.width}px;height:${t.height}px`;
      return tile;
    }) : [];
    tilesEl.replaceChildren(...tiles.map((t) => t.img));
    update();
  };
  // Sizes are known only once the map is laid out, and change with orientation or split layout.
  if (typeof ResizeObserver === 'function') new ResizeObserver(draw).observe(root);
  requestAnimationFrame(draw);
  return { el: root, retry: () => tiles.forEach((t) => t.failed() && t.retryNow()) };
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
