// The display's alarm decisions that the reviewer found wrong, run in Node: what counts as a change,
// which ended alarm stays on the wall, and which alarm rings the gong.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { applyWrite, emptyData, type JsonObject, type MonitorData } from '../common/monitor-data.js';
import { alarmMemory, alarmSignature, endedAlarm, readAlarm } from '../display-client/src/alarms.js';

const now = Date.parse('2026-01-05T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

test('pruning an event that already ended is no alarm change; a new or changed active alarm is', () => {
  const fire: JsonObject = {
    eventId: 5,
    event: 'B3',
    eventStartDate: iso(now - 60_000),
    eventEndDate: iso(now - 2_000),
  };
  const before = applyWrite(emptyData(), { section: 'alarming', op: 'set', payload: fire, at: iso(now - 30_000) });
  assert.ok('5' in before.alarmDataList, 'the event is listed while it runs');
  // A pagers patch after the end: the reducer drops the ended event from the list.
  const after = applyWrite(before, {
    section: 'meta',
    op: 'patch',
    payload: { pagers: { activePager: 3 } },
    at: iso(now),
  });
  assert.not.ok('5' in after.alarmDataList);
  assert.is(alarmSignature(after, now), alarmSignature(before, now));
  const other = applyWrite(after, {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 6, event: 'TH' },
    at: iso(now),
  });
  assert.is.not(alarmSignature(other, now), alarmSignature(after, now));
  const patched = applyWrite(other, {
    section: 'alarming',
    op: 'patch',
    payload: { positiveResponses: 4 },
    at: iso(now),
  });
  assert.is.not(alarmSignature(patched, now), alarmSignature(other, now));
});

test('the ENDED panel shows the newest alarmData, the last shown one only when alarmData is gone', () => {
  const old = readAlarm({ eventId: 1, event: 'Old' });
  const data = (alarmData: JsonObject): MonitorData => ({ ...emptyData(), alarmData });
  assert.is(endedAlarm(old, data({ eventId: 2, event: 'Newer' }))?.event, 'Newer');
  assert.is(endedAlarm(old, data({}))?.event, 'Old', 'a cleared alarm keeps the last shown one');
  assert.is(endedAlarm(old, data({ eventId: 1, event: 'Old' }))?.event, 'Old');
  assert.is(endedAlarm(null, data({ eventId: 2, event: 'Newer' }))?.event, 'Newer');
  assert.is(endedAlarm(null, data({})), null);
});

test(
  'gong: an eventId arriving in a later patch is the same alarm; a new keyword or another id with ' +
    'another keyword rings',
  () => {
    const memory = alarmMemory();
    const fresh = (raw: JsonObject) => memory.fresh([readAlarm(raw)]).length;
    assert.is(fresh({ event: 'B3 FIRE' }), 1);
    assert.is(fresh({ event: 'B3 FIRE', eventId: 77 }), 0, 'PATCH {eventId: 77} must not ring again');
    assert.is(fresh({ event: 'B3 FIRE', eventId: 77, positiveResponses: 3 }), 0);
    assert.is(fresh({ event: 'B4 FIRE', eventId: 77 }), 1, 'a new keyword rings');
    assert.is(fresh({ event: 'TH Person', eventId: 78 }), 1, 'a new eventId with another keyword rings');
    assert.is(fresh({ event: 'B3 FIRE', eventId: 79 }), 1, 'a new eventId for a keyword seen before rings too');
    // Two alarms in one state: each is judged on its own.
    assert.is(
      memory.fresh([readAlarm({ event: 'RD', eventId: 80 }), readAlarm({ event: 'TH Person', eventId: 78 })]).length,
      1,
    );
  },
);

test.run();
