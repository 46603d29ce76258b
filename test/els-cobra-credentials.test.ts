// E3 / E4 / DELETE of the integration's credentials over the real wire, with organizationID in the path
// or (as the 2019 document puts it for PUT and DELETE) in the query behind the literal placeholder.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { ELS, elsSuite, elsWording } from './helpers/els-cobra.js';
import { as, matchesSchema, rejectsUnauthenticated, type JournalCtx } from './helpers/journal.js';

const CRED = `${ELS}/credentials`;
const PLACEHOLDER = `${CRED}/%7BorganizationID%7D`;
const login = { username: 'leitstelle-nord', password: 'S3cr3t!pässwort', url: 'https://cobra.example/api' };
const store = (ctx: JournalCtx, service: string, body: Record<string, unknown> = login) =>
  client(ctx.svc.url, as.key(ctx.a)).put(`${PLACEHOLDER}?organizationID=${ctx.a.orgId}&serviceName=${service}`, body);

const e4 = elsSuite('E4 store credentials');
rejectsUnauthenticated(e4, 'E4', 'PUT', (ctx) => `${CRED}/${ctx.a.orgId}?serviceName=alarm`, login);

e4('E4 400 without serviceName, without any organizationID, or with two that differ', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  expectBadRequest(
    await c.put(`${CRED}/${ctx.a.orgId}`, login),
    'invalid_parameter',
    elsWording.service,
    'query',
    'serviceName',
  );
  expectBadRequest(
    await c.put(`${CRED}/${ctx.a.orgId}?serviceName=`, login),
    'invalid_parameter',
    elsWording.service,
    'query',
    'serviceName',
  );
  expectBadRequest(
    await c.put(`${PLACEHOLDER}?serviceName=alarm`, login),
    'invalid_parameter',
    elsWording.service,
    'query',
    'organizationID',
  );
  expectBadRequest(
    await c.put(`${CRED}/${ctx.a.orgId}?organizationID=${ctx.b.orgId}&serviceName=alarm`, login),
    'invalid_parameter',
    elsWording.service,
    'query',
    'organizationID',
  );
});

e4(
  'E4 400 on a missing field, an unknown one, a URL that is not http(s), or a body naming another service',
  async (ctx) => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: 'x', password: 'y' }, 'url'],
      [{ password: 'y', url: login.url }, 'username'],
      [{ username: 'x', url: login.url }, 'password'],
      [{ ...login, token: 'x' }, 'token'],
      [{ ...login, url: 'ftp://cobra.example/' }, 'url'],
      [{ ...login, url: 'https://' }, 'url'],
      [{ ...login, url: 'http://exa mple.org/' }, 'url'],
      [{ ...login, serviceName: 'other' }, 'serviceName'],
      [{ ...login, organizationId: ctx.b.orgId }, 'organizationId'],
    ];
    for (const [body, field] of cases)
      expectBadRequest(await store(ctx, 'alarm', body), 'invalid_body', elsWording.credentials, 'body', field);
  },
);

e4('E4 403 for a member and for another organization', async (ctx) => {
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).put(`${CRED}/${ctx.a.orgId}?serviceName=alarm`, login),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.svc.url, as.admin(ctx.b)).put(
      `${PLACEHOLDER}?organizationID=${ctx.a.orgId}&serviceName=alarm`,
      login,
    ),
    403,
    'forbidden',
  );
});

e4("E4 200 stores per service (path or query placement), replacing the service's earlier credentials", async (ctx) => {
  const res = await store(ctx, 'alarm', { ...login, serviceName: 'alarm', organizationId: ctx.a.orgId });
  assert.is(res.status, 200, JSON.stringify(res.body));
  matchesSchema('ElsCobraCredentials', res.body);
  assert.equal(res.body, { organizationId: ctx.a.orgId, serviceName: 'alarm', ...login });
  const replaced = await client(ctx.svc.url, as.admin(ctx.a)).put(`${CRED}/${ctx.a.orgId}?serviceName=alarm`, {
    ...login,
    password: 'neu',
  });
  assert.equal(replaced.body, { organizationId: ctx.a.orgId, serviceName: 'alarm', ...login, password: 'neu' });
  assert.is(
    (await client(ctx.svc.url, as.key(ctx.a)).get(`${CRED}/${ctx.a.orgId}?serviceName=alarm`)).body.password,
    'neu',
  );
});

e4.run();

const e3 = elsSuite('E3 get credentials');
rejectsUnauthenticated(e3, 'E3', 'GET', (ctx) => `${CRED}/${ctx.a.orgId}`);

e3('E3 400 on a bad organizationID or an empty serviceName', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  expectBadRequest(await c.get(`${CRED}/zero`), 'invalid_parameter', elsWording.service, 'path', 'organizationID');
  expectBadRequest(
    await c.get(`${CRED}/${ctx.a.orgId}?serviceName=`),
    'invalid_parameter',
    elsWording.service,
    'query',
    'serviceName',
  );
});

e3(
  'E3 403 for a member (passwords) and for another organization; 404 for a service without credentials',
  async (ctx) => {
    await store(ctx, 'alarm');
    expectError(
      await client(ctx.svc.url, as.member(ctx.a)).get(`${CRED}/${ctx.a.orgId}?serviceName=alarm`),
      403,
      'forbidden',
    );
    expectError(await client(ctx.svc.url, as.member(ctx.a)).get(`${CRED}/${ctx.a.orgId}`), 403, 'forbidden');
    expectError(await client(ctx.svc.url, as.key(ctx.b)).get(`${CRED}/${ctx.a.orgId}`), 403, 'forbidden');
    expectError(
      await client(ctx.svc.url, as.key(ctx.a)).get(`${CRED}/${ctx.a.orgId}?serviceName=unknown`),
      404,
      'not_found',
      'Credentials not found',
    );
  },
);

e3("E3 200 one service with serviceName; all of the organization's, by serviceName, without it", async (ctx) => {
  await store(ctx, 'status', { ...login, username: 'status-user', password: 'p2' });
  await store(ctx, 'alarm');
  await client(ctx.svc.url, as.key(ctx.b)).put(`${CRED}/${ctx.b.orgId}?serviceName=alarm`, {
    ...login,
    username: 'of B',
  });
  const one = await client(ctx.svc.url, as.admin(ctx.a)).get(`${CRED}/${ctx.a.orgId}?serviceName=status`);
  assert.equal(one.body, {
    organizationId: ctx.a.orgId,
    serviceName: 'status',
    ...login,
    username: 'status-user',
    password: 'p2',
  });
  const all = await client(ctx.svc.url, as.key(ctx.a)).get(`${CRED}/${ctx.a.orgId}`);
  assert.is(all.status, 200);
  matchesSchema('ElsCobraCredentialsResult', all.body);
  assert.equal(
    all.body.map((c: any) => [c.serviceName, c.username, c.password]),
    [
      ['alarm', login.username, login.password],
      ['status', 'status-user', 'p2'],
    ],
  );
  assert.equal(
    (await client(ctx.svc.url, as.key(ctx.b)).get(`${CRED}/${ctx.b.orgId}`)).body.map((c: any) => c.username),
    ['of B'],
  );
});

e3.run();

const del = elsSuite('E4-delete delete credentials');
rejectsUnauthenticated(del, 'E4-delete', 'DELETE', (ctx) => `${CRED}/${ctx.a.orgId}?serviceName=alarm`);

del(
  'E4-delete 400 without serviceName; 403 for a member and another organization; 404 for an unknown service',
  async (ctx) => {
    expectBadRequest(
      await client(ctx.svc.url, as.key(ctx.a)).delete(`${CRED}/${ctx.a.orgId}`),
      'invalid_parameter',
      elsWording.service,
      'query',
      'serviceName',
    );
    expectError(
      await client(ctx.svc.url, as.member(ctx.a)).delete(`${CRED}/${ctx.a.orgId}?serviceName=alarm`),
      403,
      'forbidden',
    );
    expectError(
      await client(ctx.svc.url, as.key(ctx.b)).delete(`${CRED}/${ctx.a.orgId}?serviceName=alarm`),
      403,
      'forbidden',
    );
    expectError(
      await client(ctx.svc.url, as.key(ctx.a)).delete(`${CRED}/${ctx.a.orgId}?serviceName=alarm`),
      404,
      'not_found',
      'Credentials not found',
    );
  },
);

del("E4-delete 200 removes one service's credentials (organization in the query), the others stay", async (ctx) => {
  await store(ctx, 'alarm');
  await store(ctx, 'status');
  const res = await client(ctx.svc.url, as.admin(ctx.a)).delete(
    `${PLACEHOLDER}?organizationID=${ctx.a.orgId}&serviceName=alarm`,
  );
  assert.is(res.status, 200);
  assert.equal(res.body, { status: 'deleted' });
  assert.equal(
    (await client(ctx.svc.url, as.key(ctx.a)).get(`${CRED}/${ctx.a.orgId}`)).body.map((c: any) => c.serviceName),
    ['status'],
  );
});

del.run();
