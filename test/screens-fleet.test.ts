// The screen fleet, part two (issue 13, docs/hub.md "The screen fleet"): health across two hub processes, remote
// commands with acknowledgements (F6, F7) and test alarms (F8) — over the real wire.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { eventually } from './helpers/fleet.js';
import { client, request } from './helpers/http.js';
import { connectScreen, type Screen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  a: TestService;
  b: TestService;
  org: OrgFixture;
  other: OrgFixture;
  monitorId: number;
  open: Screen[];
}

const fleet = suite<Ctx>('screens: health, commands and test alarms on two processes', {} as Ctx);

fleet.before(async (ctx) => {
  const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', SCREEN_OFFLINE_AFTER_MS: '1000' };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
  ctx.other = await createOrg(ctx.a);
  ctx.monitorId = (
    await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/monitor', {
      name: 'Halle',
      organizationID: ctx.org.orgId,
    })
  ).body.id;
  ctx.open = [];
});
fleet.after.each((ctx) => {
  for (const s of ctx.open) s.close();
  ctx.open = [];
});
fleet.after(async (ctx) => {
  await ctx.a.close();
  await ctx.b.close();
});

const api = (ctx: Ctx) => client(ctx.a.url, { apiKey: ctx.org.apiKey });

async function pairOn(ctx: Ctx, name: string): Promise<{ token: string; screenId: number }> {
  const started = (await request(ctx.a.url, 'POST', '/api/v1/screens/pairing')).body;
  assert.is(
    (await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/screens`, { code: started.code, name })).status,
    201,
  );
  const done = await request(ctx.a.url, 'GET', `/api/v1/screens/pairing/${started.pairingId}`, {
    headers: { 'Pairing-Secret': started.pollSecret },
  });
  return { token: done.body.token, screenId: done.body.screenId };
}

/** A paired screen's socket that answers commands as the display client does. */
async function wall(ctx: Ctx, url: string, token: string, screenId: number): Promise<Screen> {
  const screen = await connectScreen(url, token, 'screen-token', { 'User-Agent': 'Kiosk/1.0 (Wache Nord)' });
  ctx.open.push(screen);
  screen.socket.on('screen:command', (_event: unknown, ack: (a: { screenId: number }) => void) => ack({ screenId }));
  await screen.subscribe(ctx.monitorId);
  return screen;
}

async function watcher(ctx: Ctx, url: string): Promise<Screen> {
  const s = await connectScreen(url, ctx.org.admin.token);
  ctx.open.push(s);
  return s;
}

const named = (s: Screen, name: string) => s.events.filter((e) => e.name === name).map((e) => e.payload);

fleet(
  'a screen on process B: online once, offline once after SCREEN_OFFLINE_AFTER_MS of silence, ' +
    'online again — each watcher on either process gets one event',
  async (ctx) => {
    const { token, screenId } = await pairOn(ctx, 'Health');
    const onA = await watcher(ctx, ctx.a.url);
    const onB = await watcher(ctx, ctx.b.url);
    const screen = await wall(ctx, ctx.b.url, token, screenId);
    for (const w of [onA, onB]) await w.waitFor(() => named(w, 'screen:online').length === 1, WAIT_MS, 'screen:online');
    assert.equal(named(onA, 'screen:online')[0], { screenId, monitorId: ctx.monitorId });
    const reported = Date.now();
    await screen.socket.emit('screen:report', { versionShown: 0, pageVersion: 'page-7' });
    // The report is written within about 2 s, behind the screen's other health writes: waited for.
    const listed = await eventually(
      async () =>
        (await api(ctx).get(`/api/v1/monitor/${ctx.monitorId}/screens`)).body.find(
          (s: { id: number }) => s.id === screenId,
        ),
      (s) => s.pageVersion === 'page-7',
      'the report in the list of screens',
    );
    assert.is(listed.online, true);
    assert.is(listed.versionShown, 0);
    assert.is(listed.pageVersion, 'page-7');
    assert.is(listed.userAgent, 'Kiosk/1.0 (Wache Nord)');
    // Seen at the report or later (the clock is this machine's, kept to the millisecond or the second).
    assert.ok(
      Date.parse(listed.lastSeen) >= reported - 1_000 && Date.parse(listed.lastSeen) <= Date.now(),
      `lastSeen ${listed.lastSeen}, reported at ${new Date(reported).toISOString()}`,
    );
    assert.equal(named(onA, 'screen:offline'), [], 'a connected screen stays online however long it is quiet');

    screen.close();
    for (const w of [onA, onB])
      await w.waitFor(() => named(w, 'screen:offline').length === 1, WAIT_MS, 'screen:offline');
    await new Promise((r) => setTimeout(r, 1_500));
    for (const w of [onA, onB]) assert.is(named(w, 'screen:offline').length, 1, 'exactly one offline event');
    const offline = named(onB, 'screen:offline')[0];
    assert.is(offline.screenId, screenId);
    assert.is(offline.monitorId, ctx.monitorId);
    assert.ok(Date.parse(offline.since) <= Date.now());
    assert.is(
      (await api(ctx).get(`/api/v1/monitor/${ctx.monitorId}/screens`)).body.find(
        (s: { id: number }) => s.id === screenId,
      ).online,
      false,
    );

    await wall(ctx, ctx.a.url, token, screenId);
    for (const w of [onA, onB])
      await w.waitFor(() => named(w, 'screen:online').length === 2, WAIT_MS, 'screen:online again');
    await new Promise((r) => setTimeout(r, 500));
    for (const w of [onA, onB]) assert.is(named(w, 'screen:online').length, 2);
    const foreign = await connectScreen(ctx.a.url, ctx.other.apiKey);
    ctx.open.push(foreign);
    assert.equal(named(foreign, 'screen:online'), [], 'another organization hears nothing');
  },
);

fleet(
  'F6 / F7: commands reach screens on both processes and answer with who acknowledged and who is missing',
  async (ctx) => {
    const one = await pairOn(ctx, 'Left');
    const two = await pairOn(ctx, 'Right');
    const dark = await pairOn(ctx, 'Unplugged');
    const left = await wall(ctx, ctx.a.url, one.token, one.screenId);
    const right = await wall(ctx, ctx.b.url, two.token, two.screenId);
    const single = await api(ctx).post(`/api/v1/screens/${two.screenId}/commands`, { command: 'identify' });
    assert.equal(single.body, { acknowledged: [two.screenId], missing: [] });
    assert.equal(named(right, 'screen:command'), [{ command: 'identify' }]);
    assert.equal(named(left, 'screen:command'), [], 'only the addressed screen');
    const started = Date.now();
    const all = await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/screens/commands`, { command: 'sleep' });
    assert.is(all.status, 200);
    assert.ok(
      all.body.acknowledged.includes(one.screenId) && all.body.acknowledged.includes(two.screenId),
      JSON.stringify(all.body),
    );
    assert.ok(all.body.missing.includes(dark.screenId), JSON.stringify(all.body));
    assert.ok(Date.now() - started < 7_000);
    expectError(
      await api(ctx).post(`/api/v1/screens/${one.screenId}/commands`, { command: 'explode' }),
      400,
      'invalid_body',
    );
    expectError(
      await client(ctx.a.url, { pat: ctx.org.member.token }).post(`/api/v1/screens/${one.screenId}/commands`, {
        command: 'reload',
      }),
      403,
      'forbidden',
    );
    expectError(
      await client(ctx.a.url, { apiKey: ctx.other.apiKey }).post(`/api/v1/screens/${one.screenId}/commands`, {
        command: 'reload',
      }),
      404,
      'not_found',
    );
  },
);

fleet("F7: a screen that answers in another screen's name acknowledges only for itself", async (ctx) => {
  const honest = await pairOn(ctx, 'Answers for itself');
  const absent = await pairOn(ctx, 'Never connected');
  const liar = await connectScreen(ctx.b.url, honest.token, 'screen-token');
  ctx.open.push(liar);
  liar.socket.on('screen:command', (_event: unknown, ack: (a: { screenId: number }) => void) =>
    ack({ screenId: absent.screenId }),
  );
  await liar.subscribe(ctx.monitorId);
  const all = await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/screens/commands`, { command: 'identify' });
  assert.is(all.status, 200);
  assert.ok(all.body.acknowledged.includes(honest.screenId), JSON.stringify(all.body));
  assert.not.ok(
    all.body.acknowledged.includes(absent.screenId),
    `a screen that never connected is reported acknowledged: ${JSON.stringify(all.body)}`,
  );
  assert.ok(all.body.missing.includes(absent.screenId), JSON.stringify(all.body));
  const single = await api(ctx).post(`/api/v1/screens/${absent.screenId}/commands`, { command: 'identify' });
  assert.equal(single.body, { acknowledged: [], missing: [absent.screenId] });
});

fleet('a kiosk agent beside the screen hears its sleep and wake, and is no screen itself', async (ctx) => {
  const { token, screenId } = await pairOn(ctx, 'With agent');
  const { io } = await import('socket.io-client');
  const agentSocket = io(ctx.b.url, {
    path: '/socket.io',
    auth: { token, scheme: 'screen-token', role: 'agent' },
    transports: ['websocket'],
  });
  const heard: unknown[] = [];
  agentSocket.on('screen:power', (e: unknown) => heard.push(e));
  await new Promise<void>((r) => agentSocket.once('connect', () => r()));
  try {
    const listed = () =>
      api(ctx)
        .get(`/api/v1/monitor/${ctx.monitorId}/screens`)
        .then((r) => r.body.find((s: { id: number }) => s.id === screenId));
    assert.is((await listed()).online, false, 'an agent does not bring the screen online');
    const page = await wall(ctx, ctx.a.url, token, screenId);
    page.socket.emit('screen:power', { state: 'sleep' });
    page.socket.emit('screen:power', { state: 'wake' });
    page.socket.emit('screen:power', { state: 'explode' });
    const deadline = Date.now() + 5_000;
    while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(heard, [
      { screenId, state: 'sleep' },
      { screenId, state: 'wake' },
    ]);
    const result = await api(ctx).post(`/api/v1/screens/${screenId}/commands`, { command: 'wake' });
    assert.equal(result.body, { acknowledged: [screenId], missing: [] }, 'only the page answers commands');
  } finally {
    agentSocket.close();
  }
});

fleet(
  "F8: a test alarm reaches the screens and late subscribers, ends by itself, and leaves the monitor's data untouched",
  async (ctx) => {
    const { token, screenId } = await pairOn(ctx, 'Test');
    const before = await api(ctx).get(`/api/v1/monitor/${ctx.monitorId}/data`);
    const screen = await wall(ctx, ctx.b.url, token, screenId);
    expectError(
      await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/test-alarm`, { durationSeconds: 4 }),
      400,
      'invalid_body',
    );
    expectError(
      await client(ctx.a.url, { pat: ctx.org.member.token }).post(`/api/v1/monitor/${ctx.monitorId}/test-alarm`, {}),
      403,
      'forbidden',
    );
    const res = await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/test-alarm`, {
      message: 'Probealarm Sirene',
      durationSeconds: 30,
    });
    assert.is(res.status, 200);
    const ends = Date.parse(res.body.endsAt);
    assert.ok(Math.abs(ends - (Date.now() + 30_000)) < 3_000);
    await screen.waitFor(() => named(screen, 'monitor:test-alarm').length === 1, WAIT_MS, 'the test alarm');
    assert.equal(named(screen, 'monitor:test-alarm')[0], {
      monitorId: ctx.monitorId,
      message: 'Probealarm Sirene',
      endsAt: res.body.endsAt,
    });
    const late = await wall(ctx, ctx.a.url, token, screenId);
    await late.waitFor(
      () => named(late, 'monitor:test-alarm').length === 1,
      WAIT_MS,
      'the test alarm for a late subscriber',
    );
    const after = await api(ctx).get(`/api/v1/monitor/${ctx.monitorId}/data`);
    assert.is(after.headers.get('etag'), before.headers.get('etag'), 'no version written');
    assert.equal(after.body, before.body, 'data and incident log unchanged');
    assert.equal(named(screen, 'monitor:patch'), []);
  },
);

fleet.run();
