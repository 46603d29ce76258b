// Sessions and codes (RELIABILITY.md "Sessions and codes"): the doors of a browser's cookie and of the
// codes that sign a person in, attacked as a foreign page, a hostile member and a stranger on the
// internet would: cross-site requests with a signed-in admin's cookie, a cookie planted before joining,
// codes guessed at once from many addresses, used, expired and unknown codes told apart, and a removed
// member's session on the hub. Two service processes (one in this test's process, one spawned) on one
// database and one Redis (the wrong-code limit is shared through it), behind a proxy they trust, so that
// every request can come from an address of its own (X-Forwarded-For).
import { randomBytes } from 'node:crypto';
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { io, type Socket } from 'socket.io-client';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { client, request, type Reply } from '../helpers/http.js';
import { spawnService, type ServiceProcess } from '../helpers/processes.js';
import { WAIT_MS } from '../helpers/screen.js';
import { createOrg, otherDatabase, startTestService, type TestService } from '../helpers/service.js';
import {
  buildWorld,
  documentedOperations,
  dumpDatabase,
  dumpDifference,
  exampleBody,
  settledDump,
  signInSession,
  target,
  type World,
} from '../helpers/world.js';
import { figure } from './figures.js';

const PUBLIC = 'http://alarm.test';
/** Wrong codes per code prefix a minute (docs/people.md "Invitations and sign-in links"). */
const WRONG_CODES = 10;
/** Wrong codes with one real code's prefix, sent at once. */
const BURST = 60;
/** Codes of random prefixes sent at once, each from its own address. */
const SCATTERED = 40;
/** Tries of each kind of refused code (used, expired, unknown): under the prefix limit. */
const SAMPLES = 9;

// Doors that take a token of their own and no organization's credential nor cookie: a cookie sent there
// is no credential (the push delivery's token, the gateways', an answer link's).
const TOKEN_DOORS = new Set(['A11', 'A11-delivered', 'IN1', 'IN2', 'IN3', 'AN1', 'AN2']);

interface Ctx {
  one: TestService;
  two: ServiceProcess;
  a: World;
  /** A's admin's browser: the cookie of his session. */
  admin: string;
}

const sessions = suite<Ctx>('reliability: sessions and codes', {} as Ctx);

sessions.before(async (ctx) => {
  const db = otherDatabase(`reliability-sessions-${process.pid}`);
  const env = {
    SECRETS_KEY: TEST_KEY,
    PUBLIC_URL: PUBLIC,
    TRUST_PROXY: 'true',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `reliability-sessions-${process.pid}`,
    // The limits per address are on (P2's 30 a minute), high for the rest: an address of its own is
    // then what lets a guesser past them, and the limit per code prefix is what is tested.
    RATE_LIMIT_PER_SECOND: '1000',
    // Caches far longer than the test: only being told at once lets a removal pass on the other process.
    CREDENTIAL_CACHE_MS: '60000',
    TOKEN_RECHECK_MS: '60000',
  };
  ctx.one = await startTestService(env, { dbUri: db, monitorCommands: true });
  ctx.two = await spawnService({ ...env, MONGODB_URI: db });
  ctx.a = await buildWorld(ctx.one, 'SESSA');
  ctx.admin = await signInSession(ctx.one, ctx.a.org, ctx.a.org.admin.userId, PUBLIC, from());
});
sessions.after(async (ctx) => {
  // The spawned process first: it could otherwise write into the database after it was dropped.
  await ctx.two?.stop();
  await ctx.one?.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.one?.close();
});

let addresses = 0;
/** An address of its own for the next request, as the trusted proxy reports it. */
function from(): Record<string, string> {
  const n = ++addresses;
  return { 'X-Forwarded-For': `198.18.${(n >> 8) & 255}.${n & 255}` };
}
const processOf = (ctx: Ctx, i: number) => (i % 2 ? ctx.two.url : ctx.one.url);
const randomCode = (prefix = '') => prefix + randomBytes(24).toString('base64url').slice(prefix.length);

function cookieOf(reply: Reply): string | null {
  const match = /alarmhub_session=([^;]+)/.exec(reply.headers.get('set-cookie') ?? '');
  return match ? `alarmhub_session=${match[1]}` : null;
}

async function invite(ctx: Ctx, name: string): Promise<string> {
  const made = await client(ctx.one.url, { apiKey: ctx.a.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.a.org.orgId,
    name: `SESSA ${name}`,
    role: 'member',
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  return made.body.code;
}

const join = (url: string, code: string, headers: Record<string, string> = {}) =>
  request(url, 'POST', '/api/v1/join', { body: { code }, headers: { Origin: PUBLIC, ...from(), ...headers } });

/** P3 with a cookie: the person it signs in, or the status refusing it. */
async function whoIs(url: string, cookie: string): Promise<number | string> {
  const me = await request(url, 'GET', '/api/v1/session', { headers: { Cookie: cookie, ...from() } });
  return me.status === 200 ? (me.body.user.id as number) : `${me.status} ${me.body?.error}`;
}

const sessionCount = (ctx: Ctx) => ctx.one.db.conn.collection('tokens').countDocuments({ kind: 'session' });

sessions(
  "CSRF: every state-changing operation with A's admin's cookie from a foreign page is 403 csrf and changes nothing",
  async (ctx) => {
    const ops = (await documentedOperations(ctx.one)).filter(
      (op) => op.method !== 'GET' && !op.public && !TOKEN_DOORS.has(op.label),
    );
    // What a foreign page's request can carry; a browser sets Origin and Sec-Fetch-Site itself.
    const foreign: Array<[string, Record<string, string>]> = [
      ['a foreign Origin', { Origin: 'https://evil.example' }],
      ['no Origin and no Sec-Fetch-Site', {}],
      ['Origin null', { Origin: 'null' }],
      ['Sec-Fetch-Site cross-site', { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }],
      ['a look-alike Origin', { Origin: `${PUBLIC}.evil.example` }],
      ['a sibling host', { Origin: 'http://app.alarm.test', 'Sec-Fetch-Site': 'same-site' }],
    ];
    const failures: string[] = [];
    let probes = 0;
    const before = await settledDump(ctx.one);
    for (const op of ops) {
      for (const [i, [what, headers]] of foreign.entries()) {
        const path = target(op, ctx.a);
        const res = await request(processOf(ctx, i), op.method, path, {
          body: exampleBody(op, ctx.a),
          headers: { Cookie: ctx.admin, ...headers },
        });
        probes++;
        if (res.status !== 403 || res.body?.error !== 'csrf')
          failures.push(`${op.label} ${op.method} ${path} with ${what}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      const changed = dumpDifference(before, await dumpDatabase(ctx.one));
      if (changed.length) failures.push(`${op.label} changed ${changed.join('; ').slice(0, 600)}`);
    }
    figure(
      'sessions: state-changing operations × foreign requests with a signed-in cookie',
      `${ops.length} × 6 = ${probes}`,
    );
    figure('sessions: of those not refused with 403 csrf, or changing something', failures.length);
    assert.ok(ops.length > 50, `${ops.length} operations`);
    assert.is(failures.length, 0, failures.join('\n'));

    // The control: the same cookie from the service's own page is let through.
    const own = await request(ctx.two.url, 'POST', '/api/v1/monitor', {
      body: { name: 'SESSA Kontrolle', organizationID: ctx.a.org.orgId },
      headers: { Cookie: ctx.admin, Origin: PUBLIC },
    });
    assert.is(own.status, 201, JSON.stringify(own.body));
  },
);

sessions(
  "cross-site WebSocket hijacking: the hub opens no socket with A's admin's cookie for a foreign page",
  async (ctx) => {
    const foreign: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      {},
      { Origin: 'null' },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: `${PUBLIC}.evil.example` },
      { Origin: 'http://app.alarm.test', 'Sec-Fetch-Site': 'same-site' },
    ];
    const handshake = (url: string, headers: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const socket = io(url, {
          path: '/socket.io',
          auth: { scheme: 'session' },
          transports: ['websocket'],
          reconnection: false,
          // Each from an address of its own: refused handshakes count against their address.
          extraHeaders: { Cookie: ctx.admin, ...from(), ...headers },
        });
        socket.once('connect', () => (socket.close(), resolve('connected')));
        socket.once('connect_error', (err) => (socket.close(), resolve(err.message)));
      });
    const answers = await Promise.all(foreign.map((headers, i) => handshake(processOf(ctx, i), headers)));
    assert.equal(
      answers,
      foreign.map(() => 'unauthorized'),
    );
    // The control: from the service's own page the same cookie opens a socket.
    assert.is(await handshake(ctx.two.url, { Origin: PUBLIC }), 'connected');
    figure(
      'sessions: hub handshakes with a signed-in cookie from a foreign page, refused',
      `${answers.length} of ${foreign.length}`,
    );
  },
);

sessions('login CSRF: a foreign page can sign no visitor in, by a code (P2) or a passkey (PK6)', async (ctx) => {
  const code = await invite(ctx, 'Lockvogel');
  const sessionsBefore = await sessionCount(ctx);
  const foreign: Array<Record<string, string>> = [
    { Origin: 'https://evil.example' },
    { Origin: 'null' },
    { 'Sec-Fetch-Site': 'cross-site' },
    { Origin: 'http://app.alarm.test', 'Sec-Fetch-Site': 'same-site' },
  ];
  const options = await request(ctx.one.url, 'POST', '/api/v1/passkeys/signin/options', { headers: from() });
  assert.is(options.status, 200);
  const forged = {
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  };
  let refused = 0;
  for (const [i, headers] of foreign.entries()) {
    // Without the page's own Origin: the join() helper's Origin is replaced by these headers.
    const p2 = await request(processOf(ctx, i), 'POST', '/api/v1/join', {
      body: { code },
      headers: { ...from(), ...headers },
    });
    assert.is(p2.status, 403, `P2 with ${JSON.stringify(headers)}: ${p2.status} ${JSON.stringify(p2.body)}`);
    assert.is(p2.body.error, 'csrf');
    assert.is(cookieOf(p2), null);
    const pk6 = await request(processOf(ctx, i), 'POST', '/api/v1/passkeys/signin', {
      body: { challengeId: options.body.challengeId, response: forged },
      headers: { ...from(), ...headers },
    });
    assert.is(pk6.status, 403, `PK6 with ${JSON.stringify(headers)}: ${pk6.status} ${JSON.stringify(pk6.body)}`);
    assert.is(pk6.body.error, 'csrf');
    refused += 2;
  }
  assert.is(await sessionCount(ctx), sessionsBefore, 'no session was made');
  // Neither the code nor the challenge was spent by the refused requests: the challenge now meets the
  // forged answer (401, not 404 invalid_code), and the code signs its person in from our page.
  const pk6 = await request(ctx.one.url, 'POST', '/api/v1/passkeys/signin', {
    body: { challengeId: options.body.challengeId, response: forged },
    headers: { Origin: PUBLIC, ...from() },
  });
  assert.is(pk6.status, 401, JSON.stringify(pk6.body));
  assert.is((await join(ctx.one.url, code)).status, 201);
  figure('sessions: sign-ins from a foreign page (P2 and PK6) refused with 403 csrf, sessions made', `${refused}, 0`);
});

sessions('session fixation: a cookie planted before joining is never the session after (P2, P5)', async (ctx) => {
  const planted = `alarmhub_session=${randomBytes(32).toString('base64url')}`;
  // The attacker is a member of A with a session of his own, which he plants in the victim's browser.
  const attackerCookie = await signInSession(ctx.one, ctx.a.org, ctx.a.org.member.userId, PUBLIC, from());
  const attacker = ctx.a.org.member.userId;
  let checks = 0;
  const joinedOver = async (url: string, code: string, cookie: string) => {
    const reply = await join(url, code, { Cookie: cookie });
    assert.is(reply.status, 201, JSON.stringify(reply.body));
    const fresh = cookieOf(reply);
    assert.ok(fresh, 'P2 sets a cookie');
    assert.is.not(fresh, cookie, 'the planted value is not kept');
    assert.is.not(fresh, planted);
    assert.is.not(fresh, attackerCookie);
    checks++;
    return { user: reply.body.user.id as number, cookie: fresh! };
  };
  // P2 over a random planted value, and over the attacker's own session, on either process.
  const victim = await joinedOver(ctx.two.url, await invite(ctx, 'Opfer'), planted);
  const second = await joinedOver(ctx.one.url, await invite(ctx, 'Zweites Opfer'), attackerCookie);
  for (const url of [ctx.one.url, ctx.two.url]) {
    assert.is(await whoIs(url, planted), '401 unauthorized', 'the random value signs in no one');
    assert.is(await whoIs(url, attackerCookie), attacker, "the attacker's session is still his own");
    assert.is(await whoIs(url, victim.cookie), victim.user);
    assert.is(await whoIs(url, second.cookie), second.user);
    checks += 4;
  }
  assert.is.not(victim.user, attacker);
  assert.is.not(second.user, attacker);
  // P5: the victim's one-time link opened on another device where the attacker planted his cookie.
  const link = await request(ctx.one.url, 'POST', '/api/v1/session/link', {
    headers: { Cookie: victim.cookie, Origin: PUBLIC, ...from() },
  });
  assert.is(link.status, 201, JSON.stringify(link.body));
  const device = await joinedOver(ctx.two.url, link.body.code, attackerCookie);
  assert.is(device.user, victim.user);
  const other = await request(ctx.one.url, 'POST', '/api/v1/session/link', {
    headers: { Cookie: victim.cookie, Origin: PUBLIC, ...from() },
  });
  const third = await joinedOver(ctx.one.url, other.body.code, planted);
  assert.is(third.user, victim.user);
  for (const url of [ctx.one.url, ctx.two.url]) {
    assert.is(await whoIs(url, attackerCookie), attacker);
    assert.is(await whoIs(url, device.cookie), victim.user);
    assert.is(await whoIs(url, planted), '401 unauthorized');
    checks += 3;
  }
  figure('sessions: session fixation, checks that the planted cookie stayed what it was', checks);
});

sessions(
  "codes guessed at once from many addresses: no more than the prefix's limit compared, none signs in",
  async (ctx) => {
    const real = await invite(ctx, 'Echt');
    const prefix = real.slice(0, 4);
    // Wrong codes beginning as the real one does, each from its own address, all at once on both processes.
    const burst = await Promise.all(
      Array.from({ length: BURST }, (_, i) => join(processOf(ctx, i), randomCode(prefix))),
    );
    const count = (replies: Reply[]) => {
      const by: Record<string, number> = {};
      for (const r of replies) by[`${r.status} ${r.body?.error}`] = (by[`${r.status} ${r.body?.error}`] ?? 0) + 1;
      return by;
    };
    const statuses = count(burst);
    const compared = statuses['404 invalid_code'] ?? 0;
    const limited = statuses['429 rate_limited'] ?? 0;
    figure(
      `sessions: ${BURST} wrong codes with a real code's prefix at once, from ${BURST} addresses`,
      `${compared} compared, ${limited} limited (429)`,
    );
    assert.is(compared + limited, BURST, JSON.stringify(statuses));
    assert.ok(compared <= WRONG_CODES, `${compared} compared of ${BURST}`);
    // The real code meanwhile: its prefix is limited, so it waits at most the limit's minute; it is not spent.
    const meanwhile = await join(ctx.one.url, real);
    assert.is(meanwhile.status, 429, JSON.stringify(meanwhile.body));
    const retry = Number(meanwhile.headers.get('retry-after'));
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    const stored = await ctx.one.db.conn.collection('invitations').findOne({ name: 'SESSA Echt' });
    assert.is(stored?.usedAt, null);
    figure(
      'sessions: the real code right after the burst at its prefix (it is not spent)',
      `429, Retry-After ${retry} s`,
    );

    // Random prefixes from many addresses: a guesser's usual case.
    const scattered = await Promise.all(
      Array.from({ length: SCATTERED }, (_, i) => join(processOf(ctx, i), randomCode())),
    );
    const spread = count(scattered);
    figure(
      `sessions: ${SCATTERED} codes of random prefixes at once, from ${SCATTERED} addresses`,
      Object.entries(spread)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', '),
    );
    assert.ok(
      scattered.every((r) => r.status === 404 || r.status === 429),
      JSON.stringify(spread),
    );
    // One address alone meets P2's limit of 30 a minute, whatever the prefixes.
    const address = from();
    const alone = await Promise.all(
      Array.from({ length: 35 }, (_, i) => join(processOf(ctx, i), randomCode(), address)),
    );
    const fromOne = count(alone);
    figure(
      'sessions: 35 codes of random prefixes from one address',
      Object.entries(fromOne)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', '),
    );
    assert.is(fromOne['404 invalid_code'], 30, JSON.stringify(fromOne));
  },
);

sessions('a used, an expired and an unknown code: one answer, one path through the database', async (ctx) => {
  const used = await invite(ctx, 'Benutzt');
  assert.is((await join(ctx.one.url, used)).status, 201);
  const expired = await invite(ctx, 'Abgelaufen');
  await ctx.one.db.conn
    .collection('invitations')
    .updateOne({ name: 'SESSA Abgelaufen' }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  // The identity collections' commands each request causes, in order (others are the service's own
  // background work).
  const driver = ctx.one.db.conn.getClient();
  const identity = new Set(['invitations', 'invitation_uses', 'users', 'tokens', 'organizations']);
  let seen: string[] = [];
  const record = (event: { commandName: string; command: Record<string, unknown> }) => {
    const collection = event.command[event.commandName];
    if (typeof collection === 'string' && identity.has(collection)) seen.push(`${event.commandName} ${collection}`);
  };
  const kinds: Record<string, () => string> = { used: () => used, expired: () => expired, unknown: () => randomCode() };
  const shapes = new Map<string, Set<string>>();
  const paths = new Map<string, Set<string>>();
  const times = new Map<string, number[]>();
  driver.on('commandStarted', record);
  try {
    for (let i = 0; i < SAMPLES; i++) {
      for (const [kind, code] of Object.entries(kinds)) {
        seen = [];
        const started = performance.now();
        const res = await join(ctx.one.url, code());
        const ms = performance.now() - started;
        const names = [...res.headers.keys()].filter((h) => !['date', 'x-request-id'].includes(h)).sort();
        // The request's own ID aside, which every answer carries.
        const { requestId: _id, ...body } = res.body ?? {};
        (shapes.get(kind) ?? shapes.set(kind, new Set()).get(kind)!).add(
          `${res.status} ${JSON.stringify(body)} ${names.join(',')}`,
        );
        (paths.get(kind) ?? paths.set(kind, new Set()).get(kind)!).add(seen.join(', '));
        (times.get(kind) ?? times.set(kind, []).get(kind)!).push(ms);
      }
    }
  } finally {
    driver.off('commandStarted', record);
  }
  const all = new Set([...shapes.values()].flatMap((s) => [...s]));
  assert.is(all.size, 1, [...all].join('\n'));
  assert.match([...all][0], /^404 \{"error":"invalid_code"/);
  const routes = new Set([...paths.values()].flatMap((s) => [...s]));
  assert.is(routes.size, 1, [...paths.entries()].map(([k, v]) => `${k}: ${[...v].join(' | ')}`).join('\n'));
  figure('sessions: used, expired and unknown code — distinct answers (status, body, header names)', all.size);
  figure('sessions: used, expired and unknown code — the database commands of each', [...routes][0]);
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  figure(
    `sessions: used / expired / unknown code, median ms of ${SAMPLES} each`,
    ['used', 'expired', 'unknown'].map((k) => median(times.get(k)!).toFixed(1)).join(' / '),
  );
});

sessions(
  "a removed member's session: his sockets on both processes close, his cookie opens nothing of A",
  async (ctx) => {
    const org = await createOrg(ctx.one, 'SESSA Wehr zwei');
    const goes = await signInSession(ctx.one, org, org.member.userId, PUBLIC, from());
    const monitor = (
      await client(ctx.one.url, { apiKey: org.apiKey }).post('/api/v1/monitor', {
        name: 'SESSA Wache zwei',
        organizationID: org.orgId,
      })
    ).body.id as number;
    const open = (url: string) => {
      const socket = io(url, {
        path: '/socket.io',
        auth: { scheme: 'session' },
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { Cookie: goes, Origin: PUBLIC },
      });
      return new Promise<Socket>((resolve, reject) => {
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    };
    const sockets = [await open(ctx.one.url), await open(ctx.two.url)];
    const closedAt: Array<number | null> = [null, null];
    sockets.forEach((s, i) => s.on('disconnect', () => (closedAt[i] = performance.now())));
    try {
      for (const s of sockets) {
        const ack = await s.timeout(WAIT_MS).emitWithAck('monitor:subscribe', { monitorId: monitor });
        assert.not.ok(ack?.error, JSON.stringify(ack));
      }
      const sent = performance.now();
      const removed = await client(ctx.two.url, { pat: org.admin.token }).delete(
        `/api/v1/organizations/${org.orgId}/members/${org.member.userId}`,
      );
      const answered = performance.now();
      assert.equal(removed.body, { status: 'deleted' });
      // Right after the answer, on both processes: the cookie is still a person, but of no organization.
      for (const url of [ctx.one.url, ctx.two.url]) {
        const members = await request(url, 'GET', `/api/v1/organizations/${org.orgId}/members`, {
          headers: { Cookie: goes, ...from() },
        });
        assert.is(members.status, 403, `${url}: ${members.status}`);
        const monitors = await request(url, 'GET', `/api/v1/monitor/${monitor}`, {
          headers: { Cookie: goes, ...from() },
        });
        assert.ok([403, 404].includes(monitors.status), `${url}: ${monitors.status}`);
      }
      const deadline = Date.now() + WAIT_MS;
      while (closedAt.some((t) => t === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.ok(
        closedAt.every((t) => t !== null),
        'both sockets closed',
      );
      const last = Math.max(...(closedAt as number[]));
      figure(
        "sessions: a removed member's session sockets (one per process) closed, ms after P8 was sent / answered",
        `${(last - sent).toFixed(0)} / ${(last - answered).toFixed(0)}`,
      );
      // He may open a socket again (he is still a person) but follows nothing of A.
      const again = await open(ctx.two.url);
      const ack = await again.timeout(WAIT_MS).emitWithAck('monitor:subscribe', { monitorId: monitor });
      again.close();
      assert.ok(['forbidden', 'not_found'].includes(ack?.error?.error), JSON.stringify(ack));
    } finally {
      for (const s of sockets) s.close();
    }
  },
);

sessions.run();
