// Isolation between organizations (RELIABILITY.md "Isolation"): every operation of /openapi.json that
// takes an organization's credential, sent as a valid request at organization A's resources by seven
// strangers — B's API key, B's admin, B's member, B's admin's and B's member's browser sessions, a user
// of no organization, a screen of A's other monitor — is refused (401, 403 or 404), echoes nothing of A (every name A's world was given carries a
// marker), and changes nothing (a dump of the database before and after). The same for the hub's events.
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { request } from '../helpers/http.js';
import { otherDatabase, startTestService, type TestService } from '../helpers/service.js';
import {
  buildWorld,
  documentedOperations,
  dumpDifference,
  exampleBody,
  settledDump,
  signInSession,
  target,
  type DocOperation,
  type World,
} from '../helpers/world.js';
import { figure } from './figures.js';

interface Ctx {
  svc: TestService;
  a: World;
  b: World;
  loner: string;
  /** B's admin's and B's member's session cookies, signed in from the service's own page. */
  sessions: { admin: string; member: string };
  /** The service's public origin: a cookie request from it passes the cross-site check. */
  origin: string;
  ops: DocOperation[];
}

const iso = suite<Ctx>('reliability: isolation', {} as Ctx);

// Reached without an organization's credential (their own tokens: RELIABILITY.md "Abuse of the new doors").
// P2–P5 and PK1–PK6 are a person's own session and passkeys (docs/people.md): test/people.test.ts and
// test/console-browser.test.ts cover them. W1 is the installation's public key, the same for everyone
// (test/web-push.test.ts). AN1 and AN2 take an answer link's token, no credential (test/answer-replies.test.ts).
// IN3 is the radio decoder's door with the gateways' token, as IN1 and IN2 (test/inputs.test.ts).
const OWN_DOORS = new Set([
  'F1',
  'F2',
  'A11',
  'A11-delivered',
  'W1',
  'IN1',
  'IN2',
  'IN3',
  'AN1',
  'AN2',
  ...['P2', 'P3', 'P4', 'P5'],
  ...['PK1', 'PK2', 'PK3', 'PK4', 'PK5', 'PK6'],
]);

iso.before(async (ctx) => {
  ctx.svc = await startTestService(
    { SECRETS_KEY: TEST_KEY },
    { dbUri: otherDatabase(`reliability-isolation-${process.pid}`) },
  );
  ctx.a = await buildWorld(ctx.svc, 'ISOA');
  ctx.b = await buildWorld(ctx.svc, 'ISOB');
  const loner = await ctx.svc.identity.createUser('Nobody of any organization');
  ctx.loner = (await ctx.svc.identity.createPersonalToken(loner.id, 'laptop')).token;
  ctx.ops = (await documentedOperations(ctx.svc)).filter((op) => !OWN_DOORS.has(op.label));
  // PUBLIC_URL unset: the public origin is the address the service listens on (docs/people.md "PUBLIC_URL").
  ctx.origin = `http://localhost:${ctx.svc.port}`;
  ctx.sessions = {
    admin: await signInSession(ctx.svc, ctx.b.org, ctx.b.org.admin.userId, ctx.origin),
    member: await signInSession(ctx.svc, ctx.b.org, ctx.b.org.member.userId, ctx.origin),
  };
});

iso("the matrix holds the people's, Web Push and inputs' operations, and no credential of A's people", async (ctx) => {
  const labels = new Set(ctx.ops.map((op) => op.label));
  const expected = ['P1', 'P6', 'P7', 'P8', 'P9', 'W2', 'W3', 'W4', 'IP1', 'IP2', 'IP3', 'IP4', 'IP5', 'IP6'];
  assert.equal(
    expected.filter((label) => !labels.has(label)),
    [],
    `in the matrix: ${[...labels].sort().join(' ')}`,
  );
  // P2–P5 are a person's own session (his own view, sign-out, a link for his own device): what a
  // stranger reaches there is his own; test/reliability/sessions.test.ts attacks them.
  assert.ok(['P2', 'P3', 'P4', 'P5'].every((label) => !labels.has(label)));
  const sessions = await ctx.svc.db.conn
    .collection('tokens')
    .find({ kind: 'session' }, { projection: { userId: 1 } })
    .toArray();
  assert.equal(
    sessions.map((t) => t.userId).sort(),
    [ctx.b.org.admin.userId, ctx.b.org.member.userId].sort(),
    "the only sessions are B's strangers'",
  );
});
iso.after(async (ctx) => {
  await ctx.svc.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.svc.close();
});

iso(
  "every operation × seven strangers at A's resources: refused, nothing of A echoed, nothing changed",
  async (ctx) => {
    const strangers: Record<string, Record<string, string>> = {
      "B's API key": { 'API-TOKEN': ctx.b.org.apiKey },
      "B's admin": { 'Personal-Access-Token': ctx.b.org.admin.token },
      "B's member": { 'Personal-Access-Token': ctx.b.org.member.token },
      // With the service's own Origin: the cross-site check is not why they are refused.
      "B's admin's session": { Cookie: ctx.sessions.admin, Origin: ctx.origin },
      "B's member's session": { Cookie: ctx.sessions.member, Origin: ctx.origin },
      'a user of no organization': { 'Personal-Access-Token': ctx.loner },
      "a screen of A's other monitor": { 'Screen-Token': ctx.a.otherScreenToken },
    };
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let probes = 0;
    let controls = 0;
    for (const op of ctx.ops) {
      const body = exampleBody(op, ctx.a);
      // The control: a read as A's own admin succeeds, so the strangers' refusals are not of a wrong target.
      if (op.method === 'GET') {
        const own = await request(ctx.svc.url, 'GET', target(op, ctx.a), { auth: { pat: ctx.a.org.admin.token } });
        if (own.status !== 200)
          failures.push(`${op.label} control: A's admin got ${own.status} ${JSON.stringify(own.body).slice(0, 200)}`);
        else controls++;
      }
      // After the control: a read may make what it reads (J6 opens the organization's journal).
      // A session's last use is bookkeeping (its lastUsedAt, left out of the dumps), as a token's.
      const before = await settledDump(ctx.svc);
      for (const [who, headers] of Object.entries(strangers)) {
        const path = target(op, ctx.a);
        const res = await request(ctx.svc.url, op.method, path, {
          headers,
          body: op.method === 'GET' ? undefined : body,
        });
        probes++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        if (![401, 403, 404].includes(res.status))
          failures.push(`${op.label} ${op.method} ${path} as ${who}: ${res.status} ${text?.slice(0, 200)}`);
        // A session must be refused as B's person, not as a dead cookie or a foreign page.
        if ('Cookie' in headers && (res.status === 401 || res.body?.error === 'csrf'))
          failures.push(`${op.label} as ${who} was refused for its cookie: ${text?.slice(0, 200)}`);
        if (text?.includes('ISOA')) failures.push(`${op.label} as ${who} echoed A's data: ${text.slice(0, 200)}`);
      }
      const changed = dumpDifference(before, await settledDump(ctx.svc));
      if (changed.length) failures.push(`${op.label} by strangers changed ${changed.join('; ').slice(0, 600)}`);
    }
    figure(
      'isolation: operations × strangers probed',
      `${ctx.ops.length} × ${Object.keys(strangers).length} = ${probes}`,
    );
    figure("isolation: reads answered 200 to A's own admin (the control)", controls);
    figure(
      'isolation: statuses',
      Object.entries(statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', '),
    );
    figure('isolation: violations (not refused, echoed, or changed)', failures.length);
    assert.is(failures.length, 0, failures.join('\n'));
  },
);

iso("the hub: strangers cannot follow A's monitors nor ask for their water sources", async (ctx) => {
  const session = (cookie: string) => ({
    auth: { scheme: 'session' },
    headers: { Cookie: cookie, Origin: ctx.origin },
  });
  const strangers: Record<string, { auth: Record<string, string>; headers?: Record<string, string> }> = {
    "B's API key": { auth: { token: ctx.b.org.apiKey, scheme: 'api-token' } },
    "B's admin": { auth: { token: ctx.b.org.admin.token, scheme: 'personal-access-token' } },
    "B's member": { auth: { token: ctx.b.org.member.token, scheme: 'personal-access-token' } },
    "B's admin's session": session(ctx.sessions.admin),
    "B's member's session": session(ctx.sessions.member),
    'a user of no organization': { auth: { token: ctx.loner, scheme: 'personal-access-token' } },
    "a screen of A's other monitor": { auth: { token: ctx.a.otherScreenToken, scheme: 'screen-token' } },
  };
  const failures: string[] = [];
  let probes = 0;
  const before = await settledDump(ctx.svc);
  const sockets: Array<{ who: string; socket: ReturnType<typeof io>; events: string[] }> = [];
  try {
    for (const [who, { auth, headers }] of Object.entries(strangers)) {
      const socket = io(ctx.svc.url, {
        path: '/socket.io',
        auth,
        extraHeaders: headers,
        transports: ['websocket'],
        reconnection: false,
      });
      const events: string[] = [];
      socket.onAny((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));
      sockets.push({ who, socket, events });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      for (const [name, payload] of [
        ['monitor:subscribe', { monitorId: ctx.a.monitor }],
        ['monitor:subscribe', { monitorId: ctx.a.monitor, version: 0 }],
        ['water:nearby', { monitorId: ctx.a.monitor, latitude: 50.1336, longitude: 8.9183 }],
      ] as const) {
        const ack = await socket.timeout(30_000).emitWithAck(name, payload);
        probes++;
        if (!['not_found', 'forbidden'].includes(ack?.error?.error))
          failures.push(`${name} as ${who}: ${JSON.stringify(ack).slice(0, 200)}`);
        if (JSON.stringify(ack).includes('ISOA')) failures.push(`${name} as ${who} echoed A's data`);
      }
    }
    // The screen of A's other monitor is one of A's screens: that it is online is recorded on connect.
    const changed = dumpDifference(before, await settledDump(ctx.svc)).filter((c) => !/^screen(s|_claims): /.test(c));
    if (changed.length) failures.push(`strangers' hub requests changed ${changed.join('; ').slice(0, 600)}`);
    // A's next alarm data reaches none of them.
    await request(ctx.svc.url, 'PATCH', `/api/v1/monitor/${ctx.a.monitor}/data/alarming`, {
      auth: { apiKey: ctx.a.org.apiKey },
      body: { message: 'ISOA geheim' },
    });
    const own = io(ctx.svc.url, {
      path: '/socket.io',
      auth: { token: ctx.a.screenToken, scheme: 'screen-token' },
      transports: ['websocket'],
      reconnection: false,
    });
    // The own screen's snapshot holds the message: by then the patch has been broadcast everywhere.
    const ack = await own.timeout(30_000).emitWithAck('monitor:subscribe', { monitorId: ctx.a.monitor });
    own.close();
    assert.match(JSON.stringify(ack), 'ISOA geheim');
    for (const { who, events } of sockets) {
      const leaked = events.find((e) => e.includes('ISOA'));
      if (leaked) failures.push(`${who} received A's data: ${leaked.slice(0, 200)}`);
    }
  } finally {
    for (const { socket } of sockets) socket.close();
  }
  figure('isolation: hub requests by strangers', probes);
  assert.is(failures.length, 0, failures.join('\n'));
});

iso(
  "a member of A and B: B's key and admin cannot change, silence, delete or see what A entered for him, nor change what he entered himself",
  async (ctx) => {
    const { identity } = ctx.svc;
    const shared = await identity.createUser('ISOA Mitglied beider Wehren');
    await identity.addMember(ctx.a.org.orgId, shared.id, 'member');
    await identity.addMember(ctx.b.org.orgId, shared.id, 'member');
    const own = { pat: (await identity.createPersonalToken(shared.id, 'phone')).token };
    const aKey = { apiKey: ctx.a.org.apiKey };
    let n = 0;
    const make = async (auth: { pat: string } | { apiKey: string }, path: string, body: Record<string, unknown>) => {
      const res = await request(ctx.svc.url, 'POST', path, { auth, body: { ownerID: shared.id, ...body } });
      assert.is(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      return res.body.id as number;
    };
    const gsm = () => `0049176${String(7_000_000 + ++n)}`;
    const device = (name: string) => ({
      name: `ISOA ${name}`,
      os: 'Android 15',
      pushToken: `ISOA-${name.replace(/ /g, '-')}`,
      pushTokenDevelopment: false,
      active: true,
    });
    // [kind, id, whose]: his own (B reads, may not change) and A's (B neither reads nor changes).
    const resources: Array<[string, number, 'his' | "A's"]> = [
      ['mobile', await make(own, '/api/v1/sms/mobile', { gsm: gsm(), name: 'ISOA eigen' }), 'his'],
      ['mobile', await make(aKey, '/api/v1/sms/mobile', { gsm: gsm(), name: 'ISOA von A' }), "A's"],
      ['phone', await make(own, '/api/v1/call/phone', { gsm: gsm(), name: 'ISOA eigen' }), 'his'],
      ['phone', await make(aKey, '/api/v1/call/phone', { gsm: gsm(), name: 'ISOA von A' }), "A's"],
      ['device', await make(own, '/api/v1/app/device', device('eigen')), 'his'],
      ['device', await make(aKey, '/api/v1/app/device', device('von A')), "A's"],
    ];
    const writes = (kind: string, id: number): Array<[string, string, unknown]> => {
      const redirect = { ownerID: shared.id, gsm: gsm(), active: false, name: 'ISOB umgeleitet' };
      if (kind === 'mobile')
        return [
          ['PUT', '/api/v1/sms/mobile', { id, ...redirect }],
          ['DELETE', `/api/v1/sms/mobile/${id}`, undefined],
        ];
      if (kind === 'phone')
        return [
          ['PUT', `/api/v1/call/phone/${id}`, redirect],
          ['DELETE', `/api/v1/call/phone/${id}`, undefined],
        ];
      return [
        [
          'PUT',
          `/api/v1/app/device/${id}`,
          { ...device('umgeleitet'), ownerID: shared.id, pushToken: 'ISOB', active: false },
        ],
        ['DELETE', `/api/v1/app/device/${id}`, undefined],
        ['POST', `/api/v1/app/device/${id}/test-push`, undefined],
      ];
    };
    const strangers = {
      "B's API key": { apiKey: ctx.b.org.apiKey },
      "B's admin": { pat: ctx.b.org.admin.token },
    };
    const failures: string[] = [];
    let probes = 0;
    const before = await settledDump(ctx.svc);
    for (const [kind, id, whose] of resources) {
      for (const [who, auth] of Object.entries(strangers)) {
        const query = `organization_id=${ctx.b.org.orgId}`;
        // A test push to his own device is a read (it reaches his phone, as B's alarms do): not probed.
        const sent = writes(kind, id).filter(([, path]) => !(whose === 'his' && path.endsWith('test-push')));
        for (const [method, path, body] of sent) {
          const res = await request(ctx.svc.url, method, `${path}?${query}`, { auth, body });
          probes++;
          const expected = whose === 'his' ? 403 : 404;
          if (res.status !== expected)
            failures.push(`${method} ${path} (${whose} ${kind}) as ${who}: ${res.status} ${JSON.stringify(res.body)}`);
        }
        if (whose === "A's") {
          const path =
            kind === 'mobile'
              ? `/api/v1/sms/${id}`
              : kind === 'phone'
                ? `/api/v1/call/${id}`
                : `/api/v1/app/device/${id}`;
          const res = await request(ctx.svc.url, 'GET', `${path}?${query}`, { auth });
          probes++;
          if (res.status !== 404) failures.push(`GET ${path} (A's ${kind}) as ${who}: ${res.status}`);
        }
      }
    }
    for (const [who, auth] of Object.entries(strangers)) {
      for (const path of ['/api/v1/sms/mobile', '/api/v1/call/phone', '/api/v1/app/device']) {
        const res = await request(
          ctx.svc.url,
          'GET',
          `${path}?owner_id=${shared.id}&organization_id=${ctx.b.org.orgId}`,
          {
            auth,
          },
        );
        probes++;
        if (res.status !== 200 || JSON.stringify(res.body).includes('von A'))
          failures.push(`GET ${path} as ${who}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    const changed = dumpDifference(before, await settledDump(ctx.svc));
    if (changed.length) failures.push(`B's requests changed ${changed.join('; ').slice(0, 600)}`);
    figure("isolation: requests by B at a shared member's numbers and devices", probes);
    assert.is(failures.length, 0, failures.join('\n'));
  },
);

iso.run();
