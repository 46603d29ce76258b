// Map tiles from a local tile server that fails once per tile and then answers: the display tries
// each failed tile again (with backoff) until the map is filled, and spreads tiles over the
// subdomains its URL template names. Chromium against the real service.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { WAIT_MS } from './helpers/browser.js';
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

interface TileCtx extends WallCtx {
  tiles: http.Server;
  port: number;
  /** Requests per tile path, and the hosts asked. */
  asked: Map<string, number>;
  hosts: Set<string>;
}

const tiles = suite<TileCtx>('display wall: map tiles that fail and come back');

tiles.before(async (ctx) => {
  await setUpWall(ctx);
  ctx.asked = new Map();
  ctx.hosts = new Set();
  // An SVG tile is a valid image for <img>; the first request for each tile fails with 503.
  ctx.tiles = http.createServer((req, res) => {
    const path = req.url ?? '';
    const count = (ctx.asked.get(path) ?? 0) + 1;
    ctx.asked.set(path, count);
    ctx.hosts.add((req.headers.host ?? '').split(':')[0]);
    if (count === 1) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Access-Control-Allow-Origin': '*' });
    res.end(
      '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" ' +
        'fill="#3a5a40"/></svg>',
    );
  });
  await new Promise<void>((resolve) => ctx.tiles.listen(0, '127.0.0.1', resolve));
  ctx.port = (ctx.tiles.address() as AddressInfo).port;
});
tiles.after.each(closeScreens);
tiles.after(async (ctx) => {
  await tearDownWall(ctx);
  await new Promise((resolve) => ctx.tiles.close(resolve));
});

tiles(
  'a tile server that fails once and then answers fills the map; the subdomains come from the URL template',
  async (ctx) => {
    const template = `http://{s:127.0.0.1,localhost}:${ctx.port}/{z}/{x}/{y}.svg`;
    const id = await newMonitor(ctx, { configuration: { tileUrl: template, tileAttribution: '© Test tiles' } });
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(61, 'B3 Wohnungsbrand', 1, 3));
    const screen = await openWall(ctx, id);
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
    // First every tile fails (the note says so) ...
    await screen.page.waitForFunction(
      () => document.querySelector('[data-testid=map]')?.classList.contains('map--tiles-failed'),
      null,
      { timeout: WAIT_MS },
    );
    // ... then the retries fill the map: every tile loaded and shown, no failure note.
    await screen.page.waitForFunction(
      () => {
        const all = Array.from(document.querySelectorAll<HTMLImageElement>('.map-tile'));
        return (
          all.length > 0 &&
          all.every(
            (t) =>
              t.dataset.state === 'loaded' && t.naturalWidth === 256 && getComputedStyle(t).visibility === 'visible',
          )
        );
      },
      null,
      { timeout: WAIT_MS },
    );
    const map = await screen.page.getByTestId('map').getAttribute('class');
    assert.not.ok(map!.includes('map--tiles-failed'), map!);
    const shown = await screen.page
      .locator('.map-tile')
      .evaluateAll((els) => els.map((el) => (el as HTMLImageElement).src));
    assert.ok(
      shown.every((src) => (ctx.asked.get(new URL(src).pathname) ?? 0) >= 2),
      'each tile was asked for again after failing',
    );
    assert.equal([...ctx.hosts].sort(), ['127.0.0.1', 'localhost'], 'both subdomains of the template are used');
    assert.ok(await screen.page.getByText('© Test tiles').isVisible());
    assert.equal(screen.errors, []);
  },
);

tiles.run();
