// J1–J5 over the real wire: 401 → 400 → 403 → 404 → 409 → 2xx for the journal's entry categories.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import {
  CATEGORIES,
  as,
  journalSuite,
  lock,
  matchesSchema,
  newCategory,
  openJournal,
  rejectsUnauthenticated,
  wording,
  writeEntry,
} from './helpers/journal.js';

// ---------------------------------------------------------------- J1
const j1 = journalSuite('J1 list categories');
rejectsUnauthenticated(j1, 'J1', 'GET', (ctx) => `${CATEGORIES}?organization_id=${ctx.a.orgId}`);

j1('J1 400 when organization_id is missing or not a positive int64', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  expectBadRequest(await c.get(CATEGORIES), 'invalid_parameter', wording.organizationId, 'query', 'organization_id');
  for (const bad of ['x', '0', '-1', '2.5', ABOVE_MAX_ID]) {
    expectBadRequest(
      await c.get(`${CATEGORIES}?organization_id=${bad}`),
      'invalid_parameter',
      wording.organizationId,
      'query',
      'organization_id',
    );
  }
});

j1('J1 403 "Unauthorized user" for another organization (its API key, its admin)', async (ctx) => {
  for (const auth of [as.key(ctx.b), as.admin(ctx.b)]) {
    expectError(
      await client(ctx.svc.url, auth).get(`${CATEGORIES}?organization_id=${ctx.a.orgId}`),
      403,
      'forbidden',
      wording.unauthorizedUser,
    );
  }
});

j1("J1 200 lists only the organization's categories in ID order, for members too", async (ctx) => {
  const first = await newCategory(ctx, ctx.a, 'Lage', 'Lagemeldungen');
  const second = await newCategory(ctx, ctx.a, 'Funk', 'Funksprüche');
  await newCategory(ctx, ctx.b, 'Fremd', 'of B');
  const res = await client(ctx.svc.url, as.member(ctx.a)).get(`${CATEGORIES}?organization_id=${ctx.a.orgId}`);
  assert.is(res.status, 200);
  matchesSchema('JournalCategoryList', res.body);
  assert.equal(res.body, [
    { id: first.id, name: 'Lage', description: 'Lagemeldungen', organizationId: ctx.a.orgId },
    { id: second.id, name: 'Funk', description: 'Funksprüche', organizationId: ctx.a.orgId },
  ]);
});

j1.run();

// ---------------------------------------------------------------- J2
const j2 = journalSuite('J2 create category');
rejectsUnauthenticated(j2, 'J2', 'POST', () => CATEGORIES, { name: 'x', description: 'y', organizationId: 1 });

j2(
  'J2 400 when the body is missing, a required field is missing, a field is unknown or of the wrong type',
  async (ctx) => {
    const c = client(ctx.svc.url, as.key(ctx.a));
    const ok = { name: 'Lage', description: 'd', organizationId: ctx.a.orgId };
    expectBadRequest(await c.post(CATEGORIES), 'invalid_body', wording.category, 'body');
    for (const field of ['name', 'description', 'organizationId']) {
      const body: Record<string, unknown> = { ...ok };
      delete body[field];
      expectBadRequest(await c.post(CATEGORIES, body), 'invalid_body', wording.category, 'body', field);
    }
    expectBadRequest(
      await c.post(CATEGORIES, { ...ok, colour: 'red' }),
      'invalid_body',
      wording.category,
      'body',
      'colour',
    );
    expectBadRequest(await c.post(CATEGORIES, { ...ok, name: '' }), 'invalid_body', wording.category, 'body', 'name');
    expectBadRequest(
      await c.post(CATEGORIES, { ...ok, name: 'x'.repeat(201) }),
      'invalid_body',
      wording.category,
      'body',
      'name',
    );
    expectBadRequest(
      await c.post(CATEGORIES, { ...ok, organizationId: '1' }),
      'invalid_body',
      wording.category,
      'body',
      'organizationId',
    );
    expectBadRequest(
      await c.post(CATEGORIES, `{"name":"x","description":"y","organizationId":${ABOVE_MAX_ID}}`),
      'invalid_body',
      wording.category,
      'body',
      'organizationId',
    );
  },
);

j2('J2 403 "Unauthorized user" for a member, and for another organization', async (ctx) => {
  const body = { name: 'Lage', description: 'd', organizationId: ctx.a.orgId };
  for (const auth of [as.member(ctx.a), as.key(ctx.b), as.admin(ctx.b)]) {
    expectError(await client(ctx.svc.url, auth).post(CATEGORIES, body), 403, 'forbidden', wording.unauthorizedUser);
  }
});

j2(
  'J2 201 for an admin and for the API key, with sequential IDs; an id of 0 from generated clients is ignored',
  async (ctx) => {
    const byAdmin = await client(ctx.svc.url, as.admin(ctx.a)).post(CATEGORIES, {
      name: 'Funk',
      description: 'Funksprüche',
      organizationId: ctx.a.orgId,
    });
    assert.is(byAdmin.status, 201);
    matchesSchema('JournalCategory', byAdmin.body);
    assert.equal(byAdmin.body, {
      id: byAdmin.body.id,
      name: 'Funk',
      description: 'Funksprüche',
      organizationId: ctx.a.orgId,
    });
    const byKey = await client(ctx.svc.url, as.key(ctx.a)).post(CATEGORIES, {
      id: 0,
      name: 'Befehl',
      description: '',
      organizationId: ctx.a.orgId,
    });
    assert.is(byKey.status, 201);
    assert.is(byKey.body.id, byAdmin.body.id + 1);
    assert.is(byKey.body.description, '');
  },
);

j2.run();

// ---------------------------------------------------------------- J3
const j3 = journalSuite('J3 get category');
rejectsUnauthenticated(j3, 'J3', 'GET', () => `${CATEGORIES}/1`);

j3('J3 400 when categoryID is not a positive int64', async (ctx) => {
  for (const bad of ['x', '0', '-3', ABOVE_MAX_ID]) {
    expectBadRequest(
      await client(ctx.svc.url, as.key(ctx.a)).get(`${CATEGORIES}/${bad}`),
      'invalid_parameter',
      wording.categoryId,
      'path',
      'categoryID',
    );
  }
});

j3('J3 404 "Category not found" for an unknown category and for another organization\'s', async (ctx) => {
  const ofB = await newCategory(ctx, ctx.b);
  for (const path of [`${CATEGORIES}/987654`, `${CATEGORIES}/${ofB.id}`]) {
    expectError(await client(ctx.svc.url, as.key(ctx.a)).get(path), 404, 'not_found', wording.categoryNotFound);
  }
});

j3('J3 200 for a member', async (ctx) => {
  const made = await newCategory(ctx, ctx.a, 'Schaden', 'Schadenslage');
  const res = await client(ctx.svc.url, as.member(ctx.a)).get(`${CATEGORIES}/${made.id}`);
  assert.is(res.status, 200);
  assert.equal(res.body, made);
});

j3.run();

// ---------------------------------------------------------------- J4
const j4 = journalSuite('J4 update category');
rejectsUnauthenticated(j4, 'J4', 'PUT', () => `${CATEGORIES}/1`, { name: 'x', description: 'y', organizationId: 1 });

j4('J4 400 on a bad categoryID, a bad body, another organizationId or another id', async (ctx) => {
  const made = await newCategory(ctx, ctx.a);
  const c = client(ctx.svc.url, as.key(ctx.a));
  const ok = { name: 'Neu', description: 'neu', organizationId: ctx.a.orgId };
  expectBadRequest(await c.put(`${CATEGORIES}/abc`, ok), 'invalid_parameter', wording.categoryId, 'path', 'categoryID');
  expectBadRequest(await c.put(`${CATEGORIES}/${made.id}`), 'invalid_body', wording.category, 'body');
  expectBadRequest(
    await c.put(`${CATEGORIES}/${made.id}`, { name: 'Neu', organizationId: ctx.a.orgId }),
    'invalid_body',
    wording.category,
    'body',
    'description',
  );
  expectBadRequest(
    await c.put(`${CATEGORIES}/${made.id}`, { ...ok, organizationId: ctx.b.orgId }),
    'invalid_body',
    wording.category,
    'body',
    'organizationId',
  );
  expectBadRequest(
    await c.put(`${CATEGORIES}/${made.id}`, { ...ok, id: made.id + 1 }),
    'invalid_body',
    wording.category,
    'body',
    'id',
  );
});

j4("J4 403 for a member; 404 for another organization's category or an unknown one", async (ctx) => {
  const made = await newCategory(ctx, ctx.a);
  const ok = { name: 'Neu', description: 'neu', organizationId: ctx.a.orgId };
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).put(`${CATEGORIES}/${made.id}`, ok),
    403,
    'forbidden',
    wording.unauthorizedUser,
  );
  expectError(
    await client(ctx.svc.url, as.key(ctx.b)).put(`${CATEGORIES}/${made.id}`, { ...ok, organizationId: ctx.b.orgId }),
    404,
    'not_found',
    wording.categoryNotFound,
  );
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).put(`${CATEGORIES}/99999`, ok),
    404,
    'not_found',
    wording.categoryNotFound,
  );
});

j4('J4 200 replaces name and description; entries keep the category as it was when written', async (ctx) => {
  const made = await newCategory(ctx, ctx.a, 'Alt', 'alt');
  const journalId = await openJournal(ctx, ctx.a);
  await lock(ctx, journalId, as.key(ctx.a));
  assert.is((await writeEntry(ctx, journalId, as.key(ctx.a), made.id)).status, 201);
  const res = await client(ctx.svc.url, as.admin(ctx.a)).put(`${CATEGORIES}/${made.id}`, {
    id: made.id,
    name: 'Neu',
    description: 'neu',
    organizationId: ctx.a.orgId,
  });
  assert.is(res.status, 200);
  assert.equal(res.body, { id: made.id, name: 'Neu', description: 'neu', organizationId: ctx.a.orgId });
  assert.equal((await client(ctx.svc.url, as.key(ctx.a)).get(`${CATEGORIES}/${made.id}`)).body, res.body);
  const journal = await client(ctx.svc.url, as.key(ctx.a)).get(`/api/v1/journal?organization_id=${ctx.a.orgId}`);
  assert.equal(journal.body.entryList.entries[0].category, made);
});

j4.run();

// ---------------------------------------------------------------- J5
const j5 = journalSuite('J5 delete category');
rejectsUnauthenticated(j5, 'J5', 'DELETE', () => `${CATEGORIES}/1`);

j5('J5 400 when categoryID is not a positive int64', async (ctx) => {
  expectBadRequest(
    await client(ctx.svc.url, as.key(ctx.a)).delete(`${CATEGORIES}/1.5`),
    'invalid_parameter',
    wording.categoryId,
    'path',
    'categoryID',
  );
});

j5("J5 403 for a member; 404 for another organization's or an unknown category", async (ctx) => {
  const made = await newCategory(ctx, ctx.a);
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).delete(`${CATEGORIES}/${made.id}`),
    403,
    'forbidden',
    wording.unauthorizedUser,
  );
  expectError(
    await client(ctx.svc.url, as.admin(ctx.b)).delete(`${CATEGORIES}/${made.id}`),
    404,
    'not_found',
    wording.categoryNotFound,
  );
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).delete(`${CATEGORIES}/424242`),
    404,
    'not_found',
    wording.categoryNotFound,
  );
  assert.is((await client(ctx.svc.url, as.key(ctx.a)).get(`${CATEGORIES}/${made.id}`)).status, 200);
});

j5('J5 409 category_in_use "Category already used, cannot be deleted", also once the entry is deleted', async (ctx) => {
  const used = await newCategory(ctx, ctx.a, 'Benutzt', 'u');
  const journalId = await openJournal(ctx, ctx.a);
  await lock(ctx, journalId, as.member(ctx.a));
  const entry = await writeEntry(ctx, journalId, as.member(ctx.a), used.id);
  assert.is(entry.status, 201);
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).delete(`${CATEGORIES}/${used.id}`),
    409,
    'category_in_use',
    wording.categoryInUse,
  );
  assert.is(
    (await client(ctx.svc.url, as.member(ctx.a)).delete(`/api/v1/journal/${journalId}/entries/${entry.body.id}`))
      .status,
    200,
  );
  expectError(
    await client(ctx.svc.url, as.admin(ctx.a)).delete(`${CATEGORIES}/${used.id}`),
    409,
    'category_in_use',
    wording.categoryInUse,
  );
});

j5(
  'J5 200 {"status":"deleted"} for an unused category; it is gone, and an entry can no longer take it',
  async (ctx) => {
    const unused = await newCategory(ctx, ctx.a, 'Frei', 'f');
    const res = await client(ctx.svc.url, as.admin(ctx.a)).delete(`${CATEGORIES}/${unused.id}`);
    assert.is(res.status, 200);
    assert.equal(res.body, { status: 'deleted' });
    expectError(
      await client(ctx.svc.url, as.key(ctx.a)).get(`${CATEGORIES}/${unused.id}`),
      404,
      'not_found',
      wording.categoryNotFound,
    );
    expectError(
      await client(ctx.svc.url, as.key(ctx.a)).delete(`${CATEGORIES}/${unused.id}`),
      404,
      'not_found',
      wording.categoryNotFound,
    );
    const journalId = await openJournal(ctx, ctx.a, `event_id=31`);
    await lock(ctx, journalId, as.key(ctx.a));
    expectBadRequest(
      await writeEntry(ctx, journalId, as.key(ctx.a), unused.id),
      'invalid_body',
      wording.category,
      'body',
      'categoryId',
    );
  },
);

j5.run();
