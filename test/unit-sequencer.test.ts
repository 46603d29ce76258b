import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { PatchSequencer } from '../server/hub/sequencer.js';
import type { PatchEvent } from '../common/hub-protocol.js';

// Epochs of one history are e<version>; each patch names its predecessor's.
const patch = (version: number, monitorId = 1, history = 'e'): PatchEvent => ({
  monitorId,
  version,
  epoch: `${history}${version}`,
  baseEpoch: `${history}${version - 1}`,
  section: 'meta',
  op: 'patch',
  payload: { v: version },
  at: new Date(0).toISOString(),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('patches that arrive out of order go out in version order', () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 1_000);
  seq.advance(1, 4, 'e4');
  for (const v of [7, 5, 6, 8]) seq.accept(patch(v));
  assert.equal(out, [5, 6, 7, 8]);
  seq.close();
});

test('late and duplicate patches are dropped', () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 1_000);
  seq.advance(1, 2, 'e2');
  for (const v of [3, 3, 2, 1, 4]) seq.accept(patch(v));
  assert.equal(out, [3, 4]);
  seq.close();
});

/** Resolves once `done` holds, polling; fails after a generous deadline. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await sleep(5);
  }
}

test('a gap that is never filled is released after the hold time, still in order', async () => {
  const out: number[] = [];
  const at: number[] = [];
  const seq = new PatchSequencer((e) => (out.push(e.version), at.push(performance.now())), 30);
  seq.advance(1, 1, 'e1');
  const held = performance.now();
  seq.accept(patch(4));
  seq.accept(patch(3));
  assert.equal(out, []);
  await until(() => out.length === 2, 'the release');
  assert.equal(out, [3, 4]);
  // Not before the hold time (timers may fire up to a millisecond early); late is fine on a busy machine.
  assert.ok(at[0] - held >= 29, `released after ${at[0] - held} ms`);
  seq.accept(patch(2));
  seq.accept(patch(5));
  assert.equal(out, [3, 4, 5]);
  seq.close();
});

test('a missing patch known to be stored is waited for past the hold time, and goes out first when it comes', async () => {
  const out: number[] = [];
  const asked: number[] = [];
  const seq = new PatchSequencer(
    (e) => out.push(e.version),
    10,
    () => {},
    (monitorId, version) => (asked.push(version), version <= 2),
    60_000,
  );
  seq.advance(1, 1, 'e1');
  seq.accept(patch(3));
  // Several hold times pass: each time the sequencer asks about version 2 and keeps holding.
  await until(() => asked.length >= 3, 'the holds to be renewed');
  assert.equal(out, []);
  assert.ok(
    asked.every((v) => v === 2),
    `asked about ${asked}`,
  );
  seq.accept(patch(2));
  assert.equal(out, [2, 3]);
  seq.close();
});

test(
  'a missing patch known to be stored that never comes is given up after the longer hold: its ' + 'successor goes out',
  async () => {
    const out: number[] = [];
    const seq = new PatchSequencer(
      (e) => out.push(e.version),
      10,
      () => {},
      () => true,
      200,
    );
    seq.advance(1, 1, 'e1');
    const held = performance.now();
    seq.accept(patch(3));
    await until(() => out.length === 1, 'the release');
    assert.equal(out, [3]);
    assert.ok(performance.now() - held >= 199, `released after ${performance.now() - held} ms`);
    seq.close();
  },
);

test('a hold that expires while the missing patch already waits in a socket lets the socket go first', async () => {
  const out: number[] = [];
  let doubts = 0;
  const seq = new PatchSequencer(
    (e) => out.push(e.version),
    5,
    () => doubts++,
  );
  seq.advance(1, 1, 'e1');
  // Another process's patch 2 comes over a socket, as over Redis.
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  // Connected on both ends: a write now goes to the kernel at once, not into the client's own queue.
  const [socket] = await Promise.all([accepted, once(client, 'connect')]);
  const read = new Promise<void>((resolve) => socket.on('data', () => (seq.accept(patch(2)), resolve())));
  seq.accept(patch(3));
  client.write('2');
  // A busy process: the hold expires before the event loop comes back to read the socket.
  const busyUntil = Date.now() + 40;
  while (Date.now() < busyUntil);
  // Once the socket was read and the release that was due has run (a check phase later), whatever the machine's speed.
  await read;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(out, [2, 3]);
  assert.is(doubts, 0);
  client.destroy();
  socket.destroy();
  server.close();
  seq.close();
});

test('a snapshot (advance) releases what waits behind it and monitors are independent', () => {
  const out: string[] = [];
  const seq = new PatchSequencer((e) => out.push(`${e.monitorId}:${e.version}`), 1_000);
  seq.advance(1, 0, 'e0');
  seq.advance(2, 10, 'e10');
  seq.accept(patch(3, 1));
  seq.accept(patch(11, 2));
  seq.advance(1, 2, 'e2');
  assert.equal(out, ['2:11', '1:3']);
  seq.close();
});

test("a screen's own snapshot (start) never moves the track the other screens depend on", () => {
  const out: number[] = [];
  const seq = new PatchSequencer((e) => out.push(e.version), 1_000);
  seq.start(1, 5, 'e5');
  // A second screen subscribes while patch 6 is still on its way and reads snapshot 6.
  seq.start(1, 6, 'e6');
  seq.accept(patch(6));
  assert.equal(out, [6], 'the first screen still gets patch 6');
  seq.close();
});

test(
  'a patch of another history (or of a version no longer remembered) is a doubt the hub checks ' + 'against the store',
  () => {
    const out: number[] = [];
    const doubts: number[] = [];
    const seq = new PatchSequencer(
      (e) => out.push(e.version),
      1_000,
      (id) => doubts.push(id),
    );
    seq.advance(1, 5, 'e5');
    seq.accept(patch(5));
    assert.equal(doubts, [], 'a late duplicate of the version sent is no doubt');
    seq.accept(patch(5, 1, 'r'));
    assert.equal(doubts, [1], 'version 5 of another epoch');
    seq.accept(patch(4, 1, 'r'));
    assert.equal(doubts, [1, 1], 'version 4 was never sent here: only the store can tell');
    seq.accept(patch(6, 1, 'r'));
    assert.equal(doubts, [1, 1, 1], 'version 6 built on r5, not on the e5 the screens hold');
    assert.equal(out, []);
    // The hub then sends the stored state to the room: the track moves to it, even lower.
    seq.advance(1, 3, 'r3');
    assert.equal(seq.position(1), { version: 3, epoch: 'r3' });
    seq.accept(patch(4, 1, 'r'));
    assert.equal(out, [4]);
    seq.close();
  },
);

test.run();
