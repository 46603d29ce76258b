// An organization's API keys (docs/people.md "API keys", K1–K3): listed by its admins and keys, made and
// revoked by an admin in person only, another organization's keys out of reach, and a revoked key
// refused at once on both processes, its hub socket closed.
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  a: TestService;
  b: TestService;
  org: OrgFixture;
  other: OrgFixture;
}

const keys = suite<Ctx>('API keys: made, listed and revoked through the API', {} as Ctx);

keys.before(async (ctx) => {
  // Caches far longer than the test: only being told at once lets a revocation pass on B.
  const env = {
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    CREDENTIAL_CACHE_MS: '60000',
    TOKEN_RECHECK_MS: '60000',
  };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
  ctx.other = await createOrg(ctx.a);
});
keys.after(async (ctx) => {
  await ctx.a.close();
  await ctx.b.close();
});

const path = (org: OrgFixture, key?: number) =>
  `/api/v1/organizations/${org.orgId}/api-keys${key === undefined ? '' : `/${key}`}`;

keys('an admin makes a key that works at once; the list names it without its token', async (ctx) => {
  const admin = client(ctx.a.url, { pat: ctx.org.admin.token });
  const made = await admin.post(path(ctx.org), { name: '  Leitstelle ' });
  assert.is(made.status, 201, JSON.stringify(made.body));
  assert.is(made.body.name, 'Leitstelle');
  assert.match(made.body.token, /^ahk_/);
  assert.is(made.body.revokedAt, null);
  const monitors = await client(ctx.b.url, { apiKey: made.body.token }).get(
    `/api/v1/monitor?organization=${ctx.org.orgId}`,
  );
  assert.is(monitors.status, 200, JSON.stringify(monitors.body));
  const listed = await client(ctx.b.url, { apiKey: ctx.org.apiKey }).get(path(ctx.org));
  assert.is(listed.status, 200);
  const ids = listed.body.apiKeys.map((k: { id: number }) => k.id);
  assert.ok(ids.includes(made.body.id) && ids.includes(ctx.org.apiKeyId), JSON.stringify(listed.body));
  assert.not.ok(JSON.stringify(listed.body).includes(made.body.token), 'the token is never shown again');
  assert.not.ok(JSON.stringify(listed.body).includes('ahk_'), 'no token of any key is shown');
});

keys('a key cannot make or revoke keys; a member sees none; another organization reaches nothing', async (ctx) => {
  const key = client(ctx.a.url, { apiKey: ctx.org.apiKey });
  expectError(await key.post(path(ctx.org), { name: 'Nachfolger' }), 403, 'forbidden');
  expectError(await key.delete(path(ctx.org, ctx.org.apiKeyId)), 403, 'forbidden');
  const member = client(ctx.a.url, { pat: ctx.org.member.token });
  expectError(await member.get(path(ctx.org)), 403, 'forbidden');
  expectError(await member.post(path(ctx.org), { name: 'Meins' }), 403, 'forbidden');
  const stranger = client(ctx.a.url, { pat: ctx.other.admin.token });
  expectError(await stranger.get(path(ctx.org)), 403, 'forbidden');
  expectError(await stranger.delete(path(ctx.org, ctx.org.apiKeyId)), 403, 'forbidden');
  // Through his own organization's path, A's key is not found: it is not his organization's.
  expectError(await stranger.delete(path(ctx.other, ctx.org.apiKeyId)), 404, 'not_found');
  // A personal token is no API key, though it is a token.
  expectError(await stranger.delete(path(ctx.other, ctx.other.admin.tokenId)), 404, 'not_found');
  const still = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).get(path(ctx.org));
  assert.is(still.status, 200, 'the key still works');
});

keys('bad names and IDs get a clear 400 and make nothing', async (ctx) => {
  const admin = client(ctx.a.url, { pat: ctx.org.admin.token });
  const before = (await admin.get(path(ctx.org))).body.apiKeys.length;
  for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'a\nb' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
    const res = await admin.post(path(ctx.org), body);
    expectError(res, 400, 'invalid_body');
    assert.is(res.body.details[0].in, 'body', JSON.stringify(res.body));
  }
  expectError(await admin.post(path(ctx.org), { name: 'ok', token: 'ahk_mine' }), 400, 'invalid_body');
  const bad = await request(ctx.a.url, 'DELETE', `${path(ctx.org)}/abc`, { auth: { pat: ctx.org.admin.token } });
  assert.is(bad.status, 400, JSON.stringify(bad.body));
  assert.is((await admin.get(path(ctx.org))).body.apiKeys.length, before);
});

keys(
  'a revoked key is refused at once on both processes and its socket closes; revoking again answers the same',
  async (ctx) => {
    const admin = client(ctx.a.url, { pat: ctx.org.admin.token });
    const made = (await admin.post(path(ctx.org), { name: 'Wetterstation' })).body;
    const onB = client(ctx.b.url, { apiKey: made.token });
    assert.is((await onB.get(path(ctx.org))).status, 200, 'B knows the key (and caches it)');
    const socket = await connectScreen(ctx.b.url, made.token);
    await socket.waitFor(() => socket.socket.connected, WAIT_MS, 'the key connects to the hub on B');
    let closed = false;
    socket.socket.on('disconnect', () => (closed = true));
    try {
      const revoked = await admin.delete(path(ctx.org, made.id));
      assert.is(revoked.status, 200, JSON.stringify(revoked.body));
      assert.type(revoked.body.revokedAt, 'string');
      // At once: the revocation answered after every process had forgotten the key.
      expectError(await onB.get(path(ctx.org)), 401, 'unauthorized');
      expectError(await client(ctx.a.url, { apiKey: made.token }).get(path(ctx.org)), 401, 'unauthorized');
      await socket.waitFor(() => closed, WAIT_MS, 'the key socket on B closes');
      const again = await admin.delete(path(ctx.org, made.id));
      assert.is(again.status, 200);
      assert.is(again.body.revokedAt, revoked.body.revokedAt);
      const listed = (await admin.get(path(ctx.org))).body.apiKeys.find((k: { id: number }) => k.id === made.id);
      assert.is(listed.revokedAt, revoked.body.revokedAt);
    } finally {
      socket.close();
    }
  },
);

keys.run();
