// Checks on fields the channel areas share that a JSON Schema cannot express.
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { MAX_SAFE_ID } from '../../../schemas/common.js';
import { badRequest } from '../../errors.js';

/** A gsm number (E.164 with 00 or +) must name a real country code and a length valid there; its stored form (00). */
export function checkGsm<T extends string | undefined>(gsm: T, message: string): T {
  if (gsm === undefined) return gsm;
  // "+49…" is taken as "0049…", the form the 2019 interface stores and answers.
  const stored = gsm.startsWith('+') ? `00${gsm.slice(1)}` : gsm;
  if (parsePhoneNumberFromString(`+${stored.slice(2)}`)?.isValid()) return stored as T;
  throw badRequest('invalid_body', message, [
    {
      in: 'body',
      path: 'gsm',
      problem: 'is not a valid number: E.164 with 00 for +, a known country code and a length valid there',
    },
  ]);
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
