// The scheduler of a process's periodic jobs (server/scheduler.ts): a run never overlaps the next, a
// failed run is counted and logged and the job goes on, stop() waits for a run in flight and starts none
// after it, and a job registered after the start runs too.
import * as assert from 'uvu/assert';
import { Scheduler } from '../server/scheduler.js';
import { test } from './helpers/suite.js';

const quiet = () => {
  const warnings: Array<{ details: object; message: string }> = [];
  return { warnings, log: { warn: (details: object, message: string) => void warnings.push({ details, message }) } };
};

/** Resolves once `condition` holds, checked every few milliseconds (fails after 10 s). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('a job runs again a period after its last run ended: a slow run never overlaps the next', async () => {
  const { log } = quiet();
  const scheduler = new Scheduler(log);
  let running = 0;
  let most = 0;
  let runs = 0;
  scheduler.every('slow', 1, async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    runs++;
  });
  scheduler.start();
  await until(() => runs >= 5, 'five runs');
  await scheduler.stop();
  assert.is(most, 1);
  const [status] = scheduler.status();
  assert.is(status.name, 'slow');
  assert.ok(status.runs >= 5 && status.failures === 0);
  assert.ok(status.lastDurationMs! >= 15, `last run took ${status.lastDurationMs} ms`);
});

test('a failed run is logged with the job and counted; the job goes on', async () => {
  const { log, warnings } = quiet();
  const scheduler = new Scheduler(log);
  let calls = 0;
  scheduler.every('flaky', 1, () => {
    if (++calls % 2 === 1) throw new Error(`failure ${calls}`);
  });
  scheduler.start();
  await until(() => calls >= 4, 'four runs');
  await scheduler.stop();
  const [status] = scheduler.status();
  assert.ok(status.failures >= 2, JSON.stringify(status));
  assert.ok(status.runs >= 4);
  assert.match(status.lastError!, /^failure \d+$/);
  assert.ok(status.lastFailureAt! <= Date.now());
  assert.ok(warnings.length >= 2);
  assert.equal(warnings[0].details, { err: new Error('failure 1'), job: 'flaky' });
  assert.match(warnings[0].message, /flaky failed/);
});

test('stop() waits for the run in flight and no run starts after it; a job registered after start() runs', async () => {
  const { log } = quiet();
  const scheduler = new Scheduler(log);
  let release: () => void = () => undefined;
  let started = 0;
  let finished = 0;
  scheduler.start();
  scheduler.every('late', 1, async () => {
    started++;
    await new Promise<void>((r) => (release = r));
    finished++;
  });
  await until(() => started === 1, 'the first run');
  let stopped = false;
  const stopping = scheduler.stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 30));
  assert.is(stopped, false, 'stop() waits for the run in flight');
  release();
  await stopping;
  assert.is(finished, 1);
  await new Promise((r) => setTimeout(r, 30));
  assert.is(started, 1, 'no run after stop()');
});

test('names are unique: they label the metrics', () => {
  const scheduler = new Scheduler(quiet().log);
  scheduler.every('one', 1000, () => undefined);
  assert.throws(() => scheduler.every('one', 1000, () => undefined), /already scheduled/);
});

test.run();
