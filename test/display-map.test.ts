// The display client's map placement and split-screen row maths, run in Node: no browser, no server.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { rowHeights } from '../display-client/src/layout.js';
import {
  dotBox,
  labelBox,
  mapMargin,
  markerOverlap,
  overlapArea,
  placeMarkers,
  union,
  type Box,
  type MarkerSize,
  type Placement,
  type PlacementInput,
} from '../display-client/src/placement.js';
import { fitZoom, project, scaledTiles, TILE, ZOOM_STEP } from '../common/tiles.js';

// Sizes as the browser measures them at 22 px labels: dot with its outline, label box.
const ALARM: MarkerSize = { dot: 46, labelWidth: 88, labelHeight: 30 };
const STATION: MarkerSize = { dot: 34, labelWidth: 110, labelHeight: 30 };
const STATION_AT = { lat: 50.7823, lon: 6.0968 };

function input(
  alarm: { lat: number; lon: number },
  station: { lat: number; lon: number } | null,
  width: number,
  height: number,
  more: Partial<PlacementInput> = {},
): PlacementInput {
  return { alarm, station, width, height, alarmSize: ALARM, stationSize: STATION, maxZoom: 16, minZoom: 3, ...more };
}

/** Everything drawn for a placement, in map pixels. */
function drawn(p: Placement): { alarm: Box[]; station: Box[] } {
  return {
    alarm: [dotBox(p.alarm.x, p.alarm.y, ALARM), labelBox(p.alarm.x, p.alarm.y, ALARM, 'right')],
    station: p.station
      ? [dotBox(p.station.x, p.station.y, STATION), labelBox(p.station.x, p.station.y, STATION, p.station.side)]
      : [],
  };
}

function assertInside(p: Placement, width: number, height: number, margin = mapMargin(width, height)): void {
  const all = union([...drawn(p).alarm, ...drawn(p).station]);
  const where = JSON.stringify({ p, all });
  assert.ok(all.left >= margin.x - 1 && all.right <= width - margin.x + 1, `horizontally inside the margin: ${where}`);
  assert.ok(all.top >= margin.y - 1 && all.bottom <= height - margin.y + 1, `vertically inside the margin: ${where}`);
}

test('boxes: the dot around its point, the label beside it on the chosen side with the gap', () => {
  assert.equal(dotBox(100, 50, ALARM), { left: 77, top: 27, right: 123, bottom: 73 });
  assert.equal(labelBox(100, 50, ALARM, 'right', 10), { left: 133, top: 35, right: 221, bottom: 65 });
  assert.equal(labelBox(100, 50, ALARM, 'left', 10), { left: -21, top: 35, right: 67, bottom: 65 });
  assert.equal(labelBox(100, 50, ALARM, 'below', 10), { left: 56, top: 83, right: 144, bottom: 113 });
  assert.equal(labelBox(100, 50, ALARM, 'above', 10), { left: 56, top: -13, right: 144, bottom: 17 });
  assert.equal(
    union([
      { left: 0, top: 5, right: 10, bottom: 6 },
      { left: -3, top: 7, right: 4, bottom: 20 },
    ]),
    { left: -3, top: 5, right: 10, bottom: 20 },
  );
  assert.is(overlapArea({ left: 0, top: 0, right: 10, bottom: 10 }, { left: 5, top: 5, right: 20, bottom: 20 }), 25);
  assert.is(overlapArea({ left: 0, top: 0, right: 10, bottom: 10 }, { left: 12, top: 0, right: 20, bottom: 10 }), 0);
  assert.ok(
    overlapArea({ left: 0, top: 0, right: 10, bottom: 10 }, { left: 12, top: 0, right: 20, bottom: 10 }, 2) > 0,
    'padding keeps a distance',
  );
});

test('without a station the alarm is the centre at the highest zoom', () => {
  const alarm = { lat: 50.7766, lon: 6.0912 };
  const p = placeMarkers(input(alarm, null, 620, 390));
  assert.is(p.zoom, 16);
  // Within half a pixel: the centre is a whole world pixel, so tiles, grid and markers agree exactly.
  assert.ok(Math.abs(p.alarm.x - 310) <= 0.5 && Math.abs(p.alarm.y - 195) <= 0.5, JSON.stringify(p.alarm));
  assert.is(p.station, null);
});

test(
  'the view is centred on both markers with their labels, which stay inside the map (the cut-off ' +
    '"Station" of the split screen)',
  () => {
    // The third panel of the split screen in docs/display.md: the station lies east of the alarm, its label beyond it.
    const alarm = { lat: 50.7828, lon: 6.0889 };
    const [width, height] = [620, 360];
    const p = placeMarkers(input(alarm, STATION_AT, width, height));
    assertInside(p, width, height);
    assert.is(p.station!.side, 'right');
    // At least as close as the old rule (alarm in the middle, station's dot 48 px from the edge), which cut the label
    // off.
    assert.ok(p.zoom >= fitZoom(alarm, STATION_AT, { width, height }, 16, 3), `zoom ${p.zoom}`);
    const all = union([...drawn(p).alarm, ...drawn(p).station]);
    assert.ok(
      Math.abs((all.left + all.right) / 2 - width / 2) <= 1 && Math.abs((all.top + all.bottom) / 2 - height / 2) <= 1,
      'centred',
    );
    // One zoom step (1/16) closer, the drawing would not fit any more: this is the highest zoom.
    if (p.zoom < 16) {
      const closer = placeMarkers(
        input(alarm, STATION_AT, width, height, { maxZoom: p.zoom + ZOOM_STEP, minZoom: p.zoom + ZOOM_STEP }),
      );
      assert.is(closer.zoom, p.zoom + ZOOM_STEP);
      const box = union([...drawn(closer).alarm, ...drawn(closer).station]);
      assert.ok(
        box.right - box.left > width - 2 * mapMargin(width, height).x ||
          box.bottom - box.top > height - 2 * mapMargin(width, height).y,
      );
    }
  },
);

test('markers keep their true relative position, and grid and tiles line up with them', () => {
  const alarm = { lat: 50.7766, lon: 6.0912 };
  const [width, height] = [801, 451];
  const p = placeMarkers(input(alarm, STATION_AT, width, height));
  assert.ok(Number.isInteger(p.center.x) && Number.isInteger(p.center.y), 'whole-pixel centre');
  const a = project(alarm.lat, alarm.lon, p.zoom);
  const s = project(STATION_AT.lat, STATION_AT.lon, p.zoom);
  assert.ok(
    Math.abs(p.station!.x - p.alarm.x - (s.x - a.x)) < 1e-6 && Math.abs(p.station!.y - p.alarm.y - (s.y - a.y)) < 1e-6,
  );
  assert.ok(Math.abs(p.alarm.x - (a.x - p.center.x + width / 2)) < 1e-6);
  // The tile under the alarm (of the nearest whole zoom, scaled to the fractional one), drawn at its
  // offset, puts the alarm's world pixel where the marker stands, within the half pixel of rounding.
  const { scale, tileZoom, tiles } = scaledTiles(p.center, p.zoom, width, height);
  const edge = TILE * scale;
  assert.is(tileZoom, Math.round(p.zoom));
  const tile = tiles.find((t) => t.x === Math.floor(a.x / edge) && t.y === Math.floor(a.y / edge))!;
  assert.ok(tile, 'the alarm is on a covering tile');
  assert.ok(
    Math.abs(tile.left + (a.x - tile.x * edge) - p.alarm.x) <= 0.5 &&
      Math.abs(tile.top + (a.y - tile.y * edge) - p.alarm.y) <= 0.5,
  );
  // The grid (CSS background) starts its lines at world multiples of a tile, from the same centre.
  const gridX = (((width / 2 - p.center.x) % edge) + edge) % edge;
  assert.ok(
    Math.abs(p.alarm.x - gridX - (a.x % edge)) < 1e-6 || Math.abs(p.alarm.x - gridX - (a.x % edge) - edge) < 1e-6,
  );
});

test('a station further away is fitted at a fractional zoom, closer than the whole zoom below it', () => {
  const alarm = { lat: 50.7766, lon: 6.0912 };
  const [width, height] = [620, 360];
  const p = placeMarkers(input(alarm, STATION_AT, width, height));
  assert.ok(p.zoom < 16 && !Number.isInteger(p.zoom), `zoom ${p.zoom}`);
  assert.ok(p.zoom > Math.floor(p.zoom));
  assertInside(p, width, height);
});

test('scaled tiles meet without seams and cover the whole map', () => {
  const { tiles, scale } = scaledTiles({ x: 100_000.3, y: 80_000.7 }, 15.4, 801, 451);
  assert.ok(scale > 0.7 && scale < 1.42, `scale ${scale}`);
  for (const t of tiles) {
    const right = tiles.find((o) => o.x === t.x + 1 && o.y === t.y);
    const below = tiles.find((o) => o.x === t.x && o.y === t.y + 1);
    if (right) assert.is(right.left, t.left + t.width, 'no gap or overlap to the right');
    if (below) assert.is(below.top, t.top + t.height, 'no gap or overlap below');
  }
  assert.ok(Math.min(...tiles.map((t) => t.left)) <= 0 && Math.max(...tiles.map((t) => t.left + t.width)) >= 801);
  assert.ok(Math.min(...tiles.map((t) => t.top)) <= 0 && Math.max(...tiles.map((t) => t.top + t.height)) >= 451);
});

test('a station next to the alarm moves its label aside instead of covering the alarm label', () => {
  // 28 m east, 5 m north: at zoom 16 the station's dot sits right of the alarm's dot, under where its label was.
  const alarm = { lat: STATION_AT.lat - 0.00005, lon: STATION_AT.lon - 0.0004 };
  const [width, height] = [800, 600];
  const p = placeMarkers(input(alarm, STATION_AT, width, height));
  assert.is(p.zoom, 16, 'no zooming out for close markers');
  assertInside(p, width, height);
  const dx = p.station!.x - p.alarm.x;
  const dy = p.station!.y - p.alarm.y;
  assert.ok(markerOverlap(dx, dy, ALARM, STATION, 'right') > 0, 'the label on the right would overlap');
  assert.is.not(p.station!.side, 'right');
  const { alarm: a, station: s } = drawn(p);
  assert.is(overlapArea(a[1], s[1]), 0, 'labels apart');
  // (The alarm's label, drawn on top, may still pass over the station's dot this close: the alarm comes first.)
  assert.is(overlapArea(s[1], a[0]), 0, 'station label clear of the alarm dot');
});

test('a station west of the alarm, label would cover the alarm: left or below, still the highest zoom', () => {
  const alarm = { lat: STATION_AT.lat, lon: STATION_AT.lon + 0.0008 };
  const p = placeMarkers(input(alarm, STATION_AT, 800, 600));
  assert.is(p.zoom, 16);
  const dx = p.station!.x - p.alarm.x;
  assert.ok(dx < 0 && dx > -150, `station ${dx} px to the west`);
  assert.is(p.station!.side, 'left');
  assert.is(markerOverlap(dx, p.station!.y - p.alarm.y, ALARM, STATION, p.station!.side, 10, 2), 0);
});

test('an alarm at the station itself: highest zoom, alarm label right, station label aside', () => {
  const p = placeMarkers(input(STATION_AT, STATION_AT, 620, 360));
  assert.is(p.zoom, 16);
  assert.equal({ x: p.station!.x, y: p.station!.y }, p.alarm);
  assert.is(p.station!.side, 'left');
  assertInside(p, 620, 360);
});

test('labels of markers one above the other both stay right when they clear each other', () => {
  const alarm = { lat: STATION_AT.lat - 0.001, lon: STATION_AT.lon };
  const p = placeMarkers(input(alarm, STATION_AT, 620, 360));
  assert.is(p.station!.side, 'right');
  assert.ok(p.alarm.y - p.station!.y > 40);
});

test('a station too far for any zoom: the alarm stays in the middle at the lowest zoom', () => {
  const alarm = { lat: 50.7766, lon: 6.0912 };
  const p = placeMarkers(input(alarm, { lat: -33.9, lon: 151.2 }, 620, 360));
  assert.is(p.zoom, 3);
  assert.ok(Math.abs(p.alarm.x - 310) <= 0.5 && Math.abs(p.alarm.y - 180) <= 0.5, JSON.stringify(p.alarm));
});

test('a short map keeps smaller margins instead of zooming the markers onto each other', () => {
  const alarm = { lat: 50.7766, lon: 6.0912 };
  const [width, height] = [620, 150];
  assert.equal(mapMargin(width, height), { x: 20, y: 24 });
  assert.equal(mapMargin(1000, 700), { x: 20, y: 48 });
  assert.equal(mapMargin(200, 60), { x: 12, y: 12 });
  const p = placeMarkers(input(alarm, STATION_AT, width, height));
  assertInside(p, width, height);
  assert.ok(Math.hypot(p.station!.x - p.alarm.x, p.station!.y - p.alarm.y) > 40, 'markers apart');
  // A map smaller than the markers themselves still gets an answer with the alarm on it.
  const tiny = placeMarkers(input(alarm, STATION_AT, 90, 40));
  assert.ok(tiny.zoom >= 3 && tiny.zoom <= 16);
  assert.ok(tiny.alarm.x >= 0 && tiny.alarm.x <= 90 && tiny.alarm.y >= 0 && tiny.alarm.y <= 40);
});

test('split screen rows: headers in one row share the tallest height, other rows keep theirs', () => {
  assert.equal(
    rowHeights([
      { top: 6, height: 185 },
      { top: 6, height: 200 },
      { top: 6.5, height: 247 },
    ]),
    [247, 247, 247],
  );
  assert.equal(
    rowHeights([
      { top: 6, height: 150 },
      { top: 6, height: 180 },
      { top: 548, height: 120 },
      { top: 548, height: 90 },
    ]),
    [180, 180, 120, 120],
  );
  // Stacked (portrait): each panel is its own row.
  assert.equal(
    rowHeights([
      { top: 6, height: 230 },
      { top: 640, height: 220 },
      { top: 1275, height: 200 },
    ]),
    [230, 220, 200],
  );
  assert.equal(rowHeights([]), []);
});

test.run();
