// Serves the staff's pages (console/, docs/console.md), built in memory once at boot: /console (and
// everything under it), /join/<code>, /signin and a member's answer link /a/<token> (docs/alarms.md
// "Answering without the app") answer with the one page; its script and stylesheet are /console/app.js
// and /console/app.css.
import Router from '@koa/router';
import { buildConsole } from '../../console/build.js';
import { serveFile, staticFile, withTileUrl } from './static-files.js';

// Scripts, styles, requests and the hub's socket only from this origin, map tiles from the configured
// server (TILE_URL, docs/console.md "Maps"); the page is never framed.
const CSP =
  "default-src 'self'; img-src 'self' data: http: https:; connect-src 'self'; base-uri 'none'; form-action 'self'; " +
  "object-src 'none'; frame-ancestors 'none'";

/**
 * The session read as the page starts: a fetch with the same URL, mode and credentials (console/src/api.ts:
 * same-origin credentials, CORS mode) takes the preloaded answer instead of asking again.
 */
export const SESSION_PRELOAD = '\n    <link rel="preload" href="/api/v1/session" as="fetch" crossorigin="anonymous" />';

/** Builds the console and returns its router. */
export async function consoleRoutes(tileUrl: string): Promise<Router> {
  const built = await buildConsole();
  const html = (extra = '') =>
    serveFile(staticFile(withTileUrl(built['index.html'], tileUrl, extra), 'text/html; charset=utf-8'), CSP);
  const page = html();
  // The signed-in pages read the session first (P3), before anything else can be asked; the browser
  // fetches it while the script loads (console/src/session.ts reads the preloaded answer). The join,
  // sign-in and answer pages never read it.
  const signedInPage = html(SESSION_PRELOAD);
  const router = new Router();
  router.get('/console/app.js', serveFile(staticFile(built['app.js'], 'application/javascript; charset=utf-8'), CSP));
  router.get('/console/app.css', serveFile(staticFile(built['app.css'], 'text/css; charset=utf-8'), CSP));
  // A join or answer link carries its code in the path: with no referrer, no page it leads to learns it.
  for (const path of ['/console', '/console/{*rest}']) router.get(path, signedInPage);
  for (const path of ['/join/:code', '/signin', '/a/:token']) router.get(path, page);
  return router;
}
