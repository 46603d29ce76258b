// Shared set-up for the things tests (T1–T13): a fresh service per suite, organizations A and B, members
// of A that an entity grants read or read/write, an entity of A with one field of every type, and the
// 401 cases every operation shares.
import { suite } from './suite.js';
import * as assert from 'uvu/assert';
import { expectError } from './expect.js';
import { client, request, type Credential } from './http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './service.js';

export const BASE = '/api/v1/things';

/** One field of every type, named after it (the selection offers three values). */
export const ALL_FIELDS = [
  { name: 'Name', type: 'text' },
  { name: 'Pressure', type: 'number' },
  { name: 'Working', type: 'boolean' },
  { name: 'Checked', type: 'date' },
  { name: 'Last use', type: 'datetime' },
  { name: 'Kind', type: 'selection', selectionValues: ['underground', 'pillar', 'wall'] },
  { name: 'Position', type: 'coordinates' },
  { name: 'Address', type: 'address' },
  { name: 'Plan', type: 'url' },
  { name: 'Contact', type: 'email' },
  { name: 'Phone', type: 'phone' },
] as const;

export type FieldName = (typeof ALL_FIELDS)[number]['name'];

export interface User {
  userId: number;
  token: string;
}

export interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
  /** Members of A: granted read-only, granted read/write by the entity. */
  reader: User;
  writer: User;
  /** The entity of A (as T2 answered) and its field IDs by field name. */
  entity: any;
  field: Record<FieldName, string>;
}

/** The organization's API key as a credential. */
export const key = (org: OrgFixture): Credential => ({ apiKey: org.apiKey });
/** The organization admin's personal access token as a credential. */
export const admin = (org: OrgFixture): Credential => ({ pat: org.admin.token });
/** The organization member's (granted nothing) personal access token as a credential. */
export const member = (org: OrgFixture): Credential => ({ pat: org.member.token });
/** A user's personal access token as a credential. */
export const pat = (user: User): Credential => ({ pat: user.token });

/** A new member of the organization with a personal access token. */
export async function addMember(svc: TestService, org: OrgFixture, name: string): Promise<User> {
  const user = await svc.identity.createUser(name);
  await svc.identity.addMember(org.orgId, user.id, 'member');
  return { userId: user.id, token: (await svc.identity.createPersonalToken(user.id, 'laptop')).token };
}

/** Creates an entity of `org` with its API key; returns the T2 answer. */
export async function createEntity(
  svc: TestService,
  org: OrgFixture,
  body: Record<string, unknown> = {},
): Promise<any> {
  const res = await client(svc.url, key(org)).post(`${BASE}/entities`, {
    name: 'Hydrants',
    organizationID: org.orgId,
    fields: ALL_FIELDS,
    ...body,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Creates a record with the API key of A; `values` by field name. Returns the T6 answer. */
export async function createRecord(
  ctx: Ctx,
  values: Partial<Record<FieldName, string>>,
  entity = ctx.entity,
  org = ctx.a,
): Promise<any> {
  const res = await client(ctx.svc.url, key(org)).post(`${BASE}/entities/${entity.id}/records`, {
    values: byName(ctx, values),
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Value items for the entity of A from values by field name. */
export function byName(ctx: Ctx, values: Partial<Record<FieldName, string>>) {
  return Object.entries(values).map(([name, value]) => ({ fieldID: ctx.field[name as FieldName], value }));
}

/** A record's values by field name. */
export function valuesByName(
  ctx: Ctx,
  record: { values: Array<{ fieldID: string; value: string }> },
): Record<string, string> {
  const names = new Map(Object.entries(ctx.field).map(([name, id]) => [id, name]));
  return Object.fromEntries(record.values.map((v) => [names.get(v.fieldID) ?? v.fieldID, v.value]));
}

/** A suite with a fresh service, organizations A and B, granted members and the entity of A. */
export function area(name: string, env: Record<string, string> = {}, options: { monitorCommands?: boolean } = {}) {
  const s = suite<Ctx>(name, {} as Ctx);
  s.before(async (ctx) => {
    ctx.svc = await startTestService(env, options);
    ctx.a = await createOrg(ctx.svc);
    ctx.b = await createOrg(ctx.svc);
    ctx.reader = await addMember(ctx.svc, ctx.a, 'reader');
    ctx.writer = await addMember(ctx.svc, ctx.a, 'writer');
    ctx.entity = await createEntity(ctx.svc, ctx.a, {
      readOnlyUserIDs: [ctx.reader.userId],
      readWriteUserIDs: [ctx.writer.userId],
    });
    ctx.field = Object.fromEntries(ctx.entity.fields.map((f: any) => [f.name, f.id])) as Ctx['field'];
  });
  s.after(async (ctx) => {
    await ctx.svc.close();
  });
  return s;
}

/** One test for the 401s of an operation: no credential, unknown tokens, a token under the other scheme's header. */
export function rejectsWithoutCredential(
  s: ReturnType<typeof area>,
  label: string,
  method: string,
  target: (ctx: Ctx) => string,
  body?: unknown,
) {
  s(
    `${label} 401 without a credential, with unknown tokens and with a token under the other scheme's header`,
    async (ctx) => {
      const url = target(ctx);
      const attempts: Array<Credential> = [
        null,
        { apiKey: 'ahk_' + 'x'.repeat(43) },
        { pat: 'ahp_unknown' },
        { pat: ctx.a.apiKey },
        { apiKey: ctx.a.admin.token },
      ];
      for (const auth of attempts)
        expectError(await request(ctx.svc.url, method, url, { auth, body }), 401, 'unauthorized');
    },
  );
}
