// REST authentication: API-TOKEN, Personal-Access-Token or Screen-Token header (case-insensitive, as
// all HTTP headers), or the console's session cookie, whose requests that change something must come
// from the service's own origin (docs/people.md "Sessions"). Operations declared `public` (a screen
// asking to be paired, a person joining) are mounted apart, without it.
import type { Context, Next } from 'koa';
import type { CredentialCache } from '../identity/credential-cache.js';
import type { TokenKind } from '../identity/models.js';
import { AppError, badRequest, rateLimited, unauthorized } from '../errors.js';
import type { Limits } from './limits.js';
import type { PublicUrl } from './public-url.js';

/** The console's session cookie (docs/people.md "Sessions"). */
export const SESSION_COOKIE = 'alarmhub_session';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser request from the service's own pages: its Origin is the public URL's, or the browser says
 * it is same-origin (a console opened at another name of the same service). A cross-site page's
 * request carries neither.
 */
export function sameOrigin(ctx: Context, publicUrl: PublicUrl): boolean {
  return ctx.get('Origin') === publicUrl.origin || ctx.get('Sec-Fetch-Site') === 'same-origin';
}

/**
 * A request a page of another site sent, for the doors that take no credential but sign a visitor in
 * (P2, PK6): its Origin is not ours (`null` included), or the browser marks it cross-site or same-site
 * (a sibling host). A request with neither (a script, an app) is no browser's (docs/people.md "Sessions").
 */
export function fromAnotherSite(ctx: Context, publicUrl: PublicUrl): boolean {
  const site = ctx.get('Sec-Fetch-Site');
  if (site === 'cross-site' || site === 'same-site') return true;
  return Boolean(ctx.get('Origin')) && !sameOrigin(ctx, publicUrl);
}

const HEADER_HINT =
  'organization API keys (ahk_…) go in API-TOKEN, personal access tokens (ahp_…) in Personal-Access-Token';

const HEADERS: Array<[string, TokenKind]> = [
  ['API-TOKEN', 'apikey'],
  ['Personal-Access-Token', 'pat'],
  ['Screen-Token', 'screen'],
];
const HEADER_OF: Record<string, string> = { ahk_: 'API-TOKEN', ahp_: 'Personal-Access-Token', ahs_: 'Screen-Token' };
const NAME_OF: Record<string, string> = {
  ahk_: 'an organization API key',
  ahp_: 'a personal access token',
  ahs_: 'a screen token',
};

// The mistakes newcomers make, told apart by the tokens' prefixes.
function hint(header: string, value: string): string {
  if (/^bearer\s/i.test(value)) return `; send the token without a "Bearer " prefix (${HEADER_HINT})`;
  const prefix = value.slice(0, 4);
  const right = HEADER_OF[prefix];
  return right && right !== header ? `; this is ${NAME_OF[prefix]} (${prefix}…): send it in the ${right} header` : '';
}

/** Puts the caller on ctx.state.caller or answers 401; limits the rate of bad credentials per address. */
export function authenticate(credentials: CredentialCache, limits: Limits, publicUrl: PublicUrl) {
  // An address gets a few wrong credentials per second. Only wrong ones count and only they are
  // refused: a station behind the same NAT as a misconfigured device keeps working.
  const badCredentials = limits.create('bad-credentials', 5, 20);
  return async (ctx: Context, next: Next) => {
    const sent = HEADERS.map(([header, kind]) => ({ header, kind, value: ctx.get(header) })).filter((c) => c.value);
    if (sent.length > 1)
      throw badRequest('invalid_parameter', `Send one credential, not ${sent.map((c) => c.header).join(' and ')}`);
    // A header credential wins over the console's cookie (a script run from a signed-in browser).
    const cookie = sent.length === 0 ? ctx.cookies.get(SESSION_COOKIE) : undefined;
    if (cookie) {
      const caller = await credentials.resolve('session', cookie);
      if (!caller) {
        const wait = await badCredentials.take(ctx.ip);
        if (wait) throw rateLimited(wait);
        throw unauthorized('The session has ended: sign in again');
      }
      if (!SAFE.has(ctx.method) && !sameOrigin(ctx, publicUrl))
        throw new AppError(
          403,
          'csrf',
          `A request signed in by the session cookie that changes something must come from ${publicUrl.origin}`,
        );
      ctx.state.caller = caller;
      return next();
    }
    if (sent.length === 0)
      throw unauthorized(
        `A credential is required: API-TOKEN or Personal-Access-Token header${ctx.get('Authorization') ? ` (not Authorization: ${HEADER_HINT})` : ''}`,
      );
    const [{ header, kind, value }] = sent;
    const caller = await credentials.resolve(kind, value);
    if (!caller) {
      const wait = await badCredentials.take(ctx.ip);
      if (wait) throw rateLimited(wait);
      throw unauthorized(`The credential is unknown or revoked${hint(header, value)}`);
    }
    ctx.state.caller = caller;
    await next();
  };
}
