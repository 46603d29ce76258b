// The pages the service serves from memory (the display, the staff's pages): each file with its ETag,
// revalidated on every load (a page that reloads never keeps an old client after an upgrade), with the
// page's Content-Security-Policy and no referrer.
import type { Context } from 'koa';
import { createHash } from 'node:crypto';

export interface StaticFile {
  /** Text, or the bytes of an image (the members' app's icons). */
  body: string | Buffer;
  type: string;
  etag: string;
}

/** A file as served: its body, media type and an ETag of its content. */
export function staticFile(body: string | Buffer, type: string): StaticFile {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

/** A Koa handler that sends `file` (304 when the client has it) under the policy `csp`. */
export function serveFile(file: StaticFile, csp: string) {
  return (ctx: Context) => {
    ctx.set('ETag', file.etag);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', csp);
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.type;
    ctx.body = file.body;
  };
}

/** `value` safe inside a double-quoted HTML attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

// The pages' placeholder for the tile server (display-client/index.html, console/index.html).
export const TILE_PLACEHOLDER = '<meta name="tile-url" content="" />';

/** The page with the tile server named in its placeholder (an error when the page lacks it). */
export function withTileUrl(page: string, tileUrl: string, extra = ''): string {
  if (!page.includes(TILE_PLACEHOLDER))
    throw new Error(`a page lacks ${TILE_PLACEHOLDER}: it could not name its tiles`);
  return page.replace(TILE_PLACEHOLDER, `<meta name="tile-url" content="${escapeAttribute(tileUrl)}" />${extra}`);
}
