// People (docs/people.md, P1–P9): invitations and joining, the session cookie on REST and the hub, the
// cross-site check, members and the roster import; sign-out and removal on two processes at once.
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client, request, type Reply } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

const PUBLIC = 'http://alarm.test';

/** A browser's session: the cookie, sent from the service's own pages. */
interface Browser {
  cookie: string;
  origin: string;
}

function sessionOf(reply: Reply): string {
  const set = reply.headers.get('set-cookie') ?? '';
  const match = /alarmhub_session=([^;]+)/.exec(set);
  assert.ok(match, `a session cookie is set: ${set}`);
  return `alarmhub_session=${match![1]}`;
}

async function join(url: string, code: string): Promise<{ reply: Reply; browser: Browser }> {
  const reply = await request(url, 'POST', '/api/v1/join', { body: { code }, headers: { Origin: PUBLIC } });
  return { reply, browser: { cookie: reply.status === 201 ? sessionOf(reply) : '', origin: PUBLIC } };
}

/** A request as the console sends it: the cookie, and the page's Origin unless told otherwise. */
function as(browser: Browser, url: string, method: string, path: string, body?: unknown, headers = {}) {
  return request(url, method, path, { body, headers: { Cookie: browser.cookie, Origin: browser.origin, ...headers } });
}

interface Ctx {
  a: TestService;
  b: TestService;
  org: OrgFixture;
  other: OrgFixture;
}

const people = suite<Ctx>('people: invitations, sessions and members', {} as Ctx);

people.before(async (ctx) => {
  // Caches far longer than the test: only being told at once lets sign-out and removal pass on B.
  const env = {
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    CREDENTIAL_CACHE_MS: '60000',
    TOKEN_RECHECK_MS: '60000',
    // Both processes behind one address, as behind a load balancer: the pages' origin.
    PUBLIC_URL: PUBLIC,
  };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
  ctx.other = await createOrg(ctx.a);
});
people.after(async (ctx) => {
  await ctx.a.close();
  await ctx.b.close();
});

people('P1 invites (admins and the API key); P2 joins once and sets an HttpOnly, SameSite=Lax cookie', async (ctx) => {
  const key = client(ctx.a.url, { apiKey: ctx.org.apiKey });
  const made = await key.post('/api/v1/invitations', { organizationID: ctx.org.orgId, name: 'Alex', role: 'member' });
  assert.is(made.status, 201, JSON.stringify(made.body));
  assert.ok(made.body.code.length >= 32, 'at least 192 bits in base64url');
  assert.is(made.body.link, `${PUBLIC}/join/${made.body.code}`);
  assert.ok(Date.parse(made.body.expiresAt) - Date.now() > 6.9 * 24 * 3_600_000);

  // A member, another organization's key and an admin of another organization may not.
  const body = { organizationID: ctx.org.orgId, name: 'Eve', role: 'admin' };
  expectError(
    await client(ctx.a.url, { pat: ctx.org.member.token }).post('/api/v1/invitations', body),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.a.url, { apiKey: ctx.other.apiKey }).post('/api/v1/invitations', body),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.a.url, { pat: ctx.other.admin.token }).post('/api/v1/invitations', body),
    403,
    'forbidden',
  );
  const bad = await key.post('/api/v1/invitations', { organizationID: ctx.org.orgId, name: ' ', role: 'chief' });
  assert.is(bad.status, 400);
  assert.equal(bad.body.details.map((d: { path: string }) => d.path).sort(), ['name', 'role']);
  for (const name of ['Two\nlines', 'Tab\there', '\u0000']) {
    const odd = await key.post('/api/v1/invitations', { organizationID: ctx.org.orgId, name, role: 'member' });
    assert.is(odd.status, 400, JSON.stringify(name));
  }

  const { reply, browser } = await join(ctx.b.url, made.body.code);
  assert.is(reply.status, 201, JSON.stringify(reply.body));
  assert.is(reply.body.organizationId, ctx.org.orgId);
  assert.is(reply.body.role, 'member');
  assert.is(reply.body.user.name, 'Alex');
  const cookie = reply.headers.get('set-cookie')!;
  assert.match(cookie, /httponly/i);
  assert.match(cookie, /samesite=lax/i);
  assert.not.match(cookie, /secure/i, 'no Secure on http');

  const me = await as(browser, ctx.a.url, 'GET', '/api/v1/session');
  assert.equal(me.body, {
    user: { id: reply.body.user.id, name: 'Alex' },
    organizations: [{ id: ctx.org.orgId, name: me.body.organizations[0].name, role: 'member' }],
    passkeys: 0,
  });
  // The session reads what a member reads.
  assert.is((await as(browser, ctx.a.url, 'GET', `/api/v1/organizations/${ctx.org.orgId}/members`)).status, 200);

  // Used, unknown and expired codes answer alike.
  const again = await join(ctx.a.url, made.body.code);
  expectError(again.reply, 404, 'invalid_code');
  const unknown = await join(ctx.a.url, 'A'.repeat(32));
  expectError(unknown.reply, 404, 'invalid_code', again.reply.body.message);
  const late = await key.post('/api/v1/invitations', { organizationID: ctx.org.orgId, name: 'Late', role: 'member' });
  await ctx.a.db.conn
    .collection('invitations')
    .updateMany({ name: 'Late' }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  expectError((await join(ctx.a.url, late.body.code)).reply, 404, 'invalid_code', again.reply.body.message);
});

people(
  "re-inviting a member of other organizations needs an admin of all of them: no one takes over another's account",
  async (ctx) => {
    // A person who is a member here and admin of the other organization.
    const both = await ctx.a.identity.createUser('In two organizations');
    await ctx.a.identity.addMember(ctx.org.orgId, both.id, 'member');
    await ctx.a.identity.addMember(ctx.other.orgId, both.id, 'admin');
    const body = { organizationID: ctx.org.orgId, name: 'Taken over', role: 'member', userId: both.id };
    expectError(
      await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', body),
      403,
      'forbidden',
    );
    expectError(
      await client(ctx.a.url, { pat: ctx.org.admin.token }).post('/api/v1/invitations', body),
      403,
      'forbidden',
    );
    // A member of this organization only is re-invited by its key, and signs in as himself.
    const only = await ctx.a.identity.createUser('Here only');
    await ctx.a.identity.addMember(ctx.org.orgId, only.id, 'member');
    const again = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
      ...body,
      userId: only.id,
    });
    assert.is(again.status, 201);
    const joined = await join(ctx.a.url, again.body.code);
    assert.is(joined.reply.body.user.id, only.id);
    // P3 sends the session cookie again with 30 days to live.
    const me = await as(joined.browser, ctx.a.url, 'GET', '/api/v1/session');
    assert.match(me.headers.get('set-cookie') ?? '', /alarmhub_session=.+; path=\/; expires=/);
  },
);

people('a malformed session cookie at the hub is refused, and the process lives on', async (ctx) => {
  for (const cookie of ['alarmhub_session=%E0%A4%A', 'alarmhub_session=%', 'alarmhub_session']) {
    const refused = await connectScreen(ctx.a.url, '', 'session', { Cookie: cookie, Origin: PUBLIC }).then(
      (s) => (s.close(), null),
      (e: Error) => e,
    );
    assert.is(refused?.message, 'unauthorized', cookie);
  }
  assert.is((await request(ctx.a.url, 'GET', '/healthz')).status, 200);
});

people('two devices with one code at once: one session, one member', async (ctx) => {
  const key = client(ctx.a.url, { apiKey: ctx.org.apiKey });
  const made = await key.post('/api/v1/invitations', { organizationID: ctx.org.orgId, name: 'Twice', role: 'member' });
  const replies = await Promise.all(
    Array.from({ length: 6 }, (_, i) => join(i % 2 ? ctx.a.url : ctx.b.url, made.body.code)),
  );
  assert.equal(replies.map((r) => r.reply.status).sort(), [201, 404, 404, 404, 404, 404]);
  const members = (await key.get(`/api/v1/organizations/${ctx.org.orgId}/members`)).body.members;
  assert.is(members.filter((m: { name: string }) => m.name === 'Twice').length, 1);
});

people(
  'a cookie request that changes something must come from our origin (403 csrf); tokens are unaffected',
  async (ctx) => {
    const made = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
      organizationID: ctx.org.orgId,
      name: 'Chief',
      role: 'admin',
    });
    const { browser } = await join(ctx.a.url, made.body.code);
    const monitor = { name: 'Halle', organizationID: ctx.org.orgId };
    for (const headers of [
      { Origin: 'https://evil.example' },
      { Origin: '' },
      { Origin: '', 'Sec-Fetch-Site': 'cross-site' },
    ]) {
      const refused = await as(browser, ctx.a.url, 'POST', '/api/v1/monitor', monitor, headers);
      expectError(refused, 403, 'csrf');
    }
    // Nothing was created by the refused requests.
    const list = await as(browser, ctx.a.url, 'GET', `/api/v1/monitor?organization=${ctx.org.orgId}`);
    assert.is(list.status, 200);
    assert.is(list.body.filter((m: { name: string }) => m.name === 'Halle').length, 0);
    // The page's own origin, or a browser's same-origin mark, pass.
    assert.is((await as(browser, ctx.a.url, 'POST', '/api/v1/monitor', monitor)).status, 201);
    const marked = await as(browser, ctx.a.url, 'POST', '/api/v1/monitor', monitor, {
      Origin: '',
      'Sec-Fetch-Site': 'same-origin',
    });
    assert.is(marked.status, 201);
    // A token from anywhere is unaffected.
    const byToken = await request(ctx.a.url, 'POST', '/api/v1/monitor', {
      auth: { apiKey: ctx.org.apiKey },
      body: monitor,
      headers: { Origin: 'https://evil.example' },
    });
    assert.is(byToken.status, 201);
    // Joining from another site's page is refused too (a visitor signed in to a session of its choosing).
    const lure = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
      organizationID: ctx.org.orgId,
      name: 'Lure',
      role: 'member',
    });
    const foreign = await request(ctx.a.url, 'POST', '/api/v1/join', {
      body: { code: lure.body.code },
      headers: { Origin: 'https://evil.example' },
    });
    expectError(foreign, 403, 'csrf');
    assert.is((await join(ctx.a.url, lure.body.code)).reply.status, 201, 'the refused join did not use the code');
  },
);

people('sign-out (P4) on A: the cookie is refused at once on B, and its sockets on both close', async (ctx) => {
  const made = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Leaving',
    role: 'member',
  });
  const { browser } = await join(ctx.a.url, made.body.code);
  for (const svc of [ctx.a, ctx.b]) assert.is((await as(browser, svc.url, 'GET', '/api/v1/session')).status, 200);
  const sockets = await Promise.all(
    [ctx.a, ctx.b].map((svc) => connectScreen(svc.url, '', 'session', { Cookie: browser.cookie, Origin: PUBLIC })),
  );
  const dropped = sockets.map(() => false);
  sockets.forEach((s, i) => s.socket.on('disconnect', () => (dropped[i] = true)));

  const out = await as(browser, ctx.a.url, 'DELETE', '/api/v1/session');
  assert.equal(out.body, { signedOut: true });
  assert.match(out.headers.get('set-cookie') ?? '', /alarmhub_session=;/);
  for (const svc of [ctx.b, ctx.a])
    expectError(await as(browser, svc.url, 'GET', '/api/v1/session'), 401, 'unauthorized');
  for (const s of sockets) await s.waitFor(() => dropped[sockets.indexOf(s)], WAIT_MS, 'the socket closed');
  for (const s of sockets) s.close();
  const refused = await connectScreen(ctx.b.url, '', 'session', { Cookie: browser.cookie, Origin: PUBLIC }).then(
    (s) => (s.close(), null),
    (e: Error) => e,
  );
  assert.is(refused?.message, 'unauthorized');
});

people("the hub takes a session only from our origin's pages", async (ctx) => {
  const made = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Hub',
    role: 'member',
  });
  const { browser } = await join(ctx.a.url, made.body.code);
  const foreign = await connectScreen(ctx.a.url, '', 'session', {
    Cookie: browser.cookie,
    Origin: 'https://evil.example',
  }).then(
    (s) => (s.close(), null),
    (e: Error) => e,
  );
  assert.is(foreign?.message, 'unauthorized');
  const own = await connectScreen(ctx.a.url, '', 'session', { Cookie: browser.cookie, Origin: PUBLIC });
  own.close();
});

people('P5: a one-time link signs the same person in on another device; tokens cannot ask for one', async (ctx) => {
  const made = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Two phones',
    role: 'member',
  });
  const first = await join(ctx.a.url, made.body.code);
  const link = await as(first.browser, ctx.a.url, 'POST', '/api/v1/session/link');
  assert.is(link.status, 201, JSON.stringify(link.body));
  assert.ok(Date.parse(link.body.expiresAt) - Date.now() <= 10 * 60_000);
  const second = await join(ctx.b.url, link.body.code);
  assert.is(second.reply.status, 201);
  assert.is(second.reply.body.user.id, first.reply.body.user.id);
  assert.is.not(second.browser.cookie, first.browser.cookie);
  expectError((await join(ctx.a.url, link.body.code)).reply, 404, 'invalid_code');
  const byToken = await client(ctx.a.url, { pat: ctx.org.member.token }).post('/api/v1/session/link');
  expectError(byToken, 400, 'invalid_parameter');
});

people(
  'P6–P8: members listed; roles changed by admins only; the last admin stays; removal takes effect at once on both processes',
  async (ctx) => {
    const org = await createOrg(ctx.a);
    const key = client(ctx.a.url, { apiKey: org.apiKey });
    const admin = client(ctx.a.url, { pat: org.admin.token });
    const list = await client(ctx.a.url, { pat: org.member.token }).get(`/api/v1/organizations/${org.orgId}/members`);
    assert.is(list.status, 200);
    assert.equal(
      list.body.members.map((m: { userId: number; role: string }) => [m.userId, m.role]).sort(),
      [
        [org.admin.userId, 'admin'],
        [org.member.userId, 'member'],
      ].sort(),
    );
    expectError(
      await client(ctx.a.url, { pat: ctx.org.admin.token }).get(`/api/v1/organizations/${org.orgId}/members`),
      403,
      'forbidden',
    );

    const path = (userId: number) => `/api/v1/organizations/${org.orgId}/members/${userId}`;
    expectError(await key.patch(path(org.member.userId), { role: 'admin' }), 403, 'forbidden');
    expectError(
      await client(ctx.a.url, { pat: org.member.token }).patch(path(org.admin.userId), { role: 'member' }),
      403,
      'forbidden',
    );
    expectError(await admin.patch(path(org.admin.userId), { role: 'member' }), 409, 'last_admin');
    expectError(await admin.delete(path(org.admin.userId)), 409, 'last_admin');
    expectError(await admin.patch(path(ctx.org.member.userId), { role: 'admin' }), 404, 'not_found');
    const promoted = await admin.patch(path(org.member.userId), { role: 'admin' });
    assert.is(promoted.body.role, 'admin');

    // Two admins demoting each other at once leave one admin.
    const [x, y] = await Promise.all([
      admin.patch(path(org.member.userId), { role: 'member' }),
      client(ctx.a.url, { pat: org.member.token }).patch(path(org.admin.userId), { role: 'member' }),
    ]);
    const after = (await key.get(`/api/v1/organizations/${org.orgId}/members`)).body.members;
    assert.is(after.filter((m: { role: string }) => m.role === 'admin').length, 1, `${x.status} ${y.status}`);

    // Removal: the member's token, read and cached on B, loses the organization at once there.
    const stays = after.find((m: { role: string }) => m.role === 'admin').userId;
    const goes = stays === org.admin.userId ? org.member : org.admin;
    const remover = client(ctx.a.url, { pat: stays === org.admin.userId ? org.admin.token : org.member.token });
    const readOnB = () => client(ctx.b.url, { pat: goes.token }).get(`/api/v1/organizations/${org.orgId}/members`);
    assert.is((await readOnB()).status, 200);
    assert.equal((await remover.delete(path(goes.userId))).body, { status: 'deleted' });
    expectError(await readOnB(), 403, 'forbidden');
    expectError(await remover.delete(path(goes.userId)), 404, 'not_found');
  },
);

people('P9: a roster in JSON or CSV; any bad line names every problem and creates nothing', async (ctx) => {
  const org = await createOrg(ctx.a);
  const key = client(ctx.a.url, { apiKey: org.apiKey });
  const count = async () => (await key.get(`/api/v1/organizations/${org.orgId}/members`)).body.members.length;
  const before = await count();
  const bad = await key.post(`/api/v1/organizations/${org.orgId}/members/import`, {
    members: [
      { name: 'Ok', mobile: '+491701234567' },
      { name: 'Bad number', mobile: '+4990012345678' },
      { name: 'Also bad', phone: '12' },
    ],
  });
  expectError(bad, 400, 'invalid_body');
  assert.equal(
    bad.body.details.map((d: { path: string }) => d.path),
    ['members.1.mobile', 'members.2.phone'],
  );
  assert.is(await count(), before);

  const csvBad = await request(ctx.a.url, 'POST', `/api/v1/organizations/${org.orgId}/members/import`, {
    auth: { apiKey: org.apiKey },
    headers: { 'Content-Type': 'text/csv' },
    body: 'name,role,mobile,phone,units\nAlex,admin,+491701234567,,HLF 20\n\n,member,,,\nKim,chief,12,,\n',
  });
  expectError(csvBad, 400, 'invalid_body');
  // The schema's problems and the number's at once, on the file's own lines (the blank line counts).
  assert.equal(csvBad.body.details.map((d: { path: string }) => d.path).sort(), [
    'line 4: name',
    'line 5: mobile',
    'line 5: role',
  ]);
  assert.is(await count(), before);

  const csv = await request(ctx.a.url, 'POST', `/api/v1/organizations/${org.orgId}/members/import`, {
    auth: { apiKey: org.apiKey },
    headers: { 'Content-Type': 'text/csv; charset=utf-8' },
    body: 'name,mobile,units,role\r\n"Berger, Alex",+491701234567,HLF 20;DLK 23,admin\r\nKim Sommer,,,\r\n\r\n',
  });
  assert.is(csv.status, 201, JSON.stringify(csv.body));
  assert.is(csv.body.created, 2);
  const [alex, kim] = csv.body.members;
  assert.is(alex.name, 'Berger, Alex');
  assert.match(alex.invitation.link, /\/join\//);
  const members = (await key.get(`/api/v1/organizations/${org.orgId}/members`)).body.members;
  const row = members.find((m: { userId: number }) => m.userId === alex.userId);
  assert.equal([row.role, row.units], ['admin', ['HLF 20', 'DLK 23']]);
  assert.is(members.find((m: { userId: number }) => m.userId === kim.userId).role, 'member');
  const mobiles = await key.get(`/api/v1/sms/mobile?owner_id=${alex.userId}&organization_id=${org.orgId}`);
  assert.equal(
    mobiles.body.map((m: { gsm: string }) => m.gsm),
    ['00491701234567'],
    JSON.stringify(mobiles.body),
  );
  // The invitation signs the imported person in as himself.
  const joined = await join(ctx.a.url, alex.invitation.code);
  assert.is(joined.reply.body.user.id, alex.userId);
  assert.is(joined.reply.body.role, 'admin');

  // A member may not import; another organization's key may not either.
  const body = { members: [{ name: 'X' }] };
  expectError(
    await client(ctx.a.url, { pat: org.member.token }).post(`/api/v1/organizations/${org.orgId}/members/import`, body),
    403,
    'forbidden',
  );
  expectError(
    await client(ctx.a.url, { apiKey: ctx.other.apiKey }).post(
      `/api/v1/organizations/${org.orgId}/members/import`,
      body,
    ),
    403,
    'forbidden',
  );
});

people.run();

const passkeys = suite<{ svc: TestService; org: OrgFixture }>(
  'people: passkeys refused',
  {} as { svc: TestService; org: OrgFixture },
);
passkeys.before(async (ctx) => {
  ctx.svc = await startTestService({ PUBLIC_URL: PUBLIC });
  ctx.org = await createOrg(ctx.svc);
});
passkeys.after(async (ctx) => ctx.svc.close());

passkeys("PK1–PK6 refuse tokens, forged answers, reused challenges and another person's passkey", async (ctx) => {
  const pat = client(ctx.svc.url, { pat: ctx.org.member.token });
  expectError(await pat.post('/api/v1/session/passkeys/options'), 400, 'invalid_parameter');
  expectError(await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get('/api/v1/session/passkeys'), 403, 'forbidden');
  assert.equal((await pat.get('/api/v1/session/passkeys')).body, { passkeys: [] });

  const options = await request(ctx.svc.url, 'POST', '/api/v1/passkeys/signin/options');
  assert.is(options.status, 200);
  assert.is(options.body.options.rpId, 'alarm.test');
  const forged = {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  };
  const signIn = (body: unknown) =>
    request(ctx.svc.url, 'POST', '/api/v1/passkeys/signin', { body, headers: { Origin: PUBLIC } });
  expectError(await signIn({ challengeId: options.body.challengeId, response: forged }), 401, 'unauthorized');
  // The challenge was used by that answer.
  expectError(await signIn({ challengeId: options.body.challengeId, response: forged }), 404, 'invalid_code');
  expectError(await signIn({ challengeId: 'nope', response: forged }), 404, 'invalid_code');
  const bad = await signIn({ challengeId: options.body.challengeId, response: { id: 'x' } });
  assert.is(bad.status, 400);

  const made = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Someone',
    role: 'member',
  });
  const { browser } = await join(ctx.svc.url, made.body.code);
  const register = await as(browser, ctx.svc.url, 'POST', '/api/v1/session/passkeys/options');
  assert.is(register.status, 200);
  assert.is(register.body.options.authenticatorSelection.residentKey, 'required');
  const forgedCreation = {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', attestationObject: 'AA' },
  };
  const refused = await as(browser, ctx.svc.url, 'POST', '/api/v1/session/passkeys', {
    challengeId: register.body.challengeId,
    response: forgedCreation,
  });
  expectError(refused, 400, 'invalid_body');
  // A challenge is its person's and its purpose's: another person's registration challenge, and
  // challenges used for the other purpose, are unknown (404) and stay unspent for their own.
  const other = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Someone else',
    role: 'member',
  });
  const intruder = (await join(ctx.svc.url, other.body.code)).browser;
  const mine = await as(browser, ctx.svc.url, 'POST', '/api/v1/session/passkeys/options');
  const taken = await as(intruder, ctx.svc.url, 'POST', '/api/v1/session/passkeys', {
    challengeId: mine.body.challengeId,
    response: forgedCreation,
  });
  expectError(taken, 404, 'invalid_code');
  expectError(await signIn({ challengeId: mine.body.challengeId, response: forged }), 404, 'invalid_code');
  const signInChallenge = (await request(ctx.svc.url, 'POST', '/api/v1/passkeys/signin/options')).body.challengeId;
  expectError(
    await as(browser, ctx.svc.url, 'POST', '/api/v1/session/passkeys', {
      challengeId: signInChallenge,
      response: forgedCreation,
    }),
    404,
    'invalid_code',
  );
  // Still unspent: his own answer now reaches the verification (a forged one: 400, not 404).
  expectError(
    await as(browser, ctx.svc.url, 'POST', '/api/v1/session/passkeys', {
      challengeId: mine.body.challengeId,
      response: forgedCreation,
    }),
    400,
    'invalid_body',
  );
  expectError(await signIn({ challengeId: signInChallenge, response: forged }), 401, 'unauthorized');
  expectError(await as(browser, ctx.svc.url, 'DELETE', '/api/v1/session/passkeys/AAAA'), 404, 'not_found');
  assert.is((await as(browser, ctx.svc.url, 'GET', '/api/v1/session')).body.passkeys, 0);
});

passkeys.run();
