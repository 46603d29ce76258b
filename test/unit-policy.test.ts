import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { AppError } from '../server/errors.js';
import { serviceSchemas } from '../server/areas/index.js';
import { Validator } from '../server/http/validation.js';
import type { Actor } from '../server/identity/actor.js';
import { canConfigure, canRead, roleIn } from '../server/identity/policy.js';

const ORG = 17;
const OTHER = 23;

const apiKey: Actor = { kind: 'apikey', tokenId: 1, credential: 'k', organizationId: ORG };
const user = (roles: Array<[number, 'admin' | 'member']>): Actor => ({
  kind: 'user',
  tokenId: 2,
  credential: 'p',
  userId: 5,
  roles: new Map(roles),
});
const admin = user([[ORG, 'admin']]);
const member = user([[ORG, 'member']]);
const outsider = user([[OTHER, 'admin']]);
const nobody = user([]);

const policy = suite('policy');

policy('an API key is admin of its own organization and nothing elsewhere', () => {
  assert.is(roleIn(apiKey, ORG), 'admin');
  assert.is(roleIn(apiKey, OTHER), null);
  assert.ok(canRead(apiKey, ORG));
  assert.ok(canConfigure(apiKey, ORG));
  assert.not.ok(canRead(apiKey, OTHER));
  assert.not.ok(canConfigure(apiKey, OTHER));
});

policy('an admin reads and configures his organization only', () => {
  assert.is(roleIn(admin, ORG), 'admin');
  assert.ok(canRead(admin, ORG));
  assert.ok(canConfigure(admin, ORG));
  assert.not.ok(canRead(admin, OTHER));
  assert.not.ok(canConfigure(admin, OTHER));
});

policy('a member reads but does not configure', () => {
  assert.is(roleIn(member, ORG), 'member');
  assert.ok(canRead(member, ORG));
  assert.not.ok(canConfigure(member, ORG));
});

policy('a user without membership neither reads nor configures; an admin elsewhere gains nothing here', () => {
  for (const actor of [nobody, outsider]) {
    assert.is(roleIn(actor, ORG), null);
    assert.not.ok(canRead(actor, ORG));
    assert.not.ok(canConfigure(actor, ORG));
  }
  assert.ok(canConfigure(outsider, OTHER));
});

policy('roles are per organization: admin in one, member in another', () => {
  const mixed = user([
    [ORG, 'member'],
    [OTHER, 'admin'],
  ]);
  assert.not.ok(canConfigure(mixed, ORG));
  assert.ok(canConfigure(mixed, OTHER));
  assert.ok(canRead(mixed, ORG) && canRead(mixed, OTHER));
});

policy.run();

// ---------------------------------------------------------------- Validator
const TestFlags = {
  $id: 'TestFlags',
  type: 'object',
  additionalProperties: false,
  properties: {
    active: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    ratio: { type: 'number' },
  },
} as const;

const validator = new Validator([...serviceSchemas, TestFlags]);

function rejects(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a 400, nothing was thrown');
}

const validation = suite('Validator');

validation('int64 IDs: 2^53-1 passes, 2^53 and above, zero, negatives and fractions are refused', () => {
  assert.equal(validator.check('MonitorIdParams', { monitor_id: 9007199254740991 }, 'path', 'm'), {
    monitor_id: 9007199254740991,
  });
  for (const bad of [9007199254740992, 2 ** 60, 0, -1, 1.5]) {
    const err = rejects(() =>
      validator.check('MonitorIdParams', { monitor_id: bad }, 'path', 'monitor_id missing or in wrong format'),
    );
    assert.is(err.status, 400);
    assert.is(err.code, 'invalid_parameter');
    assert.is(err.message, 'monitor_id missing or in wrong format');
    assert.equal(err.details?.[0].in, 'path');
    assert.equal(err.details?.[0].path, 'monitor_id');
  }
});

validation('query and path strings are coerced to the integers their schema asks for', () => {
  assert.equal(validator.checkParams('M1Query', { organization: '42' }, 'query', 'o'), { organization: 42 });
  assert.equal(validator.checkParams('MonitorIdParams', { monitor_id: '9007199254740991' }, 'path', 'm'), {
    monitor_id: 9007199254740991,
  });
  // An integer is written in digits only: "1.0" or "1e1" would give one monitor several URLs.
  for (const bad of ['9007199254740993', 'abc', '1.5', '', '0x10', '12abc', '1.0', '1e1', ' 7']) {
    const err = rejects(() =>
      validator.checkParams('M1Query', { organization: bad }, 'query', 'organization missing or in wrong format'),
    );
    assert.is(err.status, 400);
    assert.is(err.message, 'organization missing or in wrong format');
    assert.equal(err.details?.[0], { in: 'query', path: 'organization', problem: err.details?.[0].problem });
  }
});

validation('a missing required query parameter names it in details', () => {
  const err = rejects(() => validator.checkParams('M1Query', {}, 'query', 'organization missing or in wrong format'));
  assert.equal(err.details, [{ in: 'query', path: 'organization', problem: 'is required' }]);
});

validation('a repeated query parameter (an array) is refused, not silently reduced', () => {
  rejects(() => validator.checkParams('M1Query', { organization: ['1', '2'] }, 'query', 'o'));
});

validation('booleans and numbers are coerced; anything else stays a string and is refused', () => {
  assert.equal(validator.checkParams('TestFlags', { active: 'true', limit: '7', ratio: '2.5e1' }, 'query', 'x'), {
    active: true,
    limit: 7,
    ratio: 25,
  });
  assert.equal(validator.checkParams('TestFlags', { active: 'false' }, 'query', 'x'), { active: false });
  rejects(() => validator.checkParams('TestFlags', { active: 'yes' }, 'query', 'x'));
  rejects(() => validator.checkParams('TestFlags', { limit: '51' }, 'query', 'x'));
});

validation('a body with an unknown field is a 400 invalid_body naming the field', () => {
  const err = rejects(() =>
    validator.check('M9Body', { latestAlarms: [], extra: 1 }, 'body', 'Required parameter missing or in wrong format'),
  );
  assert.is(err.code, 'invalid_body');
  assert.equal(err.details, [{ in: 'body', path: 'extra', problem: 'is not allowed' }]);
});

validation('open maps take any keys; typed nested fields are still checked', () => {
  const body = { tables: { 'any.key': { deep: [1, 2] }, $odd: null } };
  assert.equal(validator.check('M9Body', body, 'body', 'x'), body);
  const err = rejects(() => validator.check('M9Body', { pagers: { activePager: 1.5 } }, 'body', 'x'));
  assert.is(err.details?.[0].path, 'pagers.activePager');
});

validation("missingBody gives the operation's wording with a body detail", () => {
  const err = validator.missingBody('Monitor in wrong format or required field missing');
  assert.is(err.status, 400);
  assert.is(err.code, 'invalid_body');
  assert.equal(err.details, [{ in: 'body', path: '(body)', problem: 'is required' }]);
});

validation.run();
