// Times written by hand in the console and the members' app (console/src/i18n.ts) read exactly as
// Intl.DateTimeFormat writes them for de-DE and en-GB (a medium date, a short time): every month, the
// first and last hour of a day, a single-digit day, the nights the clocks change in Berlin, years
// before 1000 and before 1. The moments lie in a year past, so none is today.
import * as assert from 'uvu/assert';

// The browser's zone is the page's; here the process's, one whose clocks change.
process.env.TZ = 'Europe/Berlin';
import { test } from './helpers/suite.js';

type I18n = typeof import('../console/src/i18n.js');

/** The module as a page in `language` loads it (it picks its language from the address as it starts). */
async function i18nIn(language: 'de' | 'en'): Promise<I18n> {
  Object.defineProperty(globalThis, 'location', { value: { search: `?lang=${language}` }, configurable: true });
  Object.defineProperty(globalThis, 'navigator', { value: { languages: [] }, configurable: true });
  return (await import(`../console/src/i18n.js?${language}`)) as I18n;
}

const moments: Date[] = [];
for (let month = 0; month < 12; month++)
  for (const [day, hour, minute] of [
    [1, 0, 0],
    [9, 9, 5],
    [28, 23, 59],
  ])
    moments.push(new Date(2025, month, day, hour, minute));
moments.push(new Date(2025, 2, 30, 1, 30), new Date(2025, 2, 30, 3, 30), new Date(2025, 9, 26, 2, 30));
moments.push(new Date(1999, 11, 31, 23, 59), new Date(2000, 1, 29, 12, 0));
const early = new Date(2025, 5, 1, 12, 0);
early.setFullYear(500);
const yearZero = new Date(2025, 0, 1, 8, 0);
yearZero.setFullYear(0);
moments.push(early, yearZero);

for (const [language, locale] of [
  ['de', 'de-DE'],
  ['en', 'en-GB'],
] as const) {
  test(`${locale}: formatTime, formatDay and shortTime read as Intl.DateTimeFormat writes them`, async () => {
    const i18n = await i18nIn(language);
    assert.is(i18n.lang, language);
    const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
    for (const at of moments) {
      assert.is(i18n.formatTime(at.toISOString()), full.format(at), at.toISOString());
      assert.is(i18n.formatDay(at), day.format(at), at.toISOString());
      assert.is(i18n.shortTime(at.toISOString()), full.format(at), 'not today: with the date');
    }
    // Today: the clock alone, computed now (the test may run across midnight only in theory).
    const now = new Date();
    now.setSeconds(0, 0);
    assert.is(i18n.shortTime(now.toISOString()), clock.format(now));
  });
}

test.run();
