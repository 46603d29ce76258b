// Alarms on two service processes sharing one database and one Redis: an answer on one process reaches
// a wall on the other, and deliveries a killed process left are finished by the other, each once.
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { client } from './helpers/http.js';
import { spawnService, type ServiceProcess } from './helpers/processes.js';
import { connectScreen, WAIT_MS, type Screen } from './helpers/screen.js';
import { testDbUri } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  db: Database;
  identity: IdentityCommands;
  gateway: FakeGateway;
  procs: ServiceProcess[];
  screens: Screen[];
}

const s = suite<Ctx>('alarms: two processes');

s.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
  ctx.identity = new IdentityCommands(ctx.db);
  ctx.gateway = await startGateway();
  ctx.procs = [];
  ctx.screens = [];
});
s.after.each(async (ctx) => {
  for (const screen of ctx.screens) screen.close();
  for (const p of ctx.procs) await p.stop();
  ctx.screens = [];
  ctx.procs = [];
  ctx.gateway.answer = () => 200;
});
s.after(async (ctx) => {
  await ctx.gateway.close();
  await ctx.db.close();
});

const env = (ctx: Ctx) => ({
  MONGODB_URI: testDbUri(),
  REDIS_URL: process.env.REDIS_URL!,
  RATE_LIMIT_PER_SECOND: '0',
  SMS_GATEWAY_URL: ctx.gateway.url,
  ALARM_OUTBOX_SWEEP_MS: '200',
  GATEWAY_TIMEOUT_MS: '1000',
});

async function organization(ctx: Ctx, members: number) {
  const org = await ctx.identity.createOrganization(`Feuerwehr ${Date.now()}`);
  const apiKey = (await ctx.identity.createApiKey(org.id, 'leitstelle')).token;
  const users = [];
  for (let i = 0; i < members; i++) {
    const user = await ctx.identity.createUser(`Mitglied ${i + 1}`);
    await ctx.identity.addMember(org.id, user.id, 'member');
    users.push({
      id: user.id,
      name: `Mitglied ${i + 1}`,
      token: (await ctx.identity.createPersonalToken(user.id, 'phone')).token,
    });
  }
  return { orgId: org.id, apiKey, users };
}

s('an A10 answer on one process moves the counters and names the member on a wall screen of the other', async (ctx) => {
  const [a, b] = await Promise.all([spawnService(env(ctx)), spawnService(env(ctx))]);
  ctx.procs.push(a, b);
  const org = await organization(ctx, 2);
  const wall = (
    await client(a.url, { apiKey: org.apiKey }).post('/api/v1/monitor', { name: 'Wache 1', organizationID: org.orgId })
  ).body.id as number;
  const screen = await connectScreen(b.url, org.apiKey);
  ctx.screens.push(screen);
  await screen.subscribe(wall);
  // Each member has a mobile (the SMS reaches the fake gateway, so he is notified) and a device to
  // answer from (its push fails here: no push gateway).
  const devices = [];
  for (const [i, user] of org.users.entries()) {
    const mobile = await client(a.url, { apiKey: org.apiKey }).post(`/api/v1/sms/mobile?organization_id=${org.orgId}`, {
      gsm: `0049176${String(4_000_000 + i)}`,
      name: 'Mobil',
      ownerID: user.id,
      active: true,
    });
    assert.is(mobile.status, 200, JSON.stringify(mobile.body));
    const res = await client(a.url, { pat: user.token }).post('/api/v1/app/device', {
      name: 'Phone',
      os: 'Android 14',
      ownerID: user.id,
      pushToken: `tok-${user.id}`,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    devices.push(res.body.id as number);
  }
  const alarm = (
    await client(a.url, { apiKey: org.apiKey }).post('/api/v1/alarms', {
      organizationID: org.orgId,
      event: 'THL Verkehrsunfall',
      units: ['HLF 20'],
    })
  ).body;
  // AL1 answers before its deliveries are built; the two members are awaited once they are stored.
  assert.is(alarm.responses.awaiting, 0);
  await eventually(
    async () => (await client(a.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarm.id}`)).body,
    (d) => d.responses.awaiting === 2,
    'the two members awaited',
  );
  const alarmed = (e: { name: string; payload: any }) =>
    e.name === 'monitor:patch' && e.payload.payload?.eventId === alarm.id;
  await screen.waitFor(() => screen.events.some(alarmed), WAIT_MS, 'the alarm on the wall of process B');
  const [first] = org.users;
  const answer = await client(a.url, { pat: first.token }).post(`/api/v1/app/feedback?organization_id=${org.orgId}`, {
    alarmID: alarm.id,
    deviceID: devices[0],
    response: true,
    answerData: { distance: 2, duration: 5 },
  });
  assert.is(answer.status, 200, JSON.stringify(answer.body));
  await screen.waitFor(
    () => screen.events.some((e) => alarmed(e) && e.payload.payload.positiveResponses === 1),
    WAIT_MS,
    'one positive answer on the wall of process B',
  );
  const patch = screen.events.filter((e) => alarmed(e) && e.payload.payload.positiveResponses === 1).at(-1)!.payload
    .payload;
  assert.is(patch.awaitingResponses, 1);
  // Neither member is in a unit the alarm names: both are listed apart, in the unit without a name.
  assert.equal(
    patch.units.map((u: any) => u.name),
    ['HLF 20', ''],
  );
  assert.equal(
    patch.units[1].feedback.map((m: any) => [m.name, m.feedback]),
    [
      [first.name, 1],
      [org.users[1].name, 2],
    ],
  );
  // His later answer replaces the first; AL3 on the other process shows it with his name.
  await client(b.url, { pat: first.token }).post(`/api/v1/app/feedback?organization_id=${org.orgId}`, {
    alarmID: alarm.id,
    deviceID: devices[0],
    response: false,
    answerData: {},
  });
  const read = await eventually(
    async () => (await client(b.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarm.id}`)).body,
    (d) => d.responses.negative === 1,
    'the later answer counted',
  );
  assert.equal(read.responses, { positive: 0, negative: 1, awaiting: 1 });
  assert.equal(
    read.answers.map((x: any) => [x.userId, x.name, x.response]),
    [[first.id, first.name, false]],
  );
});

s(
  'a process killed while 50 deliveries are pending leaves each delivered exactly once by the other process',
  async (ctx) => {
    const org = await organization(ctx, 50);
    const [a, b] = await Promise.all([spawnService(env(ctx)), spawnService(env(ctx))]);
    ctx.procs.push(b);
    for (const [i, user] of org.users.entries()) {
      const res = await client(a.url, { apiKey: org.apiKey }).post(`/api/v1/sms/mobile?organization_id=${org.orgId}`, {
        gsm: `0049176${String(3_000_000 + i)}`,
        name: 'Mobil',
        ownerID: user.id,
        active: true,
      });
      assert.is(res.status, 200, JSON.stringify(res.body));
    }
    // The gateway refuses while process A lives: every delivery stays pending, claimed and retried by A.
    let alive = true;
    const accepted = new Map<string, number>();
    ctx.gateway.answer = (r) => {
      if (alive) return 503;
      accepted.set(r.body.deliveryId, (accepted.get(r.body.deliveryId) ?? 0) + 1);
      return 200;
    };
    const alarm = (
      await client(a.url, { apiKey: org.apiKey }).post('/api/v1/alarms', {
        organizationID: org.orgId,
        event: 'B4 Großbrand',
        channels: ['sms'],
      })
    ).body;
    await eventually(
      async () => (await client(a.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarm.id}`)).body,
      (d) => d.recipients.sms.targets === 50,
      'the 50 deliveries built',
    );
    await eventually(
      async () =>
        new Set(ctx.gateway.requests.filter((r) => r.body.alarmId === alarm.id).map((r) => r.body.deliveryId)).size,
      (k) => k === 50,
      'a first try of every delivery',
    );
    a.child.kill('SIGKILL');
    await new Promise((resolve) => a.child.once('exit', resolve));
    alive = false;
    const done = await eventually(
      async () => (await client(b.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarm.id}`)).body,
      (d) => d.recipients.sms.sent === 50,
      'all 50 sent by process B',
      WAIT_MS,
    );
    assert.is(done.recipients.sms.failed, 0);
    assert.is(accepted.size, 50);
    assert.ok(
      [...accepted.values()].every((k) => k === 1),
      JSON.stringify([...accepted.entries()].filter(([, k]) => k !== 1)),
    );
    // A try of A's that was answered 503 but not recorded before the kill is not counted: its claim expired.
    assert.ok(done.deliveries.every((d: any) => d.status === 'sent' && d.attempts >= 1));
  },
);

s.run();
