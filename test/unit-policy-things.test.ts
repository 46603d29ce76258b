// The things area's pure parts without a database: record policies, typed condition comparison, slot
// picking, field merging and ordering.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { mergeFields } from '../server/areas/things/entity-fields.js';
import { keyOf, valueProblem } from '../server/areas/things/fields.js';
import { orderRecords, type Listed } from '../server/areas/things/listing.js';
import type { EntityDoc, FieldDoc } from '../server/areas/things/models.js';
import { conditionHolds } from '../server/areas/things/rule-engine.js';
import { pickFree } from '../server/areas/things/slots.js';
import { AppError } from '../server/errors.js';
import type { Actor } from '../server/identity/actor.js';
import { canReadRecords, canWriteRecords } from '../server/identity/policy.js';

const ORG = 17;
const entity = { organizationID: ORG, readOnlyUserIDs: [5], readWriteUserIDs: [6] };
const user = (userId: number, roles: Array<[number, 'admin' | 'member']>): Actor => ({
  kind: 'user',
  tokenId: 1,
  credential: 'p',
  userId,
  roles: new Map(roles),
});

const policy = suite('things policy');

policy("API keys of the organization and its admins read and write every entity's records", () => {
  for (const actor of [
    { kind: 'apikey', tokenId: 1, credential: 'k', organizationId: ORG } as Actor,
    user(9, [[ORG, 'admin']]),
  ]) {
    assert.ok(canReadRecords(actor, entity));
    assert.ok(canWriteRecords(actor, entity));
  }
});

policy('members read when either list names them and write only when readWriteUserIDs does', () => {
  assert.equal(
    [canReadRecords(user(5, [[ORG, 'member']]), entity), canWriteRecords(user(5, [[ORG, 'member']]), entity)],
    [true, false],
  );
  assert.equal(
    [canReadRecords(user(6, [[ORG, 'member']]), entity), canWriteRecords(user(6, [[ORG, 'member']]), entity)],
    [true, true],
  );
  assert.equal(
    [canReadRecords(user(7, [[ORG, 'member']]), entity), canWriteRecords(user(7, [[ORG, 'member']]), entity)],
    [false, false],
  );
});

policy("another organization's key, admin, or a listed user who is no longer a member get nothing", () => {
  for (const actor of [
    { kind: 'apikey', tokenId: 1, credential: 'k', organizationId: 23 } as Actor,
    user(9, [[23, 'admin']]),
    user(6, []),
  ]) {
    assert.not.ok(canReadRecords(actor, entity));
    assert.not.ok(canWriteRecords(actor, entity));
  }
});

policy.run();

const field = (type: FieldDoc['type'], selectionValues: string[] = []): FieldDoc => ({
  id: 'f',
  name: 'F',
  type,
  selectionValues,
});
const holds = (f: FieldDoc, operator: string, comparison: string, value?: string) =>
  conditionHolds(f, { fieldID: 'f', operator: operator as never, comparison }, value);

const conditions = suite('things conditions and values');

conditions('numbers, dates and date-times compare by value, not as text', () => {
  assert.ok(holds(field('number'), 'gt', '9', '10'));
  assert.ok(holds(field('number'), 'eq', '5', '5.0'));
  assert.ok(holds(field('number'), 'lte', '-1', '-1.5'));
  assert.ok(holds(field('date'), 'lt', '2024-01-01', '2023-12-31'));
  assert.ok(holds(field('datetime'), 'eq', '2024-03-01T08:00:00Z', '2024-03-01T10:00:00+02:00'));
  assert.ok(holds(field('datetime'), 'gt', '2024-03-01T09:00:00Z', '2024-03-01T09:30:00+00:00'));
});

conditions('text compares without case; a missing value is only ne; empty and not_empty look at presence', () => {
  assert.ok(holds(field('text'), 'eq', 'Pillar', 'pillar'));
  assert.ok(holds(field('email'), 'contains', 'FEUERWEHR', 'a@feuerwehr.example'));
  assert.not.ok(holds(field('number'), 'lt', '5', undefined));
  assert.not.ok(holds(field('number'), 'eq', '5', ''));
  assert.ok(holds(field('number'), 'ne', '5', undefined));
  assert.ok(holds(field('text'), 'empty', '', ''));
  assert.ok(holds(field('text'), 'not_empty', '', 'x'));
  assert.ok(holds(field('boolean'), 'eq', 'false', 'false'));
  assert.ok(holds(field('selection', ['a', 'b']), 'ne', 'a', 'b'));
});

conditions(
  'values are checked per type; typed keys order selections as listed and coordinates by latitude first',
  () => {
    assert.is(
      valueProblem(field('number'), '1e999'),
      '"1e999" is not a number (digits, optional sign, decimal point and exponent)',
    );
    assert.is(valueProblem(field('date'), '2023-02-29'), '"2023-02-29" is not a date (YYYY-MM-DD)');
    assert.is(valueProblem(field('date'), '2024-02-29'), null);
    assert.is(keyOf(field('selection', ['low', 'high']), 'high'), 1);
    assert.equal(keyOf(field('coordinates'), '50.5, -7'), [50.5, -7]);
    assert.is(keyOf(field('text'), 'ÄPFEL'), 'äpfel');
  },
);

conditions('ordering puts empty and unreadable values last in both directions', () => {
  const e = { fields: [field('number')] } as unknown as EntityDoc;
  const rec = (id: string, v?: string): Listed => ({
    _id: id,
    values: v === undefined ? {} : { f: { i: id, v } },
    createdAt: new Date(0),
    seq: Number(id.slice(1)),
  });
  const rows = [rec('r1', '10'), rec('r2'), rec('r3', '9'), rec('r4', 'junk'), rec('r5', '-3')];
  assert.equal(
    orderRecords(e, rows, 'f', 'asc').map((r) => r._id),
    ['r5', 'r3', 'r1', 'r2', 'r4'],
  );
  assert.equal(
    orderRecords(e, rows, 'f', 'desc').map((r) => r._id),
    ['r1', 'r3', 'r5', 'r2', 'r4'],
  );
});

conditions.run();

const slots = suite('things slots and fields');

slots('pickFree returns distinct free slots within the limit, and only as many as are free', () => {
  const used = new Set([1, 2, 3, 5, 8, 40]);
  for (let round = 0; round < 50; round++) {
    const picked = pickFree(used, 10, 4);
    assert.is(picked.length, 4);
    assert.is(new Set(picked).size, 4);
    assert.ok(picked.every((s) => s >= 1 && s <= 10 && !used.has(s)));
  }
  assert.equal(
    pickFree(used, 10, 50).sort((a, b) => a - b),
    [4, 6, 7, 9, 10],
  );
  assert.equal(pickFree(new Set([1, 2]), 2, 3), []);
  assert.is(pickFree(new Set(), 1e12, 3).length, 3);
});

slots(
  'mergeFields keeps IDs, adds new fields, reports removed and retyped ones (a lost selection value counts)',
  () => {
    const current: FieldDoc[] = [
      { id: 'a', name: 'A', type: 'text', selectionValues: [] },
      { id: 'b', name: 'B', type: 'selection', selectionValues: ['x', 'y'] },
      { id: 'c', name: 'C', type: 'text', selectionValues: [] },
    ];
    const change = mergeFields(current, [
      { id: 'a', name: 'A2', type: 'number' },
      { id: 'b', name: 'B', type: 'selection', selectionValues: ['y', 'x', 'z'] },
      { name: 'D', type: 'boolean' },
    ]);
    assert.equal(
      change.fields.slice(0, 2).map((f) => [f.id, f.name, f.type]),
      [
        ['a', 'A2', 'number'],
        ['b', 'B', 'selection'],
      ],
    );
    assert.is(change.fields.length, 3);
    assert.equal(
      change.retyped.map((f) => f.id),
      ['a'],
    );
    assert.equal(
      change.removed.map((f) => f.id),
      ['c'],
    );
    assert.equal(
      mergeFields(current, [{ id: 'b', name: 'B', type: 'selection', selectionValues: ['x'] }]).retyped.map(
        (f) => f.id,
      ),
      ['b'],
    );
    assert.throws(
      () => mergeFields(current, [{ id: 'zz', name: 'Z', type: 'text' }]),
      (err: unknown) => err instanceof AppError && err.status === 400,
    );
  },
);

slots.run();
