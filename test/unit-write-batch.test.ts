// Writes made in the same moment go as one command, and one command of a batch is under way at a time:
// what comes meanwhile goes in the next, together (server/db/write-batch.ts).
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { WriteBatch } from '../server/db/write-batch.js';

/** A store whose writes end when the test says so. */
function store() {
  const writes: Array<{ items: number[]; end: (answers?: unknown[] | Error) => void }> = [];
  const write = (items: number[]) =>
    new Promise<void | unknown[]>((resolve, reject) =>
      writes.push({ items, end: (answers) => (answers instanceof Error ? reject(answers) : resolve(answers)) }),
    );
  return { writes, write };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** How a call ended: 'written', or its error's message. */
const outcome = (call: Promise<void>) =>
  call.then(
    () => 'written',
    (err: { message?: string }) => err.message ?? String(err),
  );

test('items added in the same turn are written by one command', async () => {
  const { writes, write } = store();
  const batch = new WriteBatch(write);
  const calls = [1, 2, 3].map((n) => outcome(batch.add(n)));
  await tick();
  assert.equal(
    writes.map((w) => w.items),
    [[1, 2, 3]],
  );
  writes[0].end();
  assert.equal(await Promise.all(calls), ['written', 'written', 'written']);
});

test('what is added while a write is under way waits for it, then goes in one command', async () => {
  const { writes, write } = store();
  const batch = new WriteBatch(write);
  const first = outcome(batch.add(1));
  await tick();
  const later = [2, 3].map((n) => outcome(batch.add(n)));
  await tick();
  const last = outcome(batch.add(4));
  await tick();
  assert.equal(writes.length, 1, 'no second command while the first is under way');
  writes[0].end();
  assert.is(await first, 'written');
  await tick();
  await tick();
  assert.equal(
    writes.map((w) => w.items),
    [[1], [2, 3, 4]],
  );
  writes[1].end();
  assert.equal(await Promise.all([...later, last]), ['written', 'written', 'written']);
});

test('a failed write fails its own items, and the next batch is written after it', async () => {
  const { writes, write } = store();
  const batch = new WriteBatch(write);
  const first = outcome(batch.add(1));
  await tick();
  const second = outcome(batch.add(2));
  writes[0].end(new Error('the database went away'));
  assert.is(await first, 'the database went away');
  await tick();
  await tick();
  assert.equal(writes[1]?.items, [2]);
  writes[1].end();
  assert.is(await second, 'written');
});

test('a write may answer each item: only the item it names fails', async () => {
  const { writes, write } = store();
  const batch = new WriteBatch(write);
  const calls = [1, 2, 3].map((n) => outcome(batch.add(n)));
  await tick();
  writes[0].end([null, { code: 11000, message: 'duplicate key' }, null]);
  assert.equal(await Promise.all(calls), ['written', 'duplicate key', 'written']);
});

test('a write that throws before it returns a promise fails its items and does not stop the batch', async () => {
  let calls = 0;
  const batch = new WriteBatch<number>((items) => {
    calls++;
    if (items.includes(1)) throw new Error('no such collection');
    return Promise.resolve();
  });
  assert.is(await outcome(batch.add(1)), 'no such collection');
  assert.is(await outcome(batch.add(2)), 'written');
  assert.is(calls, 2);
});

test('at most `max` items per command: the rest follow in the next', async () => {
  const { writes, write } = store();
  const batch = new WriteBatch(write, 2);
  const calls = [1, 2, 3, 4, 5].map((n) => outcome(batch.add(n)));
  await tick();
  writes[0].end();
  await tick();
  await tick();
  writes[1].end();
  await tick();
  await tick();
  writes[2].end();
  assert.equal(
    writes.map((w) => w.items),
    [[1, 2], [3, 4], [5]],
  );
  assert.equal(await Promise.all(calls), ['written', 'written', 'written', 'written', 'written']);
});

test.run();
