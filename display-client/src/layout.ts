// Layout decisions that need no DOM, so they are unit-tested in Node.

/** A box on screen: where its top edge is and how tall it is by itself. */
export interface RowItem {
  top: number;
  height: number;
}

/**
 * The height each item gets so that items in one row (tops within `tolerance` pixels) share the
 * tallest height of that row: the split screen's headers, so that the maps below them line up.
 */
export function rowHeights(items: RowItem[], tolerance = 2): number[] {
  const rows: Array<{ top: number; height: number }> = [];
  const rowOf = items.map((item) => {
    let row = rows.findIndex((r) => Math.abs(r.top - item.top) <= tolerance);
    if (row < 0) row = rows.push({ top: item.top, height: 0 }) - 1;
    rows[row].height = Math.max(rows[row].height, item.height);
    return row;
  });
  return rowOf.map((row) => rows[row].height);
}

/** The shape a split-screen cell should have (width / height): room for a map beside the facts. */
export const CELL_ASPECT = 1.6;

/** `n` panels in `rows` rows whose sizes differ by at most one, the fuller rows first. */
export function balancedRows(n: number, rows: number): number[] {
  const r = Math.max(1, Math.min(n, rows));
  return Array.from({ length: r }, (_, i) => Math.floor(n / r) + (i < n % r ? 1 : 0));
}

/**
 * How many panels each row of the split screen holds: balanced rows, never an empty cell. With
 * `columns` (the monitor's configuration) rows hold that many; otherwise the number of rows is the one
 * whose least fitting cell comes closest to CELL_ASPECT on a `width`×`height` screen (2 side by side,
 * 3 as 2 + 1, 4 as 2 × 2 in landscape; stacked in portrait).
 */
export function splitRows(n: number, width: number, height: number, columns?: number): number[] {
  if (n <= 0) return [];
  if (columns) return balancedRows(n, Math.ceil(n / Math.max(1, columns)));
  let best: number[] = [n];
  let bestBadness = Infinity;
  for (let rows = 1; rows <= n; rows++) {
    const sizes = balancedRows(n, rows);
    const badness = Math.max(
      ...sizes.map((count) => Math.abs(Math.log(width / count / (height / rows) / CELL_ASPECT))),
    );
    if (badness < bestBadness - 1e-9) {
      best = sizes;
      bestBadness = badness;
    }
  }
  return best;
}
