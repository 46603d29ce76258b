// `npm run bench`: alarm-hub side by side with bare baselines, in one run, written to BENCHMARKS.md.
//   fan-out  2 hub processes on one Redis, N screens (socket.io-client in separate processes, WebSocket)
//            on one monitor or spread over 100, REST patches at 20/s; REST call → each screen's receipt
//            baselines: a bare Socket.IO server with the same Redis adapter that only broadcasts (the
//            floor), and one that stores each version durably first (fair-hub.ts, the goal's baseline)
//   memory   one process with 0 / 1,000 / 5,000 / 10,000 idle subscribed screens, RSS and heap after GC
//            baseline: the same bare server holding as many sockets
//   REST     autocannon on M4 (read) and M8 (write), 10 connections
//            baseline: bare Koa routes doing the same database work without our middleware
// Usage: npm run bench [-- --seconds 10 --sizes 1000,2000,5000 --memory 0,1000,5000,10000
//        --saturation 1000,5000 --rates 20,50,100 --neighbour 100000
//        --storm 1000,3000,5000 --capacity 2000,4000,… --save NAME
//        --members 500 --only fanout,memory,saturation,capacity,startup,rest,storm,neighbour,alarms]
//   capacity screens one process holds at 20 patches/s over 100 monitors with p99 < 250 ms and none
//            missed, stepping up until a step fails
//   storm    1,000 / 3,000 / 5,000 screens connecting at once (over 100 monitors) to one process and to
//            two: time until every screen is subscribed with its monitor's data, RSS growth per screen
//            45 s later without a forced GC, event-loop delay; baseline: the bare Socket.IO server
//   alarms   AL1 for an organization of 500 members with a device, a mobile and a phone each (fake APNs,
//            SMS and voice gateways): to its answer, to the first of 10 screens, to the last gateway request
//   neighbour  an organization's things calls beside another's 100,000 records, and every list beside a
//            neighbour 100 times its size (bench/neighbour-things.ts, bench/neighbour-lists.ts)
// A run of some stages (--only) keeps the saved figures of the others.
//        npx tsx bench/perf/run.ts --report   (BENCHMARKS.md again from the saved runs and notes.md)
// The figures of a run are kept in bench/perf/results/NAME.json (default "current"); BENCHMARKS.md shows
// "before" (when saved) beside the current run.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { launchDatabase, freePort } from '../../server/db/launcher.js';
import { openDatabase } from '../../server/db/database.js';
import { serviceModels } from '../../server/areas/models.js';
import { IdentityCommands } from '../../server/identity/commands.js';
import { neighbourLists } from '../neighbour-lists.js';
import { neighbourThings } from '../neighbour-things.js';
import { io as connect } from 'socket.io-client';
import { cpuMs, embeddedDatabasePid } from './proc.js';
import { renderReport, type AlarmRun, type Results } from './report.js';
import { startGateway } from '../../test/helpers/gateways.js';
import { startPushFakes } from '../../test/helpers/push-fakes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    sizes: { type: 'string', default: '1000,2000,5000' },
    memory: { type: 'string', default: '0,1000,5000,10000' },
    save: { type: 'string', default: 'current' },
    only: { type: 'string', default: 'fanout,memory,rest,saturation,capacity,startup,storm,neighbour,alarms' },
    members: { type: 'string', default: '500' },
    storm: { type: 'string', default: '1000,3000,5000' },
    neighbour: { type: 'string', default: '100000' },
    saturation: { type: 'string', default: '1000,5000' },
    report: { type: 'boolean', default: false },
    rates: { type: 'string', default: '20,50,100,150,200,300' },
    capacity: { type: 'string', default: '2000,4000,6000,8000,10000,12000,15000' },
  },
});
const only = new Set(args.only!.split(','));
const seconds = Number(args.seconds);
const sizes = args.sizes!.split(',').map(Number);
const memorySizes = args.memory!.split(',').map(Number);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SCREENS_PER_CLIENT = 500;
const PATCH = { positiveResponses: 3, awaitingResponses: 7 };

const children: ChildProcess[] = [];
function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  // BENCH_CPU_PROF=<dir>: the servers (alarm-hub's processes and the baselines) write V8 CPU profiles
  // there when they exit, in a folder per script (hub-process/, bare-koa/…).
  const prof = process.env.BENCH_CPU_PROF;
  const profile = prof ? ['--cpu-prof', '--cpu-prof-dir', path.join(prof, script.replace(/\.ts$/, ''))] : [];
  const child = fork(path.join(here, script), [], {
    execArgv: ['--expose-gc', '--import', 'tsx', ...profile],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.on('message', (m: { listening?: number }) => m.listening && resolve({ child, port: m.listening }));
  });
}
const ask = <T>(child: ChildProcess, message: object, key: string): Promise<T> =>
  new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      child.off('message', on);
      resolve(m[key] as T);
    };
    child.on('message', on);
    child.send(message);
  });
// Asks a process to stop (alarm-hub closes and exits, writing its CPU profile when asked for one).
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.send({ stop: true });
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

// Client processes for `count` screens, at most 500 each, once each is listening.
async function screenClients(count: number): Promise<ChildProcess[]> {
  const clients: ChildProcess[] = [];
  for (let i = 0; i * SCREENS_PER_CLIENT < count; i++) {
    const child = fork(path.join(here, 'screens.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    clients.push(child);
  }
  await Promise.all(clients.map((child) => new Promise((resolve) => child.once('message', resolve))));
  return clients;
}

// Screens in client processes of at most 500 each, spread over `urls` by client.
async function screens(
  urls: string[],
  count: number,
  monitors: number[],
  auth: object | undefined,
): Promise<ChildProcess[]> {
  const clients = await screenClients(count);
  await Promise.all(
    clients.map((child, i) =>
      ask(
        child,
        {
          start: {
            url: urls[i % urls.length],
            count: Math.min(SCREENS_PER_CLIENT, count - i * SCREENS_PER_CLIENT),
            auth,
            monitors,
          },
        },
        'ready',
      ),
    ),
  );
  return clients;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;

/** Patches at 20/s for `seconds`, alternating the processes; latency of every receipt, and misses. */
async function fanOut(
  urls: string[],
  patchPath: (monitorId: number) => string,
  headers: Record<string, string>,
  count: number,
  monitors: number[],
  auth?: object,
  rate = 20,
) {
  const clients = await screens(urls, count, monitors, auth);
  const perMonitor = new Map(monitors.map((m) => [m, 0]));
  for (let i = 0; i < count; i++)
    perMonitor.set(monitors[i % monitors.length], perMonitor.get(monitors[i % monitors.length])! + 1);
  await sleep(1_000);
  const sent = new Map<string, number>();
  const answered: number[] = [];
  let refused = 0;
  const writes: Promise<void>[] = [];
  const total = seconds * rate;
  const begin = now();
  for (let i = 0; i < total; i++) {
    while (now() < begin + (i * 1000) / rate) await sleep(1);
    const monitorId = monitors[i % monitors.length];
    const started = now();
    writes.push(
      fetch(urls[i % urls.length] + patchPath(monitorId), {
        method: 'PATCH',
        headers,
        body: JSON.stringify(PATCH),
      }).then(
        async (r) => {
          const version = /version (\d+)/.exec(await r.text())?.[1];
          answered.push(now() - started);
          // A write refused (an overloaded server's 503, say) is counted, not delivered.
          if (r.ok && version) sent.set(`${monitorId}:${version}`, started);
          else refused++;
        },
        () => void refused++,
      ),
    );
  }
  await Promise.all(writes);
  // Late is not missed: wait until no screen has received anything for 2 s (at most 60 s).
  let last = -1;
  for (let waited = 0; waited < 60_000; waited += 2_000) {
    await sleep(2_000);
    const counts = await Promise.all(clients.map((c) => ask<number>(c, { count: true }, 'count')));
    const total = counts.reduce((a, b) => a + b, 0);
    if (total === last) break;
    last = total;
  }
  const latencies: number[] = [];
  let received = 0;
  let snapshots = 0;
  for (const client of clients) {
    const flushed = await ask<{ receipts: number[][]; snapshots: number }>(client, { flush: true }, 'flushed');
    snapshots += flushed.snapshots;
    for (const [monitorId, version, ...times] of flushed.receipts) {
      const at = sent.get(`${monitorId}:${version}`);
      if (at === undefined) continue;
      received += times.length;
      for (const time of times) latencies.push(time - at);
    }
  }
  for (const client of clients) client.send({ stop: true });
  const expected = [...sent.keys()].reduce((sum, key) => sum + perMonitor.get(Number(key.split(':')[0]))!, 0);
  latencies.sort((a, b) => a - b);
  answered.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    missed: expected - received,
    patches: sent.size,
    refused,
    answerP50: percentile(answered, 0.5),
    snapshots,
  };
}

async function memory(kind: 'ours' | 'bare', url: string, child: ChildProcess, monitors: number[], auth?: object) {
  const points: Array<{ screens: number; rss: number; heapUsed: number }> = [];
  let held: ChildProcess[] = [];
  let connected = 0;
  for (const target of memorySizes) {
    if (target > connected) {
      held = [...held, ...(await screens([url], target - connected, monitors, auth))];
      connected = target;
    }
    await sleep(1_500);
    const m = await ask<{ rss: number; heapUsed: number; clients: number }>(child, { memory: true }, 'memory');
    points.push({ screens: m.clients, rss: m.rss, heapUsed: m.heapUsed });
    process.stderr.write(
      `  memory ${kind} ${m.clients} screens: rss ${(m.rss / 2 ** 20).toFixed(1)} MiB, heap ${(m.heapUsed / 2 ** 20).toFixed(1)} MiB\n`,
    );
  }
  for (const c of held) c.send({ stop: true });
  return points;
}

interface Memory {
  rss: number;
  heapUsed: number;
  clients: number;
  loopMaxMs: number;
  loopP99Ms: number;
  cpuMs: number;
}

/**
 * `count` screens connecting at once to the processes (client processes of 500 each, spread over the
 * processes): seconds until the last one is subscribed with its monitor's data, the processes' RSS
 * growth per screen 45 s later without a forced GC (as an operator's process monitor sees it; from RSS
 * after 10 s idle and a GC before the storm), and the worst event-loop delay during the storm.
 */
async function storm(
  procs: Array<{ child: ChildProcess; port: number }>,
  count: number,
  monitors: number[],
  auth?: object,
) {
  const urls = procs.map((p) => `http://127.0.0.1:${p.port}`);
  const memoryOf = (noGc: boolean) =>
    Promise.all(procs.map((p) => ask<Memory>(p.child, { memory: true, noGc }, 'memory')));
  // The baseline: the processes settled after their start, their start-up garbage collected.
  await sleep(10_000);
  const before = await memoryOf(false);
  const clients = await screenClients(count);
  const atBegin = await memoryOf(true);
  const begin = now();
  const stormed = await Promise.all(
    clients.map((child, i) =>
      ask<{ lastAt: number; connectedAt: number; subscribed: number; failed: number }>(
        child,
        {
          storm: {
            url: urls[i % urls.length],
            count: Math.min(SCREENS_PER_CLIENT, count - i * SCREENS_PER_CLIENT),
            auth,
            monitors,
          },
        },
        'stormed',
      ),
    ),
  );
  const seconds = (Math.max(...stormed.map((s) => s.lastAt)) - begin) / 1000;
  const connectedSeconds = (Math.max(...stormed.map((s) => s.connectedAt)) - begin) / 1000;
  const during = await memoryOf(true);
  // The servers' CPU time from the storm's start until the last screen was subscribed, per screen.
  const cpuPerScreenMs = during.reduce((sum, m, i) => sum + m.cpuMs - atBegin[i].cpuMs, 0) / count;
  await sleep(45_000);
  const after = await memoryOf(true);
  for (const c of clients) c.send({ stop: true });
  const growth = after.reduce((sum, m, i) => sum + m.rss - before[i].rss, 0) / count;
  return {
    seconds,
    connectedSeconds,
    subscribed: stormed.reduce((n, s) => n + s.subscribed, 0),
    failed: stormed.reduce((n, s) => n + s.failed, 0),
    rssPerScreen: growth,
    loopMaxMs: Math.max(...during.map((m) => m.loopMaxMs)),
    cpuPerScreenMs,
  };
}

/** Time from spawning the service until /readyz answers 200, and its RSS after 3 s idle. */
async function startup(argv: string[], uri: string): Promise<{ readyMs: number; rss: number }> {
  const port = await freePort();
  const begin = now();
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { ...process.env, MONGODB_URI: uri, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  children.push(child);
  let readyMs = NaN;
  while (Number.isNaN(readyMs) && now() - begin < 60_000) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) readyMs = now() - begin;
    else await sleep(10);
  }
  await sleep(3_000);
  const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { readyMs, rss };
}

/** autocannon on one route; with the server's and the database's pids, their CPU time per request. */
async function rest(
  url: string,
  pathOf: (id: number) => string,
  method: 'GET' | 'PATCH',
  id: number,
  headers: Record<string, string>,
  pids: { server?: number; database?: number },
) {
  const load = (duration: number) =>
    autocannon({
      url: url + pathOf(id),
      method,
      headers,
      body: method === 'PATCH' ? JSON.stringify(PATCH) : undefined,
      connections: 10,
      duration,
    });
  // Both servers warm up alike before they are measured: a fresh process compiles its hot path and fills
  // its caches in its first seconds, and the longer path of the two pays more for it (bench/perf/notes.md
  // "Reading the figures", REST).
  await load(Math.max(1, Math.round(seconds / 5)));
  const before = { server: cpuMs(pids.server), database: cpuMs(pids.database) };
  const result = await load(seconds);
  const requests = result.requests.total;
  const cpu = {
    server: (cpuMs(pids.server) - before.server) / requests,
    database: (cpuMs(pids.database) - before.database) / requests,
  };
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, cpu };
}

// BENCHMARKS.md from the saved runs; `--report` does only this (after editing notes.md).
async function writeReport(): Promise<void> {
  const saved = async (name: string) =>
    JSON.parse(
      await fs.readFile(path.join(here, 'results', `${name}.json`), 'utf8').catch(() => 'null'),
    ) as Results | null;
  // The reading of the figures is written by hand in bench/perf/notes.md and kept beside them.
  const notes = await fs.readFile(path.join(here, 'notes.md'), 'utf8').catch(() => '');
  // "previous": a run of the main before the current round of work, when one is saved.
  await fs.writeFile(
    path.join(root, 'BENCHMARKS.md'),
    renderReport(
      await saved('before'),
      await saved(args.save === 'before' ? 'current' : args.save!),
      notes,
      await saved('previous'),
    ),
  );
}

/**
 * Three alarms (AL1) for a new organization of `members` members, each with an iOS device, a mobile and a
 * phone, on one fresh process with fake gateways: when AL1 answered, when the first of 10 subscribed
 * screens got the alarm, and when the last push, SMS and call reached its gateway.
 */
async function alarms(
  uri: string,
  env: Record<string, string>,
  members: number,
): Promise<{ members: number; runs: AlarmRun[] }> {
  const [push, sms, call] = await Promise.all([startPushFakes(), startGateway(), startGateway()]);
  const proc = await start('hub-process.ts', {
    ...env,
    ...push.env,
    SMS_GATEWAY_URL: sms.url,
    CALL_GATEWAY_URL: call.url,
  });
  const url = `http://127.0.0.1:${proc.port}`;
  const sockets: Array<ReturnType<typeof connect>> = [];
  try {
    const db = await openDatabase(uri, serviceModels);
    const identity = new IdentityCommands(db);
    const org = await identity.createOrganization('Kreisfeuerwehr');
    const { token } = await identity.createApiKey(org.id, 'leitstelle');
    const users: number[] = [];
    for (let i = 0; i < members; i++) {
      const user = await identity.createUser(`Mitglied ${i + 1}`);
      await identity.addMember(org.id, user.id, 'member');
      users.push(user.id);
    }
    await db.close();
    const headers = { 'API-TOKEN': token, 'Content-Type': 'application/json' };
    const post = async (route: string, body: object) => {
      const res = await fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ id: number }>;
    };
    // Ten at a time: each member's device, mobile and phone.
    for (let i = 0; i < users.length; i += 10) {
      await Promise.all(
        users.slice(i, i + 10).map(async (ownerID, k) => {
          const n = i + k;
          await post(`/api/v1/app/device?organization_id=${org.id}`, {
            name: 'Phone',
            os: 'iOS 18',
            ownerID,
            pushToken: n.toString(16).padStart(64, '0'),
            pushTokenDevelopment: false,
            active: true,
          });
          await post(`/api/v1/sms/mobile?organization_id=${org.id}`, {
            gsm: `0049176${String(1_000_000 + n)}`,
            name: 'Mobil',
            ownerID,
            active: true,
          });
          await post(`/api/v1/call/phone?organization_id=${org.id}`, {
            gsm: `0049177${String(1_000_000 + n)}`,
            name: 'Festnetz',
            ownerID,
            active: true,
          });
        }),
      );
    }
    const monitor = (await post('/api/v1/monitor', { name: 'Wache 1', organizationID: org.id })).id;
    let shown: { alarmId: number; at: number } | null = null;
    for (let i = 0; i < 10; i++) {
      const socket = connect(url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token, scheme: 'api-token' },
        forceNew: true,
      });
      socket.on('monitor:patch', (p: { payload: { eventId?: number } }) => {
        if (p.payload.eventId !== undefined && (!shown || shown.alarmId !== p.payload.eventId))
          shown ??= { alarmId: p.payload.eventId, at: now() };
      });
      await socket.timeout(30_000).emitWithAck('monitor:subscribe', { monitorId: monitor });
      sockets.push(socket);
    }
    const runs: AlarmRun[] = [];
    for (let k = 0; k < 3; k++) {
      shown = null;
      const begin = now();
      const alarm = await post('/api/v1/alarms', {
        organizationID: org.id,
        event: `B3 Wohnungsbrand ${k + 1}`,
        address: 'Hauptstraße 40',
        monitorIds: [monitor],
      });
      const answerMs = now() - begin;
      const done = { push: NaN, sms: NaN, call: NaN };
      const deadline = begin + 300_000;
      while (Object.values(done).some(Number.isNaN) && now() < deadline) {
        if (
          Number.isNaN(done.push) &&
          push.apns.requests.filter((r) => r.body.alarmId === alarm.id && r.status === 200).length >= members
        )
          done.push = now() - begin;
        if (Number.isNaN(done.sms) && sms.requests.filter((r) => r.body.alarmId === alarm.id).length >= members)
          done.sms = now() - begin;
        if (Number.isNaN(done.call) && call.requests.filter((r) => r.body.alarmId === alarm.id).length >= members)
          done.call = now() - begin;
        await sleep(20);
      }
      const first = shown as { alarmId: number; at: number } | null;
      runs.push({
        answerMs,
        firstScreenMs: first?.alarmId === alarm.id ? first.at - begin : NaN,
        pushMs: done.push,
        smsMs: done.sms,
        callMs: done.call,
        allMs: Math.max(done.push, done.sms, done.call),
      });
      await post(`/api/v1/alarms/${alarm.id}/end`, {});
    }
    return { members, runs };
  } finally {
    for (const socket of sockets) socket.close();
    await stop(proc.child);
    await Promise.all([push.close(), sms.close(), call.close()]);
  }
}

async function main(): Promise<void> {
  if (args.report) return writeReport();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-perf-'));
  const redisPort = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const database = await launchDatabase({ dataDir: dir, say: () => {} });
  const db = await openDatabase(database.uri, serviceModels);
  const identity = new IdentityCommands(db);
  const org = await identity.createOrganization('Bench');
  const { token } = await identity.createApiKey(org.id, 'bench');
  await db.close();
  const env = {
    BENCH_MONGODB_URI: database.uri,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '0',
    HUB_MAX_SOCKETS_PER_TOKEN: '0',
  };
  const headers = { 'API-TOKEN': token, 'Content-Type': 'application/json' };
  const auth = { token, scheme: 'api-token' };
  const results: Results = {
    date: new Date().toISOString(),
    machine:
      `${os.cpus().length} × ${os.cpus()[0].model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ` +
      `${process.version}, ${database.engine}`,
    seconds,
    fanout: [],
    memory: { ours: [], bare: [] },
    rest: [],
    saturation: [],
    capacity: [],
    startup: [],
    storm: [],
  };

  try {
    const withRedis = { ...env, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
    const ours = await Promise.all([start('hub-process.ts', withRedis), start('hub-process.ts', withRedis)]);
    const bare = await Promise.all([
      start('bare-hub.ts', { ...withRedis, BARE_PREFIX: 'fanout', BARE_INDEX: '0' }),
      start('bare-hub.ts', { ...withRedis, BARE_PREFIX: 'fanout', BARE_INDEX: '1' }),
    ]);
    const fair = await Promise.all(
      [0, 1].map((i) =>
        start('fair-hub.ts', { ...withRedis, BARE_PREFIX: 'fanout', BARE_INDEX: String(i), BARE_PROCESSES: '2' }),
      ),
    );
    const oursUrls = ours.map((p) => `http://127.0.0.1:${p.port}`);
    const bareUrls = bare.map((p) => `http://127.0.0.1:${p.port}`);
    const fairUrls = fair.map((p) => `http://127.0.0.1:${p.port}`);
    const monitorIds: number[] = [];
    for (let i = 0; i < 100; i++) {
      const created = await fetch(`${oursUrls[0]}/api/v1/monitor`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Wache ${i}`, organizationID: org.id }),
      });
      const id = ((await created.json()) as { id: number }).id;
      await fetch(`${oursUrls[0]}/api/v1/monitor/${id}/data/alarming`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ eventId: 1, event: 'Bench alarm' }),
      });
      monitorIds.push(id);
    }
    for (const size of only.has('fanout') ? sizes : []) {
      for (const spread of [1, 100]) {
        const monitors = monitorIds.slice(0, spread);
        const bareFigures = await fanOut(
          bareUrls,
          (m) => `/patch/${m}`,
          { 'Content-Type': 'application/json' },
          size,
          monitors,
        );
        const fairFigures = await fanOut(
          fairUrls,
          (m) => `/patch/${m}`,
          { 'Content-Type': 'application/json' },
          size,
          monitors,
        );
        const oursFigures = await fanOut(
          oursUrls,
          (m) => `/api/v1/monitor/${m}/data/alarming`,
          headers,
          size,
          monitors,
          auth,
        );
        results.fanout.push({
          screens: size,
          monitors: spread,
          bare: bareFigures,
          fair: fairFigures,
          ours: oursFigures,
        });
        process.stderr.write(
          `fan-out ${size} screens / ${spread} monitor(s): bare p50 ${bareFigures.p50.toFixed(1)} p99 ` +
            `${bareFigures.p99.toFixed(1)} · storing bare p50 ${fairFigures.p50.toFixed(1)} p99 ${fairFigures.p99.toFixed(1)} ` +
            `missed ${fairFigures.missed} · ours p50 ${oursFigures.p50.toFixed(1)} p99 ${oursFigures.p99.toFixed(1)} ` +
            `missed ${oursFigures.missed} refused ${oursFigures.refused} (resync snapshots ${oursFigures.snapshots}) ` +
            `· REST answer p50 bare ${bareFigures.answerP50.toFixed(1)} storing ${fairFigures.answerP50.toFixed(1)} ` +
            `ours ${oursFigures.answerP50.toFixed(1)}\n`,
        );
      }
    }
    for (const p of [...ours, ...bare, ...fair]) await stop(p.child);

    if (only.has('memory')) {
      const single = await start('hub-process.ts', env);
      results.memory.ours = await memory(
        'ours',
        `http://127.0.0.1:${single.port}`,
        single.child,
        monitorIds.slice(0, 100),
        auth,
      );
      await stop(single.child);
      const bareSingle = await start('bare-hub.ts', {});
      results.memory.bare = await memory(
        'bare',
        `http://127.0.0.1:${bareSingle.port}`,
        bareSingle.child,
        monitorIds.slice(0, 100),
      );
      await stop(bareSingle.child);
    }

    // Where one process saturates: its screens spread over the 100 monitors, patches at rising rates,
    // until p99 passes 250 ms.
    if (only.has('saturation')) {
      const single = await start('hub-process.ts', env);
      const url = `http://127.0.0.1:${single.port}`;
      for (const size of args.saturation!.split(',').map(Number)) {
        for (const rate of args.rates!.split(',').map(Number)) {
          const figures = await fanOut(
            [url],
            (m) => `/api/v1/monitor/${m}/data/alarming`,
            headers,
            size,
            monitorIds,
            auth,
            rate,
          );
          results.saturation!.push({ screens: size, rate, ...figures });
          process.stderr.write(
            `saturation ${size} screens at ${rate} patches/s: p50 ${figures.p50.toFixed(1)} p99 ${figures.p99.toFixed(1)} ` +
              `missed ${figures.missed}\n`,
          );
          if (figures.p99 > 250) break;
        }
      }
      await stop(single.child);
    }

    // Capacity: how many screens one process holds at 20 patches/s over the 100 monitors with p99 under
    // 250 ms and nothing missed, stepping up until a step fails (the clients share the machine).
    if (only.has('capacity')) {
      const single = await start('hub-process.ts', env);
      const url = `http://127.0.0.1:${single.port}`;
      for (const size of args.capacity!.split(',').map(Number)) {
        const figures = await fanOut(
          [url],
          (m) => `/api/v1/monitor/${m}/data/alarming`,
          headers,
          size,
          monitorIds,
          auth,
          20,
        );
        const held = figures.p99 < 250 && figures.missed === 0;
        results.capacity!.push({ screens: size, rate: 20, held, ...figures });
        process.stderr.write(
          `capacity ${size} screens at 20 patches/s: p50 ${figures.p50.toFixed(1)} p99 ${figures.p99.toFixed(1)} ` +
            `missed ${figures.missed}${held ? '' : ' (not held)'}\n`,
        );
        if (!held) break;
      }
      await stop(single.child);
    }

    if (only.has('startup')) {
      for (const [name, argv] of [
        ['TypeScript (npm start)', ['--import', 'tsx', 'server/main.ts']],
        ['compiled (npm run start:prod)', ['dist/server/main.js']],
      ] as const) {
        const runs = [];
        for (let i = 0; i < 3; i++) runs.push(await startup([...argv], database.uri));
        runs.sort((a, b) => a.readyMs - b.readyMs);
        results.startup!.push({ name, ...runs[1] });
        process.stderr.write(
          `startup ${name}: ready in ${runs[1].readyMs.toFixed(0)} ms, idle RSS ${(runs[1].rss / 2 ** 20).toFixed(1)} MiB\n`,
        );
      }
    }

    // Screens all coming back at once (a restart, a network blip), on fresh processes each time.
    if (only.has('storm')) {
      const withRedis = { ...env, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
      for (const size of args.storm!.split(',').map(Number)) {
        for (const processes of [1, 2]) {
          const bareProcs = await Promise.all(
            Array.from({ length: processes }, (_, i) =>
              start('bare-hub.ts', { ...withRedis, BARE_PREFIX: `storm${size}`, BARE_INDEX: String(i) }),
            ),
          );
          const bareFigures = await storm(bareProcs, size, monitorIds);
          for (const p of bareProcs) await stop(p.child);
          const oursProcs = await Promise.all(
            Array.from({ length: processes }, () => start('hub-process.ts', withRedis)),
          );
          const oursFigures = await storm(oursProcs, size, monitorIds, auth);
          for (const p of oursProcs) await stop(p.child);
          results.storm!.push({ screens: size, processes, bare: bareFigures, ours: oursFigures });
          const line = (f: typeof oursFigures) =>
            `${f.seconds.toFixed(1)} s (all connected after ${f.connectedSeconds.toFixed(1)} s), ${f.subscribed} ` +
            `subscribed, ${f.failed} failed, RSS +${(f.rssPerScreen / 1024).toFixed(1)} KiB/screen, server ` +
            `CPU ${f.cpuPerScreenMs.toFixed(2)} ms/screen, loop max ${f.loopMaxMs.toFixed(0)} ms`;
          process.stderr.write(
            `storm ${size} screens on ${processes} process(es): bare ${line(bareFigures)} · ours ${line(oursFigures)}\n`,
          );
        }
      }
    }

    if (only.has('alarms')) {
      results.alarms = await alarms(database.uri, env, Number(args.members));
      for (const [i, x] of results.alarms.runs.entries())
        process.stderr.write(
          `alarm ${i + 1}: answered ${x.answerMs.toFixed(0)} ms, first screen ${x.firstScreenMs.toFixed(0)} ` +
            `ms, all ${results.alarms.members * 3} gateway requests ${x.allMs.toFixed(0)} ms (push ${x.pushMs.toFixed(0)}, ` +
            `sms ${x.smsMs.toFixed(0)}, call ${x.callMs.toFixed(0)})\n`,
        );
    }

    if (only.has('neighbour')) {
      const say = (line: string) => process.stderr.write(`${line}\n`);
      const records = Number(args.neighbour);
      results.neighbour = {
        things: { records, rows: await neighbourThings(records, 20, say) },
        lists: { small: 10, rows: await neighbourLists(10, 30, say) },
      };
    }

    if (only.has('rest')) {
      const restOurs = await start('hub-process.ts', env);
      const restBare = await start('bare-koa.ts', env);
      const oursUrl = `http://127.0.0.1:${restOurs.port}`;
      const bareUrl = `http://127.0.0.1:${restBare.port}`;
      const [readId, writeId] = [monitorIds[0], monitorIds[1]];
      // The embedded database's own process (absent with MONGODB_URI): how much of a request is its work.
      const databasePid = await embeddedDatabasePid(dir);
      const oursPids = { server: restOurs.child.pid, database: databasePid };
      const barePids = { server: restBare.child.pid, database: databasePid };
      results.rest.push({
        name: 'M4 GET monitor',
        ours: await rest(oursUrl, (id) => `/api/v1/monitor/${id}`, 'GET', readId, headers, oursPids),
        bare: await rest(bareUrl, (id) => `/monitor/${id}`, 'GET', readId, {}, barePids),
      });
      results.rest.push({
        name: 'M8 PATCH alarming data',
        ours: await rest(oursUrl, (id) => `/api/v1/monitor/${id}/data/alarming`, 'PATCH', writeId, headers, oursPids),
        bare: await rest(
          bareUrl,
          (id) => `/monitor/${id}/data/alarming`,
          'PATCH',
          writeId + 1,
          { 'Content-Type': 'application/json' },
          barePids,
        ),
      });
      const cpu = (x: { cpu?: { server: number; database: number } }) =>
        `CPU/request server ${x.cpu?.server.toFixed(2)} ms database ${x.cpu?.database.toFixed(2)} ms`;
      for (const r of results.rest)
        process.stderr.write(
          `REST ${r.name}: ours ${r.ours.rps.toFixed(0)} req/s p99 ${r.ours.p99} ${cpu(r.ours)} · bare ` +
            `${r.bare.rps.toFixed(0)} req/s p99 ${r.bare.p99} ${cpu(r.bare)}\n`,
        );
      await Promise.all([stop(restOurs.child), stop(restBare.child)]);
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redis.kill('SIGKILL');
    await database.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
  await fs.mkdir(path.join(here, 'results'), { recursive: true });
  const file = path.join(here, 'results', `${args.save}.json`);
  // The stages not run keep their saved figures.
  const previous = JSON.parse(await fs.readFile(file, 'utf8').catch(() => 'null')) as Results | null;
  if (previous) {
    if (!only.has('fanout')) results.fanout = previous.fanout;
    if (!only.has('memory')) results.memory = previous.memory;
    if (!only.has('rest')) results.rest = previous.rest;
    if (!only.has('saturation')) results.saturation = previous.saturation;
    if (!only.has('capacity')) results.capacity = previous.capacity;
    if (!only.has('startup')) results.startup = previous.startup;
    if (!only.has('neighbour')) results.neighbour = previous.neighbour;
    if (!only.has('storm')) results.storm = previous.storm;
    if (!only.has('alarms')) results.alarms = previous.alarms;
    if (
      ['fanout', 'memory', 'rest', 'saturation', 'capacity', 'startup', 'storm', 'neighbour', 'alarms'].some(
        (stage) => !only.has(stage),
      )
    ) {
      // "<first run>; <stages> on <date>; …": a stage run again replaces its own date.
      const [first, ...later] = previous.date.split('; ');
      const kept = later.filter(
        (part) =>
          !part
            .split(' on ')[0]
            .split(', ')
            .every((stage) => only.has(stage)),
      );
      results.date = [first, ...kept, `${[...only].join(', ')} on ${results.date}`].join('; ');
    }
  }
  await fs.writeFile(file, JSON.stringify(results, null, 2));
  await writeReport();
  process.stderr.write(`written: BENCHMARKS.md, bench/perf/results/${args.save}.json\n`);
}

await main();
process.exit(0);
