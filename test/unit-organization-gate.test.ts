// The alarm data writes' gate per organization (server/http/organization-gate.ts), without a server.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { AppError } from '../server/errors.js';
import { OrganizationGate } from '../server/http/organization-gate.js';

/** Whether a promise has settled once everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

test('small writes go in parallel up to the concurrency; large ones one after another; another organization never waits', async () => {
  const gate = new OrganizationGate({ concurrency: 3, bytes: 1000, queue: 10, waitMs: 60_000 });
  const small = await Promise.all([gate.enter(1, 100), gate.enter(1, 100), gate.enter(1, 100)]);
  const fourth = gate.enter(1, 100);
  assert.not.ok(await settled(fourth), 'a fourth small write waits for a place');
  assert.ok(await settled(gate.enter(2, 5000)), "another organization's large write goes at once");
  small[0]();
  const release4 = await fourth;
  for (const release of [...small.slice(1), release4]) release();
  const large = await gate.enter(1, 800);
  const second = gate.enter(1, 800);
  assert.not.ok(await settled(second), 'two large writes do not fit the bytes together');
  const behind = gate.enter(1, 10);
  assert.not.ok(await settled(behind), 'a small write does not overtake a waiting large one');
  large();
  (await second)();
  (await behind)();
  assert.is(gate.active, 1, "only the other organization's write is still in flight");
  assert.is(gate.waiting, 0);
});

test('one write larger than the whole budget is still let in alone', async () => {
  const gate = new OrganizationGate({ concurrency: 4, bytes: 1000, queue: 10, waitMs: 60_000 });
  const huge = await gate.enter(1, 1_000_000);
  assert.is(gate.active, 1);
  huge();
  huge();
  assert.is(gate.active, 0, 'a release counts once');
});

test('a full queue and a wait that runs out are 503 unavailable with Retry-After; the queue moves on', async () => {
  const gate = new OrganizationGate({ concurrency: 1, bytes: 1000, queue: 1, waitMs: 50 });
  const first = await gate.enter(1, 10);
  const queued = gate.enter(1, 10);
  const refused = await gate.enter(1, 10).catch((err: unknown) => err);
  assert.ok(refused instanceof AppError && refused.status === 503 && refused.code === 'unavailable', String(refused));
  assert.is(refused.headers?.['Retry-After'], '1');
  const timedOut = await queued.catch((err: unknown) => err);
  assert.ok(timedOut instanceof AppError && timedOut.status === 503, 'the wait ran out');
  assert.is(gate.refused, 2);
  first();
  assert.ok(await settled(gate.enter(1, 10)), 'the organization writes again once its place is free');
});

test('concurrency 0 bounds nothing', async () => {
  const gate = new OrganizationGate({ concurrency: 0, bytes: 0, queue: 0, waitMs: 0 });
  for (let i = 0; i < 100; i++) await gate.enter(1, 1_000_000);
  assert.is(gate.active, 0);
});

test.run();
