// Serves the staff's pages (console/, docs/console.md), built in memory once at boot: /console (and
// everything under it), /join/<code> and /signin answer with the one page; its script and stylesheet
// are /console/app.js and /console/app.css.
import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { buildConsole } from '../../console/build.js';

// Scripts, styles, requests and the hub's socket only from this origin; the page is never framed.
const CSP =
  "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; " +
  "object-src 'none'; frame-ancestors 'none'";

/** Builds the console and returns its router. */
export async function consoleRoutes(): Promise<Router> {
  const built = await buildConsole();
  const files: Record<string, { body: string; type: string; etag: string }> = {};
  const add = (name: string, body: string, type: string) => {
    files[name] = { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
  };
  add('page', built['index.html'], 'text/html; charset=utf-8');
  add('app.js', built['app.js'], 'application/javascript; charset=utf-8');
  add('app.css', built['app.css'], 'text/css; charset=utf-8');

  const router = new Router();
  const serve = (name: string) => (ctx: Context) => {
    const file = files[name];
    ctx.set('ETag', file.etag);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', CSP);
    // A join link carries its code in the path: no page it leads to learns it.
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.type;
    ctx.body = file.body;
  };
  router.get('/console/app.js', serve('app.js'));
  router.get('/console/app.css', serve('app.css'));
  for (const path of ['/console', '/console/{*rest}', '/join/:code', '/signin']) router.get(path, serve('page'));
  return router;
}
