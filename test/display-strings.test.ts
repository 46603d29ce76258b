// The display's languages (strings.ts), the split screen's rows (layout.ts) and tile subdomains
// (tiles.ts): run in Node.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { splitRows, balancedRows } from '../display-client/src/layout.js';
import { clockText, dateText, elapsedText, languageOf, localeFor, stringsFor } from '../display-client/src/strings.js';
import { subdomainsOf, tileUrl } from '../common/tiles.js';

test("the language: the monitor's configuration, else the browser's, else English", () => {
  assert.is(languageOf('de', 'en-US'), 'de');
  assert.is(languageOf('de-AT', undefined), 'de');
  assert.is(languageOf('EN', 'de-DE'), 'en');
  assert.is(languageOf(undefined, 'de-CH'), 'de');
  assert.is(languageOf(undefined, 'de', 'en-US'), 'de', "the address's ?lang= before the browser");
  assert.is(languageOf(undefined, null, 'de-CH'), 'de');
  assert.is(languageOf('fr', 'de-DE'), 'de', "an unknown language falls back to the browser's");
  assert.is(languageOf(42, 'fr-FR'), 'en');
});

test('both languages have every text; dates and voice follow the language', () => {
  const en = stringsFor('en');
  const de = stringsFor('de');
  assert.equal(Object.keys(de).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en) as Array<keyof typeof en>) {
    const [a, b] = [en[key], de[key]];
    assert.is(typeof a, typeof b, key);
    // "Token" is the same word in German.
    if (typeof a === 'string' && key !== 'tokenLabel') assert.is.not(a, b, `${key} is translated`);
  }
  assert.is(de.coming, 'kommen');
  assert.is(de.moreComing(3), '+3 kommen');
  assert.is(en.disconnected('14:02'), 'Disconnected since 14:02 — reconnecting…');
  assert.is(localeFor('de', undefined), 'de-DE');
  assert.is(localeFor('de', 'de-AT'), 'de-AT');
  assert.is(localeFor('en', 'de-AT'), 'en-GB', 'a tag of another language is not taken');
  const sunday = Date.parse('2026-11-22T12:00:00Z');
  assert.match(dateText(sunday, 'de-DE'), /Sonntag, 22\. November 2026/);
  assert.match(dateText(sunday, 'en-GB'), /Sunday,? 22 November 2026/);
});

test('one clock format (24-hour) and elapsed times', () => {
  const t = new Date(2026, 10, 22, 9, 5, 7).getTime();
  assert.equal(clockText(t), { hm: '09:05', s: '07' });
  assert.equal(clockText(new Date(2026, 10, 22, 21, 0, 0).getTime()).hm, '21:00');
  assert.is(elapsedText(0, 263_000), '4:23');
  assert.is(elapsedText(0, 3_723_000), '1:02:03');
  assert.is(elapsedText(10_000, 0), '0:00');
});

test("split rows are balanced and chosen by the screen's shape, or by configured columns", () => {
  assert.equal(balancedRows(5, 2), [3, 2]);
  assert.equal(balancedRows(7, 3), [3, 2, 2]);
  assert.equal(splitRows(2, 1920, 1080), [2]);
  assert.equal(splitRows(3, 1920, 1080), [2, 1]);
  assert.equal(splitRows(4, 1920, 1080), [2, 2], 'four alarms: 2 × 2, no empty cell');
  assert.equal(splitRows(5, 1920, 1080), [3, 2]);
  assert.equal(splitRows(4, 1080, 1920), [1, 1, 1, 1], 'stacked in portrait');
  assert.equal(splitRows(4, 1920, 1080, 4), [4]);
  assert.equal(splitRows(5, 1920, 1080, 2), [2, 2, 1]);
  assert.equal(splitRows(0, 1920, 1080), []);
  for (let n = 1; n <= 9; n++) {
    const rows = splitRows(n, 1920, 1080);
    assert.is(
      rows.reduce((a, b) => a + b, 0),
      n,
    );
    assert.ok(Math.max(...rows) - Math.min(...rows) <= 1, `balanced: ${rows}`);
  }
});

test('tile subdomains come from the URL template', () => {
  assert.equal(subdomainsOf('https://{a-c}.tile.example/{z}/{x}/{y}.png'), { token: '{a-c}', names: ['a', 'b', 'c'] });
  assert.equal(subdomainsOf('https://t{1-4}.example/{z}/{x}/{y}.png'), { token: '{1-4}', names: ['1', '2', '3', '4'] });
  assert.equal(subdomainsOf('https://{s:maps,maps2}.example/{z}/{x}/{y}.png'), {
    token: '{s:maps,maps2}',
    names: ['maps', 'maps2'],
  });
  assert.equal(subdomainsOf('https://{s}.example/{z}/{x}/{y}.png')?.names, ['a', 'b', 'c']);
  assert.is(subdomainsOf('https://tiles.example/{z}/{x}/{y}.png'), null);
  const urls = new Set([0, 1, 2, 3].map((x) => tileUrl('https://t{1-4}.example/{z}/{x}/{y}.png', 5, x, 7)));
  assert.is(urls.size, 4);
  for (const url of urls) assert.match(url, /^https:\/\/t[1-4]\.example\/5\/[0-3]\/7\.png$/);
  assert.is(tileUrl('https://{s:a}.x/{z}/{x}/{y}', 2, -1, 1), 'https://a.x/2/3/1', 'x wraps around the date line');
});

test.run();
