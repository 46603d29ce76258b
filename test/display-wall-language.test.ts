// The station's language: German labels from the monitor's configuration (else the address's ?lang=, else the browser's
// language), with German dates; a configuration change switches the wall live. Chromium against the real service.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { WAIT_MS } from './helpers/browser.js';
import { client } from './helpers/http.js';
import {
  alarm,
  closeScreens,
  newMonitor,
  openWall,
  setUpWall,
  tearDownWall,
  write,
  type WallCtx,
} from './helpers/wall.js';

const language = suite<WallCtx>('display wall: German and English');
language.before(setUpWall);
language.after.each(closeScreens);
language.after(tearDownWall);

language(
  'language "de": German standby (Bereit, Letzte Einsätze, Melder, the date), alarm labels and ENDED; html lang="de"',
  async (ctx) => {
    const id = await newMonitor(ctx, { configuration: { language: 'de' }, standbyDelay: 30 });
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/meta`, {
      latestAlarms: ['22.11. 03:12  B2 Müllcontainer'],
      pagers: { activePager: 23, inactivePager: 4 },
    });
    const screen = await openWall(ctx, id);
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.page.evaluate(() => navigator.language), 'en-US', 'the browser itself speaks English');
    assert.is(await screen.page.evaluate(() => document.documentElement.lang), 'de');
    assert.is(await screen.text('standby-state'), 'Bereit');
    assert.match(await screen.text('standby-latest'), /^Letzte Einsätze/);
    assert.match(await screen.text('standby-pagers'), /23Melder aktiv4Melder inaktiv/);
    assert.match(
      await screen.text('standby-date'),
      /^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}$/,
    );

    await write(
      ctx,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      alarm(71, 'B3 Wohnungsbrand', 1, 6, {
        geo: { address: 'Lindenstraße 14', latitude: 50.7766, longitude: 6.0912 },
      }),
    );
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
    const counters = await screen.page.locator('.counter__label').allTextContents();
    assert.equal(counters, ['kommen', 'abgesagt', 'ausstehend']);
    assert.is(await screen.text('map-alarm'), 'Einsatz');
    assert.is(await screen.text('map-station'), 'Wache');
    assert.equal(await screen.page.locator('[data-testid=unit-declined]').getAttribute('title'), '1 abgesagt');
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
    await screen.waitForText('alarm-ended', 'BEENDET');
    // The time it ran, frozen: a clock that ticked would show another second after 2.5 s.
    const ran = await screen.text('alarm-ran');
    assert.match(ran, /^\d+:\d\d$/);
    await screen.page.waitForTimeout(2_500);
    assert.is(await screen.text('alarm-ran'), ran, 'BEENDET stops the elapsed time');
    assert.is(await screen.page.locator('.elapsed [data-since]').count(), 0);
    assert.equal(screen.errors, []);
  },
);

language(
  "a test alarm sent without a message reads German on a German wall: Probealarm, and the screen's own words",
  async (ctx) => {
    const id = await newMonitor(ctx, { configuration: { language: 'de' } });
    const screen = await openWall(ctx, id);
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    await write(ctx, 'POST', `/api/v1/monitor/${id}/test-alarm`, { durationSeconds: 30 });
    await screen.waitForText('test-banner', 'PROBEALARM – kein echter Einsatz');
    assert.is(await screen.text('alarm-event'), 'Probealarm');
    assert.is(await screen.text('alarm-message'), 'Test der Alarmanzeige – nicht ausrücken');
    assert.equal(screen.errors, []);
  },
);

language(
  "without a configured language the browser's decides (de-DE), and a configuration change to " +
    '"en" switches the wall live',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const screen = await openWall(
      ctx,
      id,
      undefined,
      "Object.defineProperty(navigator, 'language', { get: () => 'de-DE' });",
    );
    await screen.waitForText('standby-state', 'Bereit', WAIT_MS);
    const api = client(ctx.service.url, { apiKey: ctx.org.apiKey });
    const monitor = (await api.get(`/api/v1/monitor/${id}`)).body;
    const res = await api.put('/api/v1/monitor', { id, configuration: { ...monitor.configuration, language: 'en' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    await screen.waitForText('standby-state', 'Ready');
    assert.is(await screen.page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(screen.errors, []);
  },
);

language("without a configured language the address's ?lang=de decides over an English browser", async (ctx) => {
  const id = await newMonitor(ctx);
  const screen = await openWall(ctx, id, undefined, '', undefined, '&lang=de');
  await screen.waitForText('standby-state', 'Bereit', WAIT_MS);
  assert.is(await screen.page.evaluate(() => navigator.language), 'en-US', 'the browser itself speaks English');
  await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(72, 'TH Ölspur', 0, 3));
  await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
  assert.equal(await screen.page.locator('.counter__label').allTextContents(), ['kommen', 'abgesagt', 'ausstehend']);
  assert.equal(screen.errors, []);
});

language(
  'a call alarm without a template reads "Alarm per Telefon" on a German wall and "Phone alarm" on an English one',
  async (ctx) => {
    const phoneAlarm = {
      eventId: 73,
      event: 'Alarm per Telefon',
      eventKind: 'phone',
      eventStartDate: new Date().toISOString(),
    };
    const german = await newMonitor(ctx, { configuration: { language: 'de' } });
    const english = await newMonitor(ctx, { configuration: { language: 'en' } });
    for (const id of [german, english]) await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, phoneAlarm);
    const [de, en] = [await openWall(ctx, german), await openWall(ctx, english)];
    await de.waitForText('alarm-event', 'Alarm per Telefon');
    await en.waitForText('alarm-event', 'Phone alarm');
    assert.equal([de.errors, en.errors], [[], []]);
  },
);

language.run();
