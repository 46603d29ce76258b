// The profiles docs/inputs.md shows as examples, tried on the texts shown beside them: what a station
// copies from the documentation works. Each "### Example" section's first text block is the document,
// its JSON block the profile.
import { readFile } from 'node:fs/promises';
import * as assert from 'uvu/assert';
import { extract as run, ProfileRunner } from '../server/areas/inputs/profile.js';
import { test } from './helpers/suite.js';

const runner = new ProfileRunner();
const extract = (...args: [string, Parameters<typeof run>[2], string[]?]) => run(runner, ...args);
test.after(() => runner.close());

const doc = await readFile(new URL('../docs/inputs.md', import.meta.url), 'utf8');

function example(title: string) {
  const section = doc.split(/^### /m).find((s) => s.startsWith(title));
  assert.ok(section, `docs/inputs.md has no "### ${title}"`);
  const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));
  const text = blocks.find((b) => b.lang !== 'json')!.body;
  const profile = JSON.parse(blocks.find((b) => b.lang === 'json')!.body);
  return { text, profile };
}

test('the fax example: every field found, the units written as the organization writes them', async () => {
  const { text, profile } = example('Example: a fax with one field per line');
  const found = await extract(text, profile, ['HLF 20', 'DLK 23', 'RTW 1', 'ELW 1']);
  assert.equal(found.alarm, {
    event: 'B3 Wohnungsbrand',
    message: 'Rauch aus Fenster 2. OG, Person vermisst',
    address: 'Goethestraße 5, 52064 Aachen',
    latitude: 50.7766,
    longitude: 6.0834,
    units: ['HLF 20', 'DLK 23', 'RTW 1'],
    dispatchNumber: '4711-2026',
    keyword: null,
  });
  assert.is(found.reason, null);
});

test('the XML example: every field found, the keyword apart from the message', async () => {
  const { text, profile } = example('Example: an XML e-mail');
  const found = await extract(text, profile, ['HLF 20', 'ELW 1']);
  assert.equal(found.alarm, {
    event: 'TH1',
    message: 'Baum auf Straße',
    address: 'Lindenweg 3, 52066 Aachen',
    latitude: 50.7601,
    longitude: 6.1012,
    units: ['HLF 20', 'ELW 1'],
    dispatchNumber: 'E-2026-004711',
    keyword: 'TH1',
  });
});

test('units match the organization\'s spelling, "50,77" is a coordinate, a half position is none', async () => {
  const profile = {
    fields: {
      event: '^E:\\s*(.+)$',
      units: 'U:\\s*(\\S+)',
      latitude: '^LAT:\\s*(\\S+)',
      longitude: '^LON:\\s*(\\S+)',
    },
  };
  const found = await extract('E: B1\nU: hlf20 U: DLK-23 U: ABC\nLAT: 50,77', profile, ['HLF 20', 'DLK 23']);
  assert.equal(
    [found.alarm!.units, found.alarm!.latitude, found.alarm!.longitude],
    [['HLF 20', 'DLK 23', 'ABC'], null, null],
  );
  const placed = await extract('E: B1\nLAT: 50,77\nLON: 6,08', profile);
  assert.equal([placed.alarm!.latitude, placed.alarm!.longitude], [50.77, 6.08]);
  const far = await extract('E: B1\nLAT: 95\nLON: 6', profile);
  assert.equal([far.alarm!.latitude, far.alarm!.longitude], [null, null]);
});

test('a pattern that backtracks without end fails its document, and the event loop turns meanwhile', async () => {
  let turns = 0;
  const ticker = setInterval(() => turns++, 5);
  try {
    const slow = extract(`${'a'.repeat(40)}!`, { fields: { event: '^(a+)+$' } });
    await slow.then(
      () => assert.unreachable('it raised'),
      (err: Error) => assert.match(err.message, /took longer than/),
    );
    // Its time was spent on the profiles' thread: this one ran its timer all along.
    assert.ok(turns >= 2, `the event loop turned ${turns} times while the profile ran`);
    // The thread is still there for the next document.
    assert.equal((await extract('Stichwort: B1', { fields: { event: '^Stichwort:\\s*(.+)$' } })).alarm?.event, 'B1');
  } finally {
    clearInterval(ticker);
  }
});

test.run();
