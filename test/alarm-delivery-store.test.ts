// Where an alarm's deliveries are stored (server/areas/alarms/delivery-store.ts): items in parts of 100
// that never change; a write stores only the parts whose items changed and points the head at them, so a
// claim of a few items of 1,500 rewrites a part, not all of them; another process (a store that kept
// nothing) reads what was written, dates as dates; a head stored before parts existed, and a part stored
// before parts held JSON, are read, and a write stores what it changes in the current shape.
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { alarmModels, type DeliveryItem } from '../server/areas/alarms/models.js';
import { DeliveryStore, PART_ITEMS } from '../server/areas/alarms/delivery-store.js';
import { testDbUri } from './helpers/service.js';
import { suite } from './helpers/suite.js';

const s = suite<{ db: Database }>('alarm delivery store', {} as { db: Database });
s.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
});
s.after(async (ctx) => {
  await ctx.db.close();
});

let next = 950_000;
const items = (alarmId: number, count: number, from = 0): DeliveryItem[] =>
  Array.from({ length: count }, (_, k) => ({
    id: `${alarmId}-${from + k}`,
    channel: 'sms',
    recipientUserId: from + k + 1,
    target: `0049176${1_000_000 + from + k}`,
    status: 'queued',
    attempts: 0,
    lastError: null,
    nextAt: new Date(1_800_000_000_000),
    claim: null,
  }));
// Two processes: each a store of its own over the same collections, keeping what it read or wrote.
const stores = (db: Database) => {
  const { Deliveries, DeliveryParts } = alarmModels(db);
  return [new DeliveryStore(Deliveries, DeliveryParts), new DeliveryStore(Deliveries, DeliveryParts)];
};
const head = async (db: Database, alarmId: number) =>
  (await alarmModels(db).Deliveries.findById(String(alarmId)).lean())!;
const partsStored = async (db: Database, alarmId: number) =>
  (await alarmModels(db).DeliveryParts.find({}, { _id: 1 }).lean())
    .map((part) => part._id)
    .filter((id) => id.startsWith(`${alarmId}:`))
    .sort();

s('250 deliveries are stored in three parts; another process reads them all, in order', async ({ db }) => {
  const alarmId = ++next;
  const [one, two] = stores(db);
  await one.create(alarmId, { organizationId: 1 }, items(alarmId, 250));
  const stored = await head(db, alarmId);
  assert.equal(
    stored.parts!.map((part) => part.n),
    [PART_ITEMS, PART_ITEMS, 50],
  );
  assert.is(stored.items, undefined, 'no items in the head');
  assert.equal(await partsStored(db, alarmId), stored.parts!.map((part) => part.id).sort());
  const read = await two.read(alarmId);
  assert.equal(
    read!.items.map(({ id, target, nextAt }) => ({ id, target, nextAt })),
    items(alarmId, 250).map(({ id, target, nextAt }) => ({ id, target, nextAt })),
  );
  assert.is(read!.organizationId, 1);
});

s('a change of one item stores one part anew; the others stay, the replaced one goes', async ({ db }) => {
  const alarmId = ++next;
  const [one, two] = stores(db);
  await one.create(alarmId, { organizationId: 1 }, items(alarmId, 250));
  const before = (await head(db, alarmId)).parts!;
  const doc = (await one.read(alarmId))!;
  doc.items[120].status = 'sent';
  doc.items[120].attempts = 1;
  await one.write(doc);
  const after = (await head(db, alarmId)).parts!;
  assert.is(after[0].id, before[0].id);
  assert.is.not(after[1].id, before[1].id);
  assert.is(after[2].id, before[2].id);
  // The replaced part stays, retired, until the deliveries are final: a writer that stalled past its lock,
  // or a backup that took the head before the parts, may still name it.
  assert.equal((await head(db, alarmId)).retired, [before[1].id]);
  assert.equal(await partsStored(db, alarmId), [...after.map((part) => part.id), before[1].id].sort());
  const seen = (await two.read(alarmId))!.items;
  assert.equal([seen[120].status, seen[120].attempts, seen[119].status], ['sent', 1, 'queued']);

  // The other process changes another item on what it read: both changes stand.
  const other = (await two.read(alarmId))!;
  other.items[5].status = 'failed';
  await two.write(other);
  const both = (await one.read(alarmId))!.items;
  assert.equal([both[5].status, both[120].status], ['failed', 'sent']);

  // Written again unchanged: nothing is stored.
  const same = (await one.read(alarmId))!;
  const parts = (await head(db, alarmId)).parts!;
  await one.write(same);
  assert.equal((await head(db, alarmId)).parts, parts);

  // Final: the retired parts go; what the head names stays.
  await one.forgetRetired(same);
  assert.equal((await head(db, alarmId)).retired, []);
  assert.equal(await partsStored(db, alarmId), parts.map((part) => part.id).sort());
  assert.is((await two.read(alarmId))!.items.length, 250);
});

s(
  "a change found however it is made: a date set in place, a claim's time alone, a write after a write",
  async ({ db }) => {
    const alarmId = ++next;
    const [one, two] = stores(db);
    await one.create(alarmId, { organizationId: 1 }, items(alarmId, 250));
    const partOf = async (k: number) => (await head(db, alarmId)).parts![Math.floor(k / PART_ITEMS)].id;

    const doc = (await one.read(alarmId))!;
    let before = await partOf(10);
    doc.items[10].nextAt.setTime(1_900_000_000_000);
    await one.write(doc);
    assert.is.not(await partOf(10), before, 'a date changed in place');

    // The same doc again: what the last write stored is what this one compares with.
    before = await partOf(130);
    doc.items[130].claim = { by: 'a', until: new Date(1_800_000_000_000) };
    await one.write(doc);
    assert.is.not(await partOf(130), before, 'a claim set');
    before = await partOf(130);
    doc.items[130].claim.until = new Date(1_800_000_001_000);
    await one.write(doc);
    assert.is.not(await partOf(130), before, "only the claim's time");
    const unchanged = (await head(db, alarmId)).parts!;
    await one.write(doc);
    assert.equal((await head(db, alarmId)).parts, unchanged, 'nothing changed: nothing stored');

    // What one process read is its own: a change it makes without writing is no one else's.
    const mine = (await one.read(alarmId))!;
    mine.items[200].status = 'failed';
    const seen = (await one.read(alarmId))!.items;
    assert.equal(
      [seen[10].nextAt.getTime(), seen[130].claim?.until.getTime(), seen[200].status],
      [1_900_000_000_000, 1_800_000_001_000, 'queued'],
    );
    assert.equal((await two.read(alarmId))!.items[130].claim, { by: 'a', until: new Date(1_800_000_001_000) });
  },
);

s('a writer whose lock was broken while it stalled loses its change, never the deliveries', async ({ db }) => {
  const alarmId = ++next;
  const [one, two] = stores(db);
  await one.create(alarmId, { organizationId: 1 }, items(alarmId, 250));
  // Both read the same head: the stalled one (one) writes last, over the other's change.
  const [stalled, taking] = [(await one.read(alarmId))!, (await two.read(alarmId))!];
  taking.items[150].status = 'sent';
  await two.write(taking);
  stalled.items[10].status = 'failed';
  await one.write(stalled);
  // The head names the part the other replaced: still there, so every process reads the deliveries.
  const read = (await stores(db)[0].read(alarmId))!.items;
  assert.equal([read.length, read[10].status, read[150].status], [250, 'failed', 'queued']);
});

s('appended items go into new parts; the building mark is set and removed with them', async ({ db }) => {
  const alarmId = ++next;
  const [one, two] = stores(db);
  const until = new Date(Date.now() + 30_000);
  await one.create(alarmId, { organizationId: 1, buildingUntil: until }, items(alarmId, 30));
  const doc = (await two.read(alarmId))!;
  assert.is(doc.buildingUntil?.getTime(), until.getTime());
  doc.items.push(...items(alarmId, 150, 30));
  await two.write(doc, null);
  const stored = await head(db, alarmId);
  assert.equal(
    stored.parts!.map((part) => part.n),
    [30, PART_ITEMS, 50],
  );
  assert.is(stored.buildingUntil, undefined);
  const read = (await one.read(alarmId))!;
  assert.equal(
    read.items.map((item) => item.id),
    items(alarmId, 180).map((item) => item.id),
  );
});

s('the first store wins: a second is refused and leaves no parts behind', async ({ db }) => {
  const alarmId = ++next;
  const [one, two] = stores(db);
  await one.create(alarmId, { organizationId: 1 }, items(alarmId, 120));
  const parts = await partsStored(db, alarmId);
  try {
    await two.create(alarmId, { organizationId: 1 }, items(alarmId, 120));
    assert.unreachable('stored twice');
  } catch (err) {
    assert.is((err as { code?: number }).code, 11000);
  }
  assert.equal(await partsStored(db, alarmId), parts);
});

s('deliveries stored in their head before parts existed are read, and moved into parts by a write', async ({ db }) => {
  const alarmId = ++next;
  const [one] = stores(db);
  await alarmModels(db).Deliveries.create({ _id: String(alarmId), organizationId: 1, items: items(alarmId, 130) });
  const doc = (await one.read(alarmId))!;
  assert.is(doc.items.length, 130);
  doc.items[0].status = 'sent';
  await one.write(doc);
  const stored = await head(db, alarmId);
  assert.is(stored.items, undefined, 'the items left the head');
  assert.equal(
    stored.parts!.map((part) => part.n),
    [PART_ITEMS, 30],
  );
  const read = (await stores(db)[1].read(alarmId))!;
  assert.equal([read.items.length, read.items[0].status, read.items[129].id], [130, 'sent', `${alarmId}-129`]);
});

s(
  'another process reads claims, due times and skips as written; a part of nested items from before is read',
  async ({ db }) => {
    const alarmId = ++next;
    const [one, two] = stores(db);
    const written = items(alarmId, 120);
    written[3] = { ...written[3], status: 'sending', claim: { by: 'p1', until: new Date(1_800_000_060_000) } };
    written[4] = { ...written[4], status: 'waiting', dueAt: new Date(1_800_000_120_000) };
    written[5] = { ...written[5], status: 'skipped', reason: 'answered', dueAt: undefined };
    await one.create(alarmId, { organizationId: 1 }, written);
    const read = (await two.read(alarmId))!;
    assert.equal(
      read.items,
      JSON.parse(JSON.stringify(written), (key, value) =>
        ['nextAt', 'dueAt', 'until'].includes(key) ? new Date(value) : value,
      ),
    );
    assert.ok(read.items[3].claim!.until instanceof Date && read.items[4].dueAt instanceof Date, 'dates as dates');
    assert.ok(!('dueAt' in read.items[5]), 'a field left undefined stays absent');
    // A part as parts were stored before they held JSON: its items nested.
    const legacy = ++next;
    await alarmModels(db).DeliveryParts.create({ _id: `${legacy}:old`, items: items(legacy, 40) });
    await alarmModels(db).Deliveries.create({
      _id: String(legacy),
      organizationId: 1,
      parts: [{ id: `${legacy}:old`, n: 40 }],
    });
    const old = (await two.read(legacy))!;
    assert.equal(old.items, items(legacy, 40));
    old.items[39].status = 'sent';
    await two.write(old);
    const again = (await stores(db)[0].read(legacy))!;
    assert.equal(
      [again.items.length, again.items[39].status, again.items[0].nextAt instanceof Date],
      [40, 'sent', true],
    );
    const part = await alarmModels(db)
      .DeliveryParts.findById((await head(db, legacy)).parts![0].id)
      .lean();
    assert.type(part!.json, 'string', 'written as JSON');
  },
);

s.run();
