// A console page's reads never put older state back (console/src/fresh.ts).
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { Reads } from '../console/src/fresh.js';

/** A read answered when the test says so, counting how often it began. */
function server<T>() {
  const waiting: Array<(value: T) => void> = [];
  return {
    waiting,
    read: () => new Promise<T>((resolve) => waiting.push(resolve)),
    /** Answers the oldest read still waiting. */
    answer(value: T) {
      const next = waiting.shift();
      assert.ok(next, 'a read is waiting');
      next(value);
    },
  };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Why `call` failed ('answered' when it did not). */
const why = (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (err: Error) => err.message,
  );

test("an older read's answer arriving after a newer one's is not used", async () => {
  const reads = new Reads(() => 0);
  const { read, waiting } = server<string>();
  const first = reads.newest(read);
  const second = reads.newest(read);
  const [older, newer] = waiting;
  newer('with the alarm');
  older('without it');
  assert.is(await second, 'with the alarm');
  assert.is(await first, undefined);
});

test('an answer during whose read an event came is read again, and the second answer used', async () => {
  let events = 0;
  const reads = new Reads(() => events);
  const { read, waiting, answer } = server<string>();
  const result = reads.newest(read);
  events++; // the event (already applied by the page) arrives before the answer the server gave earlier
  answer('without the alarm');
  await tick();
  assert.is(waiting.length, 1, 'read again');
  answer('with the alarm');
  assert.is(await result, 'with the alarm');
});

test('of reads an event overlapped, only the newest is read again; the others give way to it', async () => {
  let events = 0;
  const reads = new Reads(() => events);
  const { read, waiting, answer } = server<string>();
  const results = [reads.newest(read), reads.newest(read), reads.newest(read)];
  events++;
  for (let n = 1; n <= 3; n++) answer(`before the event ${n}`);
  assert.is(await results[0], undefined);
  assert.is(await results[1], undefined);
  await tick();
  assert.is(waiting.length, 1, 'one read again, not three');
  answer('after the event');
  assert.is(await results[2], 'after the event');
});

test('a read without events meanwhile is used at once', async () => {
  const reads = new Reads(() => 7);
  const { read, waiting, answer } = server<number>();
  const result = reads.newest(read);
  answer(1);
  assert.is(await result, 1);
  assert.is(waiting.length, 0);
});

test('while events keep coming, the fifth answer is used (a storm does not keep a page reading)', async () => {
  let events = 0;
  const reads = new Reads(() => events);
  const { read, waiting, answer } = server<number>();
  const result = reads.newest(read);
  for (let n = 1; n <= 5; n++) {
    await tick();
    assert.is(waiting.length, 1, `read ${n} is on its way`);
    events++;
    answer(n);
  }
  assert.is(await result, 5);
});

test('reads answering in the order they began are each used (a read per event never starves the page)', async () => {
  const reads = new Reads(() => 0);
  const { read, answer } = server<number>();
  const results = [reads.newest(read), reads.newest(read), reads.newest(read)];
  for (let n = 1; n <= 3; n++) {
    answer(n);
    assert.is(await results[n - 1], n);
  }
});

test('a failed read fails the call', async () => {
  const reads = new Reads(() => 0);
  const failed = reads.newest(() => Promise.reject(new Error('offline')));
  assert.is(await why(failed), 'offline');
});

test('an older read that fails after a newer one began is no failure; a newer one that fails leaves the older answer', async () => {
  const reads = new Reads(() => 0);
  const older = reads.newest(() => Promise.reject(new Error('offline')));
  const { read, answer } = server<string>();
  const newer = reads.newest(read);
  assert.is(await older, undefined);
  answer('current');
  assert.is(await newer, 'current');

  const again = new Reads(() => 0);
  const first = server<string>();
  const good = again.newest(first.read);
  const failed = again.newest(() => Promise.reject(new Error('offline')));
  assert.is(await why(failed), 'offline');
  first.answer('the older answer');
  assert.is(await good, 'the older answer');
});

test.run();
