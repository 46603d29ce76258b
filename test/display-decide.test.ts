// Which view the wall shows (decide.ts), as a pure function of data, memory and server time: run in Node.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { applyWrite, emptyData, type JsonObject, type MonitorData } from '../common/monitor-data.js';
import {
  decideView,
  initialMemory,
  isBusy,
  observe,
  receiveTest,
  type ViewMemory,
} from '../display-client/src/decide.js';
import { readTestAlarm, type TestAlarm } from '../display-client/src/test-alarm.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const fire = (extra: JsonObject = {}): JsonObject => ({
  eventId: 7,
  event: 'B3 Wohnungsbrand',
  eventStartDate: iso(T0 - 60_000),
  positiveResponses: 4,
  ...extra,
});
const write = (data: MonitorData, payload: JsonObject, at: number, op: 'set' | 'patch' = 'set') =>
  applyWrite(data, { section: 'alarming', op, payload, at: iso(at) });

/** Feeds states to observe() and asks decideView() at `now`, as the controller does. */
function screen(delaySec: number) {
  let memory: ViewMemory = initialMemory();
  let data = emptyData();
  return {
    receive(next: MonitorData, now: number) {
      data = next;
      memory = observe(memory, data, now);
    },
    at(now: number) {
      const decided = decideView(data, memory, now, delaySec);
      memory = decided.memory;
      return decided.view;
    },
    test(test: TestAlarm) {
      memory = receiveTest(memory, test);
    },
    get data() {
      return data;
    },
  };
}

/** A test alarm received at `at`, ending at `endsAt` (server time). */
const testAlarm = (at: number, endsAt: number, message = 'Probealarm') =>
  readTestAlarm({ monitorId: 1, message, endsAt: iso(endsAt) }, at)!;

test('one active alarm is the alarm view, two or more the split (oldest first); both are busy', () => {
  const s = screen(30);
  s.receive(write(emptyData(), fire(), T0), T0);
  const one = s.at(T0);
  assert.is(one.mode, 'alarm');
  assert.ok(isBusy(one));
  s.receive(write(s.data, fire({ eventId: 8, event: 'TH', eventStartDate: iso(T0 - 10_000) }), T0 + 1), T0 + 1);
  const two = s.at(T0 + 1);
  assert.is(two.mode, 'split');
  assert.equal(two.mode === 'split' ? two.alarms.map((a) => a.eventId) : [], [7, 8]);
  assert.ok(isBusy(two));
});

test('a screen that starts without an alarm shows standby at once, whatever the delay', () => {
  const s = screen(600);
  s.receive(emptyData(), T0);
  const view = s.at(T0);
  assert.is(view.mode, 'standby');
  assert.not.ok(isBusy(view));
});

test('a cleared alarm shows the ENDED panel with its data until the delay has passed, then standby', () => {
  const s = screen(30);
  s.receive(write(emptyData(), fire(), T0), T0);
  s.at(T0);
  s.receive(write(s.data, {}, T0 + 5_000), T0 + 5_000);
  const ended = s.at(T0 + 5_000);
  assert.is(ended.mode, 'ended');
  assert.is(ended.mode === 'ended' ? ended.alarm.event : '', 'B3 Wohnungsbrand');
  assert.ok(isBusy(ended), 'an ended alarm on the wall still blocks a self-reload');
  // Its elapsed time stops where the wall saw it end, however long the panel stays.
  assert.is(ended.mode === 'ended' ? ended.endedAt : -1, T0 + 5_000);
  const later = s.at(T0 + 34_999);
  assert.is(later.mode === 'ended' ? later.endedAt : -1, T0 + 5_000);
  assert.is(s.at(T0 + 35_000).mode, 'standby');
  // Once standby is reached the old alarm is done with.
  assert.is(s.at(T0 + 35_001).mode, 'standby');
});

test('an alarm that runs out by its end date counts from that date, not from when the screen noticed', () => {
  const s = screen(30);
  s.receive(write(emptyData(), fire({ eventEndDate: iso(T0 + 10_000) }), T0), T0);
  assert.is(s.at(T0 + 9_999).mode, 'alarm');
  assert.is(s.at(T0 + 10_001).mode, 'ended');
  const ended = s.at(T0 + 39_999);
  assert.is(ended.mode === 'ended' ? ended.endedAt : -1, T0 + 10_000, 'the time it ran ends at its end date');
  assert.is(s.at(T0 + 40_000).mode, 'standby');
});

test('a late patch (response counts after the end) neither restarts the delay nor brings the alarm back', () => {
  const s = screen(30);
  s.receive(write(emptyData(), fire({ eventEndDate: iso(T0 + 10_000) }), T0), T0);
  s.at(T0);
  // Written by the server just before the end, it reaches the screen after it: the ENDED panel shows
  // the new counts, and the delay still counts from the end date.
  s.receive(write(s.data, { positiveResponses: 9 }, T0 + 9_900, 'patch'), T0 + 12_000);
  const ended = s.at(T0 + 12_000);
  assert.is(ended.mode === 'ended' ? ended.alarm.positive : -1, 9);
  assert.is(s.at(T0 + 40_000).mode, 'standby');
  // After standby, a state that only touches the ended alarm keeps standby.
  s.receive({ ...s.data, alarmData: { ...s.data.alarmData, negativeResponses: 3 } }, T0 + 41_000);
  assert.is(s.at(T0 + 41_000).mode, 'standby');
});

test('a new alarm during the ENDED panel replaces it; clearing that one starts the delay again', () => {
  const s = screen(30);
  s.receive(write(emptyData(), fire(), T0), T0);
  s.at(T0);
  s.receive(write(s.data, {}, T0 + 1_000), T0 + 1_000);
  assert.is(s.at(T0 + 2_000).mode, 'ended');
  s.receive(write(s.data, fire({ eventId: 9, event: 'RD Notfall' }), T0 + 3_000), T0 + 3_000);
  const next = s.at(T0 + 3_000);
  assert.is(next.mode === 'alarm' ? next.alarm.event : '', 'RD Notfall');
  s.receive(write(s.data, {}, T0 + 20_000), T0 + 20_000);
  const ended = s.at(T0 + 45_000);
  assert.is(ended.mode === 'ended' ? ended.alarm.event : '', 'RD Notfall');
  assert.is(s.at(T0 + 50_000).mode, 'standby');
});

test('the decision depends on the time it is given: a clock 10 minutes ahead would end a running alarm', () => {
  const data = write(emptyData(), fire({ eventEndDate: iso(T0 + 5 * 60_000) }), T0);
  const memory = observe(initialMemory(), data, T0);
  assert.is(decideView(data, memory, T0 + 60_000, 30).view.mode, 'alarm');
  assert.is.not(decideView(data, memory, T0 + 11 * 60_000, 30).view.mode, 'alarm');
});

test('a test alarm shows until its endsAt (busy), then standby; it is never the data', () => {
  const s = screen(30);
  s.receive(emptyData(), T0);
  s.test(testAlarm(T0, T0 + 60_000));
  const shown = s.at(T0 + 1_000);
  assert.is(shown.mode, 'test');
  assert.is(shown.mode === 'test' ? shown.test.message : '', 'Probealarm');
  assert.ok(isBusy(shown), 'no self-reload and no blank screen during a test alarm');
  assert.is(s.at(T0 + 59_999).mode, 'test');
  assert.is(s.at(T0 + 60_000).mode, 'standby', 'no ENDED panel after a test');
  assert.equal(s.data, emptyData());
  // Once over it is forgotten: a clock stepping back does not bring it back.
  assert.is(s.at(T0 + 30_000).mode, 'standby');
});

test('a real alarm replaces a test alarm at once, and the test does not come back when the real one ends', () => {
  const s = screen(0);
  s.receive(emptyData(), T0);
  s.test(testAlarm(T0, T0 + 120_000));
  assert.is(s.at(T0 + 1_000).mode, 'test');
  s.receive(write(s.data, fire(), T0 + 2_000), T0 + 2_000);
  const real = s.at(T0 + 2_000);
  assert.is(real.mode === 'alarm' ? real.alarm.event : '', 'B3 Wohnungsbrand');
  s.receive(write(s.data, {}, T0 + 3_000), T0 + 3_000);
  assert.is(s.at(T0 + 3_000).mode, 'standby');
});

test(
  'a test alarm sent during a real alarm is never shown; one during the ENDED panel shows, and ' +
    'ENDED resumes after it if the delay runs',
  () => {
    const s = screen(30);
    s.receive(write(emptyData(), fire(), T0), T0);
    s.test(testAlarm(T0, T0 + 5_000));
    assert.is(s.at(T0 + 1_000).mode, 'alarm');
    s.receive(write(s.data, {}, T0 + 2_000), T0 + 2_000);
    assert.is(s.at(T0 + 3_000).mode, 'ended', 'the test was dropped when the real alarm replaced it');
    s.test(testAlarm(T0 + 4_000, T0 + 10_000, 'zweiter'));
    assert.is(s.at(T0 + 5_000).mode, 'test');
    assert.is(s.at(T0 + 10_000).mode, 'ended');
    assert.is(s.at(T0 + 32_000).mode, 'standby');
  },
);

test('the same test alarm sent again (a resubscribe) keeps its first start; a new one replaces it', () => {
  const first = testAlarm(T0, T0 + 60_000);
  const memory = receiveTest(initialMemory(), first);
  assert.is(receiveTest(memory, testAlarm(T0 + 9_000, T0 + 60_000)), memory);
  const next = receiveTest(memory, testAlarm(T0 + 9_000, T0 + 90_000));
  assert.is(next.test?.startMs, T0 + 9_000);
  assert.is(readTestAlarm({ monitorId: 1, message: 'x', endsAt: 'not a time' }, T0), null);
});

test.run();
