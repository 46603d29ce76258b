// What the screen should show, decided from data and the clock alone. DOM-free (unit tested in Node).
import {
  activeEvents,
  isAlarm,
  namesAlarm,
  type Json,
  type JsonObject,
  type MonitorData,
} from '../../common/monitor-data.js';

/** A readable view of one alarming-data object; every field is optional because writes may be partial. */
export interface Alarm {
  key: string;
  eventId: number | null;
  event: string;
  /** 'phone': a call alarm without a template; the wall shows its own word for it instead of `event`. */
  kind: 'phone' | null;
  message: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  start: number | null;
  end: number | null;
  positive: number;
  negative: number;
  awaiting: number;
  units: Unit[];
}

/** A unit and its members' feedback. */
export interface Unit {
  name: string;
  members: Member[];
}

/** One member's feedback item; feedback 1 = coming, 0 = not coming, 2 = awaiting. */
export interface Member {
  name: string;
  position: string;
  labelName: string;
  labelColor: string | null;
  feedback: number | null;
}

const obj = (v: Json | undefined): JsonObject => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const time = (v: Json | undefined): number | null => {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? ms : null;
};

function member(raw: Json): Member {
  const m = obj(raw);
  const label = obj(m.label);
  return {
    name: str(m.name),
    position: str(m.position),
    labelName: str(label.name),
    labelColor: typeof label.color === 'string' && label.color.trim() ? label.color.trim() : null,
    feedback: num(m.feedback),
  };
}

/** Reads alarming data into an Alarm; `key` identifies the event for ordering and gong decisions. */
export function readAlarm(raw: JsonObject): Alarm {
  const geo = obj(raw.geo);
  const eventId = num(raw.eventId);
  const units = Array.isArray(raw.units) ? raw.units : [];
  return {
    key: eventId !== null ? `id:${eventId}` : `event:${str(raw.event)}`,
    eventId,
    event: str(raw.event),
    kind: raw.eventKind === 'phone' ? 'phone' : null,
    message: str(raw.message),
    address: str(geo.address),
    latitude: num(geo.latitude),
    longitude: num(geo.longitude),
    start: time(raw.eventStartDate),
    end: time(raw.eventEndDate),
    positive: num(raw.positiveResponses) ?? 0,
    negative: num(raw.negativeResponses) ?? 0,
    awaiting: num(raw.awaitingResponses) ?? 0,
    units: units.map((u) => {
      const unit = obj(u);
      return { name: str(unit.name), members: (Array.isArray(unit.feedback) ? unit.feedback : []).map(member) };
    }),
  };
}

/** True when alarmData or an event of alarmDataList names an event or a message and has not ended. */
export function isAlarmActive(data: MonitorData, nowMs: number): boolean {
  return activeAlarms(data, nowMs).length > 0;
}

/**
 * The alarms to show now, oldest first so panels keep their place when another event arrives. Data
 * without an event or a message (counters alone) is no alarm: the wall never turns red for it.
 */
export function activeAlarms(data: MonitorData, nowMs: number): Alarm[] {
  const list = Object.values(data.alarmDataList ?? {})
    .filter((a) => isAlarm(a, nowMs))
    .map(readAlarm);
  const main = data.alarmData ?? {};
  if (isAlarm(main, nowMs)) {
    const alarm = readAlarm(main);
    // alarmData is the freshest copy of its event; it replaces the listed one or joins the list.
    const at = list.findIndex((a) => a.key === alarm.key);
    if (at >= 0) list[at] = alarm;
    else list.push(alarm);
  }
  return list.sort((a, b) => (a.start ?? 0) - (b.start ?? 0) || (a.eventId ?? 0) - (b.eventId ?? 0));
}

/** The alarm to keep on screen during the standby delay: the last alarmData, ended or not. */
export function lastAlarm(data: MonitorData): Alarm | null {
  return namesAlarm(data.alarmData ?? {}) ? readAlarm(data.alarmData) : null;
}

/** The alarm an ENDED panel shows: the newest alarmData (with the latest counts), else the last one shown (cleared). */
export function endedAlarm(lastShown: Alarm | null, data: MonitorData): Alarm | null {
  return lastAlarm(data) ?? lastShown;
}

/**
 * A stable text of the alarms active at `nowMs`; a different text means the alarm changed. Ended alarms
 * are left out: every write prunes them from the list, and a late patch to one (response counts that
 * arrive after its end) is no change either, so neither brings an ENDED panel back.
 */
export function alarmSignature(data: MonitorData, nowMs: number): string {
  const main = data.alarmData ?? {};
  return JSON.stringify([isAlarm(main, nowMs) ? main : {}, activeEvents(data.alarmDataList ?? {}, nowMs)]);
}

/** The moment the alarm last changed: our own observation, or the end date of an alarm that ran out. */
export function lastAlarmChange(data: MonitorData, observedMs: number, nowMs: number): number {
  let latest = observedMs;
  const candidates = [data.alarmData ?? {}, ...Object.values(data.alarmDataList ?? {})];
  for (const raw of candidates) {
    const end = readAlarm(raw).end;
    if (end !== null && end <= nowMs && end > latest) latest = end;
  }
  return latest;
}

/**
 * Remembers announced alarms; fresh() returns those not announced before. A new eventId or a new event
 * text is a new alarm, but an eventId arriving in a later patch for the same text is the same alarm.
 */
export function alarmMemory(): { fresh: (alarms: Alarm[]) => Alarm[] } {
  const seen: Array<{ eventId: number | null; event: string }> = [];
  return {
    fresh(alarms) {
      const out: Alarm[] = [];
      for (const a of alarms) {
        // Without an id on either side only the text can tell two alarms apart.
        const known = seen.find(
          (s) => s.event === a.event && (s.eventId === a.eventId || s.eventId === null || a.eventId === null),
        );
        if (!known) {
          seen.push({ eventId: a.eventId, event: a.event });
          out.push(a);
        } else if (known.eventId === null) {
          // The id came late: from now on it identifies this alarm, so another id with this text rings.
          known.eventId = a.eventId;
        }
      }
      return out;
    },
  };
}
