// The text formatters of S7/S8: each turns the monitor area's alarming data (M7's body) into sms text
// in GSM-7 and says how many segments it needs. Their names are schemas/sms.ts's FORMATTER_NAMES.
// An alarm SMS ends with its answer link (docs/alarms.md "Answering without the app"): never cut, on a
// line of its own; the alarm text before it is cut instead, so that standard and compact stay one
// segment, link included (the page behind the link shows the whole alarm).
import type { FromSchema } from 'json-schema-to-ts';
import type { M7Body } from '../../../schemas/monitor.js';
import type { FormatterName } from '../../../schemas/sms.js';
import { MULTI_SEGMENT, SINGLE_SEGMENT, gsm7Units, segmentsOf, toGsm7, truncateUnits } from './gsm7.js';

export type AlarmingData = FromSchema<typeof M7Body>;

/** A formatted sms: GSM-7 text and the segments it is sent in. */
export interface SmsText {
  text: string;
  segments: number;
}

/** No alarm text is sent in more than this many segments; longer ones are cut. */
export const MAX_SEGMENTS = 6;
const MAX_UNITS = MAX_SEGMENTS * 153;

const clean = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();

function headline(data: AlarmingData): string[] {
  return [clean(data.event) || 'Alarm', clean(data.geo?.address), clean(data.message)].filter(Boolean);
}

/** "2026-11-22 14:00 UTC": the same on every phone, whatever its time zone. */
function startTime(iso: string | undefined): string | null {
  if (!iso || Number.isNaN(Date.parse(iso))) return null;
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function details(data: AlarmingData): string[] {
  const lines: string[] = [];
  const start = startTime(data.eventStartDate);
  if (start) lines.push(`Start: ${start}`);
  const { latitude, longitude } = data.geo ?? {};
  if (latitude !== undefined && longitude !== undefined) {
    lines.push(
      `Map: https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`,
    );
  }
  if (
    data.positiveResponses !== undefined ||
    data.negativeResponses !== undefined ||
    data.awaitingResponses !== undefined
  ) {
    lines.push(
      `Responses: ${data.positiveResponses ?? 0} yes, ${data.negativeResponses ?? 0} no, ${data.awaitingResponses ?? 0} open`,
    );
  }
  return lines;
}

/** The least of the alarm text an SMS keeps beside its link: a longer PUBLIC_URL than leaves this takes two segments. */
const MIN_TEXT_UNITS = 40;

// `maxUnits` bounds the whole SMS; a link takes its units first, whole, and the text is cut to the rest.
function finish(text: string, maxUnits: number, link?: string): SmsText {
  if (!link) {
    const fitted = truncateUnits(toGsm7(text), maxUnits);
    return { text: fitted, segments: segmentsOf(fitted) };
  }
  const tail = `\n${link}`;
  let room = maxUnits - gsm7Units(tail);
  if (room < MIN_TEXT_UNITS) room = Math.max(maxUnits, 2 * MULTI_SEGMENT) - gsm7Units(tail);
  const fitted = `${truncateUnits(toGsm7(text), Math.max(room, MIN_TEXT_UNITS))}${tail}`;
  return { text: fitted, segments: segmentsOf(fitted) };
}

const FORMATTERS: Record<FormatterName, (data: AlarmingData, link?: string) => SmsText> = {
  /** Event, address and message on their own lines; as many segments as they need — one with an answer link. */
  standard: (data, link) => finish(headline(data).join('\n'), link ? SINGLE_SEGMENT : MAX_UNITS, link),
  /** The same on one line, cut to a single segment. */
  compact: (data, link) => finish(headline(data).join(' | '), SINGLE_SEGMENT, link),
  /** Standard plus start time, a map link and the response counts (its segments as they need, the link last). */
  detailed: (data, link) => finish([...headline(data), ...details(data)].join('\n'), MAX_UNITS, link),
};

/** Formats alarming data with the named formatter; `link` (an alarm's answer link) ends the text, never cut. */
export function formatSms(name: FormatterName, data: AlarmingData, link?: string): SmsText {
  return FORMATTERS[name](data, link);
}
