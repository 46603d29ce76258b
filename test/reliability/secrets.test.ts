// Secrets in the database and the logs (RELIABILITY.md "Secrets and logs"): with the log at its most
// verbose, a world is built and every credential is then sent where it does not belong (the wrong
// header, a Bearer prefix, the query string, the body, a hub handshake of the wrong scheme, a wrong
// gateway token). Afterwards no log line holds any credential or integration secret (searched by a
// 24-character beginning, so an altered copy is found too), and no document of the database holds a
// token or an ELS cobra password or private key in the clear. The doors of people, phones and inputs
// add their own secrets (an IMAP password, the VAPID private key, a session, sign-in codes, an answer
// link's token): the same search covers them, and also /metrics, every answer and a backup's files;
// a backup restored into a new database keeps the VAPID key pair.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import { backup, restore } from '../../server/admin/backup.js';
import { Keyring, parseKey } from '../../server/areas/els-cobra/secrets.js';
import { startDovecot, type Mailbox } from '../helpers/dovecot.js';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { eventually } from '../helpers/fleet.js';
import { startGateway, type FakeGateway } from '../helpers/gateways.js';
import { request, type Reply } from '../helpers/http.js';
import { otherDatabase, startTestService, type TestService } from '../helpers/service.js';
import { buildWorld, documentedOperations, dumpDatabase, target, type World } from '../helpers/world.js';
import { figure } from './figures.js';

const GATEWAY_TOKEN = 'gw-reliability-secret-7f3a9c';
/** The token the service sends to the SMS and call gateways. */
const OUTBOUND_TOKEN = 'gw-out-reliability-secret-41c2e8';
/** The console's origin (the session cookie's requests that change something come from it). */
const PUBLIC = 'http://alarm.test';

interface Ctx {
  svc: TestService;
  world: World;
  lines: string[];
  secrets: Record<string, string>;
  sms: FakeGateway;
  mailbox: Mailbox;
}

const sec = suite<Ctx>('reliability: secrets', {} as Ctx);

sec.before(async (ctx) => {
  ctx.lines = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      ctx.lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const log = pino({ level: 'trace' }, sink);
  ctx.sms = await startGateway();
  ctx.mailbox = await startDovecot({ password: 'imap-reliability-secret-93be07d1' });
  ctx.svc = await startTestService(
    {
      SECRETS_KEY: TEST_KEY,
      INBOUND_GATEWAY_TOKEN: GATEWAY_TOKEN,
      LOG_LEVEL: 'trace',
      PUBLIC_URL: PUBLIC,
      SMS_GATEWAY_URL: ctx.sms.url,
      GATEWAY_TOKEN: OUTBOUND_TOKEN,
      INPUT_IMAP_PORTS: `143,993,${ctx.mailbox.port}`,
    },
    { dbUri: otherDatabase(`reliability-secrets-${process.pid}`), log },
  );
  ctx.world = await buildWorld(ctx.svc, 'SECRETS');
  const w = ctx.world;
  // The key's base64 body lines: a private key "in the clear" is any of them.
  const keyLine = w.certificate.privateKey.split('\n').filter((l) => l && !l.startsWith('-----'))[3];
  ctx.secrets = {
    'the API key': w.org.apiKey,
    "the admin's personal token": w.org.admin.token,
    "the member's personal token": w.org.member.token,
    'a screen token': w.screenToken,
    'another screen token': w.otherScreenToken,
    'the ELS cobra password': 'SECRETS-password',
    'the ELS cobra private key': keyLine,
    'the inbound gateway token': GATEWAY_TOKEN,
  };
});
sec.after(async (ctx) => {
  await ctx.svc.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.svc.close();
  await ctx.sms.close();
  await ctx.mailbox.close();
});

sec('no credential or integration secret in any log line or in the clear in the database', async (ctx) => {
  const w = ctx.world;
  const url = ctx.svc.url;
  const monitor = `/api/v1/monitor/${w.monitor}`;
  let misplaced = 0;
  const linesBefore = ctx.lines.length;
  for (const token of [w.org.apiKey, w.org.admin.token, w.screenToken]) {
    const tries: Array<Parameters<typeof request>> = [
      [url, 'GET', monitor, { headers: { 'API-TOKEN': `Bearer ${token}` } }],
      [url, 'GET', monitor, { headers: { 'Personal-Access-Token': `${token}x` } }],
      [url, 'GET', monitor, { headers: { 'Screen-Token': token.slice(0, -1) } }],
      [url, 'GET', monitor, { headers: { Authorization: `Bearer ${token}` } }],
      [url, 'GET', `${monitor}?token=${token}&api_key=${token}`, {}],
      [
        url,
        'POST',
        '/api/v1/monitor',
        { headers: { 'API-TOKEN': 'ahk_wrong' }, body: { name: token, organizationID: w.org.orgId } },
      ],
      [url, 'POST', '/api/v1/monitor', { headers: { 'API-TOKEN': w.org.apiKey }, body: `{"name": "${token}", ` }],
      [
        url,
        'POST',
        '/api/v1/inbound/sms',
        { headers: { 'Gateway-Token': `${GATEWAY_TOKEN}x` }, body: { from: '+491701234567', text: token } },
      ],
    ];
    for (const args of tries) {
      const res = await request(...args);
      misplaced++;
      assert.ok(res.status >= 400 && res.status < 500, `${args[1]} ${args[2]}: ${res.status}`);
    }
    for (const scheme of ['api-token', 'personal-access-token', 'screen-token', 'nonsense']) {
      const socket = io(url, {
        path: '/socket.io',
        auth: { token: `${token}x`, scheme },
        transports: ['websocket'],
        reconnection: false,
      });
      await new Promise<void>((resolve) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', () => resolve());
      });
      socket.close();
      misplaced++;
    }
  }
  // And a password and a key sent with mistakes: refused, and not logged either.
  const wrongCredentials = await request(url, 'PUT', `/api/v1/els-cobra/credentials/${w.org.orgId}?serviceName=cobra`, {
    auth: { apiKey: w.org.apiKey },
    body: {
      serviceName: 'other',
      username: 'u',
      password: ctx.secrets['the ELS cobra password'],
      url: 'ftp://x',
      organizationId: w.org.orgId,
    },
  });
  const wrongCertificate = await request(url, 'PUT', `/api/v1/els-cobra/certificate/${w.org.orgId}`, {
    auth: { apiKey: w.org.apiKey },
    body: { certificate: w.certificate.privateKey, privateKey: w.certificate.privateKey, organizationId: 'x' },
  });
  assert.equal([wrongCredentials.status, wrongCertificate.status], [400, 400]);
  misplaced += 2;

  // Every request wrote its line (the scan below reads something): at least the misplaced ones.
  const requestLines = ctx.lines.slice(linesBefore).filter((line) => line.includes('"reqId"')).length;
  assert.ok(requestLines >= misplaced - 12, `${requestLines} request lines in the log`);
  const inLog = Object.entries(ctx.secrets).flatMap(([what, secret]) =>
    ctx.lines
      .filter((line) => line.includes(secret.slice(0, 24)))
      .map((line) => `${what} in the log: ${line.slice(0, 300)}`),
  );
  const dump = await dumpDatabase(ctx.svc);
  const documents = [...dump.entries()].flatMap(([collection, docs]) => docs.map((d) => [collection, d] as const));
  const inDatabase = Object.entries(ctx.secrets).flatMap(([what, secret]) =>
    documents
      .filter(([, d]) => d.includes(secret.slice(0, 24)))
      .map(([collection, d]) => `${what} in ${collection}: ${d.slice(0, 300)}`),
  );
  figure('secrets: log lines scanned (trace level)', ctx.lines.length);
  figure('secrets: documents scanned', documents.length);
  figure('secrets: credentials sent where they do not belong', misplaced);
  figure('secrets: secrets found in logs / database', `${inLog.length} / ${inDatabase.length}`);
  assert.equal(inLog, []);
  assert.equal(inDatabase, []);
});

/** The session a reply sets (the cookie's value), or null. */
function sessionOf(reply: Reply): string | null {
  return /alarmhub_session=([^;]+)/.exec(reply.headers.get('set-cookie') ?? '')?.[1] ?? null;
}

/** An answer as a client sees it: status, headers and body, as one text to search. */
function answerText(res: Reply): string {
  const headers = [...res.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return `${res.status}\n${headers}\n${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`;
}

/** The VAPID private key as the service stores it, decrypted with the installation's secrets key. */
async function vapidPrivateKey(svc: TestService): Promise<string> {
  const stored = await svc.db.conn.db!.collection('app_vapid_keys').findOne({ _id: 'vapid' as never });
  assert.ok(stored, 'the key pair is stored');
  return new Keyring(parseKey(TEST_KEY)!).decrypt(stored.privateKey, 'app:vapid:privateKey');
}

sec(
  "the new doors' secrets (IMAP password, VAPID private key, sessions, codes, answer tokens) are in no log line, metric, answer or backup file",
  async (ctx) => {
    const w = ctx.world;
    const url = ctx.svc.url;
    const apiKey = { apiKey: w.org.apiKey };
    const wrongPassword = 'imap-wrong-reliability-secret-c71f0e';
    // What the service answered where a secret did not belong, and every read of the organization.
    const answers: string[] = [];
    let misplaced = 0;
    const probe = async (...args: Parameters<typeof request>) => {
      const res = await request(...args);
      // The answer alone: the request's own path may hold the secret it misplaces.
      answers.push(answerText(res));
      return res;
    };

    // An e-mail input first logs in with a wrong password (its lastError says so), then the right one.
    const settings = (password: string) => ({
      host: '127.0.0.1',
      port: ctx.mailbox.port,
      tls: false,
      user: ctx.mailbox.user,
      password,
      allowedSenders: ['@ils.example'],
    });
    const input = {
      organizationID: w.org.orgId,
      name: 'Leitstelle per E-Mail',
      kind: 'imap',
      profile: { fields: { event: '^Stichwort:\\s*(.+)$' } },
      channels: ['sms'],
      active: true,
    };
    const made = await request(url, 'POST', '/api/v1/inputs', {
      auth: apiKey,
      body: { ...input, settings: settings(wrongPassword) },
    });
    assert.is(made.status, 201, JSON.stringify(made.body));
    const inputPath = `/api/v1/inputs/${made.body.id}`;
    await eventually(
      () => probe(url, 'GET', inputPath, { auth: apiKey }),
      (res) => typeof res.body.lastError === 'string',
      'the wrong password refused',
    );
    const put = await request(url, 'PUT', inputPath, {
      auth: apiKey,
      body: { ...input, settings: settings(ctx.mailbox.password) },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    await eventually(
      () => probe(url, 'GET', inputPath, { auth: apiKey }),
      (res) => res.body.lastError === null,
      'the right password taken',
    );
    // Refused bodies that hold the password: the errors name the field, never its value.
    for (const body of [
      { ...input, settings: { ...settings(ctx.mailbox.password), port: 'imap' } },
      { ...input, settings: { ...settings(wrongPassword), extra: true } },
      { ...input, organizationID: 'x', settings: settings(ctx.mailbox.password) },
    ]) {
      const res = await probe(url, 'POST', '/api/v1/inputs', { auth: apiKey, body });
      assert.is(res.status, 400, JSON.stringify(res.body));
      misplaced++;
    }

    // A person joins by an invitation, asks for a sign-in link and uses it on a second device.
    const invitation = await request(url, 'POST', '/api/v1/invitations', {
      auth: apiKey,
      body: { organizationID: w.org.orgId, name: 'Geheim Person', role: 'member' },
    });
    assert.is(invitation.status, 201, JSON.stringify(invitation.body));
    const joined = await request(url, 'POST', '/api/v1/join', {
      body: { code: invitation.body.code },
      headers: { Origin: PUBLIC },
    });
    assert.is(joined.status, 201, JSON.stringify(joined.body));
    const session = sessionOf(joined)!;
    assert.ok(session, 'P2 set the session cookie');
    const link = await request(url, 'POST', '/api/v1/session/link', {
      headers: { Cookie: `alarmhub_session=${session}`, Origin: PUBLIC },
    });
    assert.is(link.status, 201, JSON.stringify(link.body));
    const second = await request(url, 'POST', '/api/v1/join', {
      body: { code: link.body.code },
      headers: { Origin: PUBLIC },
    });
    assert.is(second.status, 201, JSON.stringify(second.body));
    const secondSession = sessionOf(second)!;

    // The answer link of an alarm SMS.
    const alarm = await request(url, 'POST', '/api/v1/alarms', {
      auth: apiKey,
      body: { organizationID: w.org.orgId, event: 'B2 Secrets', channels: ['sms'] },
    });
    assert.is(alarm.status, 201, JSON.stringify(alarm.body));
    const [sms] = await eventually(
      async () => ctx.sms.requests.filter((r) => r.body.alarmId === alarm.body.id),
      (list) => list.length > 0,
      "the alarm's SMS",
    );
    const answerToken = /\/a\/([A-Za-z0-9_-]{16,})/.exec(sms.body.text)?.[1];
    assert.ok(answerToken, `an answer link in ${sms.body.text}`);

    // The installation's VAPID key pair, made by the first W1.
    const w1 = await probe(url, 'GET', '/api/v1/webpush/key', {});
    assert.is(w1.status, 200);
    const vapid = await vapidPrivateKey(ctx.svc);

    const secrets: Record<string, string> = {
      'the IMAP password': ctx.mailbox.password,
      'a wrong IMAP password': wrongPassword,
      'the VAPID private key': vapid,
      'a session': session,
      "the second device's session": secondSession,
      'an invitation code (used)': invitation.body.code,
      'a sign-in link code (used)': link.body.code,
      "an answer link's token": answerToken,
      "the gateways' token": OUTBOUND_TOKEN,
    };

    // Each of them where it does not belong.
    const cookie = (value: string, origin = PUBLIC) => ({ Cookie: `alarmhub_session=${value}`, Origin: origin });
    const altered = (value: string) => `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
    const tries: Array<Parameters<typeof request>> = [
      [url, 'GET', '/api/v1/session', { headers: { 'Personal-Access-Token': session } }],
      [url, 'GET', '/api/v1/session', { headers: { 'API-TOKEN': session } }],
      [url, 'GET', '/api/v1/session', { headers: { Authorization: `Bearer ${session}` } }],
      [url, 'GET', `/api/v1/session?session=${session}&alarmhub_session=${session}`, {}],
      [url, 'GET', '/api/v1/session', { headers: cookie(altered(session)) }],
      [url, 'GET', '/api/v1/session', { headers: cookie(`${session}x`) }],
      [url, 'POST', '/api/v1/session/link', { headers: cookie(session, 'https://evil.example') }],
      [url, 'POST', '/api/v1/session/link', { headers: { Cookie: `alarmhub_session=${session}` } }],
      [url, 'POST', '/api/v1/join', { body: { code: invitation.body.code }, headers: { Origin: PUBLIC } }],
      [url, 'POST', '/api/v1/join', { body: { code: link.body.code }, headers: { Origin: PUBLIC } }],
      [url, 'POST', '/api/v1/join', { body: { code: altered(invitation.body.code) }, headers: { Origin: PUBLIC } }],
      [
        url,
        'POST',
        '/api/v1/join',
        { body: { code: `${link.body.code}${'x'.repeat(40)}` }, headers: { Origin: PUBLIC } },
      ],
      [url, 'POST', '/api/v1/join', { body: { code: invitation.body.code, session }, headers: { Origin: PUBLIC } }],
      [url, 'GET', `/api/v1/answer/${altered(answerToken)}`, {}],
      [url, 'POST', `/api/v1/answer/${altered(answerToken)}`, { body: { response: true } }],
      [url, 'POST', `/api/v1/answer/${answerToken}`, { body: { response: 'yes', token: answerToken } }],
      [url, 'POST', '/api/v1/monitor', { auth: apiKey, body: { name: vapid, organizationID: 'x' } }],
    ];
    for (const args of tries) {
      const res = await probe(...args);
      misplaced++;
      assert.ok(
        res.status >= 400 && res.status < 500,
        `${args[1]} ${args[2]}: ${res.status} ${JSON.stringify(res.body)}`,
      );
    }
    const handshakes: Array<[string, Record<string, string>]> = [
      ['session', cookie(altered(session))],
      ['session', cookie(session, 'https://evil.example')],
      ['personal-access-token', {}],
      ['api-token', {}],
    ];
    for (const [scheme, headers] of handshakes) {
      const socket = io(url, {
        path: '/socket.io',
        auth: { token: scheme === 'session' ? '' : session, scheme },
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: headers,
      });
      const outcome = await new Promise<string>((resolve) => {
        socket.once('connect', () => resolve('connected'));
        socket.once('connect_error', (err) => resolve(err.message));
      });
      socket.close();
      answers.push(outcome);
      assert.is(outcome, 'unauthorized', `hub handshake ${scheme}`);
      misplaced++;
    }

    // Every read of the organization as its admin, and the metrics.
    for (const op of await documentedOperations(ctx.svc)) {
      if (op.method !== 'GET') continue;
      await probe(url, 'GET', target(op, w), { auth: { pat: w.org.admin.token } });
    }
    const metrics = await probe(url, 'GET', '/metrics', {});
    assert.is(metrics.status, 200);

    // A backup of the installation, its files read as they lie on the disk.
    const dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-secrets-')), 'backup');
    let backupText = '';
    try {
      await backup(ctx.svc.db, dir);
      for (const name of await fs.readdir(dir)) backupText += await fs.readFile(path.join(dir, name), 'latin1');
      assert.ok(
        backupText.includes('app_vapid_keys') || backupText.includes('"_id":"vapid"'),
        'the backup holds the key pair',
      );

      const found = (where: string, texts: string[]) =>
        Object.entries(secrets).flatMap(([what, secret]) =>
          texts.filter((t) => t.includes(secret.slice(0, 24))).map((t) => `${what} in ${where}: ${t.slice(0, 300)}`),
        );
      const dump = await dumpDatabase(ctx.svc);
      const documents = [...dump.values()].flat();
      const leaks = [
        ...found('the log', ctx.lines),
        ...found('an answer', answers),
        ...found('the database', documents),
        ...found('the backup', [backupText]),
      ];
      figure("secrets: the new doors' secrets searched for", Object.keys(secrets).length);
      figure('secrets: answers searched (misplaced secrets, reads, metrics)', answers.length);
      figure("secrets: the new doors' secrets sent where they do not belong", misplaced);
      figure('secrets: found in logs, answers, database or backup', leaks.length);
      assert.equal(leaks, []);

      // Restored into a new database, the installation keeps its VAPID key pair: the browsers'
      // subscriptions, made with its public key, stay valid.
      const restoredDb = otherDatabase(`reliability-secrets-restored-${process.pid}`);
      const restored = await startTestService({ SECRETS_KEY: TEST_KEY }, { dbUri: restoredDb });
      try {
        await restore(restored.db, dir, false);
        const key = await request(restored.url, 'GET', '/api/v1/webpush/key');
        assert.is(key.status, 200, JSON.stringify(key.body));
        assert.is(key.body.publicKey, w1.body.publicKey, 'the same public key after the restore');
        assert.is(await vapidPrivateKey(restored), vapid, 'the same private key after the restore');
        figure('secrets: VAPID key pair after a backup restored into a new database', 'the same');
      } finally {
        await restored.db.conn.db!.dropDatabase().catch(() => undefined);
        await restored.close();
      }
    } finally {
      await fs.rm(path.dirname(dir), { recursive: true, force: true });
    }
  },
);

sec.run();
