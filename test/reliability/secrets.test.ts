// Secrets in the database and the logs (RELIABILITY.md "Secrets and logs"): with the log at its most
// verbose, a world is built and every credential is then sent where it does not belong (the wrong
// header, a Bearer prefix, the query string, the body, a hub handshake of the wrong scheme, a wrong
// gateway token). Afterwards no log line holds any credential or integration secret (searched by a
// 24-character beginning, so an altered copy is found too), and no document of the database holds a
// token or an ELS cobra password or private key in the clear.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { io } from 'socket.io-client';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { request } from '../helpers/http.js';
import { otherDatabase, startTestService, type TestService } from '../helpers/service.js';
import { buildWorld, dumpDatabase, type World } from '../helpers/world.js';
import { figure } from './figures.js';

const GATEWAY_TOKEN = 'gw-reliability-secret-7f3a9c';

interface Ctx {
  svc: TestService;
  world: World;
  lines: string[];
  secrets: Record<string, string>;
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
  ctx.svc = await startTestService(
    { SECRETS_KEY: TEST_KEY, INBOUND_GATEWAY_TOKEN: GATEWAY_TOKEN, LOG_LEVEL: 'trace' },
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

sec.run();
