// Shared set-up for the monitor tests (M1–M10): a fresh service per suite, organizations A and B, the
// three 401 cases every operation shares, and the wording of the monitor errors.
import { suite } from './suite.js';
import * as assert from 'uvu/assert';
import { expectError } from './expect.js';
import { client, request, type Credential } from './http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './service.js';

export const BASE = '/api/v1/monitor';
export const MONITOR_FORMAT = 'Monitor in wrong format or required field missing';
export const MONITOR_ID = 'monitor_id missing or in wrong format';
export const REQUIRED_PARAMETER = 'Required parameter missing or in wrong format';
export const ORGANIZATION = 'organization missing or in wrong format';

export interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
  /** A monitor of organization A. */
  monitorId: number;
}

/** The organization's API key as a credential. */
export const key = (org: OrgFixture): Credential => ({ apiKey: org.apiKey });
/** The organization admin's personal access token as a credential. */
export const admin = (org: OrgFixture): Credential => ({ pat: org.admin.token });
/** The organization member's personal access token as a credential. */
export const member = (org: OrgFixture): Credential => ({ pat: org.member.token });

/** Creates a monitor of `org` with the organization's API key and returns its ID. */
export async function createMonitor(ctx: Ctx, org: OrgFixture, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await client(ctx.svc.url, key(org)).post(BASE, {
    name: 'Station screen',
    organizationID: org.orgId,
    ...fields,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

/** Reads a monitor's data as organization A and returns it with the version from its ETag. */
export async function dataOf(ctx: Ctx, id: number): Promise<{ version: number; data: any }> {
  const res = await client(ctx.svc.url, key(ctx.a)).get(`${BASE}/${id}/data`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const etag = res.headers.get('etag');
  assert.match(etag ?? '', /^"\d+"$/);
  return { version: Number(etag!.slice(1, -1)), data: res.body };
}

/** A suite with a fresh service, organizations A and B and one monitor of A. */
export function area(name: string) {
  const s = suite<Ctx>(name, {} as Ctx);
  s.before(async (ctx) => {
    ctx.svc = await startTestService();
    ctx.a = await createOrg(ctx.svc);
    ctx.b = await createOrg(ctx.svc);
    ctx.monitorId = await createMonitor(ctx, ctx.a, { name: 'Hall A', standbyDelay: 75 });
  });
  s.after(async (ctx) => {
    await ctx.svc.close();
  });
  return s;
}

/** The three 401 cases every operation shares. */
export function unauthorizedCases(
  s: ReturnType<typeof area>,
  label: string,
  method: string,
  target: (ctx: Ctx) => string,
  body?: unknown,
) {
  s(`${label} 401 without a credential`, async (ctx) => {
    expectError(await request(ctx.svc.url, method, target(ctx), { body }), 401, 'unauthorized');
  });
  s(`${label} 401 with an unknown token`, async (ctx) => {
    const res = await request(ctx.svc.url, method, target(ctx), { auth: { apiKey: 'ahk_' + 'x'.repeat(43) }, body });
    expectError(res, 401, 'unauthorized');
    expectError(
      await request(ctx.svc.url, method, target(ctx), { auth: { pat: 'ahp_unknown' }, body }),
      401,
      'unauthorized',
    );
  });
  s(
    `${label} 401 with a token under the other scheme's header (API key as Personal-Access-Token and back)`,
    async (ctx) => {
      expectError(
        await request(ctx.svc.url, method, target(ctx), { auth: { pat: ctx.a.apiKey }, body }),
        401,
        'unauthorized',
      );
      expectError(
        await request(ctx.svc.url, method, target(ctx), { auth: { apiKey: ctx.a.admin.token }, body }),
        401,
        'unauthorized',
      );
    },
  );
}
