// Checks on fields the channel areas share that a JSON Schema cannot express.
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { parsePhoneNumberFromString as parseFull } from 'libphonenumber-js/max';
import { MAX_SAFE_ID } from '../../../schemas/common.js';
import { badRequest } from '../../errors.js';

// Number types that reach no person, or cost whoever is called (libphonenumber's full metadata): a
// member's mobile or phone is none of them, since an alarm sends to every number at the installation's
// gateway's expense (docs/api.md "The app, sms and call areas").
const NOT_PERSONAL = new Set([
  'PREMIUM_RATE',
  'SHARED_COST',
  'TOLL_FREE',
  'UAN',
  'PERSONAL_NUMBER',
  'VOICEMAIL',
  'PAGER',
]);

const gsmProblem = (message: string, problem: string) =>
  badRequest('invalid_body', message, [{ in: 'body', path: 'gsm', problem }]);

/**
 * A gsm number (E.164 with 00 or +) must name a real country code and a length valid there: its stored
 * form ("0049…" for "+49…"), or a 400 naming the field. `personal`: a member's own number,
 * checked against the full metadata and refused when it is a premium-rate or other service number.
 */
export function checkGsm<T extends string | undefined>(gsm: T, message: string, personal = false): T {
  if (gsm === undefined) return gsm;
  // "+49…" is taken as "0049…", the form the 2019 interface stores and answers.
  const stored = gsm.startsWith('+') ? `00${gsm.slice(1)}` : gsm;
  const parsed = (personal ? parseFull : parsePhoneNumberFromString)(`+${stored.slice(2)}`);
  if (!parsed?.isValid())
    throw gsmProblem(
      message,
      'is not a valid number: E.164 with 00 for +, a known country code and a length valid there',
    );
  const type = personal ? parsed.getType() : undefined;
  if (type && NOT_PERSONAL.has(type))
    throw gsmProblem(
      message,
      `is a ${type.toLowerCase().replace(/_/g, '-')} number, not a person's mobile or phone: it is not taken as one`,
    );
  return stored as T;
}

/**
 * The ID of a path segment that may carry the 2019 clients' literal placeholder ("{mobileID}"), in
 * which case the ID travels in the query (docs/api.md "REST API"). A numeric path and a differing query is a 400.
 */
export function pathOrQueryId(raw: string, fromQuery: number | undefined, name: string, message: string): number {
  if (raw === `{${name}}`) {
    if (fromQuery === undefined)
      throw badRequest('invalid_parameter', message, [
        { in: 'query', path: name, problem: 'is required when the path carries the placeholder' },
      ]);
    return fromQuery;
  }
  const id = Number(raw);
  if (id > MAX_SAFE_ID)
    throw badRequest('invalid_parameter', message, [{ in: 'path', path: name, problem: `must be <= ${MAX_SAFE_ID}` }]);
  if (fromQuery !== undefined && fromQuery !== id)
    throw badRequest('invalid_parameter', message, [{ in: 'query', path: name, problem: 'differs from the path' }]);
  return id;
}
