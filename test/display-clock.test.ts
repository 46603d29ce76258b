// The screen's estimate of the server's clock (clock.ts), with injected clocks: run in Node.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { ServerClock } from '../display-client/src/clock.js';

const SERVER = Date.parse('2026-03-01T12:00:00Z');

function clocks(kioskAheadMs: number) {
  let mono = 5_000; // the page's monotonic clock (performance.now)
  const clock = new ServerClock(
    () => mono,
    () => SERVER + kioskAheadMs + mono,
  );
  return { clock, advance: (ms: number) => (mono += ms), mono: () => mono };
}

test('before any sample the kiosk clock is all there is', () => {
  const { clock } = clocks(600_000);
  assert.is(clock.now(), SERVER + 600_000 + 5_000);
  assert.is(clock.kioskAhead(), null);
});

test('a subscribe answer sets the clock: the server read its time in the middle of the round trip', () => {
  const { clock, advance, mono } = clocks(600_000);
  const sent = mono();
  advance(200); // 100 ms there, 100 ms back: the server answered at SERVER + 5_100 monotonic-wise
  clock.sample(sent, mono(), SERVER + 5_100);
  assert.is(clock.now(), SERVER + 5_200);
  assert.is(clock.kioskAhead(), 600_000);
  advance(60_000);
  assert.is(clock.now(), SERVER + 65_200, 'server time runs on with the monotonic clock');
});

test('a kiosk clock stepped later (NTP, a person) does not move the server time', () => {
  let wall = SERVER - 3_600_000;
  let mono = 0;
  const clock = new ServerClock(
    () => mono,
    () => wall,
  );
  clock.sample(0, 10, SERVER + 5);
  mono = 1_000;
  wall += 7_200_000;
  assert.is(clock.now(), SERVER + 1_000);
});

test('the tighter sample wins; a coarse Date header (1 s) wins over a tight one only once that has aged', () => {
  const { clock, advance, mono } = clocks(-120_000);
  clock.sample(mono(), mono() + 20, SERVER + 5_010); // error 10 ms
  advance(20);
  // A Date header says 12:00:05 (cut to the second): read between 5_020 and 5_060 on the monotonic clock.
  const header = SERVER + 5_000;
  clock.sample(mono(), mono() + 40, header, 1000);
  advance(40);
  assert.is(clock.now(), SERVER + 5_060, 'the ack sample (±10 ms) is used, not the header (±520 ms)');
  // Ten hours later the ack sample may have drifted by 1.8 s (50 ppm); a fresh header (±0.5 s) is better.
  advance(36_000_000);
  const sent = mono();
  clock.sample(sent, sent + 20, SERVER + 36_005_000, 1000);
  advance(20);
  assert.is(
    clock.now(),
    SERVER + 36_005_000 + 500 + 10,
    'the middle of the header second, at the middle of its round trip',
  );
});

test('nonsense samples are ignored', () => {
  const { clock } = clocks(0);
  clock.sample(10, 5, SERVER);
  clock.sample(0, 5, Number.NaN);
  assert.is(clock.kioskAhead(), null);
});

test.run();
