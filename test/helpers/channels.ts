// Shared set-up for the app, sms and call tests: a fresh service per suite, organizations A and B,
// a user without any membership, and the 401 cases every operation shares.
import { suite } from './suite.js';
import { expectError } from './expect.js';
import { request, type Credential } from './http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './service.js';

export interface User {
  userId: number;
  token: string;
}

export interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
  /** A user who belongs to no organization. */
  loner: User;
}

/** The organization's API key as a credential. */
export const key = (org: OrgFixture): Credential => ({ apiKey: org.apiKey });
/** The organization admin's personal access token. */
export const admin = (org: OrgFixture): Credential => ({ pat: org.admin.token });
/** The organization member's personal access token. */
export const member = (org: OrgFixture): Credential => ({ pat: org.member.token });
/** A user's personal access token. */
export const pat = (user: User): Credential => ({ pat: user.token });

/** A user with a personal token, optionally a member of `org`. */
export async function newUser(svc: TestService, org?: OrgFixture, role: 'admin' | 'member' = 'member'): Promise<User> {
  const user = await svc.identity.createUser('Extra user');
  if (org) await svc.identity.addMember(org.orgId, user.id, role);
  const token = await svc.identity.createPersonalToken(user.id, 'phone');
  return { userId: user.id, token: token.token };
}

/** A suite with a fresh service (configured by `env`), organizations A and B and a user without organization. */
export function channelSuite(name: string, env: Record<string, string> | (() => Promise<Record<string, string>>) = {}) {
  const s = suite<Ctx>(name, {} as Ctx);
  s.before(async (ctx) => {
    ctx.svc = await startTestService(typeof env === 'function' ? await env() : env);
    ctx.a = await createOrg(ctx.svc);
    ctx.b = await createOrg(ctx.svc);
    ctx.loner = await newUser(ctx.svc);
  });
  s.after(async (ctx) => {
    await ctx.svc.close();
  });
  return s;
}

/** The 401 cases: no credential, an unknown API key, an unknown personal token. */
export function unauthorizedCases(
  s: ReturnType<typeof channelSuite>,
  label: string,
  method: string,
  target: (ctx: Ctx) => string,
  body?: unknown,
) {
  s(`${label} 401 without a credential and with unknown tokens`, async (ctx) => {
    expectError(await request(ctx.svc.url, method, target(ctx), { body }), 401, 'unauthorized');
    expectError(
      await request(ctx.svc.url, method, target(ctx), { auth: { apiKey: 'ahk_' + 'x'.repeat(43) }, body }),
      401,
      'unauthorized',
    );
    expectError(
      await request(ctx.svc.url, method, target(ctx), { auth: { pat: 'ahp_unknown' }, body }),
      401,
      'unauthorized',
    );
  });
}
