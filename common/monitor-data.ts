// Pure rules for a monitor's data (docs/api.md "Decisions where the interface is silent"). The server applies them to store a write, and
// the display client applies the very same function to the patches it receives, so both always agree.
// No Node or browser APIs here: this module is bundled into the display client.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The four maps M6 returns. */
export interface MonitorData {
  alarmData: JsonObject;
  alarmDataList: Record<string, JsonObject>;
  incidentLog: Record<string, string>;
  metaData: JsonObject;
}

export type DataSection = 'alarming' | 'meta';
export type DataOp = 'set' | 'patch';

/** One write to a monitor's data, as stored and as sent to screens. `at` is the server's RFC 3339 time. */
export interface DataWrite {
  section: DataSection;
  op: DataOp;
  payload: JsonObject;
  at: string;
}

/** How many incident log entries a monitor keeps. */
export const INCIDENT_LOG_SIZE = 200;

/** Events alarmDataList keeps (events without an end date would otherwise pile up forever). */
export const MAX_EVENTS = 20;

/** Bytes (UTF-8 JSON) alarmDataList may hold; beyond it the oldest events leave first. */
export const MAX_EVENTS_BYTES = 2 * 1024 * 1024;

/** The data of a monitor that was never written. */
export function emptyData(): MonitorData {
  return { alarmData: {}, alarmDataList: {}, incidentLog: {}, metaData: {} };
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Merges `patch` into `base`: objects merge key by key, arrays and scalars (null too) replace. */
export function mergePatch(base: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? mergePatch(current, value) : value;
  }
  return out;
}

/** True when the alarming data names an end date that lies before `nowMs`. */
export function hasEnded(alarm: JsonObject, nowMs: number): boolean {
  const end = alarm.eventEndDate;
  if (typeof end !== 'string') return false;
  const endMs = Date.parse(end);
  return Number.isFinite(endMs) && endMs < nowMs;
}

/** The UTF-8 length of a string, in Node and in browsers alike. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 4; // a surrogate pair is one code point of four bytes
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** True when the alarming data names an event or a message: only then is it an alarm to show. */
export function namesAlarm(alarm: JsonObject): boolean {
  const named = (value: Json | undefined) => typeof value === 'string' && value.trim() !== '';
  return named(alarm.event) || named(alarm.message);
}

/** True when the alarming data is an alarm on the wall now: it names an event or a message and has not ended. */
export function isAlarm(alarm: JsonObject, nowMs: number): boolean {
  return namesAlarm(alarm) && !hasEnded(alarm, nowMs);
}

/**
 * What an alarming patch changes: the current alarm ('current'), a listed event of a split screen
 * ('listed'), or nothing (null) — then it is refused, since a patch must never raise an alarm again
 * that was cleared or has ended (alarm systems send response counts late).
 */
export function patchTarget(data: MonitorData, payload: JsonObject, nowMs: number): 'current' | 'listed' | null {
  const named = eventKey(payload);
  const current = eventKey(data.alarmData);
  if ((named === null || named === current) && isAlarm(data.alarmData, nowMs)) return 'current';
  if (named !== null && named !== current && named in data.alarmDataList && isAlarm(data.alarmDataList[named], nowMs))
    return 'listed';
  return null;
}

/** The events of the list that have not ended at `nowMs`. */
export function activeEvents(list: Record<string, JsonObject>, nowMs: number): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [id, alarm] of Object.entries(list)) if (!hasEnded(alarm, nowMs)) out[id] = alarm;
  return out;
}

function startOf(alarm: JsonObject): number {
  const start = typeof alarm.eventStartDate === 'string' ? Date.parse(alarm.eventStartDate) : NaN;
  return Number.isFinite(start) ? start : -Infinity;
}

/**
 * Keeps alarmDataList within MAX_EVENTS and MAX_EVENTS_BYTES: the events that started earliest (or
 * name no start) leave first, and the event just written never does, so a new alarm always shows.
 */
export function capEvents(list: Record<string, JsonObject>, keep: string | null): Record<string, JsonObject> {
  const sizes = new Map(Object.entries(list).map(([id, alarm]) => [id, utf8Length(JSON.stringify(alarm))]));
  let total = [...sizes.values()].reduce((a, b) => a + b, 0);
  if (sizes.size <= MAX_EVENTS && total <= MAX_EVENTS_BYTES) return list;
  const oldestFirst = Object.keys(list)
    .filter((id) => id !== keep)
    .sort((a, b) => startOf(list[a]) - startOf(list[b]) || Number(a) - Number(b));
  const out = { ...list };
  for (const id of oldestFirst) {
    if (Object.keys(out).length <= MAX_EVENTS && total <= MAX_EVENTS_BYTES) break;
    delete out[id];
    total -= sizes.get(id)!;
  }
  return out;
}

function eventKey(alarm: JsonObject): string | null {
  const id = alarm.eventId;
  return typeof id === 'number' && Number.isInteger(id) ? String(id) : null;
}

function counters(alarm: JsonObject): string {
  const n = (key: string) => (typeof alarm[key] === 'number' ? alarm[key] : 0);
  return `${n('positiveResponses')} positive, ${n('negativeResponses')} negative, ${n('awaitingResponses')} awaiting`;
}

function describe(write: DataWrite, alarm: JsonObject): string {
  if (write.section === 'meta') return write.op === 'set' ? 'Meta data set' : 'Meta data changed';
  if (write.op === 'set') {
    if (Object.keys(write.payload).length === 0) return 'Alarm cleared';
    return `Alarm set: ${typeof alarm.event === 'string' ? alarm.event : '(no event)'}`;
  }
  const keys = Object.keys(write.payload);
  if (keys.some((k) => k.endsWith('Responses') || k === 'units')) return `Responses changed: ${counters(alarm)}`;
  return `Alarm changed: ${keys.join(', ')}`;
}

// Log keys are RFC 3339 times; two writes in one millisecond get consecutive milliseconds so none is lost.
function logKey(log: Record<string, string>, at: string): string {
  let ms = Date.parse(at);
  let key = new Date(ms).toISOString();
  while (key in log) key = new Date(++ms).toISOString();
  return key;
}

// Runs on every data write on every process (the writer's and each learner's): the log is kept in time
// order, so the usual append (the newest entry) needs no sort, and the copy is built key by key (a
// spread of a 200-key object costs several times as much).
function appendLog(log: Record<string, string>, at: string, text: string): Record<string, string> {
  const added = logKey(log, at);
  const keys = Object.keys(log);
  keys.push(added);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] > keys[i]) {
      keys.sort();
      break;
    }
  }
  const kept: Record<string, string> = {};
  for (let i = Math.max(0, keys.length - INCIDENT_LOG_SIZE); i < keys.length; i++)
    kept[keys[i]] = keys[i] === added ? text : log[keys[i]];
  return kept;
}

type AlarmingResult = Pick<MonitorData, 'alarmData' | 'alarmDataList'> & { changed: JsonObject; key: string | null };

function applyAlarming(data: MonitorData, write: DataWrite): AlarmingResult {
  const list = { ...data.alarmDataList };
  if (write.op === 'set') {
    // Setting {} clears the wall: alarmData and every event of alarmDataList (docs/api.md, "Monitor
    // data"), or a second running event would keep the screen red.
    if (Object.keys(write.payload).length === 0) return { alarmData: {}, alarmDataList: {}, changed: {}, key: null };
    const key = eventKey(write.payload);
    if (key) list[key] = write.payload;
    return { alarmData: write.payload, alarmDataList: list, changed: write.payload, key };
  }
  // A patch naming a listed event changes that event (a split screen's counters); otherwise alarmData.
  // The server refuses a patch without a target before it gets here; a screen never receives one.
  const target = patchTarget(data, write.payload, Date.parse(write.at));
  if (target === null) return { alarmData: data.alarmData, alarmDataList: list, changed: data.alarmData, key: null };
  const fromList = target === 'listed';
  const merged = mergePatch(fromList ? list[eventKey(write.payload)!] : data.alarmData, write.payload);
  const key = eventKey(merged);
  if (key) list[key] = merged;
  return { alarmData: fromList ? data.alarmData : merged, alarmDataList: list, changed: merged, key };
}

/** Applies one write and returns the new data; ended events leave alarmDataList, the log keeps its newest entries. */
export function applyWrite(data: MonitorData, write: DataWrite): MonitorData {
  const nowMs = Date.parse(write.at);
  let next: MonitorData;
  let subject: JsonObject;
  let written: string | null = null;
  if (write.section === 'alarming') {
    const { changed, key, ...alarming } = applyAlarming(data, write);
    next = { ...data, ...alarming };
    subject = changed;
    written = key;
  } else {
    next = { ...data, metaData: write.op === 'set' ? write.payload : mergePatch(data.metaData, write.payload) };
    subject = next.metaData;
  }
  return {
    ...next,
    alarmDataList: capEvents(activeEvents(next.alarmDataList, nowMs), written),
    incidentLog: appendLog(data.incidentLog, write.at, describe(write, subject)),
  };
}
