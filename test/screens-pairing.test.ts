// The screen fleet, part one (issue 13, docs/hub.md "The screen fleet"): pairing (F1–F3), the screen token's scope,
// listing and removing screens (F4, F5) — over the real wire.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { CODE_ALPHABET, CODE_LENGTH, Pairings } from '../server/areas/screens/pairing.js';
import { expectError } from './helpers/expect.js';
import { spendBudget } from './helpers/limits.js';
import { client, request } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { screenModels } from '../server/areas/screens/models.js';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
  monitorId: number;
  otherMonitorId: number;
}

const pairing = suite<Ctx>('screens: pairing and the screen token', {} as Ctx);

pairing.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
  const api = client(ctx.svc.url, { apiKey: ctx.a.apiKey });
  ctx.monitorId = (await api.post('/api/v1/monitor', { name: 'Halle', organizationID: ctx.a.orgId })).body.id;
  ctx.otherMonitorId = (await api.post('/api/v1/monitor', { name: 'Wache 2', organizationID: ctx.a.orgId })).body.id;
});
pairing.after(async (ctx) => {
  await ctx.svc.close();
});

const start = async (ctx: Ctx) => {
  const res = await request(ctx.svc.url, 'POST', '/api/v1/screens/pairing');
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { pairingId: string; code: string; expiresAt: string; pollSecret: string };
};
const poll = (ctx: Ctx, pairingId: string, secret?: string) =>
  request(ctx.svc.url, 'GET', `/api/v1/screens/pairing/${pairingId}`, {
    headers: secret === undefined ? {} : { 'Pairing-Secret': secret },
  });
const pair = (
  ctx: Ctx,
  code: string,
  name = 'Screen',
  org: OrgFixture = ctx.a,
  monitorId = ctx.monitorId,
  as: 'key' | 'admin' | 'member' = 'key',
) =>
  client(
    ctx.svc.url,
    as === 'key' ? { apiKey: org.apiKey } : { pat: as === 'admin' ? org.admin.token : org.member.token },
  ).post(`/api/v1/monitor/${monitorId}/screens`, { code, name });

/** Pairs a screen end to end; returns its token and ID. */
async function pairedScreen(ctx: Ctx, name: string, monitorId = ctx.monitorId) {
  const started = await start(ctx);
  const paired = await pair(ctx, started.code, name, ctx.a, monitorId);
  assert.is(paired.status, 201, JSON.stringify(paired.body));
  const res = await poll(ctx, started.pairingId, started.pollSecret);
  return { token: res.body.token as string, screenId: res.body.screenId as number };
}

pairing(
  'F1 201 without a credential: an 8-character code of an unambiguous alphabet, valid 10 minutes, and a poll secret',
  async (ctx) => {
    const started = await start(ctx);
    assert.is(started.code.length, CODE_LENGTH);
    assert.ok(
      [...started.code].every((c) => CODE_ALPHABET.includes(c)),
      started.code,
    );
    assert.not.match(CODE_ALPHABET, /[0O1IL2Z5S8B]/);
    const ttl = Date.parse(started.expiresAt) - Date.now();
    assert.ok(ttl > 9 * 60_000 && ttl <= 10 * 60_000, `ttl ${ttl}`);
    assert.ok(started.pollSecret.length >= 40);
    const codes = new Set(await Promise.all(Array.from({ length: 20 }, async () => (await start(ctx)).code)));
    assert.is(codes.size, 20, 'codes are drawn at random');
  },
);

pairing(
  'F2 400 without Pairing-Secret, 404 with a wrong one or an unknown pairing, 200 waiting with the right one',
  async (ctx) => {
    const started = await start(ctx);
    expectError(
      await poll(ctx, started.pairingId),
      400,
      'invalid_parameter',
      'Pairing-Secret header missing or in wrong format',
    );
    expectError(await poll(ctx, started.pairingId, 'x'.repeat(43)), 404, 'not_found');
    expectError(await poll(ctx, 'nosuchpairing', started.pollSecret), 404, 'not_found');
    expectError(await poll(ctx, 'bad!id', started.pollSecret), 400, 'invalid_parameter');
    const waiting = await poll(ctx, started.pairingId, started.pollSecret);
    assert.equal(waiting.body, { status: 'waiting', expiresAt: started.expiresAt });
  },
);

pairing("F3 401 / 400 / 403 member / 404 other organization's monitor / 404 wrong code", async (ctx) => {
  const started = await start(ctx);
  expectError(
    await request(ctx.svc.url, 'POST', `/api/v1/monitor/${ctx.monitorId}/screens`, {
      body: { code: started.code, name: 'x' },
    }),
    401,
    'unauthorized',
  );
  expectError(
    await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post(`/api/v1/monitor/${ctx.monitorId}/screens`, {
      code: started.code,
    }),
    400,
    'invalid_body',
    'code and name are required',
  );
  expectError(await pair(ctx, started.code, 'x', ctx.a, ctx.monitorId, 'member'), 403, 'forbidden');
  expectError(await pair(ctx, started.code, 'x', ctx.b, ctx.monitorId), 404, 'not_found');
  expectError(await pair(ctx, 'ACDEFHJK', 'x'), 404, 'not_found', 'Pairing code not found or expired');
  assert.is(
    (await poll(ctx, started.pairingId, started.pollSecret)).body.status,
    'waiting',
    'none of these bound the code',
  );
});

pairing('F3 201 then F2 delivers the screen token exactly once; the code cannot be used again', async (ctx) => {
  const started = await start(ctx);
  // Typed by a person: lower case, a dash and spaces.
  const typed = `${started.code.slice(0, 4).toLowerCase()}-${started.code.slice(4)} `;
  const paired = await pair(ctx, typed, 'Halle links', ctx.a, ctx.monitorId, 'admin');
  assert.is(paired.status, 201, JSON.stringify(paired.body));
  assert.equal(Object.keys(paired.body).sort(), [
    'createdAt',
    'id',
    'lastSeen',
    'monitorId',
    'name',
    'online',
    'pageVersion',
    'userAgent',
    'versionShown',
  ]);
  assert.is(paired.body.name, 'Halle links');
  assert.is(paired.body.monitorId, ctx.monitorId);
  assert.is(paired.body.online, false);
  expectError(await pair(ctx, started.code, 'again'), 404, 'not_found');
  const polls = await Promise.all([
    poll(ctx, started.pairingId, started.pollSecret),
    poll(ctx, started.pairingId, started.pollSecret),
  ]);
  const delivered = polls.filter((r) => r.status === 200);
  assert.is(delivered.length, 1, `exactly one poll gets the token: ${polls.map((r) => r.status)}`);
  assert.is(delivered[0].body.status, 'paired');
  assert.match(delivered[0].body.token, /^ahs_[A-Za-z0-9_-]{43}$/);
  assert.is(delivered[0].body.screenId, paired.body.id);
  assert.is(delivered[0].body.monitorId, ctx.monitorId);
  assert.is(delivered[0].body.name, 'Halle links');
  expectError(await poll(ctx, started.pairingId, started.pollSecret), 404, 'not_found');
});

pairing('an expired pairing is 404 for the screen and for the admin', async (ctx) => {
  const started = await start(ctx);
  await screenModels(ctx.svc.db).Pairing.updateMany(
    { pairingId: started.pairingId },
    { $set: { expiresAt: new Date(Date.now() - 1000) } },
  );
  expectError(await poll(ctx, started.pairingId, started.pollSecret), 404, 'not_found');
  expectError(await pair(ctx, started.code), 404, 'not_found', 'Pairing code not found or expired');
});

pairing('the screen token reads M4 and M6 of its monitor and nothing else', async (ctx) => {
  const { token } = await pairedScreen(ctx, 'Scope');
  const screen = (method: string, path: string, body?: unknown) =>
    request(ctx.svc.url, method, path, { headers: { 'Screen-Token': token }, body });
  assert.is((await screen('GET', `/api/v1/monitor/${ctx.monitorId}`)).body.name, 'Halle');
  const data = await screen('GET', `/api/v1/monitor/${ctx.monitorId}/data`);
  assert.is(data.status, 200);
  assert.ok(data.headers.get('etag'));
  expectError(await screen('GET', `/api/v1/monitor/${ctx.otherMonitorId}`), 404, 'not_found');
  expectError(await screen('GET', `/api/v1/monitor/${ctx.otherMonitorId}/data`), 404, 'not_found');
  for (const [method, path, body] of [
    ['GET', `/api/v1/monitor?organization=${ctx.a.orgId}`],
    ['PUT', '/api/v1/monitor', { id: ctx.monitorId, name: 'Hijacked' }],
    ['POST', `/api/v1/monitor/${ctx.monitorId}/data/alarming`, { event: 'Fake' }],
    ['DELETE', `/api/v1/monitor/${ctx.monitorId}`],
    ['GET', `/api/v1/monitor/${ctx.monitorId}/screens`],
    ['POST', `/api/v1/monitor/${ctx.monitorId}/test-alarm`, {}],
  ] as Array<[string, string, unknown?]>) {
    expectError(await screen(method, path, body), 403, 'forbidden');
  }
  expectError(
    await request(ctx.svc.url, 'GET', `/api/v1/monitor/${ctx.monitorId}`, { auth: { apiKey: token } }),
    401,
    'unauthorized',
  );
  // On the hub: its monitor only, and no organization events.
  const wall = await connectScreen(ctx.svc.url, token, 'screen-token');
  try {
    assert.ok('data' in (await wall.subscribe(ctx.monitorId)));
    const other = await wall.subscribe(ctx.otherMonitorId);
    assert.ok('error' in other && other.error.error === 'not_found');
    await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).put('/api/v1/monitor', {
      id: ctx.otherMonitorId,
      name: 'Renamed',
    });
    await new Promise((r) => setTimeout(r, 200));
    assert.not.ok(
      wall.events.some((e) => e.name === 'monitor:updated'),
      'a screen is in no organization room',
    );
  } finally {
    wall.close();
  }
});

pairing("F4 lists a monitor's screens for members; 404 for another organization", async (ctx) => {
  await pairedScreen(ctx, 'Listed one');
  const list = await client(ctx.svc.url, { pat: ctx.a.member.token }).get(`/api/v1/monitor/${ctx.monitorId}/screens`);
  assert.is(list.status, 200);
  assert.ok(list.body.some((s: { name: string }) => s.name === 'Listed one'));
  assert.ok(list.body.every((s: { monitorId: number }) => s.monitorId === ctx.monitorId));
  expectError(
    await client(ctx.svc.url, { apiKey: ctx.b.apiKey }).get(`/api/v1/monitor/${ctx.monitorId}/screens`),
    404,
    'not_found',
  );
});

pairing(
  'F5 removes a screen: 403 member, 404 other organization; its token stops working and its socket is dropped',
  async (ctx) => {
    const { token, screenId } = await pairedScreen(ctx, 'To be removed');
    const wall = await connectScreen(ctx.svc.url, token, 'screen-token');
    await wall.subscribe(ctx.monitorId);
    let dropped = false;
    wall.socket.on('disconnect', () => (dropped = true));
    expectError(
      await client(ctx.svc.url, { pat: ctx.a.member.token }).delete(`/api/v1/screens/${screenId}`),
      403,
      'forbidden',
    );
    expectError(
      await client(ctx.svc.url, { apiKey: ctx.b.apiKey }).delete(`/api/v1/screens/${screenId}`),
      404,
      'not_found',
    );
    const removed = await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).delete(`/api/v1/screens/${screenId}`);
    assert.equal(removed.body, { status: 'deleted' });
    await wall.waitFor(() => dropped, WAIT_MS, 'the socket dropped');
    wall.close();
    expectError(
      await request(ctx.svc.url, 'GET', `/api/v1/monitor/${ctx.monitorId}`, { headers: { 'Screen-Token': token } }),
      401,
      'unauthorized',
    );
    const refused = await connectScreen(ctx.svc.url, token, 'screen-token').then(
      (s) => (s.close(), null),
      (e: Error) => e,
    );
    assert.is(refused?.message, 'unauthorized');
    expectError(
      await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).delete(`/api/v1/screens/${screenId}`),
      404,
      'not_found',
    );
  },
);

pairing('OpenAPI lists F1–F8 with their labels; F1 and F2 need no credential', async (ctx) => {
  const doc = (await request(ctx.svc.url, 'GET', '/openapi.json')).body;
  const labels = Object.values(doc.paths).flatMap((p: any) => Object.values(p).map((o: any) => o['x-label']));
  for (let i = 1; i <= 8; i++) assert.ok(labels.includes(`F${i}`), `F${i}`);
  assert.equal(doc.paths['/api/v1/screens/pairing'].post.security, []);
  assert.ok(doc.components.securitySchemes['Screen-Token']);
});

pairing.run();

const limits = suite<Ctx>('screens: pairing limits', {} as Ctx);

limits.before(async (ctx) => {
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '50' });
  ctx.a = await createOrg(ctx.svc);
  ctx.monitorId = (
    await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post('/api/v1/monitor', {
      name: 'Halle',
      organizationID: ctx.a.orgId,
    })
  ).body.id;
});
limits.after(async (ctx) => {
  await ctx.svc.close();
});

limits(
  'F1 is limited to 60 pairings a minute per address; F3 to 10 wrong codes a minute per credential',
  async (ctx) => {
    await spendBudget(() => request(ctx.svc.url, 'POST', '/api/v1/screens/pairing').then((r) => r.status), {
      burst: 60,
      perSecond: 1,
      accepted: 201,
      refused: 429,
      batch: 31,
      what: 'F1 per address',
    });
    await spendBudget(async () => (await pair(ctx, 'ACDEFHJK')).status, {
      burst: 10,
      perSecond: 10 / 60,
      accepted: 404,
      refused: 429,
      what: 'F3 wrong codes',
    });
    assert.is(
      (await pair(ctx, 'ACDEFHJK', 'x', ctx.a, ctx.monitorId, 'admin')).status,
      404,
      'another credential has its own budget',
    );
  },
);

limits(
  'F3: of 100 wrong codes sent at once by one credential, no more are compared than the limit holds',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const monitorId = (
      await client(ctx.svc.url, { apiKey: org.apiKey }).post('/api/v1/monitor', {
        name: 'Halle',
        organizationID: org.orgId,
      })
    ).body.id as number;
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () => pair(ctx, 'ACDEFHJK', 'x', org, monitorId).then((r) => r.status)),
    );
    // 404 is a compared wrong code; 429 refused before any comparison. The limit refills 10 a minute.
    const refilled = Math.floor(((Date.now() - started) / 60_000) * 10);
    const compared = statuses.filter((status) => status === 404).length;
    assert.ok(compared >= 1, JSON.stringify(statuses));
    assert.ok(compared <= 10 + refilled, `${compared} wrong codes compared: ${JSON.stringify(statuses)}`);
    assert.ok(
      statuses.every((status) => status === 404 || status === 429),
      JSON.stringify(statuses),
    );
  },
);

limits.run();

const sweep = suite<{ svc: TestService }>('screens: expired pairings are swept', {} as { svc: TestService });

sweep.before(async (ctx) => {
  ctx.svc = await startTestService({ PAIRING_SWEEP_MS: '200' });
});
sweep.after(async (ctx) => {
  await ctx.svc.close();
});

sweep('both documents of an expired pairing are removed by the periodic sweep; a waiting one stays', async (ctx) => {
  const { Pairing } = screenModels(ctx.svc.db);
  const started = await Promise.all(
    Array.from({ length: 5 }, () =>
      request(ctx.svc.url, 'POST', '/api/v1/screens/pairing').then(
        (r) => r.body as { pairingId: string; code: string },
      ),
    ),
  );
  const [waiting, ...expiring] = started;
  const keys = (p: { pairingId: string; code: string }) => [`p:${p.pairingId}`, `c:${p.code}`];
  // Their ten minutes are over (the documents say so; nothing else in the service looks at the clock for them).
  for (const p of expiring)
    for (const _id of keys(p)) await Pairing.updateOne({ _id }, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
  const deadline = Date.now() + WAIT_MS;
  const left = async () =>
    (await Promise.all(expiring.flatMap(keys).map((_id) => Pairing.exists({ _id })))).filter(Boolean).length;
  while ((await left()) > 0) {
    assert.ok(Date.now() < deadline, `${await left()} expired pairing documents still stored`);
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const _id of keys(waiting)) assert.ok(await Pairing.exists({ _id }), `${_id} of a waiting pairing was removed`);
});

sweep('the sweep removes in bounded batches, and passes enough to remove them all', async (ctx) => {
  const { Pairing } = screenModels(ctx.svc.db);
  const past = new Date(Date.now() - 1_000);
  await Pairing.insertMany(
    Array.from({ length: 1_200 }, (_, i) => ({
      _id: `p:batch-${i}`,
      pairingId: `batch-${i}`,
      code: 'X',
      secretHash: '',
      expiresAt: past,
      screenId: null,
    })),
  );
  // A pass stops after its batches; the next one takes the rest. (The periodic sweep may take some first.)
  const pairings = new Pairings(ctx.svc.db);
  const first = await pairings.sweep(Date.now(), 1);
  assert.ok(first <= 500, `one batch removed ${first}`);
  for (let pass = 0; pass < 10 && (await Pairing.exists({ _id: { $regex: '^p:batch-' } })); pass++)
    assert.ok((await pairings.sweep(Date.now(), 1)) <= 500);
  assert.not.ok(
    await Pairing.exists({ _id: { $regex: '^p:batch-' } }),
    'every expired pairing is gone after enough passes',
  );
});

sweep('a sweep that takes longer than the period is not overlapped by the next one', async (ctx) => {
  // Each of the sweep's reads is held for four periods (PAIRING_SWEEP_MS is 200): sweeps on a timer
  // that ignores the last one's end would run four at once.
  const { Pairing } = screenModels(ctx.svc.db);
  const original = Pairing.find;
  let running = 0;
  let most = 0;
  let seen = 0;
  Pairing.find = function (this: unknown, ...args: unknown[]) {
    const query = (original as (...a: unknown[]) => { exec: () => Promise<unknown> }).apply(this, args);
    if (!(args[0] && typeof args[0] === 'object' && 'expiresAt' in args[0])) return query;
    const exec = query.exec.bind(query);
    query.exec = async () => {
      running++;
      seen++;
      most = Math.max(most, running);
      try {
        await new Promise((r) => setTimeout(r, 800));
        return await exec();
      } finally {
        running--;
      }
    };
    return query;
  } as typeof Pairing.find;
  try {
    const deadline = Date.now() + WAIT_MS;
    while (seen < 3) {
      assert.ok(Date.now() < deadline, `only ${seen} sweeps began`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.is(most, 1, 'sweeps ran at once');
  } finally {
    Pairing.find = original;
  }
});

sweep.run();
