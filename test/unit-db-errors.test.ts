// translateDbError (server/db/errors.ts): what the database's going away causes is a 503 with
// Retry-After, also when another error carries it or the driver labels it transient; a client's
// mistake is a 4xx; anything else is not a database error we know (null: a 500 by the middleware).
import * as assert from 'uvu/assert';
import { translateDbError } from '../server/db/errors.js';
import { test } from './helpers/suite.js';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });
const status = (err: unknown) => translateDbError(err)?.status ?? null;

test('the database away: 503, also wrapped in a bulk write or labelled transient by the driver', () => {
  assert.is(status(named('MongoNetworkError')), 503);
  assert.is(status(named('MongoServerSelectionError')), 503);
  assert.is(status(named('MongoBulkWriteError', { cause: named('MongoNetworkError') })), 503);
  assert.is(status(named('MongoServerError', { hasErrorLabel: (l: string) => l === 'RetryableWriteError' })), 503);
  assert.ok(translateDbError(named('MongoNetworkError'))?.headers?.['Retry-After']);
  // A write to a database process that just died, let through by the driver as the socket's own error.
  const ended = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
  assert.is(status(ended), 503);
});

test("the embedded engine's SQLite busy or its schema changed under a statement: 503, nothing was done", () => {
  const engine = (message: string) => named('MongoServerError', { code: 1, message });
  const changed = '[collection.go:94 sqlite.(*collection).Query] database schema has changed (17)';
  assert.is(status(engine(changed)), 503);
  assert.ok(translateDbError(engine(changed))?.headers?.['Retry-After']);
  assert.is(status(engine('[msg_insert.go:120] database is locked (5)')), 503);
  assert.is(status(engine('[msg_find.go:10] no such function: json_each (1)')), null);
});

test('a client mistake is a 4xx; an unknown error is none of ours', () => {
  assert.is(status({ name: 'MongoServerError', code: 11000, message: 'E11000 duplicate key' }), 409);
  assert.is(status(named('CastError')), 400);
  assert.is(status(new Error('something else')), null);
  assert.is(status(named('MongoServerError', { hasErrorLabel: () => false })), null);
  // A cause chain that loops ends.
  const a: { name: string; cause?: unknown } = { name: 'Wrapper' };
  a.cause = a;
  assert.is(status(a), null);
});

test.run();
