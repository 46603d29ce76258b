import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { client } from './helpers/http.js';
import { connectScreen, type Screen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

const hub = suite<{ service: TestService; a: OrgFixture; b: OrgFixture; screens: Screen[] }>('hub: one process');

hub.before(async (ctx) => {
  ctx.service = await startTestService();
  ctx.a = await createOrg(ctx.service);
  ctx.b = await createOrg(ctx.service);
  ctx.screens = [];
});
hub.after.each((ctx) => {
  for (const s of ctx.screens) s.close();
  ctx.screens = [];
});
hub.after(async (ctx) => {
  await ctx.service.close();
});

async function newMonitor(ctx: { service: TestService }, org: OrgFixture, name = 'Wache Nord') {
  const res = await client(ctx.service.url, { apiKey: org.apiKey }).post('/api/v1/monitor', {
    name,
    organizationID: org.orgId,
    standbyDelay: 30,
  });
  assert.is(res.status, 201);
  return res.body.id as number;
}

hub(
  'connect_error unauthorized for an unknown token, a missing scheme and a token under the wrong scheme',
  async (ctx) => {
    for (const [token, scheme] of [
      ['ahk_nope', 'api-token'],
      [ctx.a.apiKey, 'bogus'],
      [ctx.a.apiKey, 'personal-access-token'],
    ]) {
      const err = await connectScreen(ctx.service.url, token, scheme).then(
        () => null,
        (e: Error) => e,
      );
      assert.ok(err, `connect should fail for scheme ${scheme}`);
      assert.is(err!.message, 'unauthorized');
    }
  },
);

hub(
  'subscribe answers a snapshot at version 0, then M7, M8, M9, M10 arrive as patches with version + 1',
  async (ctx) => {
    const id = await newMonitor(ctx, ctx.a);
    const screen = await connectScreen(ctx.service.url, ctx.a.apiKey);
    ctx.screens.push(screen);
    const ack = await screen.subscribe(id);
    assert.ok('data' in ack);
    if (!('data' in ack)) return;
    assert.is(ack.data.version, 0);
    assert.is(ack.data.snapshot!.monitor.name, 'Wache Nord');
    assert.equal(ack.data.snapshot!.data, { alarmData: {}, alarmDataList: {}, incidentLog: {}, metaData: {} });

    const api = client(ctx.service.url, { apiKey: ctx.a.apiKey });
    assert.is(
      (
        await api.post(`/api/v1/monitor/${id}/data/alarming`, {
          event: 'B3 Wohnungsbrand',
          eventId: 41,
          positiveResponses: 1,
        })
      ).status,
      200,
    );
    assert.is((await api.patch(`/api/v1/monitor/${id}/data/alarming`, { positiveResponses: 4 })).status, 200);
    assert.is(
      (await api.post(`/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: 9, inactivePager: 2 } })).status,
      200,
    );
    assert.is((await api.patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: 8 } })).status, 200);
    await screen.waitFor(
      () => screen.events.filter((e) => e.name === 'monitor:patch').length === 4,
      WAIT_MS,
      'four patches',
    );
    const patches = screen.events.filter((e) => e.name === 'monitor:patch').map((e) => e.payload);
    assert.equal(
      patches.map((p) => p.version),
      [1, 2, 3, 4],
    );
    assert.equal(
      patches.map((p) => `${p.section}/${p.op}`),
      ['alarming/set', 'alarming/patch', 'meta/set', 'meta/patch'],
    );
    assert.equal(patches[1].payload, { positiveResponses: 4 });
    assert.is(patches[0].monitorId, id);
    assert.ok(!Number.isNaN(Date.parse(patches[0].at)));
  },
);

hub('a screen that missed versions gets a snapshot on re-subscribe; an up-to-date one gets none', async (ctx) => {
  const id = await newMonitor(ctx, ctx.a);
  const api = client(ctx.service.url, { apiKey: ctx.a.apiKey });
  for (let i = 1; i <= 3; i++) await api.patch(`/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: i } });
  const screen = await connectScreen(ctx.service.url, ctx.a.apiKey);
  ctx.screens.push(screen);
  const behind = await screen.subscribe(id, 1);
  assert.ok('data' in behind && behind.data.snapshot && behind.data.version === 3);
  if (!('data' in behind)) return;
  assert.is((behind.data.snapshot!.data.metaData.pagers as { activePager: number }).activePager, 3);
  const current = await screen.subscribe(id, 3, behind.data.epoch);
  assert.ok('data' in current && current.data.version === 3 && current.data.snapshot === undefined);
  // The same number with another epoch (a history from before a restore) gets the stored state.
  const other = await screen.subscribe(id, 3, 'another-history');
  assert.ok('data' in other && other.data.snapshot?.version === 3);
});

hub('a screen of another organization cannot subscribe and receives none of its events', async (ctx) => {
  const id = await newMonitor(ctx, ctx.a);
  const foreign = await connectScreen(ctx.service.url, ctx.b.apiKey);
  const own = await connectScreen(ctx.service.url, ctx.a.apiKey);
  ctx.screens.push(foreign, own);
  const ack = await foreign.subscribe(id);
  assert.ok('error' in ack);
  if ('error' in ack) assert.is(ack.error.error, 'not_found');
  await own.subscribe(id);
  const api = client(ctx.service.url, { apiKey: ctx.a.apiKey });
  await api.post(`/api/v1/monitor/${id}/data/alarming`, { event: 'secret' });
  await api.put('/api/v1/monitor', { id, name: 'renamed' });
  await own.waitFor(() => own.events.some((e) => e.name === 'monitor:updated'), WAIT_MS, 'update on own screen');
  assert.equal(foreign.events, []);
});

hub('invalid subscribe requests are answered with invalid_body in the ack', async (ctx) => {
  const screen = await connectScreen(ctx.service.url, ctx.a.apiKey);
  ctx.screens.push(screen);
  for (const bad of [{}, { monitorId: 'x' }, { monitorId: 2 ** 53 }, { monitorId: 1, extra: true }]) {
    const ack = await screen.socket.timeout(WAIT_MS).emitWithAck('monitor:subscribe', bad);
    assert.ok('error' in ack, JSON.stringify(bad));
    assert.is(ack.error.error, 'invalid_body');
  }
});

hub('a member reads through his personal token; a member of another organization cannot', async (ctx) => {
  const id = await newMonitor(ctx, ctx.a);
  const member = await connectScreen(ctx.service.url, ctx.a.member.token);
  const outsider = await connectScreen(ctx.service.url, ctx.b.member.token);
  ctx.screens.push(member, outsider);
  assert.ok('data' in (await member.subscribe(id)));
  assert.ok('error' in (await outsider.subscribe(id)));
});

hub(
  "M3 sends monitor:created to the organization's room, M2 monitor:updated and M5 monitor:deleted to the monitor's screens",
  async (ctx) => {
    const screen = await connectScreen(ctx.service.url, ctx.a.apiKey);
    ctx.screens.push(screen);
    const stranger = await connectScreen(ctx.service.url, ctx.b.apiKey);
    ctx.screens.push(stranger);
    const id = await newMonitor(ctx, ctx.a);
    await screen.waitFor(() => screen.events.some((e) => e.name === 'monitor:created'), WAIT_MS, 'monitor:created');
    assert.is(screen.events.find((e) => e.name === 'monitor:created')!.payload.monitor.id, id);
    await screen.subscribe(id);
    const api = client(ctx.service.url, { apiKey: ctx.a.apiKey });
    await api.put('/api/v1/monitor', { id, name: 'Wache Süd', standbyDelay: 45 });
    await screen.waitFor(() => screen.events.some((e) => e.name === 'monitor:updated'), WAIT_MS, 'monitor:updated');
    const updated = screen.events.find((e) => e.name === 'monitor:updated')!.payload;
    assert.is(updated.monitor.name, 'Wache Süd');
    assert.is(updated.monitor.standbyDelay, 45);
    await api.delete(`/api/v1/monitor/${id}`);
    await screen.waitFor(() => screen.events.some((e) => e.name === 'monitor:deleted'), WAIT_MS, 'monitor:deleted');
    assert.equal(screen.events.find((e) => e.name === 'monitor:deleted')!.payload, { monitorId: id });
    assert.not.ok(
      stranger.events.some((e) => e.name.startsWith('monitor:')),
      "another organization's socket hears nothing of A's monitors",
    );
  },
);

hub('a token revoked while connected disconnects its screens, and reconnecting is refused', async (ctx) => {
  const org = await createOrg(ctx.service);
  const screen = await connectScreen(ctx.service.url, org.apiKey);
  ctx.screens.push(screen);
  let reason = '';
  screen.socket.on('disconnect', (r) => (reason = r));
  await ctx.service.identity.revokeToken(org.apiKeyId);
  await screen.waitFor(() => reason !== '', WAIT_MS, 'disconnect');
  assert.is(reason, 'io server disconnect');
  const err = await connectScreen(ctx.service.url, org.apiKey).then(
    () => null,
    (e: Error) => e,
  );
  assert.is(err?.message, 'unauthorized');
});

hub("/readyz reports the sockets connected to this process: an API key's socket is no screen", async (ctx) => {
  const screen = await connectScreen(ctx.service.url, ctx.a.apiKey);
  ctx.screens.push(screen);
  const res = await client(ctx.service.url, null).get('/readyz');
  assert.is(res.status, 200);
  assert.ok(res.body.checks.hub.detail.otherSockets >= 1);
  assert.is(res.body.checks.hub.detail.screens, 0);
  assert.is(res.body.checks.hub.detail.redis, 'not configured');
});

hub('a screen may follow at most 50 monitors; the 51st subscription is refused', async (ctx) => {
  const org = await createOrg(ctx.service);
  const api = client(ctx.service.url, { apiKey: org.apiKey });
  const ids = await Promise.all(
    Array.from(
      { length: 51 },
      async (_, i) =>
        (await api.post('/api/v1/monitor', { name: `M${i}`, organizationID: org.orgId })).body.id as number,
    ),
  );
  const screen = await connectScreen(ctx.service.url, org.apiKey);
  ctx.screens.push(screen);
  for (const id of ids.slice(0, 50)) assert.ok('data' in (await screen.subscribe(id)));
  const refused = await screen.subscribe(ids[50]);
  assert.ok('error' in refused && refused.error.error === 'forbidden');
  assert.ok('data' in (await screen.subscribe(ids[0])), 'an already followed monitor can be re-subscribed');
});

hub(
  'a user removed from the organization is disconnected, and after reconnecting cannot follow its monitors',
  async (ctx) => {
    const org = await createOrg(ctx.service);
    const id = await newMonitor(ctx, org);
    const screen = await connectScreen(ctx.service.url, org.member.token);
    ctx.screens.push(screen);
    assert.ok('data' in (await screen.subscribe(id)));
    let reason = '';
    screen.socket.on('disconnect', (r) => (reason = r));
    await ctx.service.identity.removeMember(org.orgId, org.member.userId);
    await screen.waitFor(() => reason !== '', WAIT_MS, 'disconnect');
    assert.is(reason, 'io server disconnect');
    const again = await connectScreen(ctx.service.url, org.member.token);
    ctx.screens.push(again);
    const ack = await again.subscribe(id);
    assert.ok('error' in ack && ack.error.error === 'not_found');
  },
);

hub.run();

const noRedis = suite('hub: Redis unreachable from the start');

noRedis('REST and the hub work on one process, /readyz reports Redis down, and close() does not hang', async () => {
  const service = await startTestService({ REDIS_URL: 'redis://127.0.0.1:1' });
  try {
    const org = await createOrg(service);
    const id = await newMonitor({ service }, org);
    const screen = await connectScreen(service.url, org.apiKey);
    await screen.subscribe(id);
    const res = await client(service.url, { apiKey: org.apiKey }).post(`/api/v1/monitor/${id}/data/alarming`, {
      event: 'Ölspur',
    });
    assert.is(res.status, 200);
    await screen.waitFor(() => screen.version === 1, WAIT_MS, 'the patch on the same process');
    screen.close();
    const ready = await client(service.url, null).get('/readyz');
    assert.is(ready.status, 200);
    assert.is(ready.body.checks.hub.detail.redis, 'down');
  } finally {
    const started = Date.now();
    await service.close();
    assert.ok(Date.now() - started < 5_000, `close() took ${Date.now() - started} ms`);
  }
});

noRedis.run();
