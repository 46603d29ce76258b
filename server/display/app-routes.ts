// Serves the members' app (members-app/, docs/members-app.md), built in memory once at boot: /app (and
// every path under it) answers with the one page; its script, stylesheet, service worker, manifest and
// icons are files under /app. The service worker lives at /app/sw.js and controls /app itself, which
// lies outside the scope its path alone allows (/app/): Service-Worker-Allowed widens it.
import Router from '@koa/router';
import type { Context } from 'koa';
import { buildMembersApp, ICONS } from '../../members-app/build.js';
import { SESSION_PRELOAD } from './console-routes.js';
import { serveFile, staticFile, withTileUrl } from './static-files.js';

// As the console's (console-routes.ts): scripts, styles, requests, the hub's socket and the worker only
// from this origin, map tiles from the configured server; never framed.
const CSP =
  "default-src 'self'; img-src 'self' data: http: https:; connect-src 'self'; base-uri 'none'; form-action 'self'; " +
  "object-src 'none'; frame-ancestors 'none'";

/** The scope the app's service worker registers with (members-app/src/main.tsx). */
const APP_SCOPE = '/app';

/** Builds the members' app and returns its router. */
export async function appRoutes(tileUrl: string): Promise<Router> {
  const { texts, icons } = await buildMembersApp();
  const file = (body: string | Buffer, type: string) => serveFile(staticFile(body, type), CSP);
  const router = new Router();
  router.get('/app/app.js', file(texts['app.js'], 'application/javascript; charset=utf-8'));
  router.get('/app/app.css', file(texts['app.css'], 'text/css; charset=utf-8'));
  router.get('/app/manifest.webmanifest', file(texts['manifest.webmanifest'], 'application/manifest+json'));
  // Revalidated on every check, so that a new worker reaches the phones with the next start of the app.
  const worker = file(texts['sw.js'], 'application/javascript; charset=utf-8');
  router.get('/app/sw.js', (ctx: Context) => {
    ctx.set('Service-Worker-Allowed', APP_SCOPE);
    return worker(ctx);
  });
  for (const name of ICONS) router.get(`/app/${name}`, file(icons[name], 'image/png'));
  // Every screen of the app reads the session first: fetched while the script loads (console-routes.ts).
  const page = file(withTileUrl(texts['index.html'], tileUrl, SESSION_PRELOAD), 'text/html; charset=utf-8');
  for (const path of ['/app', '/app/{*rest}']) router.get(path, page);
  return router;
}
