// Web Push as a door into the service's own network (RELIABILITY.md "Web Push as a door to the service's network";
// docs/members-app.md "Web Push"): a member hands the service a URL to post to. Endpoints at internal
// addresses in every spelling, a known push service's name that DNS turns into an internal address
// (answers changing from one connection to the next), redirects, and push services that answer slowly,
// never, with 429 or with tens of megabytes. A bait listening on the loopback (on 443 too, where an
// https endpoint without a port goes) counts every connection that reaches it: it must count none.
import dns, { type LookupAddress } from 'node:dns';
import net, { type AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import { WebPushClient, WebPushUnreachable } from '../../server/areas/app/push/web-client.js';
import { forbiddenAddress, type Resolver } from '../../server/areas/app/push/addresses.js';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { expectBadRequest, expectError } from '../helpers/expect.js';
import { eventually } from '../helpers/fleet.js';
import { client, request } from '../helpers/http.js';
import { createOrg, otherDatabase, startTestService, type OrgFixture, type TestService } from '../helpers/service.js';
import { suite } from '../helpers/suite.js';
import { startWebPushFake, type WebPushFake } from '../helpers/web-push-fake.js';
import { figure } from './figures.js';

const PAYLOAD = 'Payload missing or in wrong format';
/** GATEWAY_TIMEOUT_MS: a push not answered by then is given up (and tried again). */
const TIMEOUT_MS = 6_000;
/** The slow push service answers after this long: within the timeout, long after the healthy ones. */
const SLOW_MS = 3_000;
/** The huge answer's body: tens of megabytes, of which the service may read 64 KiB. */
const HUGE_BYTES = 48 * 1024 * 1024;
/** Members whose push service is healthy, in the alarm with the hostile ones. */
const HEALTHY = 6;

/** A listener on the loopback that counts the connections reaching it and closes them. */
interface Bait {
  /** A free port on 127.0.0.1 (and on ::1 when that port is free there too). */
  port: number;
  /** Whether 127.0.0.1:443 and [::1]:443 are listened on: an https endpoint without a port goes there. */
  on443: boolean;
  connections: number;
  close(): Promise<void>;
}

interface Ctx {
  bait: Bait;
  healthy: WebPushFake;
  hang: WebPushFake;
  slow: WebPushFake;
  busy: WebPushFake;
  huge: WebPushFake;
  redirect: WebPushFake;
  svc: TestService;
  /** What fcm.googleapis.com resolves to for the service, one answer per lookup (the last one stays). */
  dnsAnswers: LookupAddress[][];
  lookups: number;
  restoreDns: () => void;
}

const doors = suite<Ctx>("reliability: Web Push as a door to the service's network", {} as Ctx);

async function startBait(): Promise<Bait> {
  const servers: net.Server[] = [];
  const bait: Bait = {
    port: 0,
    on443: false,
    connections: 0,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
  const listen = (port: number, host: string) =>
    new Promise<net.Server | null>((resolve) => {
      const server = net.createServer((socket) => {
        bait.connections++;
        socket.destroy();
      });
      server.once('error', () => resolve(null));
      server.listen(port, host, () => {
        servers.push(server);
        resolve(server);
      });
    });
  const free = await listen(0, '127.0.0.1');
  bait.port = (free!.address() as AddressInfo).port;
  await listen(bait.port, '::1');
  bait.on443 = (await listen(443, '127.0.0.1')) !== null && (await listen(443, '::1')) !== null;
  return bait;
}

doors.before(async (ctx) => {
  ctx.bait = await startBait();
  [ctx.healthy, ctx.hang, ctx.slow, ctx.busy, ctx.huge, ctx.redirect] = await Promise.all(
    Array.from({ length: 6 }, () => startWebPushFake()),
  );
  // The service resolves names with the system's resolver; here fcm.googleapis.com answers as a hostile
  // DNS would (the same process: the service under test runs in it). Other names resolve as before.
  ctx.dnsAnswers = [];
  ctx.lookups = 0;
  const system = dns.lookup;
  const hostile = ((hostname: string, options: unknown, callback: unknown) => {
    if (hostname !== 'fcm.googleapis.com') return (system as any)(hostname, options, callback);
    const answer = ctx.dnsAnswers[Math.min(ctx.lookups++, ctx.dnsAnswers.length - 1)] ?? [];
    const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => {
      if (answer.length === 0)
        done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      else if (all) done(null, answer);
      else done(null, answer[0].address, answer[0].family);
    });
  }) as typeof dns.lookup;
  dns.lookup = hostile;
  ctx.restoreDns = () => {
    dns.lookup = system;
  };
  ctx.svc = await startTestService(
    {
      SECRETS_KEY: TEST_KEY,
      WEB_PUSH_ORIGINS: [ctx.healthy, ctx.hang, ctx.slow, ctx.busy, ctx.huge, ctx.redirect].map((f) => f.url).join(','),
      ALARM_OUTBOX_SWEEP_MS: '200',
      GATEWAY_TIMEOUT_MS: String(TIMEOUT_MS),
    },
    { dbUri: otherDatabase(`reliability-push-doors-${process.pid}`) },
  );
});
doors.after(async (ctx) => {
  await ctx.svc?.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.svc?.close();
  ctx.restoreDns?.();
  for (const fake of [ctx.healthy, ctx.hang, ctx.slow, ctx.busy, ctx.huge, ctx.redirect]) await fake?.close();
  await ctx.bait?.close();
});

let devices = 0;
const webDevice = (ownerID: number, pushToken: string) => ({
  name: `Browser ${++devices}`,
  os: 'Web Chrome 131 Android',
  ownerID,
  pushToken,
  pushTokenDevelopment: false,
  active: true,
});
type Member = OrgFixture['member'];
const memberClient = (ctx: Ctx, user: Member) => client(ctx.svc.url, { pat: user.token });

/** Another member of the organization, with a personal token. */
async function addMember(ctx: Ctx, org: OrgFixture, name: string): Promise<Member> {
  const user = await ctx.svc.identity.createUser(name);
  await ctx.svc.identity.addMember(org.orgId, user.id, 'member');
  const pat = await ctx.svc.identity.createPersonalToken(user.id, 'phone');
  return { userId: user.id, token: pat.token, tokenId: pat.id };
}

/** The member's web device (A2) with `pushToken`; its id. */
async function register(ctx: Ctx, user: Member, pushToken: string): Promise<number> {
  const res = await memberClient(ctx, user).post('/api/v1/app/device', webDevice(user.userId, pushToken));
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

const raise = (ctx: Ctx, org: OrgFixture) =>
  request(ctx.svc.url, 'POST', '/api/v1/alarms', {
    auth: { apiKey: org.apiKey },
    body: { organizationID: org.orgId, event: 'B3 Wohnungsbrand', channels: ['app'] },
  });
const alarmOf = async (ctx: Ctx, org: OrgFixture, id: number) =>
  (await client(ctx.svc.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${id}`)).body;
const deliveryOf = (alarm: any, userId: number) =>
  alarm.deliveries?.find((d: { recipientUserId: number }) => d.recipientUserId === userId);

// ---------------------------------------------------------------- a. endpoints at internal addresses

doors('A2 and A4: endpoints at internal addresses, in every spelling, are refused and reach nothing', async (ctx) => {
  const org = await createOrg(ctx.svc);
  const { keys } = ctx.healthy.subscribe();
  const port = ctx.bait.port;
  const endpoints = [
    // The loopback, spelled as URL parsers read IPv4 (shortened, decimal, hex, octal) and as IPv6.
    'https://127.0.0.1/push/x',
    'https://127.1/push/x',
    'https://2130706433/push/x',
    'https://0x7f000001/push/x',
    'https://0x7f.0.0.1/push/x',
    'https://0177.0.0.1/push/x',
    'https://127.000.000.001/push/x',
    'https://[::1]/push/x',
    'https://[0:0:0:0:0:0:0:1]/push/x',
    'https://[::ffff:7f00:1]/push/x',
    'https://[::ffff:127.0.0.1]/push/x',
    'https://[64:ff9b::7f00:1]/push/x',
    'https://[2002:7f00:1::1]/push/x',
    'https://localhost/push/x',
    'https://localhost./push/x',
    'https://127.0.0.1.nip.io/push/x',
    `https://127.0.0.1:${port}/push/x`,
    `http://127.0.0.1:${port}/push/x`,
    `http://[::1]:${port}/push/x`,
    // "This host", link-local (the cloud's metadata service), unique-local, private, shared.
    'https://0.0.0.0/push/x',
    'https://0/push/x',
    'https://[::]/push/x',
    'https://169.254.169.254/latest/meta-data/',
    'http://169.254.169.254/latest/meta-data/',
    'https://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'https://[fe80::1]/push/x',
    'https://[fe80::1%25lo]/push/x',
    'https://[fd00::1]/push/x',
    'https://10.0.0.1/push/x',
    'https://172.16.0.1/push/x',
    'https://192.168.178.1/push/x',
    'https://100.64.0.1/push/x',
    // A known push service over http, on another port, with user information, in another scheme.
    'http://fcm.googleapis.com/fcm/send/x',
    'http://fcm.googleapis.com:443/fcm/send/x',
    'https://fcm.googleapis.com:8443/fcm/send/x',
    `https://fcm.googleapis.com:${port}/fcm/send/x`,
    'https://updates.push.services.mozilla.com:80/wpush/v2/x',
    'https://web.push.apple.com:444/x',
    'https://user@fcm.googleapis.com/fcm/send/x',
    'https://fcm.googleapis.com@127.0.0.1/fcm/send/x',
    'https://fcm.googleapis.com:443@127.0.0.1/fcm/send/x',
    'https://127.0.0.1#@fcm.googleapis.com/fcm/send/x',
    'https://127.0.0.1\\@fcm.googleapis.com/fcm/send/x',
    'ftp://fcm.googleapis.com/fcm/send/x',
    'wss://fcm.googleapis.com/fcm/send/x',
    'file:///etc/passwd',
    'javascript:fetch("http://127.0.0.1")',
    'data:text/plain,x',
    '//fcm.googleapis.com/fcm/send/x',
    // Look-alike names: another domain around, beside or under a known one.
    'https://fcm.googleapis.com./fcm/send/x',
    'https://fcm.googleapis.com.evil.example/fcm/send/x',
    'https://fcm-googleapis.com/fcm/send/x',
    'https://fcm.googleapis.co/fcm/send/x',
    'https://fcm.gооgleapis.com/fcm/send/x',
    'https://evil.example/fcm.googleapis.com/x',
    'https://127.0.0.1.push.apple.com/x',
    'https://a.b.push.apple.com/x',
    'https://push.apple.com.evil.example/x',
    'https://evilnotify.windows.com/x',
    'https://updates.push.services.mozilla.com.127.0.0.1.nip.io/x',
  ];
  const c = memberClient(ctx, org.member);
  const existing = await register(ctx, org.member, ctx.healthy.subscribe().json);
  const before = ctx.bait.connections;
  let tried = 0;
  for (const endpoint of endpoints) {
    const pushToken = JSON.stringify({ endpoint, keys });
    const created = await c.post('/api/v1/app/device', webDevice(org.member.userId, pushToken));
    expectBadRequest(created, 'invalid_body', PAYLOAD, 'body', 'pushToken');
    const moved = await c.put(`/api/v1/app/device/${existing}`, webDevice(org.member.userId, pushToken));
    expectBadRequest(moved, 'invalid_body', PAYLOAD, 'body', 'pushToken');
    tried += 2;
  }
  // The device kept its subscription, and a test push to it still goes where it went.
  const test = await c.post(`/api/v1/app/device/${existing}/test-push`);
  assert.is(test.status, 200, JSON.stringify(test.body));
  const reached = ctx.bait.connections - before;
  figure('push doors: endpoints tried at A2 and A4 / reached', `${tried} / ${reached}`);
  assert.is(reached, 0, 'no connection reached the loopback');
});

doors(
  'the client itself connects to no internal address written in an endpoint, unless the operator listed its origin',
  async (ctx) => {
    // Behind the endpoint guard: a subscription stored before a guard existed, or one the guard let
    // through by mistake, still reaches nothing (WebPushClient checks the address it is given).
    const guarded = new WebPushClient(undefined, 2_000);
    const port = ctx.bait.port;
    const before = ctx.bait.connections;
    const literals = [
      `http://127.0.0.1:${port}/push/x`,
      `https://127.0.0.1:${port}/push/x`,
      `http://[::1]:${port}/push/x`,
      `http://[::ffff:127.0.0.1]:${port}/push/x`,
      `http://[::ffff:7f00:1]:${port}/push/x`,
      `http://0.0.0.0:${port}/push/x`,
      `http://2130706433:${port}/push/x`,
      `http://0x7f.1:${port}/push/x`,
    ];
    try {
      for (const endpoint of literals) {
        const err = await guarded.post(endpoint, {}, Buffer.from('x')).then(
          () => null,
          (e: Error) => e,
        );
        assert.instance(err, WebPushUnreachable, endpoint);
        assert.match(err!.message, /not connected/, endpoint);
      }
    } finally {
      guarded.close();
    }
    assert.is(ctx.bait.connections - before, 0, 'nothing reached the bait');
    // The control: an origin the operator listed is connected to, at whatever address (so the bait counts).
    const origin = `http://127.0.0.1:${port}`;
    const listed = new WebPushClient(undefined, 2_000, { origins: [origin] });
    try {
      await listed.post(`${origin}/push/x`, {}, Buffer.from('x')).catch(() => undefined);
    } finally {
      listed.close();
    }
    assert.is(ctx.bait.connections - before, 1, 'the listed origin was reached');
  },
);

// ---------------------------------------------------------------- b. DNS rebinding

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });
/** What a hostile DNS answers for a known push service's name, one answer per connection. */
const REBINDING: LookupAddress[][] = [
  [v4('127.0.0.1')],
  [v6('::ffff:127.0.0.1')],
  [v6('::ffff:7f00:1')],
  [v6('::1')],
  [v4('169.254.169.254')],
  [v6('::ffff:169.254.169.254')],
  [v6('64:ff9b::a9fe:a9fe')],
  [v6('2002:a9fe:a9fe::1')],
  [v4('10.1.2.3')],
  [v4('100.100.100.200')],
  [v4('0.0.0.0')],
  [v6('fe80::1')],
  [v6('fd12:3456::1')],
  [v4('224.0.0.251')],
  [v4('142.250.185.74'), v4('127.0.0.1')],
  [v6('2a00:1450:4001:813::200a'), v6('::1')],
];

doors(
  'a known push service whose name resolves to an internal address (DNS rebinding) is not connected to',
  async (ctx) => {
    // In the client, with its resolver replaced: the name first resolves to a public address, then to
    // internal ones; each connection looks the name up again and checks what it connects to.
    let calls = 0;
    const answers = [[v4('192.0.2.10')], ...REBINDING];
    const resolve: Resolver = (_hostname, _options, callback) =>
      process.nextTick(() => callback(null, answers[Math.min(calls++, answers.length - 1)]));
    const web = new WebPushClient(undefined, 2_000, { resolve });
    const endpoint = `http://fcm.googleapis.com:${ctx.bait.port}/fcm/send/x`;
    const before = ctx.bait.connections;
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < answers.length; i++)
        outcomes.push(
          await web.post(endpoint, {}, Buffer.from('x')).then(
            (reply) => `answered ${reply.status}`,
            (err: Error) => err.message,
          ),
        );
    } finally {
      web.close();
    }
    assert.is(calls, answers.length, 'each connection looked the name up');
    // The public address was connected to (nothing answers there): only its outcome may be other than a refusal.
    const refused = outcomes.slice(1).filter((o) => /resolves to .* not connected/.test(o));
    assert.is(refused.length, REBINDING.length, outcomes.join('\n'));
    assert.not.match(outcomes[0], /not connected/);
    assert.is(ctx.bait.connections - before, 0, 'nothing reached the bait');
    // The addresses a resolver may answer, public ones beside them: only the public ones pass.
    for (const answer of REBINDING)
      for (const { address } of answer.slice(-1)) assert.ok(forbiddenAddress(address), address);
    for (const address of [
      '142.250.185.74',
      '2a00:1450:4001:813::200a',
      '17.253.144.10',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
    ])
      assert.is(forbiddenAddress(address), null, address);
    figure(
      'push doors: rebound DNS answers to a known push service, client / refused',
      `${REBINDING.length} / ${refused.length}`,
    );
  },
);

doors(
  'the service, its name rebound: A5 503, the alarm delivery tried again, the device as it was, nothing reached',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const { keys } = ctx.healthy.subscribe();
    const endpoint = 'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bRebinding';
    const id = await register(ctx, org.member, JSON.stringify({ endpoint, keys }));
    const c = memberClient(ctx, org.member);
    ctx.dnsAnswers = REBINDING;
    ctx.lookups = 0;
    const before = ctx.bait.connections;
    for (let i = 0; i < REBINDING.length; i++) {
      const res = await c.post(`/api/v1/app/device/${id}/test-push`);
      expectError(res, 503, 'push_unavailable');
      assert.match(res.body.message, /fcm\.googleapis\.com resolves to .* not connected/);
    }
    assert.is(ctx.lookups, REBINDING.length, 'each push looked the name up');
    // An alarm: its delivery fails its try and is tried again (DNS may be right again), the device untouched.
    const alarm = (await raise(ctx, org)).body;
    const tried = await eventually(
      () => alarmOf(ctx, org, alarm.id),
      (a) => (deliveryOf(a, org.member.userId)?.attempts ?? 0) >= 1,
      'the first try of the delivery',
    );
    const delivery = deliveryOf(tried, org.member.userId);
    assert.ok(['queued', 'sending'].includes(delivery.status), delivery.status);
    assert.match(delivery.lastError, /resolves to .* not connected/);
    const device = await c.get(`/api/v1/app/device/${id}`);
    assert.equal([device.body.active, JSON.parse(device.body.pushToken).endpoint], [true, endpoint]);
    const reached = ctx.bait.connections - before;
    figure('push doors: rebound pushes through the service / connections reached', `${ctx.lookups} / ${reached}`);
    figure('push doors: bait on 443 (where an https endpoint goes)', ctx.bait.on443 ? 'yes' : 'no (port taken)');
    assert.is(reached, 0, 'nothing reached the loopback');
  },
);

// ---------------------------------------------------------------- c. redirects

doors(
  'a push service that redirects: the target is never reached, the push fails for good, the device stays',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const other = ctx.healthy.subscribe();
    const sub = ctx.redirect.subscribe();
    const id = await register(ctx, org.member, sub.json);
    const c = memberClient(ctx, org.member);
    const before = ctx.bait.connections;
    const targets = [
      other.endpoint,
      `http://127.0.0.1:${ctx.bait.port}/push/x`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    let redirects = 0;
    for (const status of [301, 302, 303, 307, 308])
      for (const location of targets) {
        ctx.redirect.answer(sub.id, { status, location });
        const res = await c.post(`/api/v1/app/device/${id}/test-push`);
        expectError(res, 502, 'push_failed');
        assert.match(res.body.message, new RegExp(`answered ${status}, a redirect, which is not followed`));
        redirects++;
      }
    ctx.redirect.answer(sub.id, { status: 307, location: other.endpoint });
    const alarm = (await raise(ctx, org)).body;
    const failed = await eventually(
      () => alarmOf(ctx, org, alarm.id),
      (a) => deliveryOf(a, org.member.userId)?.status === 'failed',
      'the redirected delivery failed',
    );
    assert.is(deliveryOf(failed, org.member.userId).attempts, 1, 'not tried again');
    assert.match(deliveryOf(failed, org.member.userId).lastError, /307, a redirect/);
    assert.is((await c.get(`/api/v1/app/device/${id}`)).body.active, true);
    const followed = ctx.healthy.received.filter((r) => r.subscriptionId === other.id).length;
    const reached = ctx.bait.connections - before;
    figure('push doors: redirects answered / followed', `${redirects + 1} / ${followed + reached}`);
    assert.is(followed, 0, 'the other push service received nothing');
    assert.is(reached, 0, 'the loopback received nothing');
  },
);

// ---------------------------------------------------------------- d. slow, never, 429, huge

doors('push services that hang, dawdle, throttle or answer megabytes cost their own deliveries only', async (ctx) => {
  const org = await createOrg(ctx.svc);
  const healthy: Array<{ user: Member; sub: string }> = [];
  for (let i = 0; i < HEALTHY; i++) {
    const user = await addMember(ctx, org, `healthy ${i}`);
    const sub = ctx.healthy.subscribe();
    await register(ctx, user, sub.json);
    healthy.push({ user, sub: sub.id });
  }
  const hostile = async (fake: WebPushFake, name: string) => {
    const user = await addMember(ctx, org, name);
    const sub = fake.subscribe();
    await register(ctx, user, sub.json);
    return { user, sub: sub.id, fake };
  };
  const hang = await hostile(ctx.hang, 'hang');
  const slow = await hostile(ctx.slow, 'slow');
  const busy = await hostile(ctx.busy, 'busy');
  const huge = await hostile(ctx.huge, 'huge');
  ctx.hang.answer(hang.sub, { status: 201, never: true });
  ctx.slow.answer(slow.sub, { status: 201, delayMs: SLOW_MS });
  ctx.busy.answer(busy.sub, { status: 429, retryAfter: 1 });
  ctx.huge.answer(huge.sub, { status: 503, bodyBytes: HUGE_BYTES });

  const raisedAt = Date.now();
  const raised = await raise(ctx, org);
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  const alarm = raised.body;
  const arrived = await eventually(
    async () => healthy.map(({ sub }) => ctx.healthy.delivered(sub)[0]),
    (pushes) => pushes.every(Boolean),
    'the healthy members’ pushes',
  );
  // Read right after they all arrived: the hanging push's first try is not over (it ends at the timeout),
  // nor has the slow push service answered.
  const meanwhile = await alarmOf(ctx, org, alarm.id);
  assert.is(deliveryOf(meanwhile, hang.user.userId).attempts, 0, 'the hanging push is still pending');
  assert.ok(!ctx.slow.received.some((r) => r.subscriptionId === slow.sub && r.answered), 'the slow answer is to come');
  const healthyMs = Math.max(...arrived.map((push) => push.at)) - raisedAt;

  // Another alarm while that push still hangs: its pushes go out at once too.
  const second = await createOrg(ctx.svc);
  const secondSub = ctx.healthy.subscribe();
  await register(ctx, second.member, secondSub.json);
  await raise(ctx, second);
  await eventually(
    async () => ctx.healthy.delivered(secondSub.id),
    (list) => list.length === 1,
    'the other alarm’s push',
  );
  const still = await alarmOf(ctx, org, alarm.id);
  assert.is(deliveryOf(still, hang.user.userId).attempts, 0, 'the first alarm’s hanging push is still pending');

  // AL3 shows the healthy ones sent once their wave of the outbox is recorded: after its slowest try.
  await eventually(
    () => alarmOf(ctx, org, alarm.id),
    (a) => healthy.every(({ user }) => deliveryOf(a, user.userId)?.status === 'sent'),
    'the healthy deliveries shown sent',
    TIMEOUT_MS * 4,
  );
  const shownMs = Date.now() - raisedAt;

  // The huge answer's reason is kept short while its delivery waits for its retry.
  const waiting = await eventually(
    () => alarmOf(ctx, org, alarm.id),
    (a) => (deliveryOf(a, huge.user.userId)?.attempts ?? 0) >= 1,
    'the huge answer’s try recorded',
    TIMEOUT_MS * 4,
  );
  const hugeTry = deliveryOf(waiting, huge.user.userId);
  if (hugeTry.status !== 'sent') assert.ok(hugeTry.lastError.length < 400, `${hugeTry.lastError.length} characters`);

  // Then every one of them is sent: the hanging and the throttled one on their retry.
  const done = await eventually(
    () => alarmOf(ctx, org, alarm.id),
    (a) => [hang, slow, busy, huge].every(({ user }) => deliveryOf(a, user.userId)?.status === 'sent'),
    'every delivery sent',
    TIMEOUT_MS * 6,
  );
  assert.equal(
    [hang, slow, busy, huge].map(({ user }) => deliveryOf(done, user.userId).attempts),
    [2, 1, 2, 2],
    'the hanging, throttled and huge ones tried twice, the slow one once',
  );
  for (const { user } of healthy) assert.is(deliveryOf(done, user.userId).attempts, 1);
  // 429: the retry came after its Retry-After (1 s).
  const [throttled, retried] = ctx.busy.received.filter((r) => r.subscriptionId === busy.sub);
  assert.is(throttled.status, 429);
  assert.ok(
    retried.at - throttled.answeredAt! >= 1_000,
    `retried ${retried.at - throttled.answeredAt!} ms after the 429`,
  );
  // The huge answer: read no further than the client's limit (what the fake got out is that, plus what
  // the sockets' buffers took, far below the body).
  const streamed = ctx.huge.received.find((r) => r.subscriptionId === huge.sub)!.streamed;
  assert.ok(streamed < HUGE_BYTES / 4, `${streamed} of ${HUGE_BYTES} bytes were taken`);
  assert.is(ctx.hang.delivered(hang.sub).length, 1, 'the hanging push service took the retry');

  figure('push doors: healthy pushes, all arrived after (ms), beside a hanging one', healthyMs);
  figure('push doors: the same shown sent in AL3 after (ms) (the hanging try holding its own slot only)', shownMs);
  figure(
    'push doors: huge answer, bytes taken of the body (MiB)',
    `${(streamed / 2 ** 20).toFixed(1)} of ${HUGE_BYTES / 2 ** 20}`,
  );
  figure('push doors: 429 retried after (ms; Retry-After 1 s)', retried.at - throttled.answeredAt!);
});

doors.run();
