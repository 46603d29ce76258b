// Pure rules for a monitor's data (CONTRACT.md §6). The server applies them to store a write, and
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

/** The events of the list that have not ended at `nowMs`. */
export function activeEvents(list: Record<string, JsonObject>, nowMs: number): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [id, alarm] of Object.entries(list)) if (!hasEnded(alarm, nowMs)) out[id] = alarm;
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

function appendLog(log: Record<string, string>, at: string, text: string): Record<string, string> {
  const next = { ...log, [logKey(log, at)]: text };
  const keys = Object.keys(next).sort();
  if (keys.length <= INCIDENT_LOG_SIZE) return next;
  const kept: Record<string, string> = {};
  for (const key of keys.slice(keys.length - INCIDENT_LOG_SIZE)) kept[key] = next[key];
  return kept;
}

type AlarmingResult = Pick<MonitorData, 'alarmData' | 'alarmDataList'> & { changed: JsonObject };

function applyAlarming(data: MonitorData, write: DataWrite): AlarmingResult {
  const list = { ...data.alarmDataList };
  if (write.op === 'set') {
    const key = eventKey(write.payload);
    if (key) list[key] = write.payload;
    return { alarmData: write.payload, alarmDataList: list, changed: write.payload };
  }
  // A patch naming a listed event changes that event (a split screen's counters); otherwise alarmData.
  const named = eventKey(write.payload);
  const fromList = named !== null && named in list && named !== eventKey(data.alarmData);
  const merged = mergePatch(fromList ? list[named] : data.alarmData, write.payload);
  const key = eventKey(merged);
  if (key) list[key] = merged;
  return { alarmData: fromList ? data.alarmData : merged, alarmDataList: list, changed: merged };
}

/** Applies one write and returns the new data; ended events leave alarmDataList, the log keeps its newest entries. */
export function applyWrite(data: MonitorData, write: DataWrite): MonitorData {
  const nowMs = Date.parse(write.at);
  let next: MonitorData;
  let subject: JsonObject;
  if (write.section === 'alarming') {
    const { changed, ...alarming } = applyAlarming(data, write);
    next = { ...data, ...alarming };
    subject = changed;
  } else {
    next = { ...data, metaData: write.op === 'set' ? write.payload : mergePatch(data.metaData, write.payload) };
    subject = next.metaData;
  }
  return {
    ...next,
    alarmDataList: activeEvents(next.alarmDataList, nowMs),
    incidentLog: appendLog(data.incidentLog, write.at, describe(write, subject)),
  };
}
