// Serves the station display (display-client/), built in memory once at boot.
import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { buildDisplayClient } from '../../display-client/build.js';

// The page's placeholder for the tile server and the page version (display-client/index.html).
const TILE_PLACEHOLDER = '<meta name="tile-url" content="" />';

// Tiles may come from any configured server; everything else only from this origin.
const CSP =
  "default-src 'self'; img-src 'self' data: http: https:; connect-src 'self'; base-uri 'none'; " +
  "form-action 'self'; object-src 'none'";

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Builds the display client and returns the router for /display, /display/app.js, /display/app.css. */
export async function displayRoutes(tileUrl: string): Promise<Router> {
  const built = await buildDisplayClient();
  // The page version names the client's code: screens report it (screen:report), operators see it per screen.
  const pageVersion = createHash('sha256')
    .update(built['app.js'])
    .update(built['app.css'])
    .digest('base64url')
    .slice(0, 12);
  if (!built['index.html'].includes(TILE_PLACEHOLDER))
    throw new Error(`display-client/index.html lacks ${TILE_PLACEHOLDER}: the page could not name its tiles`);
  const page = built['index.html'].replace(
    TILE_PLACEHOLDER,
    `<meta name="tile-url" content="${escapeAttribute(tileUrl)}" />\n    <meta name="page-version" content="${pageVersion}" />`,
  );
  const files: Record<string, { body: string; type: string; etag: string }> = {};
  const add = (name: string, body: string, type: string) => {
    files[name] = { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
  };
  add('page', page, 'text/html; charset=utf-8');
  add('app.js', built['app.js'], 'application/javascript; charset=utf-8');
  add('app.css', built['app.css'], 'text/css; charset=utf-8');

  const router = new Router();
  const serve = (name: string) => (ctx: Context) => {
    const file = files[name];
    ctx.set('ETag', file.etag);
    // Revalidate every time: a screen that reloads must never keep an old client after an upgrade.
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.type;
    ctx.body = file.body;
  };
  router.get('/display', serve('page'));
  router.get('/display/', serve('page'));
  router.get('/display/app.js', serve('app.js'));
  router.get('/display/app.css', serve('app.css'));
  return router;
}
