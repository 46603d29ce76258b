// What the inputs pages (/console/inputs, inputs-*.tsx) know of an alarm input (IP1–IP6; schemas/inputs.ts):
// its shape as the API answers it, the form's draft of it and the body IP1/IP3 take, the example profile
// for a German Leitstelle's fax, and a refusal's details placed at the form's fields.
import type { TryResultView } from '../../../schemas/inputs.js';
import { ApiError } from '../api.js';

export const KINDS = ['document', 'imap', 'pager'] as const;
export type Kind = (typeof KINDS)[number];

/** What a stored password reads as (schemas/inputs.ts MASK; a value import would bundle the schemas). */
export const MASK = '********';

/** The profile's fields, in the order the form shows them (event, the one required, first). */
export const PROFILE_FIELDS = [
  'event',
  'keyword',
  'dispatchNumber',
  'address',
  'street',
  'city',
  'latitude',
  'longitude',
  'units',
  'message',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export const CHANNELS = ['app', 'sms', 'call'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface PagerCode {
  ric?: string;
  subric?: string;
  zvei?: string;
  event?: string;
  templateId?: number;
  message?: string;
}

export interface Input {
  id: number;
  organizationId: number;
  name: string;
  kind: Kind;
  settings: Record<string, unknown>;
  profile: { fields: Partial<Record<ProfileField, string>> } | null;
  monitorIds: number[] | null;
  channels: Channel[] | null;
  active: boolean;
  lastReceivedAt: string | null;
  lastError: string | null;
}

/** IP5's answer, as the API's schema says. */
export type TryResult = TryResultView;
export type WouldRaise = NonNullable<TryResultView['alarm']>;

export const OUTCOMES = ['raised', 'merged', 'ignored', 'failed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface InputDocument {
  id: string;
  receivedAt: string;
  from: string;
  type: string;
  outcome: Outcome;
  alarmId: number | null;
  reason: string | null;
  text: string;
}

/**
 * A profile for the alarm fax of a German Leitstelle: one "Label: value" line per fact —
 *
 *   Einsatznummer: 4711-2026
 *   Stichwort: B3 Wohnungsbrand
 *   Straße: Goethestraße 5            (or one line "Einsatzort: Goethestraße 5, 52064 Aachen")
 *   Ort: 52064 Aachen
 *   Koordinaten: 50.7766, 6.0834      (also "50,7766, 6,0834" or "N 50.7766 E 6.0834")
 *   Einsatzmittel: HLF 20, DLK 23
 *   Bemerkung: Rauch aus Fenster 2. OG
 *
 * `[ \t]` rather than `\s`, so that an empty line never takes the next line as its value; a space before
 * the colon is allowed (OCR often reads one). Units: every name after "Einsatzmittel:" or after a comma
 * on that line.
 */
export const EXAMPLE_PROFILE: Record<ProfileField, string> = {
  event: '^Stichwort[ \\t]*:[ \\t]*(.+)$',
  keyword: '^Stichwort[ \\t]*:[ \\t]*([A-Z]{1,4}[ \\t]?\\d{1,2})\\b',
  dispatchNumber: '^Einsatznummer[ \\t]*:[ \\t]*(\\S+)',
  address: '^Einsatzort[ \\t]*:[ \\t]*(.+)$',
  street: '^Stra(?:ß|ss)e[ \\t]*:[ \\t]*(.+)$',
  city: '^Ort[ \\t]*:[ \\t]*(.+)$',
  latitude: '^Koordinaten[ \\t]*:[ \\t]*[NS]?[ \\t]*(-?\\d{1,2}[.,]\\d+)',
  longitude:
    '^Koordinaten[ \\t]*:[ \\t]*[NS]?[ \\t]*-?\\d{1,2}[.,]\\d+[ \\t]*[,;/]?[ \\t]*[EOW]?[ \\t]*(-?\\d{1,3}[.,]\\d+)',
  units: '(?<=^Einsatzmittel[ \\t]*:(?:[^\\n]*,)?)[ \\t]*([^,\\n]+)',
  message: '^Bemerkung[ \\t]*:[ \\t]*(.+)$',
};

/** A fax as the example profile reads it: what "Ausprobieren" starts with. */
export const EXAMPLE_FAX = [
  'Leitstelle Aachen – Alarmfax',
  'Einsatznummer: 4711-2026',
  'Stichwort: B3 Wohnungsbrand',
  'Straße: Goethestraße 5',
  'Ort: 52064 Aachen',
  'Koordinaten: 50.7766, 6.0834',
  'Einsatzmittel: HLF 20, DLK 23',
  'Bemerkung: Rauch aus Fenster 2. OG',
].join('\n');

/** One pager code as the form edits it. */
export interface CodeDraft {
  key: number;
  type: 'ric' | 'zvei';
  code: string;
  subric: string;
  event: string;
  message: string;
  /** Kept from the stored code when it names a template rather than an event. */
  templateId?: number;
}

export interface VehicleDraft {
  key: number;
  fms: string;
  name: string;
}

/** The whole form: every kind's settings, so that switching the kind back and forth loses nothing. */
export interface Draft {
  name: string;
  kind: Kind;
  active: boolean;
  host: string;
  port: string;
  tls: boolean;
  user: string;
  /** Empty on an existing input: the stored password stays. */
  password: string;
  folder: string;
  senders: string;
  codes: CodeDraft[];
  vehicles: VehicleDraft[];
  profile: Record<ProfileField, string>;
  /** null: every channel. */
  channels: Channel[] | null;
  /** null: every monitor, also those made later. */
  monitorIds: number[] | null;
}

let nextKey = 1;
export const blankCode = (): CodeDraft => ({
  key: nextKey++,
  type: 'ric',
  code: '',
  subric: '',
  event: '',
  message: '',
});
export const blankVehicle = (): VehicleDraft => ({ key: nextKey++, fms: '', name: '' });

const emptyProfile = () =>
  Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as unknown as Record<ProfileField, string>;

/** The form's draft of an input, or of a new one. */
export function draftOf(input?: Input): Draft {
  const s = (input?.settings ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const codes = input?.kind === 'pager' ? ((s.codes as PagerCode[] | undefined) ?? []) : [];
  const vehicles =
    input?.kind === 'pager' ? ((s.vehicles as Array<{ fms: string; name: string }> | undefined) ?? []) : [];
  return {
    name: input?.name ?? '',
    kind: input?.kind ?? 'document',
    active: input?.active ?? true,
    host: str(s.host),
    port: typeof s.port === 'number' ? String(s.port) : '',
    tls: s.tls !== false,
    user: str(s.user),
    password: '',
    folder: str(s.folder),
    senders: Array.isArray(s.allowedSenders) ? (s.allowedSenders as string[]).join('\n') : '',
    codes: codes.map((c) => ({
      key: nextKey++,
      type: c.zvei ? 'zvei' : 'ric',
      code: c.zvei ?? c.ric ?? '',
      subric: c.subric ?? '',
      event: c.event ?? '',
      message: c.message ?? '',
      templateId: c.templateId,
    })),
    vehicles: vehicles.map((v) => ({ key: nextKey++, fms: v.fms, name: v.name })),
    profile: { ...emptyProfile(), ...(input?.profile?.fields ?? {}) },
    channels: input?.channels ?? null,
    monitorIds: input?.monitorIds ?? null,
  };
}

const lines = (text: string) => [
  ...new Set(
    text
      .split(/[\n,;]/)
      .map((l) => l.trim())
      .filter(Boolean),
  ),
];

/** The settings of the draft's kind as IP1/IP3 take them; a new imap input sends its password. */
function settingsOf(d: Draft, existing: boolean): Record<string, unknown> {
  if (d.kind === 'imap')
    return {
      host: d.host.trim(),
      ...(d.port.trim() && { port: Number(d.port.trim()) }),
      tls: d.tls,
      user: d.user.trim(),
      ...(d.password ? { password: d.password } : existing ? { password: MASK } : {}),
      ...(d.folder.trim() && { folder: d.folder.trim() }),
      allowedSenders: lines(d.senders),
    };
  if (d.kind === 'pager')
    return {
      codes: d.codes.map((c) => ({
        ...(c.type === 'zvei' ? { zvei: c.code.trim() } : { ric: c.code.trim() }),
        ...(c.type === 'ric' && c.subric && { subric: c.subric }),
        ...(c.event.trim()
          ? { event: c.event.trim() }
          : c.templateId !== undefined
            ? { templateId: c.templateId }
            : {}),
        ...(c.message.trim() && { message: c.message.trim() }),
      })),
      vehicles: d.vehicles.map((v) => ({ fms: v.fms.trim(), name: v.name.trim() })),
    };
  return {};
}

/** The body of IP1 (with the organization) or IP3 (an existing input's). */
export function bodyOf(d: Draft, organizationId: number, existing: boolean): Record<string, unknown> {
  const fields = Object.fromEntries(
    PROFILE_FIELDS.filter((f) => d.profile[f].trim()).map((f) => [f, d.profile[f].trim()]),
  );
  return {
    organizationID: organizationId,
    name: d.name.trim(),
    kind: d.kind,
    settings: settingsOf(d, existing),
    profile: d.kind === 'pager' ? null : { fields },
    monitorIds: d.monitorIds,
    channels: d.channels,
    active: d.active,
  };
}

/**
 * Where the form shows a refusal's details: the longest known prefix of each detail's path
 * (`profile.fields.event`, `settings.codes.2`, `settings.allowedSenders`, `name` …); the rest under `form`.
 */
export function problemsAt(
  err: unknown,
  known: (key: string) => boolean,
  say: (path: string, problem: string) => string,
) {
  const at: Record<string, string> = {};
  if (!(err instanceof ApiError) || err.status !== 400 || err.details.length === 0) return null;
  // The schema's combinators repeat what a detail before them said ("must match "then" schema").
  const summary = (d: { path: string; problem: string }) =>
    d.path === '(body)' || /^must match (".*" schema|exactly one schema|a schema in)|^must be null$/.test(d.problem);
  const details = err.details.some((d) => !summary(d)) ? err.details.filter((d) => !summary(d)) : err.details;
  for (const d of details) {
    const parts = d.path.split('.');
    let key: string | null = null;
    for (let n = parts.length; n > 0 && !key; n--)
      if (known(parts.slice(0, n).join('.'))) key = parts.slice(0, n).join('.');
    if (key) at[key] ??= say(d.path, d.problem);
    else at.form = [at.form, `${d.path} – ${d.problem}`].filter(Boolean).join('; ');
  }
  return at;
}

/** The media type of a file for IP4/IP5, by its type or else its name; null: not a document the API reads. */
export function documentType(file: File): string | null {
  const types = ['application/pdf', 'image/png', 'image/tiff', 'text/plain', 'message/rfc822'];
  if (types.includes(file.type)) return file.type;
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  const byExt: Record<string, string> = {
    pdf: 'application/pdf',
    png: 'image/png',
    tif: 'image/tiff',
    tiff: 'image/tiff',
    txt: 'text/plain',
    eml: 'message/rfc822',
  };
  return (ext && byExt[ext]) ?? null;
}
