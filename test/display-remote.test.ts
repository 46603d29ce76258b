// The pure parts of a paired screen, run in Node: when the page is blank (power.ts), the throttled
// health report (report.ts), the test alarm's panel content (test-alarm.ts) and the screen token's scheme.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { schemeFor } from '../display-client/src/credentials.js';
import { powerState } from '../display-client/src/power.js';
import { createReporter } from '../display-client/src/report.js';
import { readTestAlarm, testAlarmAsAlarm } from '../display-client/src/test-alarm.js';

test(
  'blank only when told to sleep, and never while an alarm (or a test, or ENDED) is on the wall ' +
    'or the screen identifies itself',
  () => {
    assert.is(powerState('wake', false, false), 'wake');
    assert.is(powerState('sleep', false, false), 'sleep');
    assert.is(powerState('sleep', true, false), 'wake', 'an alarm wakes a sleeping screen');
    assert.is(powerState('sleep', false, true), 'wake', 'identify shows on a sleeping screen');
    assert.is(powerState('wake', true, true), 'wake');
  },
);

/** A reporter on a hand-driven clock. */
function reporter(everyMs = 2_000) {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void }> = [];
  const sent: Array<{ at: number; version: number }> = [];
  const r = createReporter((version) => sent.push({ at: now, version }), everyMs, {
    now: () => now,
    setTimeout: (fn, ms) => timers.push({ at: now + ms, fn }),
    clearTimeout: () => timers.splice(0),
  });
  return {
    r,
    sent,
    /** Moves the clock to `to`, running the timers due by then. */
    advance(to: number) {
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        if (!timers.length || timers[0].at > to) break;
        const timer = timers.shift()!;
        now = timer.at;
        timer.fn();
      }
      now = to;
    },
  };
}

test(
  'the report goes out at once, then at most one per 2 s with the latest version; an unchanged ' +
    'version is not sent again',
  () => {
    const { r, sent, advance } = reporter();
    r.shown(5);
    assert.equal(sent, [{ at: 0, version: 5 }]);
    r.shown(5);
    advance(100);
    r.shown(6);
    advance(500);
    r.shown(7);
    r.shown(8);
    advance(1_999);
    assert.is(sent.length, 1, 'nothing more within the interval');
    advance(2_000);
    assert.equal(sent, [
      { at: 0, version: 5 },
      { at: 2_000, version: 8 },
    ]);
    advance(10_000);
    r.shown(8);
    assert.is(sent.length, 2, 'the same version again is no change');
    r.shown(9);
    assert.equal(sent[2], { at: 10_000, version: 9 });
  },
);

test('stopped, a pending report is dropped', () => {
  const { r, sent, advance } = reporter();
  r.shown(1);
  r.shown(2);
  r.stop();
  advance(5_000);
  assert.equal(
    sent.map((s) => s.version),
    [1],
  );
});

test(
  'a test alarm is drawn at the station (address and coordinates from the configuration), with ' +
    'no crew and no counts',
  () => {
    const test = readTestAlarm({ monitorId: 4, message: 'Probe', endsAt: '2026-11-22T13:03:37.000Z' }, 1_000)!;
    const alarm = testAlarmAsAlarm(
      test,
      { address: 'Feuerwache Nord', latitude: 50.78, longitude: 6.09 },
      'Probealarm',
      'Test der Alarmanzeige',
    );
    assert.equal(alarm, {
      key: 'test:2026-11-22T13:03:37.000Z:Probe',
      eventId: null,
      event: 'Probealarm',
      kind: null,
      message: 'Probe',
      address: 'Feuerwache Nord',
      latitude: 50.78,
      longitude: 6.09,
      start: 1_000,
      end: Date.parse('2026-11-22T13:03:37.000Z'),
      positive: 0,
      negative: 0,
      awaiting: 0,
      units: [],
    });
    assert.is(testAlarmAsAlarm(test, { latitude: 'north' }, 'Test alarm', 'A test').latitude, null);
    // Sent without a message: the screen's own words, in its language.
    const silent = readTestAlarm({ monitorId: 4, message: '', endsAt: '2026-11-22T13:03:37.000Z' }, 1_000)!;
    assert.is(
      testAlarmAsAlarm(silent, {}, 'Probealarm', 'Test der Alarmanzeige – nicht ausrücken').message,
      'Test der Alarmanzeige – nicht ausrücken',
    );
  },
);

test('ahs_ tokens are screen tokens on the hub', () => {
  assert.is(schemeFor('ahs_abc'), 'screen-token');
  assert.is(schemeFor('AHS_abc'), null);
});

test.run();
