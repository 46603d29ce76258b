// Where the map looks and where the markers' labels go: pure maths (no DOM), so it is unit-tested in Node.
//
// A marker is a dot at its point with a label beside it. The alarm's label always stands to the right
// of its dot (the alarm is the point of the map, it never moves aside). The view is centred on the
// middle of everything drawn (both dots and both labels) at the highest zoom (in steps of 1/16: the
// zoom is fractional) at which all of it fits
// inside the map with a margin; when the station is so close that its label would cover the alarm or
// the alarm's label, the station's label moves to the left, below or above its dot.
import { fitZoom, project, ZOOM_STEP, type WorldPoint } from '../../common/tiles.js';

/** Where a label stands relative to its dot. */
export type LabelSide = 'right' | 'left' | 'below' | 'above';

/** A marker's drawn size in CSS pixels: the dot's edge (with its outline) and the label's box. */
export interface MarkerSize {
  dot: number;
  labelWidth: number;
  labelHeight: number;
}

/** An axis-aligned box in pixels (any origin). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PlacementInput {
  alarm: { lat: number; lon: number };
  station: { lat: number; lon: number } | null;
  /** The map's size in CSS pixels. */
  width: number;
  height: number;
  alarmSize: MarkerSize;
  stationSize: MarkerSize;
  maxZoom: number;
  minZoom: number;
  /** Free space kept between the drawn boxes and the map's edges; default mapMargin(width, height). */
  margin?: { x: number; y: number };
  /** Space between a dot and its label (the CSS uses the same). */
  gap?: number;
  /** Space kept between the boxes of the two markers for them to count as not overlapping. */
  clearance?: number;
}

export interface Placement {
  zoom: number;
  /** The view's centre in world pixels at `zoom`: whole pixels, so tiles, grid and markers agree exactly. */
  center: WorldPoint;
  /** The markers' points in map pixels (0,0 = the map's top-left corner). */
  alarm: { x: number; y: number };
  station: { x: number; y: number; side: LabelSide } | null;
}

export const LABEL_GAP = 10;

/**
 * The free space kept around the markers: 48 px above and below on a roomy map (clear of the notes in
 * its corners), less on a short one, where zooming far out to keep that space would only pile the two
 * markers onto each other.
 */
export function mapMargin(width: number, height: number): { x: number; y: number } {
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));
  return { x: clamp(width * 0.04, 12, 20), y: clamp(height * 0.16, 12, 48) };
}
const SIDES: LabelSide[] = ['right', 'left', 'below', 'above'];

/** The dot's box around the point (x, y). */
export function dotBox(x: number, y: number, size: MarkerSize): Box {
  const r = size.dot / 2;
  return { left: x - r, top: y - r, right: x + r, bottom: y + r };
}

/** The label's box for a dot at (x, y) with the label on `side`. */
export function labelBox(x: number, y: number, size: MarkerSize, side: LabelSide, gap = LABEL_GAP): Box {
  const r = size.dot / 2;
  const w = size.labelWidth;
  const h = size.labelHeight;
  switch (side) {
    case 'right':
      return { left: x + r + gap, top: y - h / 2, right: x + r + gap + w, bottom: y + h / 2 };
    case 'left':
      return { left: x - r - gap - w, top: y - h / 2, right: x - r - gap, bottom: y + h / 2 };
    case 'below':
      return { left: x - w / 2, top: y + r + gap, right: x + w / 2, bottom: y + r + gap + h };
    case 'above':
      return { left: x - w / 2, top: y - r - gap - h, right: x + w / 2, bottom: y - r - gap };
  }
}

/** The smallest box holding all `boxes`. */
export function union(boxes: Box[]): Box {
  return {
    left: Math.min(...boxes.map((b) => b.left)),
    top: Math.min(...boxes.map((b) => b.top)),
    right: Math.max(...boxes.map((b) => b.right)),
    bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
}

/** The area two boxes share once each is grown by `pad` on every side (0 when they keep that distance). */
export function overlapArea(a: Box, b: Box, pad = 0): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left) + 2 * pad;
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) + 2 * pad;
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * How much the two markers cover each other, with the station's label on `side`, the station `dx`/`dy`
 * pixels from the alarm. Counts each label against the other marker's dot and label; the dots
 * themselves may touch (two points a few metres apart), the alarm is drawn on top.
 */
export function markerOverlap(
  dx: number,
  dy: number,
  alarm: MarkerSize,
  station: MarkerSize,
  side: LabelSide,
  gap = LABEL_GAP,
  pad = 0,
): number {
  const alarmDot = dotBox(0, 0, alarm);
  const alarmLabel = labelBox(0, 0, alarm, 'right', gap);
  const stationDot = dotBox(dx, dy, station);
  const stationLabel = labelBox(dx, dy, station, side, gap);
  return (
    overlapArea(alarmLabel, stationLabel, pad) +
    overlapArea(alarmLabel, stationDot, pad) +
    overlapArea(stationLabel, alarmDot, pad)
  );
}

/** Chooses zoom, centre and the station label's side; see the file comment. */
export function placeMarkers(input: PlacementInput): Placement {
  const { alarm, station, width, height, alarmSize, stationSize, maxZoom, minZoom } = input;
  const margin = input.margin ?? mapMargin(width, height);
  const gap = input.gap ?? LABEL_GAP;
  const clearance = input.clearance ?? 4;
  const alarmBoxes = [dotBox(0, 0, alarmSize), labelBox(0, 0, alarmSize, 'right', gap)];

  const result = (zoom: number, middle: WorldPoint, side: LabelSide | null): Placement => {
    const a = project(alarm.lat, alarm.lon, zoom);
    const center = { x: Math.round(middle.x), y: Math.round(middle.y) };
    const onMap = (p: WorldPoint) => ({ x: p.x - center.x + width / 2, y: p.y - center.y + height / 2 });
    const s = station ? project(station.lat, station.lon, zoom) : null;
    return { zoom, center, alarm: onMap(a), station: s ? { ...onMap(s), side: side ?? 'right' } : null };
  };

  if (!station) {
    // Alone, the alarm's dot is the centre of the map (its coordinates are printed in the corner).
    return result(maxZoom, project(alarm.lat, alarm.lon, maxZoom), null);
  }

  const search = (room: { width: number; height: number }): Placement | null => {
    const fits = (b: Box) => b.right - b.left <= room.width && b.bottom - b.top <= room.height;
    for (let zoom = maxZoom; zoom >= minZoom; zoom -= ZOOM_STEP) {
      const a = project(alarm.lat, alarm.lon, zoom);
      const s = project(station.lat, station.lon, zoom);
      const dx = s.x - a.x;
      const dy = s.y - a.y;
      // Of the sides whose drawing fits at this zoom: the first without overlap, else the least overlap.
      let best: { side: LabelSide; box: Box; overlap: number } | null = null;
      for (const side of SIDES) {
        const box = union([...alarmBoxes, dotBox(dx, dy, stationSize), labelBox(dx, dy, stationSize, side, gap)]);
        if (!fits(box)) continue;
        const overlap = markerOverlap(dx, dy, alarmSize, stationSize, side, gap, clearance / 2);
        if (!best || overlap < best.overlap) best = { side, box, overlap };
        if (overlap === 0) break;
      }
      if (best) {
        const middle = { x: a.x + (best.box.left + best.box.right) / 2, y: a.y + (best.box.top + best.box.bottom) / 2 };
        return result(zoom, middle, best.side);
      }
    }
    return null;
  };
  // A map too small for the margins gets to use its edges; one too small even for that (or a station
  // half a world away) keeps the alarm in the middle at the zoom that keeps the station's dot on the map.
  const found = search({ width: width - 2 * margin.x, height: height - 2 * margin.y }) ?? search({ width, height });
  if (found) return found;
  const zoom = fitZoom(
    alarm,
    station,
    { width, height },
    maxZoom,
    minZoom,
    Math.max(alarmSize.dot, stationSize.dot) / 2,
  );
  return result(zoom, project(alarm.lat, alarm.lon, zoom), 'right');
}
