// Where records are, found by exact lookups (docs/storage.md "Records near a point"): every value of a
// coordinates field puts "<recordID>@<lat>,<lon>" into the grid cell it lies in, one document per
// entity, field and cell, "<entityID>:<fieldID>:<latCell>:<lonCell>" (cells of 0.01° on each side:
// 1.1 km north to south, 0.7 km east to west at 50°). Records near a point are found in the few cells a
// circle around it touches, and the index's positions say which are nearest before any record is read:
// however many records an organization holds, a search reads a handful of documents, each by _id.
//
// The index only points: a reader checks every record it names (it may be deleted, moved, or of
// another entity) against the record as stored. So an update adds the record to its new cell and
// never removes it from the old one — a removal could race with a move back and lose the record,
// while an extra entry costs only a read. A delete removes it (a deleted record never comes back).
// Records stored before the index existed are added by one scan per entity and field, on its first
// search; a failed index write forgets that scan, so the next search makes it again.
import type { Model } from 'mongoose';
import type { IdIndexDoc } from '../../db/id-index.js';
import { coordinatesOf } from './fields.js';
import type { EntityDoc, FieldDoc } from './models.js';
import { valuesOf, type ValueMap } from './presenter.js';
import type { RecordChange } from './rule-engine.js';
import type { RecordStore } from './store.js';

/** A cell's edge in degrees of latitude and of longitude. */
const CELL_DEGREES = 0.01;
/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;
const EARTH_RADIUS_M = 6_371_008.8;
/** The widest circle a search may ask for: a few dozen cells at most, even far north. */
export const MAX_SEARCH_RADIUS_M = 2_000;

/** The cell a point lies in. */
export function cellOf(latitude: number, longitude: number): string {
  return `${Math.floor(latitude / CELL_DEGREES)}:${Math.floor(longitude / CELL_DEGREES)}`;
}

/** The cells a circle of `radiusMeters` around the point touches (its bounding box's cells). */
export function cellsAround(latitude: number, longitude: number, radiusMeters: number): string[] {
  const radius = Math.min(radiusMeters, MAX_SEARCH_RADIUS_M);
  const dLat = radius / METRES_PER_DEGREE;
  // Near the poles a degree of longitude shrinks to nothing: the box is capped at a half circle.
  const dLon = Math.min(180, radius / (METRES_PER_DEGREE * Math.max(0.01, Math.cos((latitude * Math.PI) / 180))));
  const cells: string[] = [];
  const latFrom = Math.floor(Math.max(-90, latitude - dLat) / CELL_DEGREES);
  const latTo = Math.floor(Math.min(90, latitude + dLat) / CELL_DEGREES);
  const lonFrom = Math.floor((longitude - dLon) / CELL_DEGREES);
  const lonTo = Math.floor((longitude + dLon) / CELL_DEGREES);
  const lonCells = Math.round(360 / CELL_DEGREES);
  const lonMin = Math.floor(-180 / CELL_DEGREES);
  for (let la = latFrom; la <= latTo; la++) {
    for (let lo = lonFrom; lo <= lonTo; lo++) {
      // Across the antimeridian the cells go on at the other side.
      const wrapped = ((((lo - lonMin) % lonCells) + lonCells) % lonCells) + lonMin;
      cells.push(`${la}:${wrapped}`);
    }
  }
  return [...new Set(cells)];
}

/** The great-circle distance between two points in metres (haversine). */
export function distanceMeters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A record the index names near a point, at the position the index holds for it. */
export interface Candidate {
  id: string;
  latitude: number;
  longitude: number;
}

/** Where each coordinates field of the values puts its record: the cell and the index entry, by field ID. */
function entriesOf(entity: EntityDoc, recordId: string, values: ValueMap): Map<string, { cell: string; entry: string }> {
  const entries = new Map<string, { cell: string; entry: string }>();
  for (const field of entity.fields) {
    if (field.type !== 'coordinates') continue;
    const at = coordinatesOf(values[field.id]?.v);
    if (at) entries.set(field.id, { cell: cellOf(at[0], at[1]), entry: `${recordId}@${at[0]},${at[1]}` });
  }
  return entries;
}

function candidateOf(entry: string): Candidate | null {
  const at = entry.lastIndexOf('@');
  const [latitude, longitude] = entry.slice(at + 1).split(',').map(Number);
  return at > 0 && Number.isFinite(latitude) && Number.isFinite(longitude) ? { id: entry.slice(0, at), latitude, longitude } : null;
}

/** The grid index of one installation's records' positions. */
export class PositionIndex {
  // Scans of records from before the index, one per entity and field at a time on this process.
  private readonly scans = new Map<string, Promise<void>>();

  constructor(private readonly model: Model<IdIndexDoc>, private readonly store: RecordStore) {}

  /**
   * Puts changed records into their cells (a delete takes them out) after their write. Returns the
   * cells the changes touched, before and after, by field: a screen showing one of them looks again.
   */
  async changed(entity: EntityDoc, changes: RecordChange[]): Promise<string[]> {
    const add = new Map<string, string[]>();
    const remove = new Map<string, string[]>();
    const touched = new Set<string>();
    const put = (into: Map<string, string[]>, key: string, id: string) => into.set(key, [...(into.get(key) ?? []), id]);
    for (const change of changes) {
      for (const [fieldId, { cell, entry }] of entriesOf(entity, change.recordId, change.values)) {
        put(change.trigger === 'record_deleted' ? remove : add, this.keyOf(entity._id, fieldId, cell), entry);
        touched.add(cell);
      }
      for (const { cell } of entriesOf(entity, change.recordId, change.previous ?? {}).values()) touched.add(cell);
    }
    if (add.size + remove.size === 0) return [];
    try {
      await this.model.bulkWrite([
        ...[...add].map(([_id, ids]) => ({ updateOne: { filter: { _id }, update: { $addToSet: { ids: { $each: ids } } }, upsert: true } })),
        ...[...remove].map(([_id, ids]) => ({ updateOne: { filter: { _id }, update: { $pull: { ids: { $in: ids } } } } })),
      ], { ordered: false });
    } catch (err) {
      // Some cells may miss a record: the entity's fields are scanned again on their next search.
      await this.model.deleteMany({ _id: { $in: entity.fields.filter((f) => f.type === 'coordinates').map((f) => this.builtKey(entity._id, f.id)) } }).catch(() => undefined);
      throw err;
    }
    return [...touched];
  }

  /**
   * The records the index places within `radiusMeters` of the point, nearest first (one record may be
   * named at several positions it had: the caller checks each against the record as stored).
   */
  async near(entity: EntityDoc, field: FieldDoc, latitude: number, longitude: number, radiusMeters: number): Promise<{ cells: string[]; candidates: Candidate[] }> {
    await this.built(entity, field);
    const cells = cellsAround(latitude, longitude, radiusMeters);
    const docs = await Promise.all(cells.map((cell) => this.model.findById(this.keyOf(entity._id, field.id, cell)).lean()));
    const point = { latitude, longitude };
    const candidates = docs.flatMap((d) => d?.ids ?? []).map(candidateOf)
      .filter((c): c is Candidate => c !== null)
      .map((c) => ({ c, d: distanceMeters(point, c) }))
      .filter(({ d }) => d <= radiusMeters)
      .sort((x, y) => x.d - y.d || x.c.id.localeCompare(y.c.id))
      .map(({ c }) => c);
    return { cells, candidates };
  }

  private keyOf(entityId: string, fieldId: string, cell: string): string {
    return `${entityId}:${fieldId}:${cell}`;
  }

  private builtKey(entityId: string, fieldId: string): string {
    return `built:${entityId}:${fieldId}`;
  }

  // Adds the entity's records of before the index, once (a marker document says it was done).
  private async built(entity: EntityDoc, field: FieldDoc): Promise<void> {
    const marker = this.builtKey(entity._id, field.id);
    if (await this.model.exists({ _id: marker })) return;
    let scan = this.scans.get(marker);
    if (!scan) {
      scan = this.scan(entity, field.id, marker).finally(() => this.scans.delete(marker));
      this.scans.set(marker, scan);
    }
    await scan;
  }

  private async scan(entity: EntityDoc, fieldId: string, marker: string): Promise<void> {
    const records = await (await this.store.of(entity.organizationID)).find({ entityID: entity._id }, { values: 1 }).lean();
    const byCell = new Map<string, string[]>();
    for (const record of records) {
      const at = coordinatesOf(valuesOf(record)[fieldId]?.v);
      if (!at) continue;
      const key = this.keyOf(entity._id, fieldId, cellOf(at[0], at[1]));
      byCell.set(key, [...(byCell.get(key) ?? []), `${record._id}@${at[0]},${at[1]}`]);
    }
    const ops = [...byCell].map(([_id, ids]) => ({ updateOne: { filter: { _id }, update: { $addToSet: { ids: { $each: ids } } }, upsert: true } }));
    for (let i = 0; i < ops.length; i += 100) await this.model.bulkWrite(ops.slice(i, i + 100), { ordered: false });
    await this.model.updateOne({ _id: marker }, { $set: { ids: [] } }, { upsert: true });
  }
}
