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

/** The highest zoom (≤ maxZoom, ≥ minZoom) at which `other` still lies inside the box around `center`. */
export function fitZoom(
  center: { lat: number; lon: number },
  other: { lat: number; lon: number } | null,
  box: { width: number; height: number },
  maxZoom: number,
  minZoom: number,
  margin = 48,
): number {
  if (!other) return maxZoom;
  for (let zoom = maxZoom; zoom > minZoom; zoom--) {
    const a = project(center.lat, center.lon, zoom);
    const b = project(other.lat, other.lon, zoom);
    if (Math.abs(b.x - a.x) <= box.width / 2 - margin && Math.abs(b.y - a.y) <= box.height / 2 - margin) return zoom;
  }
  return minZoom;
}

/** Fills a URL template's {z}/{x}/{y} (and {s}) placeholders; x wraps around the date line. */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  const n = 2 ** z;
  const wrapped = ((x % n) + n) % n;
  return template
    .replace('{z}', String(z))
    .replace('{x}', String(wrapped))
    .replace('{y}', String(y))
    .replace('{s}', 'abc'[Math.abs(x + y) % 3]);
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
