// Shared set-up for the journal tests: a fresh service per suite with organizations A and B, the 401
// cases every operation shares, and small steps (category, journal, lock, entry) as the API key or a
// user would take them.
import { suite, type Test } from './suite.js';
import * as assert from 'uvu/assert';
import { serviceSchemas } from '../../server/areas/index.js';
import { Validator } from '../../server/http/validation.js';
import { wording } from '../../server/areas/journal/wording.js';
import { expectError } from './expect.js';
import { client, request, type Credential } from './http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './service.js';

export { wording };
export const BASE = '/api/v1/journal';
export const CATEGORIES = `${BASE}/categories`;

export interface JournalCtx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
}

/** The organization's API key, its admin's and its member's personal tokens as credentials. */
export const as = {
  key: (org: OrgFixture): Credential => ({ apiKey: org.apiKey }),
  admin: (org: OrgFixture): Credential => ({ pat: org.admin.token }),
  member: (org: OrgFixture): Credential => ({ pat: org.member.token }),
};

/** A suite with a fresh service (configured by `env`) and organizations A and B. */
export function journalSuite(name: string, env: Record<string, string> = {}): Test<JournalCtx> {
  const s = suite<JournalCtx>(name, {} as JournalCtx);
  s.before(async (ctx) => {
    ctx.svc = await startTestService(env);
    ctx.a = await createOrg(ctx.svc);
    ctx.b = await createOrg(ctx.svc);
  });
  s.after(async (ctx) => {
    await ctx.svc.close();
  });
  return s;
}

/** One test for the 401s: no credential, unknown tokens, and each token under the other scheme's header. */
export function rejectsUnauthenticated<T extends { svc: TestService; a: OrgFixture }>(
  s: Test<T>,
  label: string,
  method: string,
  target: (ctx: T) => string,
  body?: unknown,
) {
  s(
    `${label} 401 without a credential, with an unknown token, or with a token under the other scheme's header`,
    async (ctx) => {
      const unknownKey = { apiKey: `ahk_${'x'.repeat(43)}` };
      for (const auth of [
        null,
        unknownKey,
        { pat: 'ahp_unknown' },
        { pat: ctx.a.apiKey },
        { apiKey: ctx.a.admin.token },
      ]) {
        expectError(await request(ctx.svc.url, method, target(ctx), { auth, body }), 401, 'unauthorized');
      }
    },
  );
}

/** Creates a category of `org` with its API key and returns it. */
export async function newCategory(
  ctx: JournalCtx,
  org: OrgFixture,
  name = 'Lage',
  description = 'Lagemeldungen',
): Promise<{ id: number; name: string; description: string; organizationId: number }> {
  const res = await client(ctx.svc.url, as.key(org)).post(CATEGORIES, { name, description, organizationId: org.orgId });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Opens (and so creates) a journal with J6 and returns its ID. */
export async function openJournal(
  ctx: JournalCtx,
  org: OrgFixture,
  query = `organization_id=${org.orgId}`,
  auth = as.key(org),
): Promise<number> {
  const res = await client(ctx.svc.url, auth).get(`${BASE}?${query}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

let lastEvent = 1000;

/** J6's query for the journal of an event of `org` that no test used before. */
export function newEventQuery(org: OrgFixture): string {
  return `organization_id=${org.orgId}&event_id=${++lastEvent}`;
}

/** A journal of its own for one test: the journal of a new event of `org`. */
export function eventJournal(ctx: JournalCtx, org: OrgFixture = ctx.a): Promise<number> {
  return openJournal(ctx, org, newEventQuery(org));
}

/** Locks a journal as `auth` and asserts it worked. */
export async function lock(ctx: JournalCtx, journalId: number, auth: Credential): Promise<void> {
  const res = await client(ctx.svc.url, auth).post(`${BASE}/${journalId}/lock`);
  assert.is(res.status, 200, JSON.stringify(res.body));
}

/** Writes an entry as `auth` and returns the response. */
export function writeEntry(
  ctx: JournalCtx,
  journalId: number,
  auth: Credential,
  categoryId: number,
  fields: Record<string, unknown> = {},
) {
  return client(ctx.svc.url, auth).post(`${BASE}/${journalId}/entries`, {
    journalId,
    categoryId,
    text: 'Eintrag',
    ...fields,
  });
}

const validator = new Validator(serviceSchemas);

/** Asserts a response body matches a response schema of /openapi.json (by $id). */
export function matchesSchema(schemaId: string, body: unknown): void {
  try {
    validator.check(schemaId, body, 'body', schemaId);
  } catch (err) {
    assert.unreachable(
      `response does not match ${schemaId}: ${JSON.stringify((err as { details?: unknown }).details)} ` +
        `in ${JSON.stringify(body)}`,
    );
  }
}
