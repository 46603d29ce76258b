// createApp(deps): the Koa application over the areas' operations (built in server/service.ts).
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { authenticate } from './http/authenticate.js';
import { docsRoutes } from './http/docs.js';
import { unauthorized } from './errors.js';
import { accessLog, errorHandler, jsonBody, requestId } from './http/middleware.js';
import { buildOpenApi } from './http/openapi.js';
import { mountOperations, type Operation } from './http/operation.js';
import type { Limits } from './http/limits.js';
import type { PublicUrl } from './http/public-url.js';
import type { CredentialCache } from './identity/credential-cache.js';
import type { Validator } from './http/validation.js';
import type { Metrics } from './metrics.js';
import { timingSafeEqual } from 'node:crypto';

/** One readiness check: name and whether it passes, with a detail for operators. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<{ ok: boolean; detail?: unknown }>;
}

export interface AppDeps {
  /** The service's configuration. */
  config: Config;
  log: Logger;
  /** Every area's operations (server/areas/index.ts), built by the composition root (server/service.ts). */
  operations: Operation[];
  /** The request validator the operations' schemas are registered with (shared with the hub). */
  validator: Validator;
  bodyLimitBytes: number;
  /** Requests per second per credential; 0 is off. */
  rateLimitPerSecond: number;
  /** Where limits are counted (Redis, shared by all processes, or memory). */
  limits: Limits;
  /** Credentials resolved recently (shared with the hub). */
  credentials: CredentialCache;
  /** Client addresses from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
  /** Where people reach the service: the origin a session's request must come from. */
  publicUrl: PublicUrl;
  readiness: ReadinessCheck[];
  /** Extra routes (the display client) mounted before the API. */
  extraRoutes?: Router[];
  metrics: Metrics;
}

function sameSecret(given: string, wanted: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(wanted);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Builds the application: request id → access log → error handler → body → router → authenticate → validate → handler.
 */
export function createApp(deps: AppDeps): Koa {
  const { operations, validator } = deps;
  const openapi = buildOpenApi(operations, validator);

  const open = new Router();
  open.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  open.get('/readyz', async (ctx) => {
    const results = await Promise.all(deps.readiness.map(async (r) => [r.name, await r.check()] as const));
    const ready = results.every(([, r]) => r.ok);
    ctx.status = ready ? 200 : 503;
    if (!ready) ctx.set('Retry-After', '5');
    ctx.body = { status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) };
  });
  open.get('/openapi.json', (ctx) => {
    ctx.body = openapi;
  });
  open.get('/metrics', async (ctx) => {
    const wanted = deps.config.metricsToken;
    if (wanted && !sameSecret(ctx.get('Authorization'), `Bearer ${wanted}`)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw unauthorized('/metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    const { body, contentType } = await deps.metrics.render();
    ctx.type = contentType;
    ctx.body = body;
  });

  // Operations without a credential (a screen asking to be paired) come first; the rest authenticate.
  const publicApi = new Router();
  mountOperations(
    publicApi,
    validator,
    operations.filter((op) => op.public),
    deps.limits,
    deps.rateLimitPerSecond,
  );
  const api = new Router();
  api.use('/api/v1', authenticate(deps.credentials, deps.limits, deps.publicUrl));
  mountOperations(
    api,
    validator,
    operations.filter((op) => !op.public),
    deps.limits,
    deps.rateLimitPerSecond,
  );

  // Behind a proxy only the address the proxy itself saw is trusted (the rightmost X-Forwarded-For entry).
  const koa = new Koa({ proxy: deps.trustProxy ?? false, maxIpsCount: 1 });
  // The access log sits outside the error handler so it records the status actually sent.
  koa.use(requestId);
  koa.use(deps.metrics.http());
  koa.use(accessLog(deps.log));
  koa.use(errorHandler(deps.log));
  koa.use(jsonBody(deps.bodyLimitBytes));
  // A request is matched only by the routers of its side: the API's under /api/, the others (health,
  // metrics, documents, the display) elsewhere. Each router tests every route it holds in turn, and
  // most requests are API calls that no other router would match.
  const site = [open, docsRoutes(), ...(deps.extraRoutes ?? [])];
  for (const router of site) koa.use(beside(router.routes()));
  koa.use(under(publicApi.routes()));
  koa.use(under(api.routes()));
  // Not thrown, so the router sets the Allow header; the error handler then renders the body. It answers
  // for the routes of both sides (405, 501, OPTIONS): it reads the paths any router matched.
  koa.use(api.allowedMethods());
  return koa;
}

// The routers match paths without regard to case, as this test does.
const API_PATH = /^\/api\//i;
type Routes = (ctx: never, next: Koa.Next) => unknown;
const under =
  (routes: Routes): Koa.Middleware =>
  (ctx, next) =>
    API_PATH.test(ctx.path) ? routes(ctx as never, next) : next();
const beside =
  (routes: Routes): Koa.Middleware =>
  (ctx, next) =>
    API_PATH.test(ctx.path) ? next() : routes(ctx as never, next);
