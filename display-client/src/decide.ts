// Which view the wall shows, as a pure function of the data, what the screen remembers and the
// server's time. DOM-free: the controller calls it on every tick and keeps the memory it returns.
//
//   split    two or more active alarms, oldest first
//   alarm    one active alarm
//   test     no active alarm and a test alarm received that has not reached its end; a real alarm
//            replaces it for good (it does not come back when the real one ends)
//   ended    no active alarm, less than standbyDelay since the last change: the last alarm, marked ENDED
//   standby  otherwise (and at once on a screen that starts without an alarm)
import type { MonitorData } from '../../common/monitor-data.js';
import { activeAlarms, alarmSignature, endedAlarm, lastAlarmChange, type Alarm } from './alarms.js';
import type { TestAlarm } from './test-alarm.js';

/** What the screen remembers between decisions. */
export interface ViewMemory {
  /** Server time of the last alarm change this screen saw; -Infinity: none yet (the first state is "long ago"). */
  lastChangeMs: number;
  /** The data seen last (states are never mutated, so this is a reference); null before the first. */
  seen: MonitorData | null;
  /** The newest alarm shown, for the ENDED panel; forgotten once standby is reached. */
  lastShown: Alarm | null;
  /** The test alarm received last, until it ends or a real alarm replaces it. Never part of the data. */
  test: TestAlarm | null;
}

/** What to show. */
export type ViewDecision =
  | { mode: 'split'; alarms: Alarm[] }
  | { mode: 'alarm'; alarm: Alarm }
  | { mode: 'test'; test: TestAlarm }
  /** `endedAt`: when it ended (its end date, else when the wall saw it end): its elapsed time stops there. */
  | { mode: 'ended'; alarm: Alarm; endedAt: number }
  | { mode: 'standby' };

/** The memory of a screen that has seen nothing yet. */
export function initialMemory(): ViewMemory {
  return { lastChangeMs: -Infinity, seen: null, lastShown: null, test: null };
}

/** Takes in a test alarm; the one already held (sent again on a resubscribe) keeps its start. */
export function receiveTest(memory: ViewMemory, test: TestAlarm): ViewMemory {
  return memory.test?.key === test.key ? memory : { ...memory, test };
}

/** Takes in a new state of the data: a changed set of active alarms restarts the standby delay at `nowMs`. */
export function observe(memory: ViewMemory, data: MonitorData, nowMs: number): ViewMemory {
  // Both states are read at the same instant, so an event that ended meanwhile counts on neither.
  const changed = memory.seen !== null && alarmSignature(memory.seen, nowMs) !== alarmSignature(data, nowMs);
  return { ...memory, seen: data, lastChangeMs: changed ? nowMs : memory.lastChangeMs };
}

/** The view for the data at server time `nowMs`, and the memory to keep. */
export function decideView(
  data: MonitorData,
  memory: ViewMemory,
  nowMs: number,
  standbyDelaySec: number,
): { view: ViewDecision; memory: ViewMemory } {
  const alarms = activeAlarms(data, nowMs);
  if (alarms.length > 0) {
    const next = { ...memory, lastShown: alarms[alarms.length - 1], test: null };
    return { view: alarms.length > 1 ? { mode: 'split', alarms } : { mode: 'alarm', alarm: alarms[0] }, memory: next };
  }
  if (memory.test && nowMs < memory.test.endsAtMs) return { view: { mode: 'test', test: memory.test }, memory };
  // A test alarm that reached its end is forgotten; what was before it (ENDED or standby) carries on.
  const kept = memory.test ? { ...memory, test: null } : memory;
  const delayMs = Math.max(0, standbyDelaySec) * 1000;
  const shown = endedAlarm(kept.lastShown, data);
  const changed = lastAlarmChange(data, kept.lastChangeMs, nowMs);
  if (shown && nowMs - changed < delayMs) {
    const endedAt = shown.end !== null && shown.end <= nowMs ? shown.end : Math.min(nowMs, changed);
    return { view: { mode: 'ended', alarm: shown, endedAt }, memory: kept };
  }
  // Once standby is reached the old alarm is done with: a later change must not bring it back.
  return { view: { mode: 'standby' }, memory: { ...kept, lastShown: null } };
}

/** True while the wall shows an alarm (running, ended or a test): no self-reload then, and no blank screen. */
export function isBusy(view: ViewDecision | null): boolean {
  return view !== null && view.mode !== 'standby';
}
