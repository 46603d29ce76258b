// J6 over the real wire: a journal per organization and per event, created on first access, with its
// entries paginated newest first.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import {
  BASE,
  as,
  journalSuite,
  lock,
  matchesSchema,
  newCategory,
  newEventQuery,
  openJournal,
  rejectsUnauthenticated,
  wording,
  writeEntry,
} from './helpers/journal.js';

const j6 = journalSuite('J6 get journal');
rejectsUnauthenticated(j6, 'J6', 'GET', (ctx) => `${BASE}?organization_id=${ctx.a.orgId}`);

j6('J6 400 without organization_id and event_id, or with one of them, limit or offset out of range', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  expectBadRequest(await c.get(BASE), 'invalid_parameter', wording.journalQuery, 'query', 'organization_id');
  const org = `organization_id=${ctx.a.orgId}`;
  const cases: Array<[string, string]> = [
    ['organization_id=abc', 'organization_id'],
    ['organization_id=0', 'organization_id'],
    [`organization_id=${ABOVE_MAX_ID}`, 'organization_id'],
    ['event_id=-2', 'event_id'],
    ['event_id=1.5', 'event_id'],
    [`${org}&limit=0`, 'limit'],
    [`${org}&limit=51`, 'limit'],
    [`${org}&limit=ten`, 'limit'],
    [`${org}&offset=-1`, 'offset'],
  ];
  for (const [query, field] of cases)
    expectBadRequest(await c.get(`${BASE}?${query}`), 'invalid_parameter', wording.journalQuery, 'query', field);
});

j6('J6 400 for event_id alone from a user in several organizations (which one is meant is unclear)', async (ctx) => {
  const user = await ctx.svc.identity.createUser('Zugführer in two organizations');
  await ctx.svc.identity.addMember(ctx.a.orgId, user.id, 'member');
  await ctx.svc.identity.addMember(ctx.b.orgId, user.id, 'member');
  const token = (await ctx.svc.identity.createPersonalToken(user.id, 'tablet')).token;
  const res = await client(ctx.svc.url, { pat: token }).get(`${BASE}?event_id=5`);
  expectBadRequest(res, 'invalid_parameter', wording.journalQuery, 'query', 'organization_id');
  assert.is(
    (await client(ctx.svc.url, { pat: token }).get(`${BASE}?event_id=5&organization_id=${ctx.b.orgId}`)).status,
    200,
  );
});

j6(
  'J6 403 "Unauthorized user" for another organization\'s journal, and for a user without organization',
  async (ctx) => {
    for (const auth of [as.key(ctx.b), as.admin(ctx.b), as.member(ctx.b)]) {
      expectError(
        await client(ctx.svc.url, auth).get(`${BASE}?organization_id=${ctx.a.orgId}`),
        403,
        'forbidden',
        wording.unauthorizedUser,
      );
      expectError(
        await client(ctx.svc.url, auth).get(`${BASE}?organization_id=${ctx.a.orgId}&event_id=3`),
        403,
        'forbidden',
        wording.unauthorizedUser,
      );
    }
    const loner = await ctx.svc.identity.createUser('No organization');
    const token = (await ctx.svc.identity.createPersonalToken(loner.id, 'x')).token;
    expectError(
      await client(ctx.svc.url, { pat: token }).get(`${BASE}?event_id=3`),
      403,
      'forbidden',
      wording.unauthorizedUser,
    );
  },
);

j6(
  "J6 200 creates the organization's journal on first access and returns the same one afterwards, to members too",
  async (ctx) => {
    const first = await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}?organization_id=${ctx.a.orgId}`);
    assert.is(first.status, 200);
    matchesSchema('Journal', first.body);
    assert.equal(first.body, {
      id: first.body.id,
      organizationId: ctx.a.orgId,
      eventId: null,
      closed: false,
      locked: null,
      entryList: { entries: [], totalEntries: 0 },
    });
    const again = await client(ctx.svc.url, as.key(ctx.a)).get(`${BASE}?organization_id=${ctx.a.orgId}&limit=50`);
    assert.equal(again.body, first.body);
    const ofB = await client(ctx.svc.url, as.key(ctx.b)).get(`${BASE}?organization_id=${ctx.b.orgId}`);
    assert.is.not(ofB.body.id, first.body.id);
  },
);

j6(
  "J6 200 an event's journal is its own, per organization; an API key or a user of one organization " +
    'may leave out organization_id',
  async (ctx) => {
    const c = client(ctx.svc.url, as.key(ctx.a));
    const org = (await c.get(`${BASE}?organization_id=${ctx.a.orgId}`)).body;
    const event = await c.get(`${BASE}?organization_id=${ctx.a.orgId}&event_id=4711`);
    assert.is(event.status, 200);
    assert.equal(event.body, {
      id: event.body.id,
      organizationId: ctx.a.orgId,
      eventId: 4711,
      closed: false,
      locked: null,
      entryList: { entries: [], totalEntries: 0 },
    });
    assert.is.not(event.body.id, org.id);
    assert.is((await c.get(`${BASE}?event_id=4711`)).body.id, event.body.id);
    assert.is((await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}?event_id=4711`)).body.id, event.body.id);
    const sameEventOfB = await client(ctx.svc.url, as.key(ctx.b)).get(`${BASE}?event_id=4711`);
    assert.is(sameEventOfB.body.organizationId, ctx.b.orgId);
    assert.is.not(sameEventOfB.body.id, event.body.id);
  },
);

j6(
  'J6 200 pages newest first (default 10), with totalEntries the highest serial; deleted entries stay listed',
  async (ctx) => {
    const category = await newCategory(ctx, ctx.a, 'Lage', 'l');
    const query = newEventQuery(ctx.a);
    const journalId = await openJournal(ctx, ctx.a, query);
    await lock(ctx, journalId, as.member(ctx.a));
    const ids: number[] = [];
    for (let i = 1; i <= 13; i++)
      ids.push((await writeEntry(ctx, journalId, as.member(ctx.a), category.id, { text: `Meldung ${i}` })).body.id);
    assert.is(
      (await client(ctx.svc.url, as.member(ctx.a)).delete(`${BASE}/${journalId}/entries/${ids[11]}`)).status,
      200,
    );
    const c = client(ctx.svc.url, as.admin(ctx.a));
    const page = async (extra: string) => (await c.get(`${BASE}?${query}${extra}`)).body;
    const first = await page('');
    matchesSchema('Journal', first);
    assert.is(first.id, journalId);
    assert.is(first.entryList.totalEntries, 13);
    assert.equal(
      first.entryList.entries.map((e: any) => e.serialNumber),
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4],
    );
    assert.is(first.entryList.entries[0].text, 'Meldung 13');
    assert.is(first.entryList.entries[1].deleted.userId, ctx.a.member.userId);
    assert.is(first.entryList.entries[1].text, 'Meldung 12');
    assert.equal(
      (await page('&limit=3&offset=2')).entryList.entries.map((e: any) => e.serialNumber),
      [11, 10, 9],
    );
    assert.equal(
      (await page('&limit=50&offset=10')).entryList.entries.map((e: any) => e.serialNumber),
      [3, 2, 1],
    );
    const beyond = await page('&offset=13');
    assert.equal(beyond.entryList, { entries: [], totalEntries: 13 });
    assert.is(beyond.locked.userId, ctx.a.member.userId);
  },
);

j6('/openapi.json lists every journal and integration operation with its x-label', async (ctx) => {
  const doc = (await fetch(`${ctx.svc.url}/openapi.json`).then((r) => r.json())) as {
    paths: Record<string, Record<string, { 'x-label': string }>>;
  };
  const labels = Object.entries(doc.paths).flatMap(([route, ops]) =>
    Object.entries(ops).map(([method, op]) => `${op['x-label']} ${method.toUpperCase()} ${route}`),
  );
  for (const expected of [
    'J1 GET /api/v1/journal/categories',
    'J2 POST /api/v1/journal/categories',
    'J3 GET /api/v1/journal/categories/{categoryID}',
    'J4 PUT /api/v1/journal/categories/{categoryID}',
    'J5 DELETE /api/v1/journal/categories/{categoryID}',
    'J6 GET /api/v1/journal',
    'J7 POST /api/v1/journal/{journalID}/lock',
    'J8 POST /api/v1/journal/{journalID}/unlock',
    'J-close POST /api/v1/journal/{journalID}/close',
    'J-force-unlock POST /api/v1/journal/{journalID}/force-unlock',
    'J9 POST /api/v1/journal/{journalID}/entries',
    'J10 DELETE /api/v1/journal/{journalID}/entries/{entryID}',
    'E1 GET /api/v1/els-cobra/certificate/{organizationID}',
    'E2 PUT /api/v1/els-cobra/certificate/{organizationID}',
    'E2-delete DELETE /api/v1/els-cobra/certificate/{organizationID}',
    'E3 GET /api/v1/els-cobra/credentials/{organizationID}',
    'E4 PUT /api/v1/els-cobra/credentials/{organizationID}',
    'E4-delete DELETE /api/v1/els-cobra/credentials/{organizationID}',
    'E5 GET /api/v1/els-cobra/keyword/{organizationID}',
    'E6 PUT /api/v1/els-cobra/keyword/{organizationID}',
    'E6-delete DELETE /api/v1/els-cobra/keyword/{organizationID}',
    'E7-get GET /api/v1/els-cobra/login/{organizationID}',
    'E7 PUT /api/v1/els-cobra/login/{organizationID}',
    'E7-delete DELETE /api/v1/els-cobra/login/{organizationID}',
  ])
    assert.ok(labels.includes(expected), `${expected} in /openapi.json`);
});

j6.run();
