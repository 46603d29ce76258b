// Faults of alarm deliveries (RELIABILITY.md "Faults of deliveries"): the SMS and call gateways and the
// push services (APNs and FCM fakes) fail part of a batch, and a process is SIGKILLed with half its pushes
// handed over and every SMS and call held by the escalation policy (W4). Real service processes
// (server/main.ts, as `npm start` runs them, so they can be killed) on one database of the test's own and
// one Redis; an organization whose every member has an app device, a mobile and a phone. Afterwards each
// member is counted at the fakes: the answers they gave with a 2xx, per channel. Each must have exactly one
// of each delivery due to him, none lost and none doubled — but for one edge of any outbox, told apart and
// counted: a push the fake took before the kill, whose answer died with the killed process, is sent again
// by the survivor (docs/alarms.md "Delivered"). The test waits for conditions; times are figures.
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import { serviceModels } from '../../server/areas/models.js';
import { openDatabase, type Database } from '../../server/db/database.js';
import { IdentityCommands } from '../../server/identity/commands.js';
import { eventually } from '../helpers/fleet.js';
import { startGateway, type FakeGateway } from '../helpers/gateways.js';
import { client } from '../helpers/http.js';
import { spawnService, type ServiceProcess } from '../helpers/processes.js';
import { startPushFakes, type Arrival, type PushFakes } from '../helpers/push-fakes.js';
import { otherDatabase } from '../helpers/service.js';
import { suite } from '../helpers/suite.js';
import { figure } from './figures.js';

/** Members of each scenario's organization (a full run has more). */
const MEMBERS = Number(
  process.env.RELIABILITY_DELIVERY_MEMBERS || (Number(process.env.RELIABILITY_REQUESTS || 0) >= 10_000 ? 120 : 40),
);
/** The escalation window of the kill scenario: long enough for the pushes, the kill and the receipts before it. */
const WINDOW_S = 20;
const CHANNELS = ['app', 'sms', 'call'] as const;
type Channel = (typeof CHANNELS)[number];
const FINAL = ['sent', 'delivered', 'failed', 'skipped'];

interface Member {
  userId: number;
  pat: string;
  platform: 'ios' | 'android';
  pushToken: string;
  /** His mobile and phone as the gateways see them (+49…). */
  mobile: string;
  phone: string;
}

interface Org {
  orgId: number;
  apiKey: string;
  members: Member[];
}

interface Ctx {
  db: Database;
  dbUri: string;
  identity: IdentityCommands;
  push: PushFakes;
  sms: FakeGateway;
  call: FakeGateway;
  procs: ServiceProcess[];
  /** The process of the first scenario, which also built the organization. */
  first: ServiceProcess;
  org: Org;
}

const faults = suite<Ctx>('reliability: faults of deliveries', {} as Ctx);

faults.before(async (ctx) => {
  ctx.dbUri = otherDatabase(`reliability-deliveries-${process.pid}`);
  ctx.db = await openDatabase(ctx.dbUri, serviceModels);
  ctx.identity = new IdentityCommands(ctx.db);
  ctx.push = await startPushFakes();
  ctx.sms = await startGateway();
  ctx.call = await startGateway();
  ctx.procs = [];
  // A try's limit of 10 s, the default: a fake answers well within it, so no try is given up on a busy
  // machine (a push taken after its sender gave up is a double of another kind, not tested here).
  ctx.first = await start(ctx, 10_000);
  ctx.org = await organization(ctx, ctx.first.url);
});
faults.after.each((ctx) => {
  ctx.sms.before = ctx.call.before = ctx.push.apns.before = ctx.push.fcm.before = undefined;
  ctx.sms.answer = ctx.call.answer = () => 200;
});
faults.after(async (ctx) => {
  // The processes first: they could otherwise write into the database after it was dropped.
  for (const p of ctx.procs) if (p.child.exitCode === null && p.child.signalCode === null) await p.stop();
  await ctx.db?.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.db?.close();
  await ctx.push?.close();
  await ctx.sms?.close();
  await ctx.call?.close();
});

/** A service process on the test's database; `timeoutMs`: a try's limit (its claim is three times it). */
async function start(ctx: Ctx, timeoutMs: number): Promise<ServiceProcess> {
  const proc = await spawnService({
    ...ctx.push.env,
    MONGODB_URI: ctx.dbUri,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `reliability-deliveries-${process.pid}`,
    RATE_LIMIT_PER_SECOND: '0',
    SMS_GATEWAY_URL: ctx.sms.url,
    CALL_GATEWAY_URL: ctx.call.url,
    GATEWAY_TOKEN: 'reliability-gateway',
    GATEWAY_TIMEOUT_MS: String(timeoutMs),
    ALARM_OUTBOX_SWEEP_MS: '200',
  });
  ctx.procs.push(proc);
  return proc;
}

/** An organization of MEMBERS members, each with a device (iOS and Android in turn), a mobile and a phone. */
async function organization(ctx: Ctx, url: string): Promise<Org> {
  const org = await ctx.identity.createOrganization('Feuerwehr Störung');
  const apiKey = (await ctx.identity.createApiKey(org.id, 'leitstelle')).token;
  const one = async (i: number): Promise<Member> => {
    const user = await ctx.identity.createUser(`Mitglied ${i + 1}`);
    await ctx.identity.addMember(org.id, user.id, 'member');
    const pat = (await ctx.identity.createPersonalToken(user.id, 'phone')).token;
    const own = client(url, { pat });
    const platform = i % 2 ? 'android' : 'ios';
    // APNs tokens are hex; FCM's are opaque.
    const pushToken = platform === 'ios' ? String(i).padStart(64, 'a') : `fcm-${i}`;
    const device = await own.post('/api/v1/app/device', {
      name: 'Telefon',
      os: platform === 'ios' ? 'iOS 18' : 'Android 14',
      ownerID: user.id,
      pushToken,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(device.status, 200, JSON.stringify(device.body));
    const digits = String(1_000_000 + i);
    for (const [kind, gsm] of [
      ['sms/mobile', `0049176${digits}`],
      ['call/phone', `0049177${digits}`],
    ]) {
      const res = await own.post(`/api/v1/${kind}`, { gsm, name: 'Mobil', ownerID: user.id, active: true });
      assert.is(res.status, 200, JSON.stringify(res.body));
    }
    return { userId: user.id, pat, platform, pushToken, mobile: `+49176${digits}`, phone: `+49177${digits}` };
  };
  const members: Member[] = [];
  // Twenty at a time: the machine is shared.
  for (let i = 0; i < MEMBERS; i += 20)
    members.push(...(await Promise.all(Array.from({ length: Math.min(20, MEMBERS - i) }, (_, k) => one(i + k)))));
  return { orgId: org.id, apiKey, members };
}

async function raise(url: string, org: Org, event: string): Promise<{ id: number; startedAt: string }> {
  const res = await client(url, { apiKey: org.apiKey }).post('/api/v1/alarms', { organizationID: org.orgId, event });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const detail = async (url: string, org: Org, alarmId: number) =>
  (await client(url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarmId}`)).body;

/** Waits until the alarm has all 3 deliveries of every member, each final. */
const finished = (url: string, org: Org, alarmId: number, timeoutMs: number) =>
  eventually(
    () => detail(url, org, alarmId),
    (d) => d.deliveries?.length === 3 * org.members.length && d.deliveries.every((x: any) => FINAL.includes(x.status)),
    'every delivery of every member final',
    timeoutMs,
  );

/** One request of a delivery at a fake: when it arrived, and when it was answered 2xx (null: not taken). */
interface Seen {
  arrivedAt: number;
  takenAt: number | null;
  /** The sender's port (pushes only). */
  fromPort?: number;
}

/**
 * The local ports of a process's TCP connections (Linux: its socket descriptors in /proc/<pid>/fd,
 * found in /proc/net/tcp and tcp6): which pushes a process sent, whatever the clock says.
 */
function portsOf(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && inodes.has(cols[9])) ports.add(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** The push requests of the alarm at APNs and FCM (the token requests aside), by the device's push token. */
function pushRequests(push: PushFakes, alarmId: number): Map<string, Seen[]> {
  const by = new Map<string, Seen[]>();
  const add = (token: string, seen: Seen) => by.set(token, [...(by.get(token) ?? []), seen]);
  const tokenOf = (path: string, body: any): string | null => {
    if (path.startsWith('/3/device/')) return body?.alarmId === alarmId ? path.slice('/3/device/'.length) : null;
    if (path.endsWith('/messages:send'))
      return body?.message?.data?.alarmId === String(alarmId) ? String(body.message.token) : null;
    return null;
  };
  for (const fake of [push.apns, push.fcm]) {
    // An arrival and its answer share the request's headers.
    const answered = fake.requests.filter((r) => r.status === 200);
    for (const a of fake.arrived) {
      const token = tokenOf(a.path, a.body);
      if (token === null) continue;
      const answer = answered.find((r) => r.headers === a.headers);
      add(token, { arrivedAt: a.at, takenAt: answer ? answer.at! : null, fromPort: a.fromPort });
    }
  }
  return by;
}

/** The gateway's requests of the alarm by the number they went to. */
function gatewayRequests(gateway: FakeGateway, alarmId: number): Map<string, Seen[]> {
  const by = new Map<string, Seen[]>();
  for (const a of gateway.arrived) {
    if (a.body.alarmId !== alarmId) continue;
    const answer = gateway.answers.find((x) => x.request === a);
    const seen = { arrivedAt: a.at, takenAt: answer && answer.status < 300 ? answer.at : null };
    by.set(a.body.to, [...(by.get(a.body.to) ?? []), seen]);
  }
  return by;
}

/** Every member's requests per channel, as the fakes saw them. */
function perMember(ctx: Ctx, org: Org, alarmId: number): Map<number, Record<Channel, Seen[]>> {
  const pushes = pushRequests(ctx.push, alarmId);
  const texts = gatewayRequests(ctx.sms, alarmId);
  const calls = gatewayRequests(ctx.call, alarmId);
  return new Map(
    org.members.map((m) => [
      m.userId,
      { app: pushes.get(m.pushToken) ?? [], sms: texts.get(m.mobile) ?? [], call: calls.get(m.phone) ?? [] },
    ]),
  );
}

const taken = (list: Seen[]) => list.filter((s) => s.takenAt !== null);

/**
 * a. Every third SMS refused with 500; the call gateway dropping every connection for 3 s after its 15th
 * request; APNs answering every third push 500; FCM resetting a stretch of a third of its pushes. A
 * delivery is refused at most twice (so that every one must get through within its 5 tries).
 */
faults('gateways and push services failing part of a batch: each member gets each delivery once', async (ctx) => {
  const proc = ctx.first;
  const org = ctx.org;
  const refusals = new Map<string, number>();
  // Whether this delivery may be refused once more (at most twice each).
  const mayRefuse = (key: string) => {
    const n = refusals.get(key) ?? 0;
    if (n >= 2) return false;
    refusals.set(key, n + 1);
    return true;
  };
  let texts = 0;
  ctx.sms.answer = (r) => (++texts % 3 === 0 && mayRefuse(`sms:${r.body.deliveryId}`) ? 500 : 200);
  let calls = 0;
  let downUntil = 0;
  ctx.call.before = (r) => {
    if (++calls === 15) downUntil = Date.now() + 3_000;
    if (Date.now() < downUntil && mayRefuse(`call:${r.body.deliveryId}`)) return 'reset';
  };
  let apns = 0;
  ctx.push.apns.before = (a: Arrival) => {
    if (++apns % 3 === 0 && mayRefuse(`apns:${a.path}`))
      return { status: 500, body: { reason: 'InternalServerError' } };
  };
  let fcm = 0;
  const stretch = [5, 5 + Math.ceil(MEMBERS / 6)];
  ctx.push.fcm.before = (a: Arrival) => {
    if (!a.path.endsWith('/messages:send')) return;
    fcm++;
    if (fcm >= stretch[0] && fcm < stretch[1] && mayRefuse(`fcm:${a.body?.message?.token}`)) return 'reset';
  };

  const raisedAt = Date.now();
  const alarm = await raise(proc.url, org, 'B4 Großbrand, Störung der Gateways');
  const done = await finished(proc.url, org, alarm.id, 120_000);
  const lastTaken = Math.max(
    ...[...perMember(ctx, org, alarm.id).values()]
      .flatMap((m) => CHANNELS.flatMap((c) => taken(m[c])))
      .map((s) => s.takenAt!),
  );

  const seen = perMember(ctx, org, alarm.id);
  const problems: string[] = [];
  let accepted = 0;
  let doubled = 0;
  let lost = 0;
  for (const m of org.members) {
    for (const channel of CHANNELS) {
      const requests = seen.get(m.userId)![channel];
      const took = taken(requests).length;
      accepted += took;
      if (took > 1) doubled++;
      if (took === 0) lost++;
      // AL3 agrees with the fake: one delivery, sent, after as many tries as the fake saw.
      const mine = done.deliveries.filter((d: any) => d.recipientUserId === m.userId && d.channel === channel);
      const shown = mine.map((d: any) => `${d.status}/${d.attempts}/${d.lastError}`).join(',');
      if (took !== 1 || mine.length !== 1 || mine[0].status !== 'sent' || mine[0].attempts !== requests.length)
        problems.push(`member ${m.userId} ${channel}: taken ${took} of ${requests.length} requests, AL3 ${shown}`);
    }
  }
  const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
  figure('delivery faults: mid-batch failures, recipients × channels', `${MEMBERS} × 3`);
  figure('delivery faults: mid-batch failures, requests refused or reset by the fakes', refused);
  figure(
    'delivery faults: mid-batch failures, deliveries due / taken once / doubled / lost',
    `${3 * MEMBERS} / ${accepted - doubled} / ${doubled} / ${lost}`,
  );
  figure('delivery faults: mid-batch failures, AL1 → last delivery taken, ms', lastTaken - raisedAt);
  assert.ok(refused > MEMBERS / 2, `the fakes failed only ${refused} requests`);
  assert.equal(problems, []);
  assert.equal(done.recipients.sms, { targets: MEMBERS, sent: MEMBERS, delivered: 0, failed: 0 });
});

/**
 * b. Two processes; the first raises an alarm under a 10 s escalation window. The push services hold every
 * second push (taken, its answer withheld); once half the pushes reached them, the first process is
 * SIGKILLed, and then the held ones are answered (to nobody). A third of the members confirm their push
 * (push/delivered) before dueAt. After the survivor finished: every member has one push (or two, the
 * first taken before the kill: the edge), and one SMS and one call if he did not confirm, none if he did.
 */
faults('a process SIGKILLed with half its pushes sent and the SMS and calls held: each due once', async (ctx) => {
  // The first scenario's process goes: its longer claims would otherwise take part here.
  await ctx.first.stop();
  const [doomed, survivor] = await Promise.all([start(ctx, 4_000), start(ctx, 4_000)]);
  const org = ctx.org;
  const policy = await client(survivor.url, { apiKey: org.apiKey }).put(
    `/api/v1/organizations/${org.orgId}/escalation`,
    { pushReceiptWithinSeconds: WINDOW_S, channels: ['sms', 'call'] },
  );
  assert.is(policy.status, 200, JSON.stringify(policy.body));

  // Every second push is held until the kill; the others are answered at once.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let pushes = 0;
  const hold = async (a: Arrival) => {
    if (a.path === '/token') return;
    if (++pushes % 2 === 0) await released;
  };
  ctx.push.apns.before = ctx.push.fcm.before = hold;

  const alarm = await raise(doomed.url, org, 'B3 Wohnungsbrand, Prozess stirbt');
  const dueAt = Date.parse(alarm.startedAt) + WINDOW_S * 1000;
  await eventually(
    async () => pushRequests(ctx.push, alarm.id),
    (by) => [...by.values()].flat().length >= MEMBERS / 2,
    'half the pushes at the push services',
  );
  // Its connections, read just before the kill: a push that came over one of them is the killed
  // process's, even when the fake reads it after the kill's moment (the clock cannot tell them apart).
  const doomedPorts = portsOf(doomed.child.pid!);
  assert.ok(doomedPorts.size > 0, 'the killed process has connections');
  const killedAt = Date.now();
  doomed.child.kill('SIGKILL');
  await new Promise((resolve) => doomed.child.once('exit', resolve));
  // Read before the held pushes are answered: at the kill, these had reached the push services, and these
  // of them had no answer yet.
  const atKill = perMember(ctx, org, alarm.id);
  const handedOver = [...atKill.values()].filter((m) => m.app.length > 0).length;
  const held = [...atKill.values()].filter((m) => m.app.some((s) => s.takenAt === null)).length;
  release();

  // A third of the members whose push arrived confirm it, on the surviving process, before dueAt.
  const confirming = org.members.filter((m, i) => i % 3 === 0 && atKill.get(m.userId)!.app.length > 0);
  const confirmTokens = new Map<string, string>();
  for (const a of [...ctx.push.apns.arrived, ...ctx.push.fcm.arrived]) {
    if (a.path.startsWith('/3/device/') && a.body?.alarmId === alarm.id)
      confirmTokens.set(a.path.slice('/3/device/'.length), a.body.confirmToken);
    if (a.path.endsWith('/messages:send') && a.body?.message?.data?.alarmId === String(alarm.id))
      confirmTokens.set(a.body.message.token, a.body.message.data.confirmToken);
  }
  await Promise.all(
    confirming.map(async (m) => {
      const res = await client(survivor.url, { pat: m.pat }).post(
        `/api/v1/app/push/delivered/${confirmTokens.get(m.pushToken)}`,
      );
      assert.is(res.status, 200, JSON.stringify(res.body));
    }),
  );
  assert.ok(Date.now() < dueAt, 'the confirmations came after dueAt (the machine was too slow to test this)');
  const confirmed = new Set(confirming.map((m) => m.userId));

  const done = await finished(survivor.url, org, alarm.id, dueAt - Date.now() + 120_000);
  const seen = perMember(ctx, org, alarm.id);
  const problems: string[] = [];
  let due = 0;
  let accepted = 0;
  let edge = 0;
  let doubled = 0;
  let lost = 0;
  let last = 0;
  for (const m of org.members) {
    const mine = seen.get(m.userId)!;
    for (const channel of CHANNELS) {
      const owed = channel === 'app' || !confirmed.has(m.userId) ? 1 : 0;
      due += owed;
      const took = taken(mine[channel]);
      accepted += took.length;
      for (const s of took) last = Math.max(last, s.takenAt!);
      const delivery = done.deliveries.filter((d: any) => d.recipientUserId === m.userId && d.channel === channel);
      const shown = delivery.map((d: any) => `${d.status}/${d.attempts}/${d.reason ?? ''}`).join(',');
      // The at-least-once edge: taken by the fake from the killed process (over one of its connections),
      // its answer lost with the process, and sent again by the survivor. Any other second one is a real
      // double.
      const lostAnswer =
        took.length === 2 && owed === 1 && doomedPorts.has(took[0].fromPort!) && !doomedPorts.has(took[1].fromPort!);
      if (took.length < owed) lost++;
      else if (lostAnswer) edge++;
      else if (took.length > owed) doubled++;
      if (took.length !== owed && !lostAnswer)
        problems.push(`member ${m.userId} ${channel}: due ${owed}, taken ${took.length}, AL3 ${shown}`);
      // Held ones go at dueAt, not before; a confirmed member's are skipped, and AL3 says why.
      if (channel !== 'app') {
        for (const s of mine[channel])
          if (s.arrivedAt < dueAt) problems.push(`member ${m.userId} ${channel} before dueAt`);
        const want = owed ? 'sent/1/' : 'skipped/0/push confirmed';
        if (shown !== want) problems.push(`member ${m.userId} ${channel}: AL3 ${shown}, expected ${want}`);
      } else if (delivery.length !== 1 || !['sent', 'delivered'].includes(delivery[0].status))
        problems.push(`member ${m.userId} push: AL3 ${shown}`);
    }
  }
  figure(
    'delivery faults: SIGKILL mid-send, recipients (confirmed their push before dueAt)',
    `${MEMBERS} (${confirmed.size})`,
  );
  figure(
    'delivery faults: SIGKILL mid-send, pushes at the push services at the kill (of them held)',
    `${handedOver} (${held})`,
  );
  figure('delivery faults: SIGKILL mid-send, deliveries due / taken', `${due} / ${accepted}`);
  figure(
    'delivery faults: SIGKILL mid-send, taken twice (answer lost with the killed process / otherwise)',
    `${edge} / ${doubled}`,
  );
  figure('delivery faults: SIGKILL mid-send, lost', lost);
  figure('delivery faults: SIGKILL mid-send, kill → last delivery taken, ms', last - killedAt);
  assert.equal(problems, []);
  assert.is(lost, 0);
  assert.is(doubled, 0);
});

faults.run();
