// REST authentication: API-TOKEN or Personal-Access-Token header (case-insensitive, as all HTTP headers).
import type { Context, Next } from 'koa';
import { resolveActor } from '../identity/actor.js';
import type { IdentityModels } from '../identity/models.js';
import { badRequest, unauthorized } from './errors.js';

/** Puts the caller on ctx.state.actor or answers 401. */
export function authenticate(models: IdentityModels) {
  return async (ctx: Context, next: Next) => {
    const apiKey = ctx.get('API-TOKEN');
    const pat = ctx.get('Personal-Access-Token');
    if (apiKey && pat) throw badRequest('invalid_parameter', 'Send one credential: API-TOKEN or Personal-Access-Token, not both');
    if (!apiKey && !pat) throw unauthorized('A credential is required: API-TOKEN or Personal-Access-Token header');
    const actor = await resolveActor(models, apiKey ? 'apikey' : 'pat', apiKey || pat);
    if (!actor) throw unauthorized('The credential is unknown or revoked');
    ctx.state.actor = actor;
    await next();
  };
}
