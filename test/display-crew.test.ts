// What a crew needs first (crew.ts): coming members by qualification, declined as a count, and what
// gives way when space runs out, each unit counting what it does not list. Run in Node.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import type { Member, Unit } from '../display-client/src/alarms.js';
import { crewUnits, listable, planCrew } from '../display-client/src/crew.js';

const m = (
  name: string,
  labelName: string,
  feedback: number | null,
  labelColor: string | null = '#dc2626',
): Member => ({ name, position: 'Trupp', labelName, labelColor, feedback });
const units: Unit[] = [
  {
    name: 'HLF 20',
    members: [
      m('Anna', 'GF', 1),
      m('Tom', 'MA', 2),
      m('Lena', 'AGT', 1),
      m('Jonas', 'AGT', 0),
      m('Mia', 'MA', 1),
      m('Kai', 'AGT', 1),
      m('Ole', '', null),
    ],
  },
  { name: 'DLK 23', members: [m('Paul', 'MA', 1), m('Ben', 'AGT', 2), m('Sara', 'AGT', 0)] },
  { name: 'ELW', members: [] },
];

test("coming members grouped by qualification in the unit's order; awaiting, then unknown; declined only counted", () => {
  const [hlf, dlk, elw] = crewUnits(units);
  assert.equal(
    hlf.coming.map((x) => x.name),
    ['Anna', 'Mia', 'Lena', 'Kai'],
    'GF, then MA (Tom listed it first), then AGT',
  );
  assert.equal(
    hlf.qualifications.map((q) => [q.name, q.count]),
    [
      ['GF', 1],
      ['MA', 1],
      ['AGT', 2],
    ],
  );
  assert.equal(
    hlf.pending.map((x) => x.name),
    ['Tom', 'Ole'],
  );
  assert.is(hlf.declined, 1);
  assert.equal([dlk.coming.length, dlk.pending.length, dlk.declined], [1, 1, 1]);
  assert.equal([elw.coming.length, elw.pending.length, elw.declined, elw.qualifications.length], [0, 0, 0, 0]);
  assert.is(listable(crewUnits(units)), 8);
});

test('with room for everyone nothing is hidden', () => {
  const plan = planCrew(crewUnits(units), Infinity);
  assert.equal(
    plan.map((u) => u.shown.length),
    [6, 2, 0],
  );
  assert.equal(
    plan.map((u) => u.hiddenComing + u.hiddenPending),
    [0, 0, 0],
  );
});

test(
  'short of room, awaiting members give way first, then coming ones evenly across units, and every ' +
    'unit counts what it hides',
  () => {
    const crew = crewUnits(units);
    const five = planCrew(crew, 5);
    assert.equal(
      five[0].shown.map((x) => x.name),
      ['Anna', 'Mia', 'Lena', 'Kai'],
    );
    assert.equal(
      five[1].shown.map((x) => x.name),
      ['Paul'],
    );
    assert.equal(
      [five[0].hiddenComing, five[0].hiddenPending, five[1].hiddenComing, five[1].hiddenPending],
      [0, 2, 0, 1],
    );
    const two = planCrew(crew, 2);
    assert.equal(
      two.map((u) => u.shown.map((x) => x.name)),
      [['Anna'], ['Paul'], []],
      'the first of every unit before the second of any',
    );
    assert.equal([two[0].hiddenComing, two[0].hiddenPending], [3, 2]);
    const none = planCrew(crew, 0);
    assert.equal(
      none.map((u) => u.hiddenComing),
      [4, 1, 0],
    );
    // Whatever the limit, every coming member is listed or counted.
    for (let limit = 0; limit <= 9; limit++) {
      const plan = planCrew(crew, limit);
      const listed = plan.reduce((n, u) => n + u.shown.filter((x) => x.feedback === 1).length + u.hiddenComing, 0);
      assert.is(listed, 5, `limit ${limit}`);
      assert.ok(plan.reduce((n, u) => n + u.shown.length, 0) <= limit);
    }
  },
);

test.run();
