// Where records are, found by exact lookups (docs/storage.md "Records near a point"): every value of a
// coordinates field puts "<recordID>@<lat>,<lon>" into the grid cell it lies in, one document per
// entity, field and cell, "<entityID>:<fieldID>:<latCell>:<lonCell>" (cells of 0.01° on each side:
// 1.1 km north to south, 0.7 km east to west at 50°). Records near a point are found in the few cells a
// circle around it touches, and the index's positions say which are nearest before any record is read:
// however many records an organization holds, a search reads a handful of documents, each by _id.
//
// The index only points: a reader checks every record it names against the record as stored, so an
// entry too many costs a read and never shows. Entries are added before their records are written
// (a record is never stored without its entry); a delete takes its record out afterwards, a move takes
// the old place out and adds the record's place as read again (see `changed`). Every cell changes
// under a claim lock: FerretDB's $addToSet and $pull are read-modify-write without one. Records stored
// before the index existed are added by one scan per entity and field, on its first search.
import type { Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import type { IdIndexDoc } from '../../db/id-index.js';
import { coordinatesOf } from './fields.js';
import type { EntityDoc, FieldDoc } from './models.js';
import { valuesOf, type ValueMap } from './presenter.js';
import type { RecordChange } from './rule-engine.js';
import type { RecordStore } from './store.js';

/** A cell's edge in degrees of latitude and of longitude. */
const CELL_DEGREES = 0.01;
const EARTH_RADIUS_M = 6_371_008.8;
/** Metres per degree of latitude (and of longitude at the equator), as distanceMeters measures them. */
const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;
/** The search box is this much larger than the circle: rounding never loses a point on its edge. */
const BOX_MARGIN = 1.01;
/** Below this cosine (beyond about 87°) the box stops widening: at most a few hundred cells. */
const MIN_COS = 0.05;
/** The widest circle a search may ask for: a few dozen cells at most, even far north. */
export const MAX_SEARCH_RADIUS_M = 2_000;

const LON_CELLS = Math.round(360 / CELL_DEGREES);
const LON_MIN = Math.floor(-180 / CELL_DEGREES);
/** A longitude cell number within -180…180 (180 is -180). */
const wrapLon = (cell: number) => ((((cell - LON_MIN) % LON_CELLS) + LON_CELLS) % LON_CELLS) + LON_MIN;

/** The cell a point lies in. */
export function cellOf(latitude: number, longitude: number): string {
  return `${Math.floor(latitude / CELL_DEGREES)}:${wrapLon(Math.floor(longitude / CELL_DEGREES))}`;
}

/** The cells a circle of `radiusMeters` around the point touches (its bounding box's cells). */
export function cellsAround(latitude: number, longitude: number, radiusMeters: number): string[] {
  const radius = Math.min(radiusMeters, MAX_SEARCH_RADIUS_M) * BOX_MARGIN;
  const dLat = radius / METRES_PER_DEGREE;
  // Near the poles a degree of longitude shrinks to nothing: beyond about 87° the box stops widening.
  const dLon = Math.min(180, radius / (METRES_PER_DEGREE * Math.max(MIN_COS, Math.cos((latitude * Math.PI) / 180))));
  const cells: string[] = [];
  const latFrom = Math.floor(Math.max(-90, latitude - dLat) / CELL_DEGREES);
  const latTo = Math.floor(Math.min(90, latitude + dLat) / CELL_DEGREES);
  const lonFrom = Math.floor((longitude - dLon) / CELL_DEGREES);
  const lonTo = Math.floor((longitude + dLon) / CELL_DEGREES);
  for (let la = latFrom; la <= latTo; la++) {
    // Across the antimeridian the cells go on at the other side.
    for (let lo = lonFrom; lo <= lonTo; lo++) cells.push(`${la}:${wrapLon(lo)}`);
  }
  return [...new Set(cells)];
}

/** The great-circle distance between two points in metres (haversine). */
export function distanceMeters(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
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
function entriesOf(
  entity: EntityDoc,
  recordId: string,
  values: ValueMap,
): Map<string, { cell: string; entry: string }> {
  const entries = new Map<string, { cell: string; entry: string }>();
  for (const field of entity.fields) {
    if (field.type !== 'coordinates') continue;
    const at = coordinatesOf(values[field.id]?.v);
    if (at) entries.set(field.id, { cell: cellOf(at[0], at[1]), entry: entryOf(recordId, at) });
  }
  return entries;
}

function entryOf(recordId: string, at: [number, number]): string {
  return `${recordId}@${at[0]},${at[1]}`;
}

function candidateOf(entry: string): Candidate | null {
  const at = entry.lastIndexOf('@');
  const [latitude, longitude] = entry
    .slice(at + 1)
    .split(',')
    .map(Number);
  return at > 0 && Number.isFinite(latitude) && Number.isFinite(longitude)
    ? { id: entry.slice(0, at), latitude, longitude }
    : null;
}

/** A record and the values it is about to be stored with (only the fields being written). */
export interface Placement {
  recordId: string;
  values: ValueMap;
}

/** Cells changed at a time by one command (each under its own lock). */
const PARALLEL_CELLS = 8;

/** The grid index of one installation's records' positions. */
export class PositionIndex {
  // Scans of records from before the index, one per entity and field at a time on this process.
  private readonly scans = new Map<string, Promise<void>>();

  constructor(
    private readonly model: Model<IdIndexDoc>,
    private readonly locks: Model<LockDoc>,
    private readonly store: RecordStore,
  ) {}

  /**
   * Before records are written: adds the positions they will have, so a stored record is never missing
   * from its cell (a write that then fails leaves an entry the reader passes over). A failure here
   * fails the command before anything was written.
   */
  async adding(entity: EntityDoc, placements: Placement[]): Promise<void> {
    const add = new Map<string, string[]>();
    for (const { recordId, values } of placements) {
      for (const [fieldId, { cell, entry }] of entriesOf(entity, recordId, values))
        put(add, this.keyOf(entity._id, fieldId, cell), entry);
    }
    await this.edit(add, (entries, given) => [...entries, ...given]);
  }

  /**
   * After the writes: a deleted record leaves its cells; a moved one leaves its old place, and then the
   * place it has now (read again) is added back, so that of two moves racing the later one always
   * ends with its record's current place in the index. Returns the cells touched before and after: a
   * screen shown one of them looks again.
   */
  async changed(entity: EntityDoc, changes: RecordChange[]): Promise<string[]> {
    const remove = new Map<string, string[]>();
    const moved: string[] = [];
    const touched = new Set<string>();
    for (const change of changes) {
      const now = entriesOf(entity, change.recordId, change.values);
      for (const { cell } of now.values()) touched.add(cell);
      if (change.trigger === 'record_deleted') {
        for (const [fieldId, { cell, entry }] of now) put(remove, this.keyOf(entity._id, fieldId, cell), entry);
        continue;
      }
      for (const [fieldId, { cell, entry }] of entriesOf(entity, change.recordId, change.previous ?? {})) {
        touched.add(cell);
        if (now.get(fieldId)?.entry === entry) continue;
        put(remove, this.keyOf(entity._id, fieldId, cell), entry);
        moved.push(change.recordId);
      }
    }
    await this.edit(remove, (entries, gone) => entries.filter((e) => !gone.includes(e)));
    if (moved.length > 0) {
      const current = await Promise.all(
        [...new Set(moved)].map(async (recordId) => ({ recordId, values: await this.stored(recordId, entity._id) })),
      );
      await this.adding(entity, current);
    }
    return [...touched];
  }

  /**
   * The records the index places within `radiusMeters` of the point, nearest first (one record may be
   * named at several positions it had: the caller checks each against the record as stored).
   */
  async near(
    entity: EntityDoc,
    field: FieldDoc,
    latitude: number,
    longitude: number,
    radiusMeters: number,
  ): Promise<{ cells: string[]; candidates: Candidate[] }> {
    await this.built(entity, field);
    const cells = cellsAround(latitude, longitude, radiusMeters);
    const docs = await Promise.all(
      cells.map((cell) => this.model.findById(this.keyOf(entity._id, field.id, cell)).lean()),
    );
    const point = { latitude, longitude };
    const candidates = docs
      .flatMap((d) => d?.ids ?? [])
      .map(candidateOf)
      .filter((c): c is Candidate => c !== null)
      .map((c) => ({ c, d: distanceMeters(point, c) }))
      .filter(({ d }) => d <= radiusMeters)
      .sort((x, y) => x.d - y.d || x.c.id.localeCompare(y.c.id))
      .map(({ c }) => c);
    return { cells, candidates };
  }

  // The values a record has now ({} when it is gone or of another entity).
  private async stored(recordId: string, entityId: string): Promise<ValueMap> {
    const found = await this.store.find(recordId);
    return found && found.record.entityID === entityId ? valuesOf(found.record) : {};
  }

  // Read-modify-write of cells, each under a claim lock (FerretDB's $addToSet and $pull are not atomic),
  // a few cells at a time.
  private async edit(
    changes: Map<string, string[]>,
    change: (entries: string[], given: string[]) => string[],
  ): Promise<void> {
    const keys = [...changes.keys()];
    for (let i = 0; i < keys.length; i += PARALLEL_CELLS) {
      await Promise.all(
        keys.slice(i, i + PARALLEL_CELLS).map((_id) =>
          withClaimLock(this.locks, `position:${_id}`, async () => {
            const doc = await this.model.findById(_id).lean();
            const before = doc?.ids ?? [];
            const after = [...new Set(change(before, changes.get(_id)!))];
            if (after.length === before.length && after.every((e, k) => e === before[k])) return;
            if (after.length === 0) await this.model.deleteOne({ _id });
            else await this.model.replaceOne({ _id }, { ids: after }, { upsert: true });
          }),
        ),
      );
    }
  }

  private keyOf(entityId: string, fieldId: string, cell: string): string {
    return `${entityId}:${fieldId}:${cell}`;
  }

  private builtKey(entityId: string, fieldId: string): string {
    return `built:${entityId}:${fieldId}`;
  }

  // Adds the entity's records of before the index, once (a marker document says it was done).
  // The marker names the entity's version (its updatedAt) it was built for: after a T4 (a field retyped
  // to coordinates and back, say, while records were written without entries) the entity is scanned again.
  private async built(entity: EntityDoc, field: FieldDoc): Promise<void> {
    const marker = this.builtKey(entity._id, field.id);
    const version = new Date(entity.updatedAt).toISOString();
    if ((await this.model.findById(marker).lean())?.ids[0] === version) return;
    let scan = this.scans.get(`${marker}@${version}`);
    if (!scan) {
      scan = this.scan(entity, field.id, marker, version).finally(() => this.scans.delete(`${marker}@${version}`));
      this.scans.set(`${marker}@${version}`, scan);
    }
    await scan;
  }

  private async scan(entity: EntityDoc, fieldId: string, marker: string, version: string): Promise<void> {
    const records = await (
      await this.store.of(entity.organizationID)
    )
      .find({ entityID: entity._id }, { values: 1 })
      .lean();
    const byCell = new Map<string, string[]>();
    for (const record of records) {
      const at = coordinatesOf(valuesOf(record)[fieldId]?.v);
      if (at) put(byCell, this.keyOf(entity._id, fieldId, cellOf(at[0], at[1])), entryOf(record._id, at));
    }
    await this.edit(byCell, (entries, given) => [...entries, ...given]);
    await this.model.replaceOne({ _id: marker }, { ids: [version] }, { upsert: true });
  }
}

function put(into: Map<string, string[]>, key: string, entry: string): void {
  into.set(key, [...(into.get(key) ?? []), entry]);
}
