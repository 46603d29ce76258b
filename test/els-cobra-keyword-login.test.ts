// E5 / E6 / DELETE of the keyword list and E7 with GET / DELETE of the login, over the real wire.
// Neither holds secrets: members read them; admins and the API key write them.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { ELS, elsSuite, elsWording } from './helpers/els-cobra.js';
import { as, matchesSchema, rejectsUnauthenticated } from './helpers/journal.js';

const KEYWORD = `${ELS}/keyword`;
const LOGIN = `${ELS}/login`;
const scenario = {
  keyword_1: 'B3',
  keyword_2: 'Wohnung',
  type_1: 'Stichwort',
  type_2: 'Objekt',
  priority: 2,
  scenarioIds: [17, 23],
};

const e6 = elsSuite('E6 store keyword list');
rejectsUnauthenticated(e6, 'E6', 'PUT', (ctx) => `${KEYWORD}/${ctx.a.orgId}`, { keywordScenarioList: [] });

e6('E6 400 on a bad organizationID, a missing list, or items with wrong priorities and scenario IDs', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  const url = `${KEYWORD}/${ctx.a.orgId}`;
  expectBadRequest(
    await c.put(`${KEYWORD}/-5`, { keywordScenarioList: [] }),
    'invalid_parameter',
    elsWording.organization,
    'path',
    'organizationID',
  );
  expectBadRequest(await c.put(url, {}), 'invalid_body', elsWording.keywords, 'body', 'keywordScenarioList');
  const items: Array<[Record<string, unknown>, string]> = [
    [{ priority: 1.5 }, 'keywordScenarioList.0.priority'],
    [{ priority: '2' }, 'keywordScenarioList.0.priority'],
    [{ priority: -1 }, 'keywordScenarioList.0.priority'],
    [{ scenarioIds: [1, 'x'] }, 'keywordScenarioList.0.scenarioIds.1'],
    [{ scenarioIds: [0] }, 'keywordScenarioList.0.scenarioIds.0'],
    [{ keyword_1: 'x'.repeat(201) }, 'keywordScenarioList.0.keyword_1'],
    [{ keyword_3: 'x' }, 'keywordScenarioList.0.keyword_3'],
  ];
  for (const [change, field] of items)
    expectBadRequest(
      await c.put(url, { keywordScenarioList: [{ ...scenario, ...change }] }),
      'invalid_body',
      elsWording.keywords,
      'body',
      field,
    );
  expectBadRequest(
    await c.put(url, { keywordScenarioList: [], organizationId: ctx.b.orgId }),
    'invalid_body',
    elsWording.keywords,
    'body',
    'organizationId',
  );
});

e6('E6 403 for a member and for another organization', async (ctx) => {
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).put(`${KEYWORD}/${ctx.a.orgId}`, { keywordScenarioList: [] }),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.svc.url, as.key(ctx.b)).put(`${KEYWORD}/${ctx.a.orgId}`, { keywordScenarioList: [] }),
    403,
    'forbidden',
  );
});

e6('E6 200 stores the list, replacing the earlier one; null lists from Go clients store as empty ones', async (ctx) => {
  const c = client(ctx.svc.url, as.admin(ctx.a));
  const res = await c.put(`${KEYWORD}/${ctx.a.orgId}`, {
    keywordScenarioList: [scenario, { keyword_1: 'TH1', priority: 0, scenarioIds: null }],
    organizationId: ctx.a.orgId,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  matchesSchema('ElsCobraKeywordList', res.body);
  assert.equal(res.body, {
    organizationId: ctx.a.orgId,
    keywordScenarioList: [scenario, { keyword_1: 'TH1', priority: 0, scenarioIds: [] }],
  });
  assert.equal((await c.put(`${KEYWORD}/${ctx.a.orgId}`, { keywordScenarioList: null })).body, {
    organizationId: ctx.a.orgId,
    keywordScenarioList: [],
  });
});

e6.run();

const e5 = elsSuite('E5 get keyword list, E6-delete');
rejectsUnauthenticated(e5, 'E5', 'GET', (ctx) => `${KEYWORD}/${ctx.a.orgId}`);
rejectsUnauthenticated(e5, 'E6-delete', 'DELETE', (ctx) => `${KEYWORD}/${ctx.a.orgId}`);

e5('E5 400 on a bad organizationID; 403 for another organization; 404 when none is stored', async (ctx) => {
  expectBadRequest(
    await client(ctx.svc.url, as.key(ctx.a)).get(`${KEYWORD}/0`),
    'invalid_parameter',
    elsWording.organization,
    'path',
    'organizationID',
  );
  expectError(await client(ctx.svc.url, as.admin(ctx.b)).get(`${KEYWORD}/${ctx.a.orgId}`), 403, 'forbidden');
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).get(`${KEYWORD}/${ctx.a.orgId}`),
    404,
    'not_found',
    'Keyword list not found',
  );
});

e5('E5 200 for a member; E6-delete 403 for a member, 200 for the API key, then 404', async (ctx) => {
  await client(ctx.svc.url, as.key(ctx.a)).put(`${KEYWORD}/${ctx.a.orgId}`, { keywordScenarioList: [scenario] });
  const read = await client(ctx.svc.url, as.member(ctx.a)).get(`${KEYWORD}/${ctx.a.orgId}`);
  assert.equal(read.body, { organizationId: ctx.a.orgId, keywordScenarioList: [scenario] });
  expectError(await client(ctx.svc.url, as.member(ctx.a)).delete(`${KEYWORD}/${ctx.a.orgId}`), 403, 'forbidden');
  assert.equal((await client(ctx.svc.url, as.key(ctx.a)).delete(`${KEYWORD}/${ctx.a.orgId}`)).body, {
    status: 'deleted',
  });
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).delete(`${KEYWORD}/${ctx.a.orgId}`),
    404,
    'not_found',
    'Keyword list not found',
  );
});

e5.run();

const e7 = elsSuite('E7 login (store, get, delete)');
rejectsUnauthenticated(e7, 'E7', 'PUT', (ctx) => `${LOGIN}/${ctx.a.orgId}`, { url: 'https://cobra.example/' });
rejectsUnauthenticated(e7, 'E7-get', 'GET', (ctx) => `${LOGIN}/${ctx.a.orgId}`);
rejectsUnauthenticated(e7, 'E7-delete', 'DELETE', (ctx) => `${LOGIN}/${ctx.a.orgId}`);

e7('E7 400 without url, with a url that is not http(s), or an unknown field', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  const url = `${LOGIN}/${ctx.a.orgId}`;
  for (const [body, field] of [
    [{}, 'url'],
    [{ url: 'javascript:alert(1)' }, 'url'],
    [{ url: 'mailto:leitstelle@example.org' }, 'url'],
    [{ url: 'https://x.example/', user: 'x' }, 'user'],
  ] as const) {
    expectBadRequest(await c.put(url, body), 'invalid_body', elsWording.login, 'body', field);
  }
  expectBadRequest(
    await c.put(`${LOGIN}/${ctx.a.orgId}?organizationID=${ctx.b.orgId}`, { url: 'https://x.example/' }),
    'invalid_parameter',
    elsWording.organization,
    'query',
    'organizationID',
  );
});

e7('E7 403 for a member and another organization; E7-get and E7-delete 404 while none is stored', async (ctx) => {
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).put(`${LOGIN}/${ctx.a.orgId}`, { url: 'https://x.example/' }),
    403,
    'forbidden',
  );
  expectError(await client(ctx.svc.url, as.key(ctx.b)).get(`${LOGIN}/${ctx.a.orgId}`), 403, 'forbidden');
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).get(`${LOGIN}/${ctx.a.orgId}`),
    404,
    'not_found',
    'Login not found',
  );
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).delete(`${LOGIN}/${ctx.a.orgId}`),
    404,
    'not_found',
    'Login not found',
  );
});

e7('E7 200 stores the login; members read it (E7-get); admins delete it (E7-delete)', async (ctx) => {
  const res = await client(ctx.svc.url, as.admin(ctx.a)).put(`${LOGIN}/${ctx.a.orgId}`, {
    url: 'http://cobra.leitstelle.local:8080/login',
    organizationId: 0,
  });
  assert.is(res.status, 200);
  matchesSchema('ElsCobraLogin', res.body);
  assert.equal(res.body, { organizationId: ctx.a.orgId, url: 'http://cobra.leitstelle.local:8080/login' });
  assert.equal((await client(ctx.svc.url, as.member(ctx.a)).get(`${LOGIN}/${ctx.a.orgId}`)).body, res.body);
  expectError(await client(ctx.svc.url, as.member(ctx.a)).delete(`${LOGIN}/${ctx.a.orgId}`), 403, 'forbidden');
  assert.equal((await client(ctx.svc.url, as.admin(ctx.a)).delete(`${LOGIN}/${ctx.a.orgId}`)).body, {
    status: 'deleted',
  });
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).get(`${LOGIN}/${ctx.a.orgId}`),
    404,
    'not_found',
    'Login not found',
  );
});

e7.run();
