// A test alarm (F8, `monitor:test-alarm`): shown like an alarm but marked TEST, never part of the
// monitor's data. DOM-free (unit tested in Node); decide.ts says when it shows.
import type { JsonObject } from '../../common/monitor-data.js';
import type { TestAlarmEvent } from '../../common/hub-protocol.js';
import type { Alarm } from './alarms.js';
import { coordinate, text } from './config.js';

/** A test alarm as the screen holds it; times are server time (ms). */
export interface TestAlarm {
  /** One test alarm: the hub sends it again on every subscribe while it runs, under the same key. */
  key: string;
  message: string;
  /** When this screen first received it (its elapsed time counts from here). */
  startMs: number;
  endsAtMs: number;
}

/** Reads the hub's event; null when its end is no time. */
export function readTestAlarm(event: TestAlarmEvent, receivedMs: number): TestAlarm | null {
  const endsAtMs = Date.parse(event.endsAt);
  if (!Number.isFinite(endsAtMs)) return null;
  return {
    key: `test:${event.endsAt}:${event.message}`,
    message: String(event.message ?? ''),
    startMs: receivedMs,
    endsAtMs,
  };
}

/**
 * The alarm panel's content for a test alarm: the keyword in the station's language, the message sent
 * with it, and the station itself as the place, so the map (and its tiles) is tested too.
 */
export function testAlarmAsAlarm(test: TestAlarm, configuration: JsonObject, keyword: string, message: string): Alarm {
  return {
    key: test.key,
    eventId: null,
    event: keyword,
    kind: null,
    message: test.message || message,
    address: text(configuration, 'address'),
    latitude: coordinate(configuration, 'latitude'),
    longitude: coordinate(configuration, 'longitude'),
    start: test.startMs,
    end: test.endsAtMs,
    positive: 0,
    negative: 0,
    awaiting: 0,
    units: [],
  };
}
