// The text formatters of S7/S8: each turns the monitor area's alarming data (M7's body) into sms text
// in GSM-7 and says how many segments it needs. Their names are schemas/sms.ts's FORMATTER_NAMES.
import type { FromSchema } from 'json-schema-to-ts';
import type { M7Body } from '../../../schemas/monitor.js';
import type { FormatterName } from '../../../schemas/sms.js';
import { SINGLE_SEGMENT, segmentsOf, toGsm7, truncateUnits } from './gsm7.js';

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

function finish(text: string, maxUnits: number): SmsText {
  const fitted = truncateUnits(toGsm7(text), maxUnits);
  return { text: fitted, segments: segmentsOf(fitted) };
}

const FORMATTERS: Record<FormatterName, (data: AlarmingData) => SmsText> = {
  /** Event, address and message on their own lines; as many segments as they need. */
  standard: (data) => finish(headline(data).join('\n'), MAX_UNITS),
  /** The same on one line, cut to a single segment. */
  compact: (data) => finish(headline(data).join(' | '), SINGLE_SEGMENT),
  /** Standard plus start time, a map link and the response counts. */
  detailed: (data) => finish([...headline(data), ...details(data)].join('\n'), MAX_UNITS),
};

/** Formats alarming data with the named formatter. */
export function formatSms(name: FormatterName, data: AlarmingData): SmsText {
  return FORMATTERS[name](data);
}
