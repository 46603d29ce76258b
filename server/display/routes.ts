// Serves the station display (display-client/), built in memory once at boot.
import Router from '@koa/router';
import { createHash } from 'node:crypto';
import { buildDisplayClient } from '../../display-client/build.js';
import { serveFile, staticFile, withTileUrl } from './static-files.js';

// Tiles may come from any configured server; everything else only from this origin.
const CSP =
  "default-src 'self'; img-src 'self' data: http: https:; connect-src 'self'; base-uri 'none'; " +
  "form-action 'self'; object-src 'none'";

/** Builds the display client and returns the router for /display, /display/app.js, /display/app.css. */
export async function displayRoutes(tileUrl: string): Promise<Router> {
  const built = await buildDisplayClient();
  // The page version names the client's code: screens report it (screen:report), operators see it per screen.
  const pageVersion = createHash('sha256')
    .update(built['app.js'])
    .update(built['app.css'])
    .digest('base64url')
    .slice(0, 12);
  const page = withTileUrl(built['index.html'], tileUrl, `\n    <meta name="page-version" content="${pageVersion}" />`);
  const html = staticFile(page, 'text/html; charset=utf-8');
  const router = new Router();
  router.get('/display', serveFile(html, CSP));
  router.get('/display/', serveFile(html, CSP));
  router.get('/display/app.js', serveFile(staticFile(built['app.js'], 'application/javascript; charset=utf-8'), CSP));
  router.get('/display/app.css', serveFile(staticFile(built['app.css'], 'text/css; charset=utf-8'), CSP));
  return router;
}
