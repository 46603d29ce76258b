// Where an alarm's deliveries are stored (docs/alarms.md "Storage"): a small head document in
// alarm_deliveries names the parts that hold the items, at most PART_ITEMS each, in alarm_delivery_parts.
// A part is never changed: a write stores the parts whose items changed as new documents, then points the
// head at them (the one write that makes the change). The parts it replaced stay, listed in the head as
// retired, until the alarm's deliveries are final (forgetRetired): a writer whose lock was broken while
// it stalled, or an online backup that took the head before the parts, may still name them. A part's
// ID names its content for good, and every process keeps the parts it read or wrote: a claim or a
// checkpoint of 1,500 deliveries reads the head and rewrites the few parts it changed, where one document
// of 1,500 items cost the embedded engine 145 ms to read and 190 ms to rewrite, dozens of times per alarm
// (BENCHMARKS.md "Dispatch to phone, third round"). Writes are the callers' under the alarm's claim lock,
// as before. A head stored before parts existed holds its items itself; its first write moves them out.
// A part holds its items as one JSON string (the embedded engine inserts and reads it for a third of the
// work of nested items: docs/storage.md "Rules for a model"); parts stored before hold them as `items`.
import { randomBytes } from 'node:crypto';
import type { Model } from 'mongoose';
import { ByteCache } from '../../db/byte-cache.js';
import { CacheGeneration } from '../../db/generation.js';
import { isDuplicateKey } from '../../db/errors.js';
import type { AlarmModels, DeliveriesDoc, DeliveryItem, DeliveryPartDoc, DeliveryPartRef } from './models.js';

/** Items per part: a claim of 250 items rewrites three or four parts. */
export const PART_ITEMS = 100;
/** Bytes of parts (as JSON) a process keeps: the items of about fifty 1,500-member alarms. */
const KEPT_BYTES = 16 * 1024 * 1024;
/** Reads of the head again when a part it named went meanwhile. */
const REREADS = 5;

/** Deliveries as read: a write stores what changed since. */
export interface StoredDeliveries extends DeliveriesDoc {
  /**
   * The parts as read (null: the items are in the head, stored before parts existed), and each one's items
   * as kept (never the caller's: a write finds what changed by comparing the items with them).
   */
  readonly [READ]: { parts: DeliveryPartRef[] | null; kept: DeliveryItem[][] };
}

const READ = Symbol('as read');

interface KeptPart {
  items: DeliveryItem[];
  json: string;
}

/** One database's deliveries, read and written whole by the outbox, the escalation and the alarm's views. */
export class DeliveryStore {
  // Parts never change, so what is kept holds whatever happens to the database (a restore included).
  private readonly kept = new ByteCache<KeptPart>(KEPT_BYTES, new CacheGeneration());

  constructor(
    private readonly heads: Model<DeliveriesDoc>,
    private readonly parts: Model<DeliveryPartDoc>,
  ) {}

  /** Stores a new alarm's deliveries; a duplicate key error when they are stored already (the first store wins). */
  async create(
    alarmId: number,
    doc: Omit<DeliveriesDoc, '_id' | 'items' | 'parts'>,
    items: DeliveryItem[],
  ): Promise<void> {
    const fresh = this.split(alarmId, items);
    await this.insert(fresh);
    try {
      await this.heads.create({ ...doc, _id: String(alarmId), parts: fresh.map(({ _id, items }) => ref(_id, items)) });
    } catch (err) {
      // Only a refusal is sure not to have stored the head: after a lost answer the parts may be named.
      if (isDuplicateKey(err)) await this.drop(fresh.map((part) => part._id));
      throw err;
    }
    for (const part of fresh) this.keep(part._id, part.items, part.json);
  }

  /** The alarm's deliveries as stored now, the items the caller's own to change; null when none are stored. */
  async read(alarmId: number): Promise<StoredDeliveries | null> {
    for (let attempt = 1; ; attempt++) {
      const head = await this.heads.findById(String(alarmId)).lean();
      if (!head) return null;
      const { parts, items: inline, ...rest } = head;
      if (!parts) {
        // Stored before parts existed: its items are its own.
        const items = inline ?? [];
        return { ...rest, items, [READ]: { parts: null, kept: [] } };
      }
      const read = await this.load(parts);
      if (read) {
        const items = read.flatMap((part) => part.items.map(copyItem));
        return { ...rest, items, [READ]: { parts, kept: read.map((part) => part.items) } };
      }
      // A part it named went between the two reads (the deliveries became final and their retired parts
      // were removed, or a restore replaced them): the head read again names what is there.
      if (attempt >= REREADS) throw new Error(`the deliveries of alarm ${alarmId} changed on every read`);
    }
  }

  /**
   * Under the alarm's lock: stores the changes made to the items of `doc` (read by read(); items may be
   * appended, never removed or reordered), and `buildingUntil` as given (null: removed; absent: unchanged).
   */
  async write(doc: StoredDeliveries, buildingUntil?: Date | null): Promise<void> {
    const { parts: before, kept: asRead } = doc[READ];
    const alarmId = Number(doc._id);
    const parts: DeliveryPartRef[] = [];
    // Each part's items as kept after this write: those read, or the new parts' own copies (below).
    const kept: Array<DeliveryItem[] | null> = [];
    const fresh: Array<{ _id: string; items: DeliveryItem[]; json: string; at: number }> = [];
    const add = (_id: string, items: DeliveryItem[], text: string) => {
      fresh.push({ _id, items, json: text, at: parts.length });
      parts.push(ref(_id, items));
      kept.push(null);
    };
    let offset = 0;
    for (const [i, part] of (before ?? []).entries()) {
      const items = doc.items.slice(offset, offset + part.n);
      offset += part.n;
      if (!items.every((item, k) => sameValue(item, asRead[i][k]))) add(partId(alarmId), items, JSON.stringify(items));
      else {
        parts.push(part);
        kept.push(asRead[i]);
      }
    }
    for (const part of this.split(alarmId, doc.items.slice(offset))) add(part._id, part.items, part.json);
    if (fresh.length === 0 && before !== null && buildingUntil === undefined) return;
    await this.insert(fresh);
    const unset: Record<string, 1> = before === null ? { items: 1 } : {};
    if (buildingUntil === null) unset.buildingUntil = 1;
    const retired = [
      ...(doc.retired ?? []),
      ...(before ?? []).filter((part) => !parts.includes(part)).map((part) => part.id),
    ];
    // Should this fail, its new parts are named by nothing (or, when the answer was lost, by the head).
    await this.heads.updateOne(
      { _id: doc._id },
      {
        $set: { parts, retired, ...(buildingUntil ? { buildingUntil } : {}) },
        ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
      },
    );
    for (const part of fresh) kept[part.at] = this.keep(part._id, part.items, part.json).items;
    // The next read and write start from what is stored now.
    (doc as { [READ]: StoredDeliveries[typeof READ] })[READ] = { parts, kept: kept as DeliveryItem[][] };
    doc.retired = retired;
  }

  /**
   * Under the alarm's lock, once its deliveries are final: removes the parts its writes replaced (no
   * write is under way that could still name them).
   */
  async forgetRetired(doc: StoredDeliveries): Promise<void> {
    const retired = doc.retired ?? [];
    if (retired.length === 0) return;
    await this.drop(retired);
    await this.heads.updateOne({ _id: doc._id }, { $set: { retired: [] } });
    doc.retired = [];
  }

  // The parts named, from this process's memory or read by exact _id; null when one is gone.
  private async load(parts: DeliveryPartRef[]): Promise<KeptPart[] | null> {
    const read = await Promise.all(
      parts.map(async ({ id }) => {
        const kept = this.kept.get(id);
        if (kept) return kept;
        const doc = await this.parts.findById(id).lean();
        if (!doc) return null;
        if (doc.json !== undefined) return this.keep(id, parseItems(doc.json), doc.json, false);
        const items = doc.items ?? [];
        return this.keep(id, items, JSON.stringify(items), false);
      }),
    );
    return read.every((part) => part !== null) ? (read as KeptPart[]) : null;
  }

  // Kept as its own copy when the caller's items are its to change (`copy`).
  private keep(id: string, items: DeliveryItem[], json: string, copy = true): KeptPart {
    const part = { items: copy ? items.map(copyItem) : items, json };
    this.kept.set(id, part, json.length);
    return part;
  }

  // New parts of the items, PART_ITEMS each.
  private split(alarmId: number, items: DeliveryItem[]): Array<{ _id: string; items: DeliveryItem[]; json: string }> {
    const parts = [];
    for (let i = 0; i < items.length; i += PART_ITEMS) {
      const slice = items.slice(i, i + PART_ITEMS);
      parts.push({ _id: partId(alarmId), items: slice, json: JSON.stringify(slice) });
    }
    return parts;
  }

  // New parts in one command, their items as JSON (not cast by mongoose, which cost about 70 µs of CPU
  // per item, 150 ms for an alarm of 500 members on three channels).
  private async insert(parts: Array<{ _id: string; json: string }>): Promise<void> {
    if (parts.length > 0)
      await this.parts.insertMany(
        parts.map(({ _id, json }) => ({ _id, json })),
        // Ordered: a part refused stops the write there, and the head is not pointed at what is missing.
        { ordered: true, lean: true },
      );
  }

  // Parts no head names (retired, or a refused create's).
  private async drop(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.parts.bulkWrite(
      ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  }
}

const stores = new WeakMap<Model<DeliveriesDoc>, DeliveryStore>();

/** The deliveries of the database these models are on (one store, and what it keeps, per database). */
export function deliveriesOf(models: Pick<AlarmModels, 'Deliveries' | 'DeliveryParts'>): DeliveryStore {
  let store = stores.get(models.Deliveries);
  if (!store) stores.set(models.Deliveries, (store = new DeliveryStore(models.Deliveries, models.DeliveryParts)));
  return store;
}

// The fields of an item that hold a date, written as text in a part's JSON.
const DATES = new Set(['nextAt', 'dueAt', 'until']);

/** A part's items from its JSON, dates as dates. */
function parseItems(json: string): DeliveryItem[] {
  return JSON.parse(json, (key, value: unknown) =>
    DATES.has(key) && typeof value === 'string' ? new Date(value) : value,
  ) as DeliveryItem[];
}

const partId = (alarmId: number) => `${alarmId}:${randomBytes(9).toString('base64url')}`;
const ref = (id: string, items: DeliveryItem[]): DeliveryPartRef => ({ id, n: items.length });

/** A copy of an item (plain values, dates and plain objects of them), as structuredClone makes one, at a fifth of its cost. */
function copyItem<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyItem) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = copyItem(field);
  return copy as T;
}

/** Whether two items (as copyItem copies them) hold the same: a part is stored again only when not. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
