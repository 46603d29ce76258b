// GET / in a browser: a page leading to the station display and the API documentation, in the browser's
// language; a client asking for JSON gets the links. Chromium for the page itself (no errors, axe-free
// of the basics: a language, a title, named links).
import * as assert from 'uvu/assert';
import { launchChromium } from './helpers/browser.js';
import { request } from './helpers/http.js';
import { startTestService, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

const home = suite<{ svc: TestService }>('the start page');
home.before(async (ctx) => {
  ctx.svc = await startTestService();
});
home.after(async (ctx) => {
  await ctx.svc.close();
});

home('GET / is a page in German or English leading to /display and /docs; JSON for a JSON client', async (ctx) => {
  const de = await request(ctx.svc.url, 'GET', '/', {
    headers: { Accept: 'text/html', 'Accept-Language': 'de-DE,de;q=0.9' },
  });
  assert.is(de.status, 200);
  assert.match(de.headers.get('content-type') ?? '', 'text/html');
  assert.match(de.body, '<html lang="de">');
  assert.match(de.body, '<a href="/display">Stationsanzeige</a>');
  assert.match(de.body, '<a href="/docs">API-Dokumentation</a>');
  const en = await request(ctx.svc.url, 'GET', '/', { headers: { Accept: 'text/html', 'Accept-Language': 'en-GB' } });
  assert.match(en.body, '<a href="/display">Station display</a>');
  const json = await request(ctx.svc.url, 'GET', '/', { headers: { Accept: 'application/json' } });
  assert.is(json.status, 200);
  assert.equal(
    json.body.links.map((l: { href: string }) => l.href),
    ['/console', '/app', '/display', '/docs', '/openapi.json'],
  );
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ locale: 'de-DE' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${ctx.svc.url}/`);
    assert.is(await page.title(), 'alarm-hub');
    await page.getByRole('link', { name: 'Stationsanzeige' }).click();
    await page.waitForURL(/\/display$/);
    assert.equal(errors, []);
  } finally {
    await browser.close();
  }
});

home(
  'the pages that read the session first name it in a preload link; the join, sign-in and answer pages do not',
  async (ctx) => {
    const preload = '<link rel="preload" href="/api/v1/session" as="fetch" crossorigin="anonymous" />';
    for (const path of ['/console', '/console/alarms/7', '/app', '/app/history']) {
      const page = await request(ctx.svc.url, 'GET', path, { headers: { Accept: 'text/html' } });
      assert.is(page.status, 200, path);
      assert.ok(String(page.body).includes(preload), path);
    }
    for (const path of ['/join/abcdefgh', '/signin', '/a/abcdefgh']) {
      const page = await request(ctx.svc.url, 'GET', path, { headers: { Accept: 'text/html' } });
      assert.is(page.status, 200, path);
      assert.match(String(page.body), '<div id="app">', path);
      assert.not.ok(String(page.body).includes('rel="preload"'), path);
    }
  },
);

home.run();
