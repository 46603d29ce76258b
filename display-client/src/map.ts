// A hand-written slippy map: absolutely placed <img> tiles over a dark grid. Stations often sit behind
// strict firewalls, so tiles are optional: a failed or missing tile leaves the grid, the markers and the
// printed coordinates, and the page never shows a broken image. A failed tile is tried again with
// backoff (1 s, 2 s, 4 s … at most a minute), and at once after the hub connection comes back.
import type { WaterSourceView } from '../../common/hub-protocol.js';
import { h, svg } from './dom.js';
import {
  dotBox,
  LABEL_GAP,
  labelBox,
  mapMargin,
  overlapArea,
  placeMarkers,
  type Box,
  type LabelSide,
  type MarkerSize,
  type Placement,
} from './placement.js';
import { fitZoom, project, scaledTiles, TILE, tileUrl } from '../../common/tiles.js';

/** Where and what to draw. */
export interface MapOptions {
  lat: number;
  lon: number;
  station: { lat: number; lon: number } | null;
  template: string;
  maxZoom: number;
  /** The highest zoom around water sources: close ones fill the map instead of its middle third. */
  waterMaxZoom: number;
  attribution: string;
  labels: { alarm: string; station: string; noTiles: string; tilesFailed: string };
}

const FIRST_RETRY_MS = 1_000;
/** Width kept free beside the sources at the map's edge for their distance labels. */
const WATER_LABEL_ROOM = 160;
const MAX_RETRY_MS = 60_000;

/** The tile template: monitor configuration first, else the server's `<meta name="tile-url">` (may be empty). */
export function tileTemplate(configured: unknown): string {
  if (typeof configured === 'string' && configured.includes('{z}')) return configured;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="tile-url"]');
  const value = meta?.content.trim() ?? '';
  return value.includes('{z}') ? value : '';
}

interface DrawnMap {
  el: HTMLElement;
  retry: () => void;
  /** Marks these water sources (nearest first) and draws again when they changed. */
  waters: (sources: WaterSourceView[], outOfService: string) => void;
}

// Maps are reused across re-renders (a patch to the counters must not reload tiles or flicker).
const cache = new Map<string, DrawnMap>();

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

/** Marks water sources on a map from mapElement (an empty list removes them). */
export function showWaterSources(el: HTMLElement, sources: WaterSourceView[], outOfService: string): void {
  for (const drawn of cache.values()) if (drawn.el === el) drawn.waters(sources, outOfService);
}

/** Tries every failed tile of the maps on screen again now (after a reconnect: the network is back). */
export function retryFailedTiles(): void {
  for (const { el, retry } of cache.values()) if (el.isConnected) retry();
}

function marker(kind: 'alarm' | 'station', label: string): HTMLElement {
  return h(
    'div',
    { class: `map-marker map-marker--${kind}`, 'data-testid': `map-${kind}` },
    h('span', { class: 'map-marker__dot' }),
    h('span', { class: 'map-marker__label' }, label),
  );
}

/** A water source's symbol, by its kind's words: a hydrant, a tank or cistern, open water, else a drop. */
function waterIcon(kind: string): SVGElement {
  const k = kind.toLowerCase();
  const shape = /hydrant|überflur|unterflur|ueberflur/.test(k)
    ? [
        svg('path', { d: 'M9 5h6v2h2v3h-2v9h2v2H7v-2h2v-9H7V7h2z' }),
        svg('path', { d: 'M5 12h4M15 12h4', class: 'water-icon__line' }),
      ]
    : /zistern|cistern|tank|behälter|behaelter|brunnen|well|reservoir|speicher/.test(k)
      ? [
          svg('ellipse', { cx: 12, cy: 6.5, rx: 7, ry: 2.5 }),
          svg('path', { d: 'M5 6.5v11c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5v-11' }),
        ]
      : /teich|see|fluss|bach|pond|lake|river|stream|offen|open/.test(k)
        ? [
            svg('path', {
              d: 'M3 9c3-2.5 6 2.5 9 0s6 2.5 9 0M3 14c3-2.5 6 2.5 9 0s6 2.5 9 0M3 19c3-2.5 6 2.5 9 0s6 2.5 9 0',
              class: 'water-icon__line',
            }),
          ]
        : [svg('path', { d: 'M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11z' })];
  return svg('svg', { class: 'water-icon', viewBox: '0 0 24 24', 'aria-hidden': 'true' }, ...shape);
}

function waterMarker(source: WaterSourceView, outOfService: string): HTMLElement {
  // The source's number (its name, "H 112") and its distance; out of service spelled out below, or
  // only its ✕ when the label has to be short (labelWaters).
  const label = h(
    'span',
    { class: 'map-marker__label' },
    h(
      'span',
      { class: 'water-line' },
      source.name ? h('span', { class: 'water-name', 'data-testid': 'map-water-name' }, source.name) : null,
      h('span', { class: 'water-distance' }, `${source.distanceMeters} m`),
      source.inService ? null : h('span', { class: 'water-x' }, '✕'),
    ),
    source.inService ? null : h('span', { class: 'water-out' }, outOfService),
  );
  return h(
    'div',
    {
      class: `map-marker map-marker--water${source.inService ? '' : ' map-marker--water-out'}`,
      'data-testid': 'map-water',
      'data-water-id': source.id,
      'data-in-service': String(source.inService),
      title: [source.name, source.kind, source.status].filter(Boolean).join(' · '),
    },
    h('span', { class: 'map-marker__dot' }, waterIcon(source.kind)),
    label,
  );
}

function coords(lat: number, lon: number): string {
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}  ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;
}

/** One tile that loads itself and, after a failure, tries again later. */
function tileImage(
  url: string,
  onChange: () => void,
): { img: HTMLImageElement; failed: () => boolean; retryNow: () => void; drop: () => void } {
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

function createMap(o: MapOptions): DrawnMap {
  const tilesEl = h('div', { class: 'map-tiles' });
  const watersEl = h('div', { class: 'map-waters' });
  let waters: WaterSourceView[] = [];
  let watersKey = '[]';
  let waterLabel = '';
  const alarm = marker('alarm', o.labels.alarm);
  const station = o.station ? marker('station', o.labels.station) : null;
  const note = h('div', { class: 'map-note' }, o.template ? o.labels.tilesFailed : o.labels.noTiles);
  const root = h(
    'div',
    { class: `map${o.template ? '' : ' map--no-tiles'}`, 'data-testid': 'map' },
    tilesEl,
    watersEl,
    station,
    alarm,
    h('div', { class: 'map-coords', 'data-testid': 'map-coords' }, coords(o.lat, o.lon)),
    note,
    o.attribution && o.template ? h('div', { class: 'map-attribution' }, o.attribution) : null,
  );
  let tiles: ReturnType<typeof tileImage>[] = [];
  const update = () =>
    root.classList.toggle(
      'map--tiles-failed',
      tiles.some((t) => t.failed()),
    );

  let drawn = '';
  const draw = () => {
    const width = root.clientWidth;
    const height = root.clientHeight;
    if (width === 0 || height === 0 || drawn === `${width}x${height}|${watersKey}`) return;
    drawn = `${width}x${height}|${watersKey}`;
    const placed =
      waters.length > 0
        ? placeAround(o, waters, width, height, sizeOf(alarm))
        : placeMarkers({
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
      // Around water sources the view follows the fire ground: a station not well inside it is left out.
      const m = mapMargin(width, height);
      const outside =
        placed.station.x < m.x ||
        placed.station.y < m.y ||
        placed.station.x > width - m.x - WATER_LABEL_ROOM ||
        placed.station.y > height - m.y;
      station.style.display = waters.length > 0 && outside ? 'none' : '';
    }
    // The farthest first, so the nearest (the one a crew goes for) is drawn on top.
    const marks = waters.map((source) => {
      const p = project(source.latitude, source.longitude, zoom);
      const el = waterMarker(source, waterLabel);
      const at = { x: p.x - center.x + width / 2, y: p.y - center.y + height / 2 };
      place(el, at.x, at.y);
      return { el, at };
    });
    watersEl.replaceChildren(...marks.map((m) => m.el).reverse());
    labelWaters(marks, { x: placed.alarm.x, y: placed.alarm.y, size: sizeOf(alarm) }, width, height);
    tiles.forEach((t) => t.drop());
    tiles = o.template
      ? layout.tiles.map((t) => {
          const tile = tileImage(tileUrl(o.template, layout.tileZoom, t.x, t.y), update);
          tile.img.style.cssText = `left:${t.left}px;top:${t.top}px;width:${t.width}px;height:${t.height}px`;
          return tile;
        })
      : [];
    tilesEl.replaceChildren(...tiles.map((t) => t.img));
    update();
  };
  // Sizes are known only once the map is laid out, and change with orientation or split layout.
  if (typeof ResizeObserver === 'function') new ResizeObserver(draw).observe(root);
  requestAnimationFrame(draw);
  return {
    el: root,
    retry: () => tiles.forEach((t) => t.failed() && t.retryNow()),
    waters: (sources, outOfService) => {
      const key = JSON.stringify([sources, outOfService]);
      if (key === watersKey) return;
      waters = sources;
      watersKey = key;
      waterLabel = outOfService;
      root.classList.toggle('map--waters', sources.length > 0);
      draw();
    },
  };
}

/**
 * The view around an alarm with water sources: centred on the alarm at the highest zoom that keeps
 * every source on the map with the usual margin (the station is marked only if it falls inside).
 */
function placeAround(
  o: MapOptions,
  waters: WaterSourceView[],
  width: number,
  height: number,
  alarmSize: MarkerSize,
): Placement {
  // The usual margin, and room for a distance label beside the dot of a source at the edge.
  const margin = mapMargin(width, height);
  // A map too narrow for that keeps half its width for the sources (never a continent-wide zoom).
  const box = {
    width: Math.max(width / 2, width - 2 * margin.x - WATER_LABEL_ROOM),
    height: Math.max(height / 2, height - 2 * margin.y),
  };
  const zoom = Math.min(
    ...waters.map((w) =>
      fitZoom(
        { lat: o.lat, lon: o.lon },
        { lat: w.latitude, lon: w.longitude },
        box,
        o.waterMaxZoom,
        3,
        alarmSize.dot / 2,
      ),
    ),
  );
  const a = project(o.lat, o.lon, zoom);
  const center = { x: Math.round(a.x), y: Math.round(a.y) };
  const onMap = (p: { x: number; y: number }) => ({ x: p.x - center.x + width / 2, y: p.y - center.y + height / 2 });
  const s = o.station ? project(o.station.lat, o.station.lon, zoom) : null;
  return { zoom, center, alarm: onMap(a), station: s ? { ...onMap(s), side: 'right' } : null };
}

/**
 * Puts each water source's label, nearest first, where it covers nothing: on a side free of the alarm,
 * the dots and labels placed before and the map's edge (away from the alarm first); failing that, short
 * (number and distance, out of service as its ✕); failing that, none — the dot stays, and a label that
 * covers another is never drawn. Every dot is placed before any label, so no label covers a dot.
 */
function labelWaters(
  marks: Array<{ el: HTMLElement; at: { x: number; y: number } }>,
  alarm: { x: number; y: number; size: MarkerSize },
  width: number,
  height: number,
): void {
  const taken: Box[] = [dotBox(alarm.x, alarm.y, alarm.size), labelBox(alarm.x, alarm.y, alarm.size, 'right')];
  for (const { el, at } of marks) taken.push(dotBox(at.x, at.y, sizeOf(el)));
  const inside: Box = { left: 0, top: 0, right: width, bottom: height };
  for (const { el, at } of marks) {
    el.classList.remove('map-marker--water-short', 'map-marker--no-label');
    const own = dotBox(at.x, at.y, sizeOf(el));
    const others = taken.filter((b) => b !== own && !sameBox(b, own));
    const sides: LabelSide[] =
      at.x < alarm.x ? ['left', 'below', 'above', 'right'] : ['right', 'below', 'above', 'left'];
    const free = () => {
      const size = sizeOf(el);
      for (const side of sides) {
        const box = labelBox(at.x, at.y, size, side);
        const area = (box.right - box.left) * (box.bottom - box.top);
        if (others.every((b) => overlapArea(box, b, 2) === 0) && overlapArea(box, inside) >= area - 0.5)
          return { side, box };
      }
      return null;
    };
    let placed = free();
    if (!placed) {
      el.classList.add('map-marker--water-short');
      placed = free();
    }
    if (!placed) {
      el.classList.add('map-marker--no-label');
      continue;
    }
    setSide(el, placed.side);
    taken.push(placed.box);
  }
}

function sameBox(a: Box, b: Box): boolean {
  return a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
}

/** A marker's drawn size: the dot with its outline shadow (3 px each side), and the label's box. */
function sizeOf(marker: HTMLElement): MarkerSize {
  const dot = marker.querySelector<HTMLElement>('.map-marker__dot');
  const label = marker.querySelector<HTMLElement>('.map-marker__label');
  return {
    dot: (dot?.offsetWidth ?? 0) + 6,
    labelWidth: label?.offsetWidth ?? 0,
    labelHeight: label?.offsetHeight ?? 0,
  };
}

function setSide(marker: HTMLElement, side: LabelSide): void {
  for (const s of ['right', 'left', 'below', 'above'] as const)
    marker.classList.toggle(`map-marker--label-${s}`, s === side);
  marker.dataset.labelSide = side;
}

function mod(value: number, n: number): number {
  return ((value % n) + n) % n;
}

function place(el: HTMLElement, x: number, y: number): void {
  el.style.left = `${Math.round(x)}px`;
  el.style.top = `${Math.round(y)}px`;
}
