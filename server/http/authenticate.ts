// REST authentication: API-TOKEN or Personal-Access-Token header (case-insensitive, as all HTTP headers).
import type { Context, Next } from 'koa';
import { resolveActor } from '../identity/actor.js';
import type { IdentityModels } from '../identity/models.js';
import { badRequest, rateLimited, unauthorized } from './errors.js';
import { RateLimiter } from './rate-limit.js';

const HEADER_HINT = 'organization API keys (ahk_…) go in API-TOKEN, personal access tokens (ahp_…) in Personal-Access-Token';

// The mistakes newcomers make, told apart by the tokens' prefixes.
function hint(header: 'API-TOKEN' | 'Personal-Access-Token', value: string): string {
  if (/^bearer\s/i.test(value)) return `; send the token without a "Bearer " prefix (${HEADER_HINT})`;
  if (header === 'API-TOKEN' && value.startsWith('ahp_')) return '; this is a personal access token (ahp_…): send it in the Personal-Access-Token header';
  if (header === 'Personal-Access-Token' && value.startsWith('ahk_')) return '; this is an organization API key (ahk_…): send it in the API-TOKEN header';
  return '';
}

/** Puts the caller on ctx.state.actor or answers 401; limits the rate of bad credentials per address. */
export function authenticate(models: IdentityModels, ratePerSecond: number) {
  // An address gets a few wrong credentials per second. Only wrong ones count and only they are
  // refused: a station behind the same NAT as a misconfigured device keeps working.
  const badCredentials = new RateLimiter(ratePerSecond ? 5 : 0, 20);
  return async (ctx: Context, next: Next) => {
    const apiKey = ctx.get('API-TOKEN');
    const pat = ctx.get('Personal-Access-Token');
    if (apiKey && pat) throw badRequest('invalid_parameter', 'Send one credential: API-TOKEN or Personal-Access-Token, not both');
    if (!apiKey && !pat) throw unauthorized(`A credential is required: API-TOKEN or Personal-Access-Token header${ctx.get('Authorization') ? ` (not Authorization: ${HEADER_HINT})` : ''}`);
    const actor = await resolveActor(models, apiKey ? 'apikey' : 'pat', apiKey || pat);
    if (!actor) {
      const wait = badCredentials.take(ctx.ip);
      if (wait) throw rateLimited(wait);
      throw unauthorized(`The credential is unknown or revoked${hint(apiKey ? 'API-TOKEN' : 'Personal-Access-Token', apiKey || pat)}`);
    }
    ctx.state.actor = actor;
    await next();
  };
}
