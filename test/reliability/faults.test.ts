// Faults under load (RELIABILITY.md "Faults"): real service processes (server/main.ts, as `npm start`
// runs them) on one database and a Redis of the test's own, with screens and writers busy while Redis
// is killed and started again, the database is killed and started again, a hub process is killed, and a
// process gets SIGTERM. Each scenario asserts what the service promises (REST keeps answering or says
// 503 with Retry-After, nothing acknowledged is lost, screens end on the latest version) and prints
// how long recovery took as a figure; the times are figures, not assertions, beyond generous deadlines.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../server/db/database.js';
import { serviceModels } from '../../server/areas/models.js';
import { IdentityCommands } from '../../server/identity/commands.js';
import { client, type Reply } from '../helpers/http.js';
import {
  privateRedis,
  spawnService,
  startFerret,
  type RedisServer,
  type ServiceProcess,
} from '../helpers/processes.js';
import { connectScreen, type Screen } from '../helpers/screen.js';
import { otherDatabase } from '../helpers/service.js';
import { figure } from './figures.js';

interface Ctx {
  procs: ServiceProcess[];
  screens: Screen[];
  redis?: RedisServer;
  ferret?: ChildProcess;
  dirs: string[];
  closers: Array<() => Promise<void> | void>;
}

const faults = suite<Ctx>('reliability: faults under load', {
  procs: [],
  screens: [],
  dirs: [],
  closers: [],
} as unknown as Ctx);

faults.before.each((ctx) => {
  ctx.procs = [];
  ctx.screens = [];
  ctx.dirs = [];
  ctx.closers = [];
});
faults.after.each(async (ctx) => {
  for (const s of ctx.screens) s.close();
  for (const close of ctx.closers) await close();
  for (const p of ctx.procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await ctx.redis?.kill();
  ctx.ferret?.kill('SIGKILL');
  for (const dir of ctx.dirs) await fs.rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

/** An organization with an API key on the database at `uri`. */
async function organization(uri: string, name: string): Promise<{ orgId: number; apiKey: string }> {
  const db = await openDatabase(uri, serviceModels);
  try {
    const identity = new IdentityCommands(db);
    const org = await identity.createOrganization(name);
    return { orgId: org.id, apiKey: (await identity.createApiKey(org.id, 'leitstelle')).token };
  } finally {
    await db.close();
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(20);
  }
}

/** The newest version of a monitor's data, as a screen subscribing now gets it. */
async function storedVersion(url: string, apiKey: string, monitorId: number): Promise<number> {
  const probe = await connectScreen(url, apiKey);
  try {
    const ack = await probe.subscribe(monitorId);
    assert.ok('data' in ack, JSON.stringify(ack));
    return probe.version;
  } finally {
    probe.close();
  }
}

/** Writers sending requests in a loop until stopped, counting every answer by status (0: no answer). */
function writers(
  count: number,
  send: (i: number) => Promise<Reply>,
  onReply: (res: Reply | null, startedAt: number, i: number) => void,
) {
  let running = true;
  let sent = 0;
  const loops = Array.from({ length: count }, async () => {
    while (running) {
      const i = sent++;
      const startedAt = now();
      const res = await send(i).catch(() => null);
      onReply(res, startedAt, i);
      if (!res) await sleep(50);
    }
  });
  return { stop: async () => ((running = false), await Promise.all(loops)), sent: () => sent };
}

/** Statuses counted as "code: n" for a figure. */
const tally = (statuses: number[]) =>
  Object.entries(
    statuses.reduce<Record<string, number>>(
      (t, s) => ((t[s === 0 ? 'no answer' : s] = (t[s === 0 ? 'no answer' : s] ?? 0) + 1), t),
      {},
    ),
  )
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');

/** Two service processes on one database and a Redis of the test's own, and an organization with an API key. */
async function twoProcesses(ctx: Ctx, name: string) {
  const uri = otherDatabase(`reliability-faults-${name}-${process.pid}`);
  const { orgId, apiKey } = await organization(uri, `Faults ${name}`);
  ctx.redis = await privateRedis();
  const env = { MONGODB_URI: uri, REDIS_URL: ctx.redis.url, RATE_LIMIT_PER_SECOND: '0' };
  const [a, b] = await Promise.all([spawnService(env), spawnService(env)]);
  ctx.procs.push(a, b);
  return { orgId, apiKey, a, b };
}

faults(
  'Redis killed under fan-out on two processes and started again: REST keeps answering, every ' +
    'screen converges on the latest version',
  async (ctx) => {
    const { orgId, apiKey, a, b } = await twoProcesses(ctx, 'redis');
    const redis = ctx.redis!;
    const apis = [client(a.url, { apiKey }), client(b.url, { apiKey })];
    const id = (await apis[0].post('/api/v1/monitor', { name: 'Wache 1', organizationID: orgId })).body.id as number;
    assert.is(
      (await apis[0].post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3 Brand', eventId: 1 })).status,
      200,
    );
    for (let i = 0; i < 6; i++) {
      const screen = await connectScreen((i % 2 ? b : a).url, apiKey);
      ctx.screens.push(screen);
      await screen.subscribe(id);
    }
    const statuses: number[] = [];
    let acknowledged = 0;
    const load = writers(
      2,
      (i) => apis[i % 2].patch(`/api/v1/monitor/${id}/data/alarming`, { awaitingResponses: i }),
      (res) => {
        statuses.push(res?.status ?? 0);
        if (res?.status === 200) acknowledged++;
      },
    );
    await until(() => acknowledged >= 20, 'writes before the outage');
    await redis.kill();
    const downAt = statuses.length;
    await until(() => statuses.length - downAt >= 60, 'writes answered during the outage');
    const duringOutage = statuses.slice(downAt);
    await redis.start();
    const backAt = now();
    // The newest version acknowledged when Redis came back: every screen must reach it.
    const target = await storedVersion(a.url, apiKey, id);
    const reached = await Promise.all(
      ctx.screens.map(async (screen) => {
        await until(() => screen.version >= target, `a screen at version ${target}`);
        return now() - backAt;
      }),
    );
    const afterBack = acknowledged;
    await until(() => acknowledged >= afterBack + 20, 'writes after Redis returned');
    await load.stop();
    const latest = await storedVersion(b.url, apiKey, id);
    await until(() => ctx.screens.every((s) => s.version === latest), `every screen at the final version ${latest}`);
    figure('faults: Redis killed under writes on two processes, REST answers during the outage', tally(duringOutage));
    figure(
      'faults: Redis back → every screen (3 per process) at the version stored then, ms',
      Math.round(Math.max(...reached)),
    );
    figure(
      'faults: Redis outage, writes acknowledged / screens at the final version',
      `${acknowledged} / ${ctx.screens.length} of ${ctx.screens.length}`,
    );
    assert.ok(
      duringOutage.length > 0 && duringOutage.every((s) => s === 200),
      `REST during the outage: ${tally(duringOutage)}`,
    );
    assert.ok(
      statuses.every((s) => s === 200),
      `REST overall: ${tally(statuses)}`,
    );
  },
);

faults(
  'the database killed under writes and started again: 503 with Retry-After meanwhile, never a ' +
    '500, recovery without a restart, no acknowledged write lost',
  async (ctx) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-reliability-db-'));
    ctx.dirs.push(dir);
    const first = await startFerret(dir, '127.0.0.1:0');
    ctx.ferret = first.child;
    const listen = new URL(first.uri.replace('mongodb:', 'http:')).host;
    const { orgId, apiKey } = await organization(first.uri, 'Faults Database');
    const proc = await spawnService({ MONGODB_URI: first.uri, RATE_LIMIT_PER_SECOND: '0' });
    ctx.procs.push(proc);
    const api = client(proc.url, { apiKey });
    const created: number[] = [];
    const statuses: number[] = [];
    const without: number[] = [];
    let firstAfter = 0;
    let backAt = Infinity;
    let slowest503 = 0;
    const load = writers(
      4,
      (i) => api.post('/api/v1/monitor', { name: `Wache ${i}`, organizationID: orgId }),
      (res, startedAt) => {
        statuses.push(res?.status ?? 0);
        if (res?.status === 503) slowest503 = Math.max(slowest503, now() - startedAt);
        if (res?.status === 201) {
          created.push(res.body.id);
          if (startedAt > backAt && !firstAfter) firstAfter = now() - backAt;
        }
        if (res?.status === 503 && !res.headers.get('retry-after')) without.push(503);
      },
    );
    await until(() => created.length >= 20, 'writes before the outage');
    await new Promise((r) => {
      first.child.once('exit', r);
      first.child.kill('SIGKILL');
    });
    const downAt = statuses.length;
    // Down until every writer has been answered 503 at least once (each waits up to 5 s for the database).
    await until(() => statuses.slice(downAt).filter((st) => st === 503).length >= 4, '503 answers during the outage');
    const duringOutage = statuses.slice(downAt);
    const again = await startFerret(dir, listen);
    ctx.ferret = again.child;
    backAt = now();
    await until(() => firstAfter > 0, 'a write acknowledged after the database returned');
    const afterBack = created.length;
    await until(() => created.length >= afterBack + 10, 'writes after the database returned');
    await load.stop();
    // Every acknowledged create is there, read by a process that never saw the outage.
    const reader = await spawnService({ MONGODB_URI: again.uri, RATE_LIMIT_PER_SECOND: '0' });
    ctx.procs.push(reader);
    const missing: number[] = [];
    for (const id of created)
      if ((await client(reader.url, { apiKey }).get(`/api/v1/monitor/${id}`)).status !== 200) missing.push(id);
    figure(
      'faults: database killed under 4 writers until each was answered 503, answers during the outage',
      tally(duringOutage),
    );
    figure(
      'faults: database outage, slowest 503 in ms (the driver waits 5 s for the database per operation)',
      Math.round(slowest503),
    );
    figure('faults: database back → first write sent after it acknowledged, ms', Math.round(firstAfter));
    figure(
      'faults: database outage, writes acknowledged / found afterwards',
      `${created.length} / ${created.length - missing.length}`,
    );
    assert.ok(duringOutage.length > 0, 'writes were sent during the outage');
    assert.ok(
      duringOutage.every((s) => s === 503 || s === 201),
      `answers during the outage: ${tally(duringOutage)}; the service logged: ${unexpected(proc.errors()).slice(0, 3000)}`,
    );
    assert.ok(
      statuses.every((s) => s === 503 || s === 201),
      `answers overall: ${tally(statuses)}`,
    );
    assert.is(without.length, 0, '503 without Retry-After');
    assert.equal(missing, [], 'acknowledged creates lost');
  },
);

/** A TCP balancer over backends, as a load balancer in front of hub processes: a dead one is skipped. */
async function balancer(backends: () => number[]): Promise<{ url: string; close: () => Promise<void> }> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    sockets.add(downstream);
    downstream.once('close', () => sockets.delete(downstream));
    downstream.on('error', () => undefined);
    const ports = backends();
    const attempt = (tries: number) => {
      if (tries >= ports.length) return downstream.destroy();
      const upstream = net.connect(ports[next++ % ports.length], '127.0.0.1');
      sockets.add(upstream);
      upstream.once('close', () => sockets.delete(upstream));
      upstream.once('error', () =>
        upstream.bytesWritten === 0 && !downstream.destroyed ? attempt(tries + 1) : downstream.destroy(),
      );
      upstream.once('connect', () => {
        downstream.pipe(upstream).pipe(downstream);
        upstream.once('close', () => downstream.destroy());
        downstream.once('close', () => upstream.destroy());
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

faults(
  'a hub process killed: its screens reconnect through the balancer to the other and converge on the latest version',
  async (ctx) => {
    const { orgId, apiKey, a, b } = await twoProcesses(ctx, 'kill');
    const alive = new Set([a, b]);
    const lb = await balancer(() => [...alive].map((p) => Number(new URL(p.url).port)));
    ctx.closers.push(lb.close);
    const api = client(b.url, { apiKey });
    const id = (await api.post('/api/v1/monitor', { name: 'Wache 2', organizationID: orgId })).body.id as number;
    assert.is((await api.post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3 Brand', eventId: 1 })).status, 200);
    const SCREENS = 20;
    for (let i = 0; i < SCREENS; i++) {
      const screen = await connectScreen(lb.url, apiKey);
      // As the display client does: with the display's reconnection delays, and subscribing again once
      // it is connected again.
      screen.socket.io.reconnectionDelay(1_000);
      screen.socket.io.reconnectionDelayMax(10_000);
      screen.socket.io.on('reconnect', () => void screen.subscribe(id, screen.version).catch(() => undefined));
      ctx.screens.push(screen);
      await screen.subscribe(id);
    }
    const disconnected = new Set<Screen>();
    for (const screen of ctx.screens) screen.socket.once('disconnect', () => disconnected.add(screen));
    const killedAt = now();
    a.child.kill('SIGKILL');
    alive.delete(a);
    for (let i = 0; i < 5; i++)
      assert.is((await api.patch(`/api/v1/monitor/${id}/data/alarming`, { awaitingResponses: i })).status, 200);
    const latest = await storedVersion(b.url, apiKey, id);
    await until(
      () => ctx.screens.every((s) => s.socket.connected && s.version === latest),
      `every screen connected at version ${latest}`,
    );
    const converged = now() - killedAt;
    figure('faults: hub process killed, screens that lost their process / of', `${disconnected.size} / ${SCREENS}`);
    figure(
      'faults: hub process killed → every screen on the other process at the latest version, ms',
      Math.round(converged),
    );
    assert.ok(disconnected.size > 0, 'some screens were on the killed process');
  },
);

faults(
  'SIGTERM under load: every request it answered is kept, none answered 5xx, the process exits cleanly',
  async (ctx) => {
    const uri = otherDatabase(`reliability-faults-term-${process.pid}`);
    const { orgId, apiKey } = await organization(uri, 'Faults Term');
    const proc = await spawnService({ MONGODB_URI: uri, RATE_LIMIT_PER_SECOND: '0' });
    ctx.procs.push(proc);
    const api = client(proc.url, { apiKey });
    const created: number[] = [];
    const statuses: number[] = [];
    let termAt = Infinity;
    let inFlightUnanswered = 0;
    let refusedAfter = 0;
    const load = writers(
      8,
      (i) => api.post('/api/v1/monitor', { name: `Wache ${i}`, organizationID: orgId }),
      (res, startedAt) => {
        statuses.push(res?.status ?? 0);
        if (res?.status === 201) created.push(res.body.id);
        if (!res && startedAt < termAt) inFlightUnanswered++;
        if (!res && startedAt > termAt) refusedAfter++;
      },
    );
    await until(() => created.length >= 50, 'writes before the SIGTERM');
    termAt = now();
    const exit = await proc.stop();
    // Every writer has found the process gone.
    await until(() => refusedAfter >= 8, 'writers refused after the exit');
    await load.stop();
    const reader = await spawnService({ MONGODB_URI: uri, RATE_LIMIT_PER_SECOND: '0' });
    ctx.procs.push(reader);
    const readerApi = client(reader.url, { apiKey });
    const missing: number[] = [];
    for (const id of created) if ((await readerApi.get(`/api/v1/monitor/${id}`)).status !== 200) missing.push(id);
    const stored = (await readerApi.get(`/api/v1/monitor?organization=${orgId}`)).body as unknown[];
    assert.ok(Array.isArray(stored), JSON.stringify(stored));
    figure('faults: SIGTERM under 8 concurrent writers, answers', tally(statuses));
    figure(
      'faults: SIGTERM, creates acknowledged / found afterwards / stored without an answer',
      `${created.length} / ${created.length - missing.length} / ${stored.length - created.length}`,
    );
    figure('faults: SIGTERM, requests begun before it that got no answer', inFlightUnanswered);
    assert.is(exit, 0, 'exit code');
    assert.ok(
      statuses.every((s) => s === 0 || (s >= 200 && s < 300) || s === 503),
      `answers: ${tally(statuses)}`,
    );
    assert.equal(missing, [], 'acknowledged creates lost');
    // A request that arrives after the shutdown began is refused before it is handled (server/service.ts):
    // nothing is done that its client was not told of.
    assert.is(stored.length, created.length, 'creates stored without an answer');
  },
);

faults(
  'the embedded database process killed alone under writes: its owner starts it again, no acknowledged write lost',
  async (ctx) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-reliability-embedded-'));
    ctx.dirs.push(dir);
    // No MONGODB_URI: the process starts the embedded database on DATA_DIR, as `npm start` does.
    const env = { MONGODB_URI: '', DATA_DIR: dir, RATE_LIMIT_PER_SECOND: '0' };
    const proc = await spawnService(env);
    ctx.procs.push(proc);
    const { childPid, uri } = JSON.parse(await fs.readFile(path.join(dir, 'embedded-db.json'), 'utf8')) as {
      childPid: number;
      uri: string;
    };
    const { orgId, apiKey } = await organization(uri, 'Faults Embedded');
    const api = client(proc.url, { apiKey });
    const created: number[] = [];
    const statuses: number[] = [];
    // Any answer but 201 and 503, with its body, for the failure message.
    const odd: string[] = [];
    let killedAt = Infinity;
    let firstAfter = 0;
    const load = writers(
      4,
      (i) => api.post('/api/v1/monitor', { name: `Wache ${i}`, organizationID: orgId }),
      (res, startedAt) => {
        statuses.push(res?.status ?? 0);
        if (res?.status !== 201 && res?.status !== 503) odd.push(`${res?.status}: ${JSON.stringify(res?.body)}`);
        if (res?.status === 201) {
          created.push(res.body.id);
          // Sent after the kill: the database that stored it is the restarted one.
          if (startedAt > killedAt && !firstAfter) firstAfter = now() - killedAt;
        }
      },
    );
    await until(() => created.length >= 20, 'writes before the kill');
    killedAt = now();
    process.kill(childPid, 'SIGKILL');
    await until(() => firstAfter > 0, 'a write acknowledged after the kill').catch((err: Error) => {
      throw new Error(`${err.message} (answers: ${tally(statuses)})`);
    });
    const afterBack = created.length;
    await until(() => created.length >= afterBack + 10, 'writes after the database returned');
    await load.stop();
    const restarted = JSON.parse(await fs.readFile(path.join(dir, 'embedded-db.json'), 'utf8')) as { childPid: number };
    await until(async () => (await client(proc.url, null).get('/readyz')).status === 200, 'the service ready again');
    const missing: number[] = [];
    for (const id of created) if ((await api.get(`/api/v1/monitor/${id}`)).status !== 200) missing.push(id);
    figure('faults: embedded database killed alone under 4 writers, answers', tally(statuses));
    figure('faults: embedded database killed → first write sent after it acknowledged, ms', Math.round(firstAfter));
    figure(
      'faults: embedded database killed, writes acknowledged / found afterwards',
      `${created.length} / ${created.length - missing.length}`,
    );
    assert.is.not(restarted.childPid, childPid, 'a new database process');
    assert.ok(
      statuses.every((s) => s === 201 || s === 503),
      `answers: ${tally(statuses)}; ${odd.join('; ')}; the service's errors: ${unexpected(proc.errors())}`,
    );
    assert.equal(missing, [], 'acknowledged creates lost');
  },
);

faults.run();

/** A service's error lines other than the 503s an outage is expected to give. */
function unexpected(lines: string[]): string {
  return lines.filter((line) => !line.includes('"status":503')).join('\n');
}
