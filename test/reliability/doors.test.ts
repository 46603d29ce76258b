// Abuse of the doors that take no organization's credential, or take one across organizations
// (RELIABILITY.md "Abuse of the new doors"): IN1/IN2 with wrong gateway tokens, PIN guessing per sender
// (one after another and all at once) and across senders, `Idempotency-Key`s replayed across
// organizations, and A10/A11 answers for another organization's alarm or with a used token. Two service
// processes (one in this test's process, one spawned) on one database and one Redis, which carries the
// wrong-PIN limit they share; throughput limits off, the wrong-PIN limit (always on) is what is tested.
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { eventually } from '../helpers/fleet.js';
import { client, request, type Reply } from '../helpers/http.js';
import { startPushFakes, type PushFakes } from '../helpers/push-fakes.js';
import { spawnService, type ServiceProcess } from '../helpers/processes.js';
import { otherDatabase, startTestService, type TestService } from '../helpers/service.js';
import { buildWorld, type World } from '../helpers/world.js';
import { figure } from './figures.js';

const INBOUND = 'reliability-inbound-secret';
/** Wrong PINs sent one after another by one sender (a full run sends more). */
const GUESSES = Number(process.env.RELIABILITY_DOOR_GUESSES || 40);
/** Wrong PINs sent at once by one sender. */
const BURST = 50;
const SPOOFED_SENDERS = 20;
const KEY_ROUNDS = Number(process.env.RELIABILITY_RACE_ROUNDS || 3) * 4;
/** The wrong-PIN limit of docs/alarms.md: 5 tries per sender number in 10 minutes. */
const LIMIT = 5;

interface Ctx {
  push: PushFakes;
  one: TestService;
  two: ServiceProcess;
  a: World;
  b: World;
  /** Every distinct answer of IN1/IN2 with the right gateway token: there must be one. */
  shapes: Map<string, number>;
}

const doors = suite<Ctx>('reliability: abuse of the new doors', {} as Ctx);

doors.before(async (ctx) => {
  ctx.push = await startPushFakes();
  const db = otherDatabase(`reliability-doors-${process.pid}`);
  const env = {
    ...ctx.push.env,
    SECRETS_KEY: TEST_KEY,
    INBOUND_GATEWAY_TOKEN: INBOUND,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `reliability-doors-${process.pid}`,
  };
  ctx.one = await startTestService(env, { dbUri: db });
  ctx.two = await spawnService({ ...env, MONGODB_URI: db, RATE_LIMIT_PER_SECOND: '0' });
  ctx.a = await buildWorld(ctx.one, 'DOORA');
  ctx.b = await buildWorld(ctx.one, 'DOORB');
  ctx.shapes = new Map();
});
doors.after(async (ctx) => {
  // The spawned process first: it could otherwise write into the database after it was dropped.
  await ctx.two?.stop();
  await ctx.one?.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.one?.close();
  await ctx.push?.close();
});

const processOf = (ctx: Ctx, i: number) => (i % 2 ? ctx.two : ctx.one);
const alarmsOf = async (ctx: Ctx, w: World) =>
  (await client(ctx.one.url, { apiKey: w.org.apiKey }).get(`/api/v1/alarms?organization_id=${w.org.orgId}`)).body
    .total as number;
const international = (gsm: string) => `+${gsm.slice(2)}`;

/** The counters of /metrics summed over both processes. */
async function inboundCounts(ctx: Ctx): Promise<Record<'received' | 'raised' | 'wrong' | 'throttled', number>> {
  const sum = { received: 0, raised: 0, wrong: 0, throttled: 0 };
  for (const svc of [ctx.one, ctx.two]) {
    const text = (await request(svc.url, 'GET', '/metrics')).body as string;
    const read = (name: string) =>
      Number(new RegExp(`^alarmhub_inbound_${name}_total (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    sum.received += read('received');
    sum.raised += read('alarms_raised');
    sum.wrong += read('wrong_pins');
    sum.throttled += read('throttled');
  }
  return sum;
}
const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));

// What a gateway can tell apart: the status, the body and the headers' names (their values differ by
// date, request ID and the like).
function recordShape(ctx: Ctx, res: Reply): void {
  const names = [...res.headers.keys()].filter((h) => !['date', 'x-request-id'].includes(h)).sort();
  const shape = `${res.status} ${JSON.stringify(res.body)} ${names.join(',')}`;
  ctx.shapes.set(shape, (ctx.shapes.get(shape) ?? 0) + 1);
}

const sms = (ctx: Ctx, i: number, from: string, text: string) =>
  request(processOf(ctx, i).url, 'POST', '/api/v1/inbound/sms', {
    body: { from, text },
    headers: { 'Gateway-Token': INBOUND },
  });
const call = (ctx: Ctx, i: number, from: string, digits: string) =>
  request(processOf(ctx, i).url, 'POST', '/api/v1/inbound/call', {
    body: { from, digits },
    headers: { 'Gateway-Token': INBOUND },
  });

let numbers = 0;
/** A new sms-alarming configuration of A with PIN 4711 (its own sender number, so its own limit). */
async function smsSender(ctx: Ctx): Promise<string> {
  const gsm = `0049173${String(process.pid % 1000).padStart(3, '0')}${String(++numbers).padStart(4, '0')}`;
  const res = await client(ctx.one.url, { apiKey: ctx.a.org.apiKey }).post('/api/v1/sms/alarming', {
    gsm,
    organizationID: ctx.a.org.orgId,
    pin: '4711',
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return international(gsm);
}
// Five digits: never the four-digit PIN 4711.
const wrongPin = (i: number) => String(10_000 + ((i * 7919) % 89_999));

doors(
  'IN1 and IN2 with a wrong Gateway-Token: 401 on both processes, nothing received, nothing raised',
  async (ctx) => {
    const right = INBOUND;
    const wrongs: Array<[string, Record<string, string>, string]> = [
      ['no header', {}, ''],
      ['empty', { 'Gateway-Token': '' }, ''],
      ['another secret', { 'Gateway-Token': 'not-the-secret' }, ''],
      ['the last character changed', { 'Gateway-Token': `${right.slice(0, -1)}x` }, ''],
      ['a prefix', { 'Gateway-Token': right.slice(0, -1) }, ''],
      ['one character more', { 'Gateway-Token': `${right}x` }, ''],
      ['upper case', { 'Gateway-Token': right.toUpperCase() }, ''],
      ['as a Bearer token', { Authorization: `Bearer ${right}` }, ''],
      ['with a Bearer prefix', { 'Gateway-Token': `Bearer ${right}` }, ''],
      ['in another credential header', { 'API-TOKEN': right }, ''],
      ['in the query string', {}, `?token=${right}&Gateway-Token=${right}`],
      ["an organization's API key", { 'Gateway-Token': ctx.a.org.apiKey }, ''],
    ];
    const bodies = {
      sms: { from: international(`0049170${String(ctx.a.org.orgId).padStart(7, '0')}`), text: '4711 DOORA Brand' },
      call: { from: international(`0049171${String(ctx.a.org.orgId).padStart(7, '0')}`), digits: '112233' },
    };
    const before = await inboundCounts(ctx);
    const alarms = await alarmsOf(ctx, ctx.a);
    const failures: string[] = [];
    let probes = 0;
    for (const [door, body] of Object.entries(bodies)) {
      for (const [what, headers, query] of wrongs) {
        for (const svc of [ctx.one, ctx.two]) {
          const res = await request(svc.url, 'POST', `/api/v1/inbound/${door}${query}`, { body, headers });
          probes++;
          if (res.status !== 401 || res.body?.error !== 'unauthorized')
            failures.push(`${door} ${what}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    assert.equal(
      delta(before, await inboundCounts(ctx)),
      { received: 0, raised: 0, wrong: 0, throttled: 0 },
      'nothing reached the doors',
    );
    assert.is(await alarmsOf(ctx, ctx.a), alarms, 'no alarm raised');
    // The control: the same bodies with the right token raise one alarm each, so the probes were refused
    // for their tokens alone.
    for (const [door, body] of Object.entries(bodies)) {
      const res = await request(ctx.one.url, 'POST', `/api/v1/inbound/${door}`, {
        body,
        headers: { 'Gateway-Token': right },
      });
      recordShape(ctx, res);
      assert.is(res.status, 202, `${door} control: ${JSON.stringify(res.body)}`);
    }
    assert.is(await alarmsOf(ctx, ctx.a), alarms + 2, 'the controls raised their alarms');
    figure('doors: wrong gateway tokens tried (IN1 and IN2, both processes)', probes);
    figure('doors: wrong gateway tokens let through', failures.length);
    assert.is(failures.length, 0, failures.join('\n'));
  },
);

doors(
  `PIN guessing by one sender, one after another over two processes: ${LIMIT} wrong tries counted, ` +
    `then even the right PIN is ignored, every answer alike`,
  async (ctx) => {
    const from = await smsSender(ctx);
    const before = await inboundCounts(ctx);
    const alarms = await alarmsOf(ctx, ctx.a);
    for (let i = 0; i < GUESSES; i++) recordShape(ctx, await sms(ctx, i, from, `${wrongPin(i)} Brand`));
    for (let i = 0; i < 2; i++) recordShape(ctx, await sms(ctx, i, from, '4711 Brand'));
    const counted = delta(before, await inboundCounts(ctx));
    assert.equal(counted, { received: GUESSES + 2, raised: 0, wrong: LIMIT, throttled: GUESSES - LIMIT + 2 });
    assert.is(await alarmsOf(ctx, ctx.a), alarms, 'the right PIN after the limit raised nothing');
    figure(
      'doors: PIN guesses by one sender, one after another (then the right PIN twice)',
      `${GUESSES} + 2: ${counted.wrong} compared, ${counted.throttled} ignored, ${counted.raised} alarms`,
    );
    // The same for calls (IN2), on the world's call configuration.
    const caller = international(`0049171${String(ctx.b.org.orgId).padStart(7, '0')}`);
    const callsBefore = await inboundCounts(ctx);
    for (let i = 0; i < LIMIT + 3; i++) recordShape(ctx, await call(ctx, i, caller, String(200_000 + i)));
    recordShape(ctx, await call(ctx, 0, caller, '112233'));
    assert.equal(delta(callsBefore, await inboundCounts(ctx)), {
      received: LIMIT + 4,
      raised: 0,
      wrong: LIMIT,
      throttled: 4,
    });
  },
);

doors(
  `PIN guessing by one sender, ${BURST} messages at once on two processes: at most ${LIMIT} compared`,
  async (ctx) => {
    const from = await smsSender(ctx);
    const before = await inboundCounts(ctx);
    const alarms = await alarmsOf(ctx, ctx.a);
    const replies = await Promise.all(
      Array.from({ length: BURST }, (_, i) => sms(ctx, i, from, `${wrongPin(1000 + i)} Brand`)),
    );
    for (const res of replies) recordShape(ctx, res);
    recordShape(ctx, await sms(ctx, 0, from, '4711 Brand'));
    const counted = delta(before, await inboundCounts(ctx));
    figure(
      `doors: PIN guesses by one sender at once (${BURST}, then the right PIN)`,
      `${counted.wrong} compared, ${counted.throttled} ignored, ${counted.raised} alarms`,
    );
    assert.equal(counted, { received: BURST + 1, raised: 0, wrong: LIMIT, throttled: BURST - LIMIT + 1 });
    assert.is(await alarmsOf(ctx, ctx.a), alarms);
  },
);

doors(
  "the right PIN spends no try: a sender's alarms are all raised, however many, and wrong tries " +
    'between them are counted alone',
  async (ctx) => {
    const from = await smsSender(ctx);
    const before = await inboundCounts(ctx);
    const alarms = await alarmsOf(ctx, ctx.a);
    // More right PINs in a row than the limit, over both processes: each one raises its alarm.
    for (let i = 0; i < LIMIT + 2; i++) recordShape(ctx, await sms(ctx, i, from, `4711 DOORA Einsatz ${i}`));
    // Four wrong, a right one, one wrong: five wrong in all, the right one between them raised.
    for (let i = 0; i < LIMIT - 1; i++) recordShape(ctx, await sms(ctx, i, from, `${wrongPin(3000 + i)} Brand`));
    recordShape(ctx, await sms(ctx, 1, from, '4711 DOORA Nachalarm'));
    recordShape(ctx, await sms(ctx, 0, from, `${wrongPin(3100)} Brand`));
    // The limit is spent now: the right PIN is ignored.
    recordShape(ctx, await sms(ctx, 1, from, '4711 DOORA zu spät'));
    const counted = delta(before, await inboundCounts(ctx));
    figure(
      'doors: right PINs from one sender (more than the limit), with wrong ones between',
      `${counted.raised} raised, ${counted.wrong} wrong, ${counted.throttled} ignored`,
    );
    assert.equal(counted, { received: LIMIT + 2 + LIMIT + 2, raised: LIMIT + 3, wrong: LIMIT, throttled: 1 });
    assert.is(await alarmsOf(ctx, ctx.a), alarms + LIMIT + 3);
  },
);

doors(
  `PIN guessing across ${SPOOFED_SENDERS} senders: each spends its own limit, none raises the ` +
    `others' alarm, the real sender still can`,
  async (ctx) => {
    const from = await smsSender(ctx);
    const before = await inboundCounts(ctx);
    const alarms = await alarmsOf(ctx, ctx.a);
    let guesses = 0;
    for (let s = 0; s < SPOOFED_SENDERS; s++) {
      const spoofed = `+49175${String(process.pid % 1000).padStart(3, '0')}${String(s).padStart(4, '0')}`;
      // The real sender's right PIN from the wrong number first, while this number still has tries: it
      // is compared, and matches nothing. Then wrong PINs until the limit holds this number too.
      recordShape(ctx, await sms(ctx, s, spoofed, '4711 Brand'));
      guesses++;
      for (let i = 0; i < LIMIT; i++, guesses++)
        recordShape(ctx, await sms(ctx, i, spoofed, `${wrongPin(s * 10 + i)} Brand`));
    }
    assert.is(await alarmsOf(ctx, ctx.a), alarms, 'no spoofed sender raised an alarm');
    const res = await sms(ctx, 1, from, '4711 DOORA Brand');
    recordShape(ctx, res);
    assert.is(await alarmsOf(ctx, ctx.a), alarms + 1, "the real sender's alarm is raised");
    const counted = delta(before, await inboundCounts(ctx));
    // Numbers without a configuration are looked up and match nothing: a wrong try each until the limit.
    assert.equal(counted, {
      received: guesses + 1,
      raised: 1,
      wrong: SPOOFED_SENDERS * LIMIT,
      throttled: SPOOFED_SENDERS,
    });
    figure(
      'doors: PIN guesses across senders',
      `${SPOOFED_SENDERS} senders, ${guesses} guesses: ${counted.throttled} ignored, 0 alarms; the ` +
        `real sender's alarm raised`,
    );
  },
);

doors('every answer of the inbound doors with the right token was the same: status, body and headers', async (ctx) => {
  const shapes = [...ctx.shapes.entries()];
  figure(
    'doors: distinct answers to the gateway over all PIN tries (matched, wrong, ignored)',
    `${shapes.length} (of ${shapes.reduce((n, [, c]) => n + c, 0)} answers)`,
  );
  assert.is(shapes.length, 1, JSON.stringify(shapes));
  assert.match(shapes[0][0], /^202 \{"accepted":true\} /);
});

doors(
  `Idempotency-Key replayed across organizations (${KEY_ROUNDS} keys, both organizations at once ` +
    `on two processes): never another organization's alarm`,
  async (ctx) => {
    const raise = async (w: World, svc: { url: string }, key: string): Promise<Reply> => {
      for (let attempt = 0; ; attempt++) {
        const res = await request(svc.url, 'POST', '/api/v1/alarms', {
          auth: { apiKey: w.org.apiKey },
          headers: { 'Idempotency-Key': key },
          body: { organizationID: w.org.orgId, event: `${w.marker} Probealarm`, channels: [] },
        });
        // A repeat before the first request stored its alarm: try again as asked (for up to a minute).
        if (res.status !== 409 || attempt >= 60) return res;
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      }
    };
    const failures: string[] = [];
    let requests = 0;
    for (let round = 0; round < KEY_ROUNDS; round++) {
      const key = `reliability-${process.pid}-${round}`;
      const [a1, b1, a2, b2] = await Promise.all([
        raise(ctx.a, ctx.one, key),
        raise(ctx.b, ctx.two, key),
        raise(ctx.a, ctx.two, key),
        raise(ctx.b, ctx.one, key),
      ]);
      const again = await raise(ctx.b, ctx.one, key);
      requests += 5;
      const statuses = [a1, a2]
        .map((r) => r.status)
        .sort()
        .join(',');
      if (
        statuses !== '200,201' ||
        [b1, b2]
          .map((r) => r.status)
          .sort()
          .join(',') !== '200,201'
      )
        failures.push(`round ${round}: statuses A ${statuses}, B ${b1.status},${b2.status}`);
      if (a1.body.id !== a2.body.id || b1.body.id !== b2.body.id || again.body.id !== b1.body.id)
        failures.push(`round ${round}: one key gave several alarms in one organization`);
      if (a1.body.id === b1.body.id) failures.push(`round ${round}: A and B got the same alarm`);
      for (const [w, res] of [
        [ctx.a, a1],
        [ctx.a, a2],
        [ctx.b, b1],
        [ctx.b, b2],
        [ctx.b, again],
      ] as const) {
        if (
          res.body.organizationId !== w.org.orgId ||
          JSON.stringify(res.body).includes(w === ctx.a ? 'DOORB' : 'DOORA')
        )
          failures.push(
            `round ${round}: ${w.marker} answered another organization's alarm ${JSON.stringify(res.body).slice(0, 200)}`,
          );
      }
      // B's key with A's organization in the body: refused before the key is looked at.
      const forA = await request(ctx.two.url, 'POST', '/api/v1/alarms', {
        auth: { apiKey: ctx.b.org.apiKey },
        headers: { 'Idempotency-Key': key },
        body: { organizationID: ctx.a.org.orgId, event: 'x' },
      });
      requests++;
      if (forA.status !== 403 || JSON.stringify(forA.body).includes('DOORA'))
        failures.push(
          `round ${round}: B's key for A answered ${forA.status} ${JSON.stringify(forA.body).slice(0, 200)}`,
        );
    }
    figure('doors: Idempotency-Key requests across organizations', requests);
    figure("doors: answers with another organization's alarm", failures.length);
    assert.is(failures.length, 0, failures.join('\n'));
  },
);

doors(
  "A11 with a used, foreign or made-up token and A10 for another organization's alarm or device: " +
    'refused or kept apart, nothing counted on the alarm',
  async (ctx) => {
    const a = ctx.a;
    const owner = client(ctx.one.url, { pat: a.org.member.token });
    const pushToken = 'ef'.repeat(32);
    const device = await owner.post('/api/v1/app/device', {
      name: 'DOORA iPhone',
      os: 'iOS 18',
      ownerID: a.org.member.userId,
      pushToken,
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(device.status, 200, JSON.stringify(device.body));
    const alarm = (
      await request(ctx.one.url, 'POST', '/api/v1/alarms', {
        auth: { apiKey: a.org.apiKey },
        body: { organizationID: a.org.orgId, event: 'DOORA Feuer', channels: ['app'] },
      })
    ).body;
    const [sent] = await eventually(
      async () => ctx.push.apns.requests.filter((r) => r.body.alarmId === alarm.id),
      (list) => list.length === 1,
      'the push at APNs',
    );
    const token = sent.body.confirmToken as string;
    const detail = async () => {
      const d = (await client(ctx.one.url, { apiKey: a.org.apiKey }).get(`/api/v1/alarms/${alarm.id}`)).body;
      return JSON.stringify({ responses: d.responses, answers: d.answers });
    };
    assert.is(
      (
        await request(ctx.two.url, 'POST', `/api/v1/app/push/answered/${token}/yes`, {
          auth: { pat: a.org.member.token },
          body: { distance: 3, duration: 5 },
        })
      ).status,
      200,
    );
    const answered = await detail();
    const failures: string[] = [];
    const probes: Array<[string, () => Promise<Reply>, number[]]> = [
      [
        'A11 again with the used token (no)',
        () =>
          request(ctx.one.url, 'POST', `/api/v1/app/push/answered/${token}/no`, {
            auth: { pat: a.org.member.token },
            body: {},
          }),
        [400],
      ],
      [
        'A11 again with the used token on the other process (yes)',
        () =>
          request(ctx.two.url, 'POST', `/api/v1/app/push/answered/${token}/yes`, {
            auth: { pat: a.org.member.token },
            body: {},
          }),
        [400],
      ],
      [
        "A11 with A's token by B's member",
        () =>
          request(ctx.one.url, 'POST', `/api/v1/app/push/answered/${token}/no`, {
            auth: { pat: ctx.b.org.member.token },
            body: {},
          }),
        [400, 403],
      ],
      [
        "A11 with A's token by B's API key",
        () =>
          request(ctx.one.url, 'POST', `/api/v1/app/push/answered/${token}/no`, {
            auth: { apiKey: ctx.b.org.apiKey },
            body: {},
          }),
        [401, 403],
      ],
      [
        'A11 with a made-up token',
        () =>
          request(ctx.one.url, 'POST', `/api/v1/app/push/answered/${'A'.repeat(43)}/no`, {
            auth: { pat: a.org.member.token },
            body: {},
          }),
        [400],
      ],
      [
        "A11-delivered with A's token by B's member",
        () =>
          request(ctx.two.url, 'POST', `/api/v1/app/push/delivered/${token}`, {
            auth: { pat: ctx.b.org.member.token },
          }),
        [400, 403],
      ],
      [
        "A10 by B's admin naming A's device",
        () =>
          request(ctx.one.url, 'POST', `/api/v1/app/feedback?organization_id=${ctx.b.org.orgId}`, {
            auth: { pat: ctx.b.org.admin.token },
            body: { alarmID: alarm.id, deviceID: device.body.id, response: false, answerData: {} },
          }),
        [403, 404],
      ],
      [
        "A10 by B's key naming A's device",
        () =>
          request(ctx.two.url, 'POST', '/api/v1/app/feedback', {
            auth: { apiKey: ctx.b.org.apiKey },
            body: { alarmID: alarm.id, deviceID: device.body.id, response: false, answerData: {} },
          }),
        [403, 404],
      ],
      [
        "A10 by B's key for A's alarm ID with B's device (kept as B's feedback)",
        () =>
          request(ctx.two.url, 'POST', '/api/v1/app/feedback', {
            auth: { apiKey: ctx.b.org.apiKey },
            body: { alarmID: alarm.id, deviceID: ctx.b.device, response: false, answerData: {} },
          }),
        [200],
      ],
    ];
    for (const [what, send, expected] of probes) {
      const res = await send();
      if (!expected.includes(res.status))
        failures.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      if (JSON.stringify(res.body ?? '').includes('DOORA')) failures.push(`${what}: echoed A's data`);
      const now = await detail();
      if (now !== answered) failures.push(`${what}: A's alarm changed to ${now}`);
    }
    figure(
      "doors: A10/A11 answers with used, foreign or made-up tokens and for another organization's alarm",
      probes.length,
    );
    figure('doors: of those, counted on the alarm or answered wrongly', failures.length);
    assert.is(failures.length, 0, failures.join('\n'));
  },
);

doors.run();
