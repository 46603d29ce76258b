// From dispatch to phone: an organization of `members` members, each with a web device, a mobile and a
// phone; AL1 raises an alarm on all three channels and the clock runs until every push, SMS and call
// request has arrived at its local fake (bench/alarm-fanout-fakes.ts, in a process of its own: a push
// service that checks VAPID and decrypts each push, as a browser's would, and two gateways). Then the
// same with pushes alone. The floor: a bare client on this process sending the same requests — the
// pushes encrypted with the `web-push` package under one VAPID header, as the service sends them — 25 at
// a time over keep-alive connections, as the outbox does. No escalation policy: all channels at once.
// BENCH_COMMANDS=1 lists the database commands of the last AL1 run on all channels (count and time by
// collection and command, with the documents written and the bytes sent): where the time between the
// answer and the last request goes. With it,
// BENCH_CPU_PROF=<file> writes a V8 CPU profile of this process during that run (open it in Chromium's
// DevTools), and ALARMHUB_ENGINE_CPU_PROFILE=<file> one of the embedded engine (`go tool pprof -top`).
// Usage: npx tsx bench/alarm-fanout.ts [members=500] [runs=3]
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import mongoose from 'mongoose';
import webpush from 'web-push';
import { loadConfig } from '../server/config.js';
import { launchDatabase } from '../server/db/launcher.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { startService } from '../server/service.js';

const [members, runs] = [Number(process.argv[2] ?? 500), Number(process.argv[3] ?? 3)];
const CONCURRENCY = 50;

interface Times {
  push: number[];
  refused: Array<string | null>;
  sms: number[];
  call: number[];
}

// The fakes' process, and a way to ask it.
const fakes = fork(new URL('./alarm-fanout-fakes.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
const replies: Array<(value: any) => void> = [];
fakes.on('message', (m) => replies.shift()?.(m));
fakes.on('error', (err) => {
  console.error(err);
  process.exit(1);
});
const ask = <T>(message?: unknown): Promise<T> =>
  new Promise((resolve) => {
    replies.push(resolve);
    if (message) fakes.send(message as object);
  });
const { urls } = await ask<{ urls: { push: string; sms: string; call: string } }>();

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-bench-'));
const database = await launchDatabase({ uri: process.env.MONGODB_URI, dataDir, say: (l) => console.error(l) });
const service = await startService(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_SECOND: '0',
    WEB_PUSH_ORIGINS: urls.push,
    SMS_GATEWAY_URL: urls.sms,
    CALL_GATEWAY_URL: urls.call,
    SMS_QUOTA_PER_DAY: '0',
    CALL_QUOTA_PER_DAY: '0',
  }),
  database.uri,
  pino({ level: 'silent' }),
  { monitorCommands: process.env.BENCH_COMMANDS === '1' },
);

// This benchmark's embedded database processes (none with MONGODB_URI): named by its data directory, so
// that no other on the machine (a test run's) is counted or signalled.
async function databasePids(): Promise<number[]> {
  const pids: number[] = [];
  for (const pid of await fs.readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('ferretdb') && cmdline.includes(dataDir)) pids.push(Number(pid));
  }
  return pids;
}

// Their CPU time so far, in ms.
async function databaseCpuMs(): Promise<number> {
  let ticks = 0;
  for (const pid of await databasePids()) {
    const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks * 10;
}

// The database commands since the last reset: count and summed time by collection and command.
const commands = new Map<string, { count: number; ms: number; docs: number; bytes: number }>();
const started = new Map<number, { name: string; docs: number; bytes: number }>();
if (process.env.BENCH_COMMANDS === '1') {
  const client = service.db.conn.getClient();
  client.on('commandStarted', (e) => {
    const command = e.command as Record<string, unknown>;
    const target = command[e.commandName];
    // Documents written (inserts, updates, deletes) and the command's size: what the engine stores.
    const docs = [command.documents, command.updates, command.deletes].find(Array.isArray)?.length ?? 0;
    started.set(e.requestId, {
      name: `${e.commandName} ${typeof target === 'string' ? target : ''}`,
      docs,
      bytes: mongoose.mongo.BSON.calculateObjectSize(command),
    });
  });
  client.on('commandSucceeded', (e) => {
    const { name, docs, bytes } = started.get(e.requestId) ?? { name: e.commandName, docs: 0, bytes: 0 };
    started.delete(e.requestId);
    const entry = commands.get(name) ?? { count: 0, ms: 0, docs: 0, bytes: 0 };
    entry.count++;
    entry.ms += e.duration;
    entry.docs += docs;
    entry.bytes += bytes;
    commands.set(name, entry);
  });
}
const base = `http://127.0.0.1:${service.port}`;

async function post(pathname: string, headers: Record<string, string>, body: unknown): Promise<any> {
  const res = await fetch(base + pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const reply = await res.json();
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(reply)}`);
  return reply;
}

// `count` jobs, `width` at a time.
async function pooled(count: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

// The organization: members with a web device (subscribed at the fake), a mobile and a phone each.
const setupStart = performance.now();
const identity = new IdentityCommands(service.db);
const org = await identity.createOrganization('Fanout');
const key = await identity.createApiKey(org.id, 'dispatch');
const { subscriptions } = await ask<{ subscriptions: string[] }>({ type: 'subscribe', count: members });
await pooled(members, 10, async (i) => {
  const user = await identity.createUser(`Member ${i + 1}`);
  await identity.addMember(org.id, user.id, 'member');
  const { token } = await identity.createPersonalToken(user.id, 'phone');
  const as = { 'Personal-Access-Token': token };
  const gsm = `0049176${String(1_000_000 + i)}`;
  await post('/api/v1/app/device', as, {
    name: 'Browser',
    os: 'Web Chrome 131 Android',
    ownerID: user.id,
    pushToken: subscriptions[i],
    pushTokenDevelopment: false,
    active: true,
  });
  await post('/api/v1/sms/mobile', as, { gsm, ownerID: user.id });
  await post('/api/v1/call/phone', as, { gsm, ownerID: user.id });
});
console.error(`set up ${members} members in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);

// Waits until the fakes have `want` requests of each kind, or 120 s; the arrival times.
async function arrivals(want: { push: number; sms: number; call: number }): Promise<Times> {
  const all: Times = { push: [], refused: [], sms: [], call: [] };
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const t = await ask<Times>({ type: 'times' });
    for (const k of ['push', 'refused', 'sms', 'call'] as const) (all[k] as unknown[]).push(...t[k]);
    if (all.push.length >= want.push && all.sms.length >= want.sms && all.call.length >= want.call) return all;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(
    `not all arrived in 120 s: ${all.push.length} pushes, ${all.sms.length} SMS, ${all.call.length} calls`,
  );
}

const last = (times: number[], start: number) => (times.length ? Math.max(...times) - start : NaN);
const first = (times: number[], start: number) => (times.length ? Math.min(...times) - start : NaN);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Until the service is quiet: no alarm's deliveries open, the tries of those that ended removed (the
// outbox's entry goes last), so that no run, the floor's included, shares the machine with the last one's
// clean-up.
async function settled(): Promise<void> {
  const outbox = service.db.conn.collection('alarm_outbox');
  const until = Date.now() + 120_000;
  while ((await outbox.countDocuments()) > 0) {
    if (Date.now() > until) throw new Error('the outbox did not empty within 120 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Row = Record<string, number>;
async function raise(channels: string[]): Promise<Row> {
  await settled();
  await ask<Times>({ type: 'times' });
  commands.clear();
  const start = Date.now();
  await post(
    '/api/v1/alarms',
    { 'API-TOKEN': key.token },
    {
      organizationID: org.id,
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG, Person vermisst',
      address: 'Hauptstraße 40, 12345 Musterstadt',
      channels,
    },
  );
  const answered = Date.now() - start;
  const want = {
    push: members,
    sms: channels.includes('sms') ? members : 0,
    call: channels.includes('call') ? members : 0,
  };
  const t = await arrivals(want);
  if (t.refused.length) throw new Error(`the fake refused pushes: ${t.refused.slice(0, 3).join('; ')}`);
  return {
    al1: answered,
    push: last(t.push, start),
    ...(want.sms ? { sms: last(t.sms, start), call: last(t.call, start) } : {}),
    all: last([...t.push, ...t.sms, ...t.call], start),
    first: first([...t.push, ...t.sms, ...t.call], start),
  };
}

// The floor: the same requests from a bare client.
const vapid = webpush.generateVAPIDKeys();
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
// A kept connection the fakes closed (idle past their keep-alive timeout) as a request went out on it:
// sent once more on a new one, as the service's push client does. Without this the benchmark ended on
// its own "socket hang up" or "read ECONNRESET" now and then (bench/perf/notes.md, sixth round).
function send(
  url: string,
  headers: Record<string, string | number>,
  body: Buffer | string,
  fresh = false,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: fresh ? false : agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode! < 300 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!fresh && req.reusedSocket && ['ECONNRESET', 'EPIPE'].includes(err.code ?? ''))
        send(url, headers, body, true).then(resolve, reject);
      else reject(err);
    });
    req.end(body);
  });
}
async function floor(channels: string[]): Promise<Row> {
  await settled();
  await ask<Times>({ type: 'times' });
  const start = Date.now();
  const auth = webpush.getVapidHeaders(
    urls.push,
    'mailto:bench@example.org',
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm',
    Math.floor(Date.now() / 1000) + 12 * 3600,
  );
  const payload = JSON.stringify({
    type: 'alarm',
    alarmId: 1,
    event: 'B3 Wohnungsbrand',
    message: 'Rauch aus Fenster 2. OG, Person vermisst',
    address: 'Hauptstraße 40, 12345 Musterstadt',
    organizationName: 'Fanout',
    startedAt: new Date().toISOString(),
    answerToken: 'x'.repeat(43),
  });
  const jobs: Array<() => Promise<void>> = [];
  for (let i = 0; i < members; i++) {
    const sub = JSON.parse(subscriptions[i]) as { endpoint: string; keys: { p256dh: string; auth: string } };
    jobs.push(async () => {
      const { cipherText } = webpush.encrypt(sub.keys.p256dh, sub.keys.auth, payload, 'aes128gcm');
      await send(
        sub.endpoint,
        {
          ...auth,
          TTL: 300,
          Urgency: 'high',
          'Content-Encoding': 'aes128gcm',
          'Content-Type': 'application/octet-stream',
        },
        cipherText,
      );
    });
    for (const channel of ['sms', 'call'] as const) {
      if (!channels.includes(channel)) continue;
      const body = JSON.stringify({
        to: `+49176${1_000_000 + i}`,
        text: 'B3 Wohnungsbrand',
        alarmId: 1,
        deliveryId: `${i}`,
      });
      jobs.push(() => send(urls[channel], { 'content-type': 'application/json' }, body));
    }
  }
  await pooled(jobs.length, CONCURRENCY, (i) => jobs[i]());
  const want = {
    push: members,
    sms: channels.includes('sms') ? members : 0,
    call: channels.includes('call') ? members : 0,
  };
  const t = await arrivals(want);
  if (t.refused.length) throw new Error(`the fake refused pushes: ${t.refused.slice(0, 3).join('; ')}`);
  return {
    push: last(t.push, start),
    ...(want.sms ? { sms: last(t.sms, start), call: last(t.call, start) } : {}),
    all: last([...t.push, ...t.sms, ...t.call], start),
  };
}

const report = (title: string, rows: Row[]) => {
  const keys = Object.keys(rows[0]);
  console.log(`${title} (median of ${rows.length}, ms)`);
  for (const k of keys)
    console.log(
      `  ${k.padEnd(5)} ${String(median(rows.map((r) => r[k]))).padStart(7)}   runs: ${rows.map((r) => r[k]).join(', ')}`,
    );
};

// One warm-up alarm (first connections, first JWT), then the runs.
await raise(['app', 'sms', 'call']);
await floor(['app', 'sms', 'call']);
const results: Record<string, Row[]> = { service: [], floor: [], servicePush: [], floorPush: [] };
for (let i = 0; i < runs; i++) {
  results.service.push(await raise(['app', 'sms', 'call']));
  results.floor.push(await floor(['app', 'sms', 'call']));
  results.servicePush.push(await raise(['app']));
  results.floorPush.push(await floor(['app']));
}
console.log(`${members} members, each a web device, a mobile and a phone; the last arrival after AL1's start:`);
report(`AL1 on app, sms, call: ${members * 3} requests`, results.service);
report(`bare client, the same ${members * 3} requests`, results.floor);
report(`AL1 on app alone: ${members} pushes`, results.servicePush);
report(`bare client, the same ${members} pushes`, results.floorPush);
if (process.env.BENCH_COMMANDS === '1') {
  // The last run was on the app alone: one more on all channels for the list.
  const [cpu, dbCpu] = [process.cpuUsage(), await databaseCpuMs()];
  const profiling = process.env.BENCH_CPU_PROF ? new Session() : null;
  profiling?.connect();
  await profiling?.post('Profiler.enable');
  await profiling?.post('Profiler.start');
  // The embedded engine profiles itself between these signals (tools/ferretdb/main.go).
  const engineProfile = (signal: NodeJS.Signals) =>
    process.env.ALARMHUB_ENGINE_CPU_PROFILE &&
    databasePids().then((pids) => pids.forEach((pid) => process.kill(pid, signal)));
  await engineProfile('SIGUSR1');
  const loop = performance.eventLoopUtilization();
  const row = await raise(['app', 'sms', 'call']);
  const busy = performance.eventLoopUtilization(loop).utilization;
  await engineProfile('SIGUSR2');
  if (profiling) {
    const { profile } = await profiling.post('Profiler.stop');
    await fs.writeFile(process.env.BENCH_CPU_PROF!, JSON.stringify(profile));
  }
  const used = process.cpuUsage(cpu);
  const usedDb = (await databaseCpuMs()) - dbCpu;
  await settled();
  const [all, allDb] = [process.cpuUsage(cpu), (await databaseCpuMs()) - dbCpu];
  const ms = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1000).toFixed(0);
  console.log(
    `one more AL1 on all channels: ${row.all} ms; CPU of this process (service, client, no fakes) ` +
      `${ms(used)} ms, of the embedded database ${usedDb} ms; until its tries were removed ${ms(all)} and ${allDb} ms; ` +
      `this process's event loop busy ${(busy * 100).toFixed(0)} % of the run`,
  );
  console.log('its database commands (count, summed ms, documents written, KB sent):');
  for (const [name, { count, ms, docs, bytes }] of [...commands].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25))
    console.log(
      `  ${name.padEnd(40)} ${String(count).padStart(6)} ${ms.toFixed(0).padStart(8)} ${String(docs).padStart(6)} ` +
        `${(bytes / 1024).toFixed(0).padStart(7)}`,
    );
}

await service.close();
fakes.kill();
await database.stop();
await fs.rm(dataDir, { recursive: true, force: true });
process.exit(0);
