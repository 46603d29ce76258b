// What the channels page's sections share (docs/console.md "Channels"): a labelled field with its problem
// beside it, the API's field problems in words a person understands, how a number is shown, and reads
// paced below the API's rate limit (a list of 50 members asks three lists each).
import { api, ApiError } from '../api.js';
import { words } from '../i18n.js';
import { fieldProblems } from '../ui.js';

const w = words(
  {
    gsmFormat: 'Bitte die Nummer international eingeben, mit +49 oder 0049 (z. B. +49 176 12345678).',
    gsmInvalid: 'Diese Nummer gibt es so nicht: Bitte Ländervorwahl und Länge prüfen (z. B. +49 176 12345678).',
    gsmService:
      'Das ist eine Sonder- oder Servicenummer (z. B. 0900, 0800), keine Nummer einer Person: Sie wird nicht genommen.',
    pinFormat: 'Die PIN besteht aus 4 bis 8 Ziffern.',
    tooLong: 'Das ist zu lang.',
    required: 'Bitte ausfüllen.',
    templatePick: 'Bitte eine Alarmvorlage wählen.',
    limit: 'Mehr Nummern dieser Art kann die Organisation für dieses Mitglied nicht eintragen (höchstens 5).',
  },
  {
    gsmFormat: 'Please enter the number in international form, with +49 or 0049 (e.g. +49 176 12345678).',
    gsmInvalid: 'There is no such number: please check the country code and the length (e.g. +49 176 12345678).',
    gsmService: "That is a premium-rate or service number (e.g. 0900, 0800), not a person's number: it is not taken.",
    pinFormat: 'The PIN is 4 to 8 digits.',
    tooLong: 'That is too long.',
    required: 'Please fill this in.',
    templatePick: 'Please pick an alarm template.',
    limit: 'The organization cannot enter more numbers of this kind for this member (at most 5).',
  },
);

/** A stored number (S9, C7) as the API gives it to the owner or an admin of his organization. */
export interface NumberView {
  id: number;
  active: boolean;
  gsm: string;
  name: string;
  ownerID: number;
}

/** An app device (A1); its push token is never shown. */
export interface Device {
  id: number;
  active: boolean;
  name: string;
  os: string;
  ownerID: number;
}

/** "004917612345678" as people write it: "+4917612345678". */
export const shownNumber = (gsm: string) => (gsm.startsWith('00') ? `+${gsm.slice(2)}` : gsm);

/** What a person types, without the spaces, dashes, slashes and brackets people write numbers with. */
export const typedNumber = (value: string) => value.replace(/[\s\-/().]/g, '');

/** The schema's wording of a field's problem in words a person understands; others as the API said them. */
function inWords(field: string, problem: string): string {
  if (field === 'gsm') {
    if (problem.includes('not a person')) return w.gsmService;
    if (problem.includes('not a valid number')) return w.gsmInvalid;
    return w.gsmFormat;
  }
  if (field === 'pin') return w.pinFormat;
  if (field === 'alarmTemplateID') return w.templatePick;
  if (problem.startsWith('must NOT have more')) return w.tooLong;
  if (problem === 'is required' || problem.startsWith('must NOT have fewer')) return w.required;
  return problem;
}

/**
 * A failed write's problems by field, in the page's language. `taken` is what a 409 conflict means for
 * this form (the unique number of a PIN configuration), shown beside the gsm field.
 */
export function channelProblems(err: unknown, fields: string[], taken?: string): Record<string, string> {
  if (err instanceof ApiError && err.status === 409 && err.code === 'conflict' && taken) return { gsm: taken };
  if (err instanceof ApiError && err.code === 'limit_reached') return { form: w.limit };
  const found = fieldProblems(err, fields);
  for (const field of fields) if (found[field]) found[field] = inWords(field, found[field]);
  return found;
}

/** A label, its input and the problem the API found with it, announced and tied to the input. */
export function Field({
  id,
  label,
  value,
  set,
  problem,
  hint,
  type = 'text',
  inputMode,
  maxLength = 100,
  autoComplete = 'off',
}: {
  id: string;
  label: string;
  value: string;
  set(value: string): void;
  problem?: string;
  hint?: string;
  type?: string;
  inputMode?: 'numeric' | 'tel' | 'text';
  maxLength?: number;
  autoComplete?: string;
}) {
  const described = [hint && `${id}-hint`, problem && `${id}-problem`].filter(Boolean).join(' ');
  return (
    <div class="channels-field">
      <label for={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} class="meta">
          {hint}
        </span>
      )}
      <input
        id={id}
        type={type}
        inputMode={inputMode}
        value={value}
        maxLength={maxLength}
        autoComplete={autoComplete}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
      {problem && (
        <span id={`${id}-problem`} class="field-problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

// The API allows 50 requests a second per person and address, twice that at once (docs/api.md, "Rate
// limits"): the members' lists keep below it, so other pages of the same person are not refused.
const BURST = 60;
const PER_SECOND = 30;
const bucket = { tokens: BURST, at: Date.now() };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function turn(): Promise<void> {
  for (;;) {
    const now = Date.now();
    bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) / 1000) * PER_SECOND);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    await pause(((1 - bucket.tokens) / PER_SECOND) * 1000);
  }
}

/** A read in its turn; refused for its rate (another tab was busy too), it is asked again a little later. */
export async function pacedGet<T>(path: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await turn();
    try {
      return await api<T>('GET', path);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 429) || attempt >= 5) throw err;
      await pause(1000 * attempt);
    }
  }
}
