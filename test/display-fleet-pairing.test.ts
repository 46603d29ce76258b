// Pairing from the page's point of view (issue 13), in Chromium against the real service: the page
// shows its code, an admin pairs it (F3), the page runs on its screen token, reports what it shows,
// and returns to a pairing code when the screen is removed (F5).
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { openScreen, TOKEN_STORAGE_KEY, WAIT_MS } from './helpers/browser.js';
import { eventually, openPaired, pairCode, shownCode, storedPairing } from './helpers/fleet.js';
import { client } from './helpers/http.js';
import { alarm, closeScreens, newMonitor, setUpWall, tearDownWall, write, type WallCtx } from './helpers/wall.js';
import { screenModels } from '../server/areas/screens/models.js';

const pairing = suite<WallCtx>('display fleet: pairing a screen from its page');
pairing.before(setUpWall);
pairing.after.each(closeScreens);
pairing.after(tearDownWall);

const api = (ctx: WallCtx) => client(ctx.service.url, { apiKey: ctx.org.apiKey });
// The service of these tests rechecks tokens every 500 ms (test/helpers/service.ts).
const TOKEN_RECHECK_MS = 500;

pairing(
  'a new screen shows its code; F3 with it pairs the page, which keeps the ahs_ token and shows ' +
    'the monitor; F5 brings a new code back',
  async (ctx) => {
    const id = await newMonitor(ctx, { name: 'Wache Süd' });
    const screen = await openScreen(ctx.browser, `${ctx.service.url}/display`);
    ctx.screens.push(screen);
    const code = await shownCode(screen);
    assert.match(code, /^[ACDEFHJKMNPRTUVWXY3479]{4}-[ACDEFHJKMNPRTUVWXY3479]{4}$/);
    assert.match(await screen.text('pairing-left'), /^Valid for (10:00|9:[0-5]\d)$/);
    assert.is(await screen.count('signin'), 0, 'no token form on a new screen');
    assert.is(await screen.count('pairing-use-token'), 1);
    // The code is readable from five metres: at least 10 % of the screen's height.
    const size = await screen.page
      .getByTestId('pairing-code')
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(size >= 108, `code font ${size}px`);

    const screenId = await pairCode(ctx, id, code, 'Fahrzeughalle');
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.match((await screen.storedToken()) ?? '', /^ahs_/);
    assert.equal(await storedPairing(screen), { screenId, monitorId: id, name: 'Fahrzeughalle' });
    assert.ok(screen.page.url().endsWith(`/display?monitor=${id}`), screen.page.url());
    assert.is(await screen.text('standby-title'), 'Wache Süd');

    // Health: the page reports the version it shows and its page version; F4 lists them.
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(5, 'B2 Kellerbrand', 1, 2));
    await screen.waitForText('alarm-event', 'B2 Kellerbrand');
    const version = Number(JSON.parse((await api(ctx).get(`/api/v1/monitor/${id}/data`)).headers.get('etag')!));
    const pageVersion = await screen.page.evaluate(
      () => document.querySelector<HTMLMetaElement>('meta[name="page-version"]')!.content,
    );
    assert.match(pageVersion, /^[\w-]{12}$/);
    const listed = await eventually(
      async () => (await api(ctx).get(`/api/v1/monitor/${id}/screens`)).body,
      (list) => list[0]?.versionShown === version,
      `F4 showing version ${version}`,
    );
    assert.is(listed.length, 1);
    assert.is(listed[0].id, screenId);
    assert.is(listed[0].online, true);
    assert.is(listed[0].pageVersion, pageVersion);
    assert.match(listed[0].userAgent, /Chrom/);

    // Removed: the page forgets its token and shows a new pairing code at once.
    const removedAt = Date.now();
    assert.is((await api(ctx).delete(`/api/v1/screens/${screenId}`)).status, 200);
    const again = await shownCode(screen, TOKEN_RECHECK_MS + 5_000);
    process.stdout.write(`  (pairing code back ${Date.now() - removedAt} ms after F5)\n`);
    assert.is.not(again, code);
    assert.is(await screen.text('pairing-message'), 'This screen was removed or its monitor is gone. Pair it again.');
    assert.is(await screen.storedToken(), null);
    assert.is(await storedPairing(screen), null);
    assert.is(await screen.count('alarm-panel'), 0);
    assert.equal(screen.errors, []);
  },
);

pairing(
  'a paired page that reloads comes back on its screen token, for its monitor whatever the address says',
  async (ctx) => {
    const id = await newMonitor(ctx, { name: 'Gerätehaus' });
    const other = await newMonitor(ctx, { name: 'Nicht meiner' });
    const { screen } = await openPaired(ctx, id, 'Flur');
    await screen.page.goto(`${ctx.service.url}/display?monitor=${other}`);
    await screen.waitForText('standby-title', 'Gerätehaus', WAIT_MS);
    assert.ok(screen.page.url().endsWith(`/display?monitor=${id}`), screen.page.url());
    assert.equal(screen.errors, []);
  },
);

pairing(
  'a revoked screen token (the hub refuses it) forgets the pairing and shows a code again; an ' +
    'API key keeps the sign-in form',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const { screen, screenId } = await openPaired(ctx, id, 'Halle 2');
    // Revoked behind the page's back (not through F5): the recheck disconnects it, the handshake refuses it.
    const doc = await screenModels(ctx.service.db).Screen.findById(String(screenId)).lean();
    await ctx.service.identity.revokeToken(doc!.tokenId!);
    await shownCode(screen, TOKEN_RECHECK_MS + 5_000);
    assert.is(await screen.storedToken(), null);

    const keyed = await openScreen(ctx.browser, `${ctx.service.url}/display?monitor=${id}`);
    ctx.screens.push(keyed);
    const org = ctx.org;
    await keyed.signIn(org.apiKey);
    await keyed.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.is(await keyed.page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY), org.apiKey);
    assert.equal([...screen.errors, ...keyed.errors], []);
  },
);

pairing(
  'the token form is one link away, and its own link leads back to a pairing code; it takes no screen token',
  async (ctx) => {
    const screen = await openScreen(ctx.browser, `${ctx.service.url}/display?lang=de`);
    ctx.screens.push(screen);
    await shownCode(screen);
    assert.is(await screen.text('pairing-use-token'), 'Stattdessen mit einem Token anmelden');
    await screen.page.getByTestId('pairing-use-token').click();
    await screen.page.getByTestId('signin').waitFor({ timeout: WAIT_MS });
    await screen.page.getByTestId('signin-token').fill('ahs_abc');
    await screen.page.getByTestId('signin-monitor').fill('1');
    await screen.page.getByTestId('signin-submit').click();
    assert.is(
      await screen.text('signin-error'),
      'Tokens beginnen mit ahk_ (API-Schlüssel) oder ahp_ (persönliches Zugriffstoken).',
    );
    await screen.page.getByTestId('signin-pair').click();
    await shownCode(screen);
    assert.is(await screen.count('signin'), 0);
    assert.equal(screen.errors, []);
  },
);

pairing(
  'an expired pairing (404) starts a new one by itself; 429 and network errors back off, say so, and retry',
  async (ctx) => {
    const screen = await openScreen(ctx.browser, 'about:blank');
    ctx.screens.push(screen);
    const starts: number[] = [];
    let expireFirst = true;
    // F1: refused once with 429 (Retry-After 1), then the network fails once, then it passes.
    await screen.page.route('**/api/v1/screens/pairing', async (route) => {
      starts.push(Date.now());
      if (starts.length === 1)
        return route.fulfill({
          status: 429,
          headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
          body: '{"error":"rate_limited","message":"Too many requests; slow down"}',
        });
      if (starts.length === 2) return route.abort('connectionrefused');
      return route.fallback();
    });
    // F2: the first pairing expires after its first "waiting".
    let polls = 0;
    await screen.page.route('**/api/v1/screens/pairing/*', async (route) => {
      polls++;
      if (expireFirst && polls === 2) {
        expireFirst = false;
        return route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: '{"error":"not_found","message":"Pairing not found, expired or already completed"}',
        });
      }
      return route.fallback();
    });
    await screen.page.goto(`${ctx.service.url}/display`);
    await screen.waitForText('pairing-status', /^Too many requests — trying again in \d+ s$/);
    await screen.waitForText('pairing-status', /^Service not reachable — trying again in \d+ s$/, WAIT_MS);
    const first = await shownCode(screen, 10_000);
    assert.is(
      await screen.page.getByTestId('pairing-status').isHidden(),
      true,
      'the status goes once the code is there',
    );
    // The first pairing "expires": a new code comes without anyone touching the screen.
    await screen.waitForText('pairing-code', /^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const second = await eventually(
      () => screen.text('pairing-code'),
      (code) => code !== first,
      'a new code after the 404',
    );
    assert.is(starts.length, 4);
    // The new code pairs.
    const id = await newMonitor(ctx);
    await pairCode(ctx, id, second, 'Nach Ablauf');
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.equal(screen.errors, []);
  },
);

pairing.run();
