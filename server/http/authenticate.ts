// REST authentication: API-TOKEN or Personal-Access-Token header (case-insensitive, as all HTTP headers).
import type { Context, Next } from 'koa';
import { resolveActor } from '../identity/actor.js';
import type { IdentityModels } from '../identity/models.js';
import { badRequest, rateLimited, unauthorized } from './errors.js';
import { RateLimiter } from './rate-limit.js';

/** Puts the caller on ctx.state.actor or answers 401; limits each credential's rate, and the rate of bad credentials per address. */
export function authenticate(models: IdentityModels, ratePerSecond: number) {
  const perCredential = new RateLimiter(ratePerSecond, ratePerSecond * 2);
  // Guessing tokens costs a database lookup each: an address gets a few wrong ones per second.
  const badCredentials = new RateLimiter(ratePerSecond ? 5 : 0, 20);
  return async (ctx: Context, next: Next) => {
    const apiKey = ctx.get('API-TOKEN');
    const pat = ctx.get('Personal-Access-Token');
    if (apiKey && pat) throw badRequest('invalid_parameter', 'Send one credential: API-TOKEN or Personal-Access-Token, not both');
    if (!apiKey && !pat) throw unauthorized('A credential is required: API-TOKEN or Personal-Access-Token header');
    const blocked = badCredentials.wait(ctx.ip);
    if (blocked) throw rateLimited(blocked);
    const actor = await resolveActor(models, apiKey ? 'apikey' : 'pat', apiKey || pat);
    if (!actor) {
      badCredentials.take(ctx.ip);
      throw unauthorized('The credential is unknown or revoked');
    }
    const wait = perCredential.take(`token:${actor.tokenId}`);
    if (wait) throw rateLimited(wait);
    ctx.state.actor = actor;
    await next();
  };
}
