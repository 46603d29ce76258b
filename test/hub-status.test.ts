// What an operator reads about the hub: /readyz and the connect log lines count screens and the other
// sockets (staff clients, kiosk agents) apart, and a normal SIGTERM records every screen's disconnect
// before the database closes — no "disconnect not recorded" warning, lastSeen at the shutdown.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { io, type Socket } from 'socket.io-client';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { repoRoot } from './helpers/processes.js';
import { client, request } from './helpers/http.js';
import { connectScreen, type Screen } from './helpers/screen.js';
import { createOrg, startTestService, testDbUri, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  monitorId: number;
  open: Array<Screen | Socket>;
  logs: Array<{ msg: string; screens?: number; otherSockets?: number }>;
}

const status = suite<Ctx>('hub status: screens counted apart, disconnects recorded at SIGTERM', {} as Ctx);

status.before(async (ctx) => {
  ctx.logs = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) ctx.logs.push(JSON.parse(line));
      done();
    },
  });
  ctx.svc = await startTestService({}, { log: pino({ level: 'info' }, sink) });
  ctx.org = await createOrg(ctx.svc);
  ctx.monitorId = (
    await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/monitor', {
      name: 'Wache Süd',
      organizationID: ctx.org.orgId,
    })
  ).body.id;
  ctx.open = [];
});
status.after.each((ctx) => {
  for (const s of ctx.open) s.close();
  ctx.open = [];
});
status.after(async (ctx) => {
  await ctx.svc.close();
});

/** Pairs a screen with the monitor the way a station does (F1, F3, the page's poll). */
async function pair(ctx: Ctx, name: string): Promise<{ token: string; screenId: number }> {
  const started = (await request(ctx.svc.url, 'POST', '/api/v1/screens/pairing')).body;
  const claimed = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post(
    `/api/v1/monitor/${ctx.monitorId}/screens`,
    { code: started.code, name },
  );
  assert.is(claimed.status, 201, JSON.stringify(claimed.body));
  const done = await request(ctx.svc.url, 'GET', `/api/v1/screens/pairing/${started.pairingId}`, {
    headers: { 'Pairing-Secret': started.pollSecret },
  });
  return { token: done.body.token, screenId: done.body.screenId };
}

async function agent(url: string, token: string): Promise<Socket> {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token, scheme: 'screen-token', role: 'agent' },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

const listed = async (ctx: Ctx) =>
  (await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/monitor/${ctx.monitorId}/screens`))
    .body as Array<{ id: number; online: boolean; lastSeen: string | null }>;

/** Polls until `done` holds, for at most a generous minute. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

status(
  '/readyz with 2 screens, a staff client and a kiosk agent: screens 2, otherSockets 2; the log lines count the same',
  async (ctx) => {
    const [one, two] = [await pair(ctx, 'Halle 1'), await pair(ctx, 'Halle 2')];
    for (const screen of [one, two]) ctx.open.push(await connectScreen(ctx.svc.url, screen.token, 'screen-token'));
    ctx.open.push(await connectScreen(ctx.svc.url, ctx.org.admin.token));
    ctx.open.push(await agent(ctx.svc.url, one.token));
    const ready = await request(ctx.svc.url, 'GET', '/readyz');
    assert.is(ready.status, 200);
    assert.equal(
      { ...ready.body.checks.hub.detail, mismatchedProcesses: undefined },
      { screens: 2, otherSockets: 2, redis: 'not configured', mismatchedProcesses: undefined },
    );
    const connects = ctx.logs.filter((l) => / connected$/.test(l.msg)).map((l) => [l.msg, l.screens, l.otherSockets]);
    assert.equal(connects, [
      ['screen connected', 1, 0],
      ['screen connected', 2, 0],
      ['client connected', 2, 1],
      ['kiosk agent connected', 2, 2],
    ]);
    for (const s of ctx.open) s.close();
    const after = await until(
      () => request(ctx.svc.url, 'GET', '/readyz'),
      (r) => r.body.checks.hub.detail.screens === 0 && r.body.checks.hub.detail.otherSockets === 0,
      'every socket counted out',
    );
    assert.is(after.status, 200);
    assert.equal(
      ctx.logs
        .filter((l) => / disconnected$/.test(l.msg))
        .map((l) => l.msg)
        .sort(),
      ['client disconnected', 'kiosk agent disconnected', 'screen disconnected', 'screen disconnected'],
    );
  },
);

status(
  'SIGTERM: exit 0, no "disconnect not recorded" warning, and each screen\'s lastSeen is the moment of the shutdown',
  async (ctx) => {
    const screens = [await pair(ctx, 'Tor 1'), await pair(ctx, 'Tor 2')];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MONGODB_URI: testDbUri(),
      SECRETS_KEY: randomBytes(32).toString('base64'),
    };
    delete env.REDIS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${(await until(async () => /listening on http:\/\/[^:]+:(\d+)/.exec(output), Boolean, `the service to listen: ${output}`))![1]}`;
      for (const screen of screens) ctx.open.push(await connectScreen(url, screen.token, 'screen-token'));
      ctx.open.push(await connectScreen(url, ctx.org.admin.token));
      const ready = await request(url, 'GET', '/readyz');
      assert.equal([ready.body.checks.hub.detail.screens, ready.body.checks.hub.detail.otherSockets], [2, 1]);
      // Their connects are recorded (online, lastSeen) before the shutdown begins.
      const ids = screens.map((s) => s.screenId);
      await until(
        () => listed(ctx),
        (list) => ids.every((id) => list.find((s) => s.id === id)?.online && list.find((s) => s.id === id)?.lastSeen),
        'both screens online',
      );
      const beforeStop = Date.now();
      child.kill('SIGTERM');
      assert.is(await exited, 0, output);
      const afterStop = Date.now();
      assert.not.match(output, 'not recorded', output);
      assert.not.match(output, 'client was closed', output);
      for (const screen of (await listed(ctx)).filter((s) => ids.includes(s.id))) {
        const seen = Date.parse(screen.lastSeen!);
        assert.ok(
          seen >= beforeStop && seen <= afterStop,
          `screen ${screen.id}: lastSeen ${screen.lastSeen} is the shutdown's (${new Date(beforeStop).toISOString()}…${new Date(afterStop).toISOString()})`,
        );
      }
      // Nobody holds them now: another process marks them offline since that moment.
      const watcher = await startTestService({ SCREEN_OFFLINE_AFTER_MS: '1000' });
      try {
        const offline = await until(
          () => listed(ctx),
          (list) => ids.every((id) => list.find((s) => s.id === id)?.online === false),
          'both screens offline',
        );
        for (const screen of offline.filter((s) => ids.includes(s.id)))
          assert.ok(Date.parse(screen.lastSeen!) >= beforeStop, "lastSeen stays the shutdown's");
      } finally {
        await watcher.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
  },
);

status.run();
