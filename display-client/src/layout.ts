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
