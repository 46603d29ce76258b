// Web-Mercator tile math for the hand-written slippy map (256 px tiles, the de-facto {z}/{x}/{y} scheme).

/** Tile edge in CSS pixels. */
export const TILE = 256;

/** A point in world pixels at one zoom level. */
export interface WorldPoint {
  x: number;
  y: number;
}

/** Projects latitude/longitude to world pixels at `zoom`. */
export function project(lat: number, lon: number, zoom: number): WorldPoint {
  // Mercator is undefined at the poles; clamp to the usual tile-set limit.
  const clamped = Math.max(-85.05112878, Math.min(85.05112878, lat));
  const size = TILE * 2 ** zoom;
  const sin = Math.sin((clamped * Math.PI) / 180);
  return {
    x: ((lon + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

/** Zoom levels are searched in steps of this size: fractional zoom fits two markers closely. */
export const ZOOM_STEP = 1 / 16;

/**
 * The highest zoom (≤ maxZoom, ≥ minZoom, in ZOOM_STEPs) at which `other` still lies inside the box around `center`.
 */
export function fitZoom(
  center: { lat: number; lon: number },
  other: { lat: number; lon: number } | null,
  box: { width: number; height: number },
  maxZoom: number,
  minZoom: number,
  margin = 48,
): number {
  if (!other) return maxZoom;
  for (let zoom = maxZoom; zoom > minZoom; zoom -= ZOOM_STEP) {
    const a = project(center.lat, center.lon, zoom);
    const b = project(other.lat, other.lon, zoom);
    if (Math.abs(b.x - a.x) <= box.width / 2 - margin && Math.abs(b.y - a.y) <= box.height / 2 - margin) return zoom;
  }
  return minZoom;
}

/**
 * The template's subdomain placeholder and the names it stands for: `{a-c}` or `{1-4}` (a range, as
 * OpenLayers writes it), `{s:a,b,c}` (a list), or a bare `{s}` (a, b and c, as Leaflet's default).
 */
export function subdomainsOf(template: string): { token: string; names: string[] } | null {
  const range = /\{([a-z0-9])-([a-z0-9])\}/.exec(template);
  if (range) {
    const [from, to] = [range[1].charCodeAt(0), range[2].charCodeAt(0)];
    const names = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => String.fromCharCode(from + i));
    if (names.length > 0) return { token: range[0], names };
  }
  const list = /\{s:([^}]+)\}/.exec(template);
  if (list)
    return {
      token: list[0],
      names: list[1]
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    };
  return template.includes('{s}') ? { token: '{s}', names: ['a', 'b', 'c'] } : null;
}

/** Fills a URL template's {z}/{x}/{y} and subdomain placeholders; x wraps around the date line. */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  const n = 2 ** z;
  const wrapped = ((x % n) + n) % n;
  const sub = subdomainsOf(template);
  // One tile always comes from the same subdomain, so the browser's cache keeps working.
  const filled =
    sub && sub.names.length > 0
      ? template.replace(sub.token, sub.names[Math.abs(wrapped + y) % sub.names.length])
      : template;
  return filled.replace('{z}', String(z)).replace('{x}', String(wrapped)).replace('{y}', String(y));
}

/** The tiles (with their box offsets) that cover a box of `width`×`height` centred on `center`. */
export function coveringTiles(center: WorldPoint, zoom: number, width: number, height: number) {
  const left = center.x - width / 2;
  const top = center.y - height / 2;
  const n = 2 ** zoom;
  const tiles: { x: number; y: number; left: number; top: number }[] = [];
  for (let tx = Math.floor(left / TILE); tx * TILE < left + width; tx++) {
    for (let ty = Math.floor(top / TILE); ty * TILE < top + height; ty++) {
      if (ty < 0 || ty >= n) continue;
      tiles.push({ x: tx, y: ty, left: tx * TILE - left, top: ty * TILE - top });
    }
  }
  return tiles;
}

/** A tile placed on the map at a fractional zoom: whole-pixel edges, so neighbours meet without seams. */
export interface PlacedTile {
  x: number;
  y: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The tiles of the nearest whole zoom level, scaled to the fractional `zoom`, that cover a box of
 * `width`×`height` centred on `center` (world pixels at `zoom`). `scale` is the drawn size of one tile
 * pixel, which the grid behind the tiles follows too.
 */
export function scaledTiles(
  center: WorldPoint,
  zoom: number,
  width: number,
  height: number,
): { tileZoom: number; scale: number; tiles: PlacedTile[] } {
  const tileZoom = Math.max(0, Math.round(zoom));
  const scale = 2 ** (zoom - tileZoom);
  const edge = TILE * scale;
  const left = center.x - width / 2;
  const top = center.y - height / 2;
  const n = 2 ** tileZoom;
  const tiles: PlacedTile[] = [];
  for (let tx = Math.floor(left / edge); tx * edge < left + width; tx++) {
    for (let ty = Math.floor(top / edge); ty * edge < top + height; ty++) {
      if (ty < 0 || ty >= n) continue;
      const x0 = Math.round(tx * edge - left);
      const y0 = Math.round(ty * edge - top);
      // Both edges are rounded the same way, so one tile's right edge is the next one's left edge.
      tiles.push({
        x: tx,
        y: ty,
        left: x0,
        top: y0,
        width: Math.round((tx + 1) * edge - left) - x0,
        height: Math.round((ty + 1) * edge - top) - y0,
      });
    }
  }
  return { tileZoom, scale, tiles };
}
