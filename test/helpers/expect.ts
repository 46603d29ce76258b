// Assertions on docs/api.md "Errors"'s error body, shared by the HTTP tests.
import * as assert from 'uvu/assert';
import type { Reply } from './http.js';

/** Largest integer JavaScript reads exactly; one above it must be refused (docs/api.md "Base, formats, IDs"). */
export const MAX_SAFE_ID = 9007199254740991;
/** 2^53 + 1 as text: a JSON or query value above MAX_SAFE_ID. */
export const ABOVE_MAX_ID = '9007199254740993';

/** Asserts status, error code, optional message wording and that the body carries a requestId. */
export function expectError(res: Reply, status: number, error: string, message?: string): void {
  assert.is(res.status, status, `expected ${status} ${error}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.type(res.body, 'object');
  assert.is(res.body.error, error);
  assert.type(res.body.message, 'string');
  if (message !== undefined) assert.is(res.body.message, message);
  assert.type(res.body.requestId, 'string');
  assert.is(res.headers.get('x-request-id'), res.body.requestId);
}

/** Asserts a 400 whose details name where and which field was wrong. */
export function expectBadRequest(res: Reply, code: string, message: string, where: string, path?: string): void {
  expectError(res, 400, code, message);
  assert.ok(
    Array.isArray(res.body.details) && res.body.details.length > 0,
    `details missing: ${JSON.stringify(res.body)}`,
  );
  const detail = res.body.details[0];
  assert.is(detail.in, where);
  assert.type(detail.problem, 'string');
  if (path !== undefined) assert.is(detail.path, path);
}

/** Asserts two answers are the same to the caller: status, headers' content type and body (its requestId aside). */
export function expectSameAnswer(res: Reply, other: Reply, what: string): void {
  const strip = (r: Reply) => ({
    status: r.status,
    type: r.headers.get('content-type'),
    body: { ...r.body, requestId: undefined },
  });
  assert.equal(strip(res), strip(other), what);
}
