// A wall screen picks up a new service version or new display settings by itself, but never while an
// alarm is on it.
import type { Browser } from 'playwright-core';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { launchChromium, TOKEN_STORAGE_KEY, WAIT_MS } from './helpers/browser.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  browser: Browser;
  services: TestService[];
}

const update = suite<Ctx>('display: reload on a new page version', {} as Ctx);

update.before(async (ctx) => {
  ctx.browser = await launchChromium();
  ctx.services = [];
});
update.after(async (ctx) => {
  for (const s of ctx.services) await s.close().catch(() => {});
  await ctx.browser?.close();
});

const tiles = (name: string) => `http://127.0.0.1:9/${name}/{z}/{x}/{y}.png`;

async function restart(ctx: Ctx, port: number, tileName: string): Promise<TestService> {
  await ctx.services.pop()!.close();
  const next = await startTestService({ PORT: String(port), TILE_URL: tiles(tileName) });
  ctx.services.push(next);
  return next;
}

update('the screen reloads when the page changed on the server, and not while an alarm shows', async (ctx) => {
  const first = await startTestService({ TILE_URL: tiles('a') });
  ctx.services.push(first);
  const org: OrgFixture = await createOrg(first);
  const api = () => client(`http://127.0.0.1:${first.port}`, { apiKey: org.apiKey });
  const id = (await api().post('/api/v1/monitor', { name: 'Wache', organizationID: org.orgId })).body.id;

  const context = await ctx.browser.newContext({ viewport: { width: 1920, height: 1080 } });
  await context.addInitScript(
    ([key, token]) => {
      (globalThis as { __alarmHubUpdateCheckMs?: number }).__alarmHubUpdateCheckMs = 300;
      localStorage.setItem(key, token);
    },
    [TOKEN_STORAGE_KEY, org.apiKey],
  );
  const page = await context.newPage();
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto(`${first.url}/display?monitor=${id}`);
  await page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
  const tileMeta = () => page.locator('meta[name="tile-url"]').getAttribute('content');
  assert.is(await tileMeta(), tiles('a'));

  await restart(ctx, first.port, 'b');
  await page.waitForFunction(
    (want) => document.querySelector('meta[name="tile-url"]')?.getAttribute('content') === want,
    tiles('b'),
    { timeout: WAIT_MS },
  );
  assert.ok(loads >= 2, `loads: ${loads}`);
  await page.getByTestId('standby').waitFor({ timeout: WAIT_MS });

  assert.is((await api().post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3 Wohnungsbrand' })).status, 200);
  await page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
  const before = loads;
  await restart(ctx, first.port, 'c');
  // The screen reconnects and keeps the alarm; it must not reload into a blank page meanwhile.
  await new Promise((r) => setTimeout(r, 2_500));
  assert.is(loads, before);
  assert.is(await tileMeta(), tiles('b'));
  assert.ok(await page.getByTestId('alarm-event').isVisible());
  await context.close();
});

update.run();
