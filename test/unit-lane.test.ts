// Bookkeeping writes run a few at a time (server/db/lane.ts).
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { Lane } from '../server/db/lane.js';

/** A task that runs until `release()` is called, recording when it started. */
function gate(started: number[], id: number) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      started.push(id);
      await done;
      return id;
    },
    release,
  };
}

test('at most `concurrency` tasks run; the others start in the order they came, each as one finishes', async () => {
  const lane = new Lane(2);
  const started: number[] = [];
  const gates = [1, 2, 3, 4, 5].map((id) => gate(started, id));
  const results = gates.map((g) => lane.run(g.task));
  await new Promise((r) => setImmediate(r));
  assert.equal(started, [1, 2]);
  assert.is(lane.size, 5);
  gates[1].release();
  await results[1];
  await new Promise((r) => setImmediate(r));
  assert.equal(started, [1, 2, 3]);
  gates[0].release();
  gates[2].release();
  await Promise.all([results[0], results[2]]);
  await new Promise((r) => setImmediate(r));
  assert.equal(started, [1, 2, 3, 4, 5]);
  gates[3].release();
  gates[4].release();
  assert.equal(await Promise.all(results), [1, 2, 3, 4, 5]);
  assert.is(lane.size, 0);
});

test('a failing task gives its slot to the next one and rejects only its own caller', async () => {
  const lane = new Lane(1);
  const failed = lane.run(() => Promise.reject(new Error('database away')));
  const next = lane.run(async () => 'ran');
  assert.match(String(await failed.catch((err: Error) => err.message)), 'database away');
  assert.is(await next, 'ran');
  assert.is(lane.size, 0);
  assert.is(await lane.run(async () => 'again'), 'again');
});

test.run();
