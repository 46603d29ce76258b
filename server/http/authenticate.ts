// REST authentication: API-TOKEN or Personal-Access-Token header (case-insensitive, as all HTTP headers).
import type { Context, Next } from 'koa';
import { resolveActor } from '../identity/actor.js';
import type { IdentityModels } from '../identity/models.js';
import { badRequest, rateLimited, unauthorized } from './errors.js';
import { RateLimiter } from './rate-limit.js';

/** Puts the caller on ctx.state.actor or answers 401; limits the rate of bad credentials per address. */
export function authenticate(models: IdentityModels, ratePerSecond: number) {
  // An address gets a few wrong credentials per second. Only wrong ones count and only they are
  // refused: a station behind the same NAT as a misconfigured device keeps working.
  const badCredentials = new RateLimiter(ratePerSecond ? 5 : 0, 20);
  return async (ctx: Context, next: Next) => {
    const apiKey = ctx.get('API-TOKEN');
    const pat = ctx.get('Personal-Access-Token');
    if (apiKey && pat) throw badRequest('invalid_parameter', 'Send one credential: API-TOKEN or Personal-Access-Token, not both');
    if (!apiKey && !pat) throw unauthorized('A credential is required: API-TOKEN or Personal-Access-Token header');
    const actor = await resolveActor(models, apiKey ? 'apikey' : 'pat', apiKey || pat);
    if (!actor) {
      const wait = badCredentials.take(ctx.ip);
      if (wait) throw rateLimited(wait);
      throw unauthorized('The credential is unknown or revoked');
    }
    ctx.state.actor = actor;
    await next();
  };
}
