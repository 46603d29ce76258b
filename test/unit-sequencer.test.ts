import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PatchSequencer } from '../server/hub/sequencer.js';
import type { PatchEvent } from '../server/hub/protocol.js';

const patch = (version: number, monitorId = 1): PatchEvent => ({ monitorId, version, section: 'meta', op: 'patch', payload: { v: version }, at: new Date(0).toISOString() });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('patches that arrive out of order go out in version order', () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 1_000);
  seq.advance(1, 4);
  for (const v of [7, 5, 6, 8]) seq.accept(patch(v));
  assert.equal(out, [5, 6, 7, 8]);
  seq.close();
});

test('late and duplicate patches are dropped', () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 1_000);
  seq.advance(1, 2);
  for (const v of [3, 3, 2, 1, 4]) seq.accept(patch(v));
  assert.equal(out, [3, 4]);
  seq.close();
});

test('a gap that is never filled is released after the hold time, still in order', async () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 30);
  seq.advance(1, 1);
  seq.accept(patch(4));
  seq.accept(patch(3));
  assert.equal(out, []);
  await sleep(80);
  assert.equal(out, [3, 4]);
  seq.accept(patch(2));
  seq.accept(patch(5));
  assert.equal(out, [3, 4, 5]);
  seq.close();
});

test('a snapshot (advance) releases what waits behind it and monitors are independent', () => {
  const out: string[] = [];
  const seq = new PatchSequencer((e) => out.push(`${e.monitorId}:${e.version}`), 1_000);
  seq.advance(1, 0);
  seq.advance(2, 10);
  seq.accept(patch(3, 1));
  seq.accept(patch(11, 2));
  seq.advance(1, 2);
  assert.equal(out, ['2:11', '1:3']);
  seq.close();
});

test('a screen\'s own snapshot (start) never moves the track the other screens depend on', () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 1_000);
  seq.start(1, 5);
  // A second screen subscribes while patch 6 is still on its way and reads snapshot 6.
  seq.start(1, 6);
  seq.accept(patch(6));
  assert.equal(out, [6], 'the first screen still gets patch 6');
  seq.close();
});

test.run();
