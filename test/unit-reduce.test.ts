import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import {
  applyWrite,
  emptyData,
  INCIDENT_LOG_SIZE,
  MAX_EVENTS,
  MAX_EVENTS_BYTES,
  mergePatch,
  patchTarget,
  utf8Length,
} from '../common/monitor-data.js';

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 4, 0, s)).toISOString();

test('mergePatch merges objects key by key and replaces arrays and null', () => {
  const merged = mergePatch(
    { pagers: { activePager: 1, inactivePager: 4 }, latestAlarms: ['a'] },
    { pagers: { activePager: 5 }, latestAlarms: [] },
  );
  assert.equal(merged, { pagers: { activePager: 5, inactivePager: 4 }, latestAlarms: [] });
  assert.equal(mergePatch({ geo: { address: 'x' } }, { geo: null }), { geo: null });
});

test('a set with a new eventId adds to alarmDataList, a known one replaces it', () => {
  let data = applyWrite(emptyData(), {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 1, event: 'Fire' },
    at: at(0),
  });
  data = applyWrite(data, { section: 'alarming', op: 'set', payload: { eventId: 2, event: 'Flood' }, at: at(1) });
  assert.equal(Object.keys(data.alarmDataList), ['1', '2']);
  data = applyWrite(data, { section: 'alarming', op: 'set', payload: { eventId: 1, event: 'Big fire' }, at: at(2) });
  assert.is(data.alarmDataList['1'].event, 'Big fire');
  assert.is(data.alarmData.event, 'Big fire');
});

test('a patch naming a listed event that is not alarmData changes only that event', () => {
  let data = applyWrite(emptyData(), {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 1, event: 'Fire', positiveResponses: 0 },
    at: at(0),
  });
  data = applyWrite(data, {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 2, event: 'Flood', positiveResponses: 0 },
    at: at(1),
  });
  data = applyWrite(data, {
    section: 'alarming',
    op: 'patch',
    payload: { eventId: 1, positiveResponses: 7 },
    at: at(2),
  });
  assert.is(data.alarmDataList['1'].positiveResponses, 7);
  assert.is(data.alarmData.eventId, 2);
  assert.is(data.alarmData.positiveResponses, 0);
});

test(
  'a patch has a target only while an alarm is on the wall: never after a clear, an end, or for ' + 'an unknown event',
  () => {
    const set = (payload: Record<string, unknown>, s = 0) => ({
      section: 'alarming' as const,
      op: 'set' as const,
      payload: payload as never,
      at: at(s),
    });
    let data = applyWrite(emptyData(), set({ eventId: 1, event: 'Fire' }));
    data = applyWrite(data, set({ eventId: 2, event: 'Flood' }, 1));
    const now = Date.parse(at(2));
    assert.is(patchTarget(data, { positiveResponses: 3 }, now), 'current');
    assert.is(patchTarget(data, { eventId: 2, positiveResponses: 3 }, now), 'current');
    assert.is(patchTarget(data, { eventId: 1, positiveResponses: 3 }, now), 'listed');
    assert.is(patchTarget(data, { eventId: 4711, positiveResponses: 3 }, now), null);
    const cleared = applyWrite(data, set({}, 3));
    assert.is(patchTarget(cleared, { positiveResponses: 3 }, now), null);
    assert.is(
      patchTarget(cleared, { eventId: 2, positiveResponses: 3 }, now),
      null,
      'the cleared event does not come back',
    );
    assert.is(patchTarget(cleared, { eventId: 1 }, now), null, 'no other event survives the clear either');
    const ended = applyWrite(emptyData(), set({ eventId: 5, event: 'Fire', eventEndDate: at(1) }));
    assert.is(patchTarget(ended, { positiveResponses: 3 }, now), null);
    const counters = applyWrite(emptyData(), set({ positiveResponses: 1 }));
    assert.is(
      patchTarget(counters, { event: 'Fire' }, now),
      null,
      'data without an event or message is no alarm a patch could complete',
    );
  },
);

test('utf8Length counts bytes as UTF-8 encodes them', () => {
  for (const text of ['', 'abc', 'Straße', '€', '🚒 Löschzug', 'a\ud800b'])
    assert.is(utf8Length(text), Buffer.byteLength(text), text);
});

test('setting {} clears the whole wall: alarmData and every event of alarmDataList', () => {
  let data = applyWrite(emptyData(), {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 4720, event: 'Fire' },
    at: at(0),
  });
  data = applyWrite(data, { section: 'alarming', op: 'set', payload: { eventId: 4730, event: 'Flood' }, at: at(1) });
  data = applyWrite(data, { section: 'alarming', op: 'set', payload: {}, at: at(2) });
  assert.equal(data.alarmData, {});
  assert.equal(data.alarmDataList, {});
  assert.is(Object.values(data.incidentLog).at(-1), 'Alarm cleared');
});

test('events whose eventEndDate has passed leave alarmDataList', () => {
  let data = applyWrite(emptyData(), {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 1, eventEndDate: at(5) },
    at: at(0),
  });
  assert.ok(data.alarmDataList['1']);
  data = applyWrite(data, { section: 'meta', op: 'patch', payload: { latestAlarms: ['x'] }, at: at(6) });
  assert.equal(data.alarmDataList, {});
});

test('the incident log keeps the newest entries under unique RFC 3339 keys', () => {
  let data = emptyData();
  for (let i = 0; i < INCIDENT_LOG_SIZE + 5; i++) {
    data = applyWrite(data, { section: 'meta', op: 'set', payload: { latestAlarms: [String(i)] }, at: at(0) });
  }
  const keys = Object.keys(data.incidentLog);
  assert.is(keys.length, INCIDENT_LOG_SIZE);
  assert.ok(keys.every((k) => !Number.isNaN(Date.parse(k))));
  assert.is(new Set(keys).size, keys.length);
});

test(
  'the incident log stays in time order: an entry from an earlier clock is sorted in, and the ' + 'oldest leave first',
  () => {
    let data = emptyData();
    for (let s = 10; s < 10 + INCIDENT_LOG_SIZE; s++)
      data = applyWrite(data, { section: 'meta', op: 'patch', payload: { n: s }, at: at(s) });
    // Another process whose clock is behind: its entry goes between the others, not at the end.
    data = applyWrite(data, { section: 'meta', op: 'patch', payload: { n: 0 }, at: at(15) });
    const keys = Object.keys(data.incidentLog);
    assert.is(keys.length, INCIDENT_LOG_SIZE);
    assert.equal(keys, [...keys].sort());
    assert.is(keys[0], at(11));
    assert.ok(keys.includes('2026-11-22T04:00:15.001Z'));
    // A log stored out of order (written before the log was kept sorted) still loses its oldest entries.
    const shuffled = Object.fromEntries(Object.entries(data.incidentLog).reverse());
    const next = applyWrite(
      { ...data, incidentLog: shuffled },
      { section: 'meta', op: 'patch', payload: { n: 1 }, at: at(300) },
    );
    const after = Object.keys(next.incidentLog);
    assert.is(after[0], at(12));
    assert.is(after.at(-1), at(300));
    assert.is(after.length, INCIDENT_LOG_SIZE);
  },
);

test('alarmDataList keeps at most MAX_EVENTS events: the earliest started leave, the one just written stays', () => {
  let data = emptyData();
  for (let i = 1; i <= MAX_EVENTS + 5; i++) {
    data = applyWrite(data, {
      section: 'alarming',
      op: 'set',
      payload: { eventId: i, eventStartDate: at(i) },
      at: at(30),
    });
  }
  assert.is(Object.keys(data.alarmDataList).length, MAX_EVENTS);
  assert.not.ok('1' in data.alarmDataList);
  assert.ok(String(MAX_EVENTS + 5) in data.alarmDataList);
  // An event with an early start date written now still shows.
  data = applyWrite(data, {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 999, eventStartDate: at(0) },
    at: at(31),
  });
  assert.ok('999' in data.alarmDataList);
  assert.is(Object.keys(data.alarmDataList).length, MAX_EVENTS);
});

test('alarmDataList stays under MAX_EVENTS_BYTES however large the events are', () => {
  let data = emptyData();
  const message = 'x'.repeat(900_000);
  for (let i = 1; i <= 8; i++)
    data = applyWrite(data, { section: 'alarming', op: 'set', payload: { eventId: i, message }, at: at(i) });
  assert.ok(JSON.stringify(data.alarmDataList).length <= MAX_EVENTS_BYTES + 100);
  assert.ok('8' in data.alarmDataList);
  assert.is(data.alarmData.eventId, 8);
});

test.run();
