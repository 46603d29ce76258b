// A small slippy map for the console's pages (docs/console.md "Maps"), hand-written like the display's
// (display-client/src/map.ts) on the same tile math (common/tiles.ts); no map library.
//
//   <MapView
//     label="Hydranten auf der Karte"          accessible name of the map, in the page's language
//     center={{ lat: 50.13, lon: 8.92 }}       where the view starts; a new value moves the view there
//     zoom={15}                                 optional, 2–19 (default 15); a new value zooms there
//     markers={[{ lat, lon, label, kind?, id? }]}
//                                               kind: 'water' | 'pick' | 'station' | anything else (a plain
//                                               dot); label is shown beside the dot and as its title
//     onPick={(lat, lon) => …}                  optional: a click or tap on the map (not a drag), or Enter
//                                               on the focused map (its centre, marked by a crosshair)
//     onMarker={(marker) => …}                  optional: a click on a marker, or its entry in the list
//     fit                                       optional: start where every marker is in view (again when
//                                               the markers' places change)
//   />
//
// Tiles come from the page's `<meta name="tile-url">` (TILE_URL); without one, or where tiles fail, a
// grid at the true scale stays with the markers and a scale bar, and a note says so. Drag pans, the +/−
// buttons zoom; focused, the arrow keys pan and + / − zoom. The markers are listed below the map too
// (a disclosure), so a screen reader and a keyboard reach every one of them.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { project, scaledTiles, TILE, tileUrl } from '../../common/tiles.js';
import { words } from './i18n.js';

const w = words(
  {
    map: 'Karte',
    zoomIn: 'Vergrößern',
    zoomOut: 'Verkleinern',
    keys: 'Ziehen oder Pfeiltasten verschieben die Karte, + und − zoomen.',
    keysPick: 'Ein Tippen auf die Karte wählt den Ort; mit der Tastatur wählt Enter die Mitte (Fadenkreuz).',
    noTiles: 'Keine Kartenkacheln eingerichtet',
    tilesFailed: 'Kartenkacheln nicht erreichbar',
    places: (n: number) => (n === 1 ? '1 Ort auf der Karte' : `${n} Orte auf der Karte`),
    open: (label: string) => `${label} öffnen`,
  },
  {
    map: 'map',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    keys: 'Drag or use the arrow keys to move the map, + and − to zoom.',
    keysPick: 'A tap on the map picks the place; with the keyboard, Enter picks the centre (crosshair).',
    noTiles: 'No map tiles configured',
    tilesFailed: 'Map tiles cannot be reached',
    places: (n: number) => (n === 1 ? '1 place on the map' : `${n} places on the map`),
    open: (label: string) => `Open ${label}`,
  },
);

export interface MapMarker {
  lat: number;
  lon: number;
  label: string;
  /** 'water' (a cyan drop), 'pick' (the place being chosen, red), 'station', else a plain dot. */
  kind?: string;
  /** The caller's key for the marker (a record's ID), handed back through onMarker. */
  id?: string;
}

export interface MapProps {
  center: { lat: number; lon: number };
  zoom?: number;
  markers: MapMarker[];
  onPick?: (lat: number, lon: number) => void;
  onMarker?: (marker: MapMarker) => void;
  /** The map's accessible name. */
  label: string;
  /** Start with a view that shows every marker (center and zoom then only count without markers). */
  fit?: boolean;
}

export const MIN_ZOOM = 2;
export const MAX_ZOOM = 19;
const DEFAULT_ZOOM = 15;
/** Pixels a pointer may move and still count as a tap, not a drag. */
const TAP_SLOP = 5;
/** Pixels an arrow key moves the map. */
const KEY_STEP = 80;

/** The tile template from the page (empty when the server names none). */
function tileTemplate(): string {
  const value = document.querySelector<HTMLMetaElement>('meta[name="tile-url"]')?.content.trim() ?? '';
  return value.includes('{z}') ? value : '';
}

/** World pixels at `zoom` back to latitude/longitude (the inverse of project). */
export function unproject(x: number, y: number, zoom: number): { lat: number; lon: number } {
  const size = TILE * 2 ** zoom;
  const n = Math.PI - (2 * Math.PI * y) / size;
  const lon = (x / size) * 360 - 180;
  return { lat: (180 / Math.PI) * Math.atan(Math.sinh(n)), lon: ((((lon + 180) % 360) + 360) % 360) - 180 };
}

/** Metres one CSS pixel stands for at this latitude and zoom. */
function metresPerPixel(lat: number, zoom: number): number {
  return (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (TILE * 2 ** zoom);
}

/** A round length (1, 2 or 5 × 10ⁿ metres) that is at most `max` metres. */
function roundLength(max: number): number {
  const power = 10 ** Math.floor(Math.log10(max));
  return [5, 2, 1].map((m) => m * power).find((m) => m <= max) ?? power;
}

function distanceText(metres: number): string {
  return metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
}

/** A position as people read it: 50.13340° N, 8.91790° E. */
export function formatPosition(lat: number, lon: number): string {
  return `${Math.abs(lat).toFixed(5)}° ${lat >= 0 ? 'N' : 'S'}, ${Math.abs(lon).toFixed(5)}° ${lon >= 0 ? 'E' : 'W'}`;
}

/** A view (centre and zoom) that shows every marker in a map of about `width`×`height`, or the fallback. */
export function viewOf(
  markers: Array<{ lat: number; lon: number }>,
  fallback: { center: { lat: number; lon: number }; zoom: number },
  width = 320,
  height = 240,
): { center: { lat: number; lon: number }; zoom: number } {
  if (markers.length === 0) return fallback;
  const lats = markers.map((m) => m.lat);
  const lons = markers.map((m) => m.lon);
  const [south, north, west, east] = [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)];
  for (let zoom = 17; zoom > MIN_ZOOM; zoom--) {
    const a = project(north, west, zoom);
    const b = project(south, east, zoom);
    if (b.x - a.x <= width - 64 && b.y - a.y <= height - 64) {
      const c = unproject((a.x + b.x) / 2, (a.y + b.y) / 2, zoom);
      return { center: c, zoom };
    }
  }
  return { center: { lat: (south + north) / 2, lon: (west + east) / 2 }, zoom: MIN_ZOOM };
}

const clampZoom = (zoom: number) => Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, Math.round(zoom)));

function Drop() {
  return (
    <svg class="map-marker-icon" viewBox="0 0 24 24" aria-hidden="true">
      <path d="M12 3s6 7 6 11a6 6 0 0 1-12 0c0-4 6-11 6-11z" />
    </svg>
  );
}

export function MapView({ center, zoom, markers, onPick, onMarker, label, fit }: MapProps) {
  const [view, setView] = useState({ lat: center.lat, lon: center.lon, zoom: clampZoom(zoom ?? DEFAULT_ZOOM) });
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [failed, setFailed] = useState<Set<string>>(new Set());
  const box = useRef<HTMLDivElement>(null);
  const drag = useRef<{ id: number; x: number; y: number; cx: number; cy: number; moved: boolean } | null>(null);
  const template = useRef(tileTemplate()).current;
  const hintId = useRef(`map-hint-${Math.random().toString(36).slice(2, 8)}`).current;

  // A new centre or zoom from the page moves the view (panning by hand does not change these props); a
  // fitted map waits for its size and fits again when its markers move.
  const measured = size.width > 0;
  const fitKey = fit ? markers.map((m) => `${m.lat},${m.lon}`).join(';') : '';
  useEffect(() => {
    const given = { center, zoom: clampZoom(zoom ?? DEFAULT_ZOOM) };
    const next = fit && measured ? viewOf(markers, given, size.width, size.height) : given;
    setView({ lat: next.center.lat, lon: next.center.lon, zoom: clampZoom(next.zoom) });
  }, [center.lat, center.lon, zoom, fitKey, measured]);
  // The tiles and markers are placed in pixels: the size is known only once laid out, and changes.
  useLayoutEffect(() => {
    const el = box.current!;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const c = project(view.lat, view.lon, view.zoom);
  const { width, height } = size;
  const toScreen = (lat: number, lon: number) => {
    const p = project(lat, lon, view.zoom);
    return { x: p.x - c.x + width / 2, y: p.y - c.y + height / 2 };
  };
  const toWorld = (x: number, y: number) => unproject(c.x + x - width / 2, c.y + y - height / 2, view.zoom);
  const panBy = (dx: number, dy: number) =>
    setView((v) => {
      const p = project(v.lat, v.lon, v.zoom);
      return { ...unproject(p.x + dx, p.y + dy, v.zoom), zoom: v.zoom };
    });
  const zoomBy = (step: number) => setView((v) => ({ ...v, zoom: clampZoom(v.zoom + step) }));

  const layout = width > 0 ? scaledTiles(c, view.zoom, width, height) : { tiles: [], tileZoom: view.zoom };
  const tiles = template ? layout.tiles.map((t) => ({ ...t, url: tileUrl(template, layout.tileZoom, t.x, t.y) })) : [];
  const anyFailed = tiles.some((t) => failed.has(t.url));
  const mpp = metresPerPixel(view.lat, view.zoom);
  const scale = roundLength(mpp * Math.min(120, Math.max(60, width / 4)));
  const mod = (v: number) => ((v % TILE) + TILE) % TILE;

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0 || (e.target as Element).closest('.map-controls, .map-marker')) return;
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY, cx: c.x, cy: c.y, moved: false };
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const [dx, dy] = [e.clientX - d.x, e.clientY - d.y];
    if (!d.moved && Math.hypot(dx, dy) < TAP_SLOP) return;
    if (!d.moved) {
      d.moved = true;
      // Captured only once it is a drag, so that a tap on a marker still reaches the marker.
      box.current?.setPointerCapture(e.pointerId);
    }
    setView((v) => ({ ...unproject(d.cx - dx, d.cy - dy, v.zoom), zoom: v.zoom }));
  };
  const onPointerUp = (e: PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.id !== e.pointerId || d.moved || !onPick) return;
    const rect = box.current!.getBoundingClientRect();
    const at = toWorld(e.clientX - rect.left, e.clientY - rect.top);
    onPick(round(at.lat), round(at.lon));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== box.current) return;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-KEY_STEP, 0],
      ArrowRight: [KEY_STEP, 0],
      ArrowUp: [0, -KEY_STEP],
      ArrowDown: [0, KEY_STEP],
    };
    if (moves[e.key]) panBy(...moves[e.key]);
    else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-' || e.key === '_') zoomBy(-1);
    else if (e.key === 'Enter' && onPick) onPick(round(view.lat), round(view.lon));
    else return;
    e.preventDefault();
  };

  const shown = labelled(
    markers
      .map((m, index) => ({ m, index, at: toScreen(m.lat, m.lon) }))
      .filter(({ at }) => width > 0 && at.x > -40 && at.y > -40 && at.x < width + 40 && at.y < height + 40),
  );

  return (
    <div class="map-view">
      <div
        ref={box}
        class={`map-frame${template && !anyFailed ? '' : ' map-grid-only'}${onPick ? ' map-pickable' : ''}`}
        role="group"
        aria-roledescription={w.map}
        aria-label={label}
        aria-describedby={hintId}
        tabIndex={0}
        data-testid="map"
        style={{
          '--tile': `${TILE}px`,
          backgroundPosition: `${mod(width / 2 - c.x)}px ${mod(height / 2 - c.y)}px`,
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      >
        <div class="map-tiles" aria-hidden="true">
          {tiles.map((t) =>
            failed.has(t.url) ? null : (
              <img
                key={t.url}
                class="map-tile"
                src={t.url}
                alt=""
                draggable={false}
                style={{ left: `${t.left}px`, top: `${t.top}px`, width: `${t.width}px`, height: `${t.height}px` }}
                onError={() => setFailed((f) => new Set(f).add(t.url))}
              />
            ),
          )}
        </div>
        {/* The markers are for the eye and the pointer; the list below names each for everyone. */}
        <div class="map-markers" aria-hidden="true">
          {shown.map(({ m, index, at, label }) => (
            <div
              key={`${m.id ?? index}`}
              class={`map-marker map-marker-${m.kind ?? 'plain'}${onMarker ? ' map-marker-link' : ''}${
                label ? '' : ' map-marker-unlabelled'
              }`}
              style={{ left: `${Math.round(at.x)}px`, top: `${Math.round(at.y)}px` }}
              title={m.label}
              data-testid="map-marker"
              onClick={onMarker ? () => onMarker(m) : undefined}
            >
              <span class="map-marker-dot">{m.kind === 'water' && <Drop />}</span>
              <span class="map-marker-label">{m.label}</span>
            </div>
          ))}
        </div>
        {onPick && <span class="map-crosshair" aria-hidden="true" />}
        <div class="map-controls">
          <button type="button" class="map-zoom" aria-label={w.zoomIn} title={w.zoomIn} onClick={() => zoomBy(1)}>
            +
          </button>
          <button type="button" class="map-zoom" aria-label={w.zoomOut} title={w.zoomOut} onClick={() => zoomBy(-1)}>
            −
          </button>
        </div>
        <div class="map-scale" aria-hidden="true">
          <span style={{ width: `${Math.round(scale / mpp)}px` }} />
          {distanceText(scale)}
        </div>
        {(!template || anyFailed) && <div class="map-note">{template ? w.tilesFailed : w.noTiles}</div>}
      </div>
      <p id={hintId} class="hint map-hint">
        {w.keys} {onPick && w.keysPick}
      </p>
      {markers.length > 0 && (
        <details class="map-list">
          <summary>{w.places(markers.length)}</summary>
          <ul>
            {markers.map((m, index) => (
              <li key={`${m.id ?? index}`} class="map-place">
                {onMarker ? (
                  <button type="button" class="link-button" aria-label={w.open(m.label)} onClick={() => onMarker(m)}>
                    {m.label}
                  </button>
                ) : (
                  <span>{m.label}</span>
                )}{' '}
                <span class="meta">{formatPosition(m.lat, m.lon)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * Which markers show their label: in order, each whose label (its likely box to the right of the dot)
 * covers no dot and no label placed before; the others keep their dot and title.
 */
function labelled<T extends { m: MapMarker; at: { x: number; y: number } }>(items: T[]): Array<T & { label: boolean }> {
  type Box = { l: number; t: number; r: number; b: number };
  const overlaps = (a: Box, b: Box) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  const dots: Box[] = items.map(({ at }) => ({ l: at.x - 11, t: at.y - 11, r: at.x + 11, b: at.y + 11 }));
  const taken: Box[] = [];
  return items.map((item, i) => {
    const box = {
      l: item.at.x + 13,
      t: item.at.y - 10,
      r: item.at.x + 21 + Math.min(160, item.m.label.length * 7),
      b: item.at.y + 10,
    };
    const free = !taken.some((b) => overlaps(box, b)) && !dots.some((d, j) => j !== i && overlaps(box, d));
    if (free) taken.push(box);
    return { ...item, label: free };
  });
}

/** Six decimals: about 10 cm, more than a tap can mean. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
