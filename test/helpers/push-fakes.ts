// Local fakes of the push gateways, speaking their protocols over HTTP/2 with TLS (a self-signed
// certificate made with openssl, trusted by the service through PUSH_EXTRA_CA_FILE):
// - APNs: checks the provider JWT (ES256 signature, kid, iss, iat), apns-topic, apns-push-type, the
//   device token in the path and the payload, and answers like APNs (410 Unregistered for dead tokens).
// - FCM: an OAuth2 token endpoint that checks the service account's signed assertion and issues access
//   tokens, and messages:send that checks the bearer it issued and the message body.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import http2, {
  type Http2SecureServer,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';

export interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  status: number;
  /** When it was answered (a request held by `before` may be answered after its sender went away). */
  at?: number;
  /** When it arrived. */
  arrivedAt?: number;
}

/** A request as it arrived, before anything answered it. */
export interface Arrival {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  at: number;
  /** The sender's port: which connection, so which process, it came over. */
  fromPort?: number;
}

export interface Fake {
  url: string;
  requests: Recorded[];
  /** Device tokens the gateway declares dead. */
  dead: Set<string>;
  /** The next answers, instead of the normal one (e.g. a 500). */
  failNext: Array<{ status: number; body: unknown }>;
  close(): Promise<void>;
  /** Every request as it arrived (those held or reset by `before` included). */
  arrived: Arrival[];
  /**
   * Asked before each answer: it may wait (a slow push service), answer instead (e.g. a 500), or say
   * 'reset' (the stream is reset without an answer). Unset, or nothing returned: answered as usual.
   */
  before?: (
    request: Arrival,
  ) => Promise<{ status: number; body: unknown } | 'reset' | void> | { status: number; body: unknown } | 'reset' | void;
}

export interface PushFakes {
  apns: Fake;
  apnsSandbox: Fake;
  fcm: Fake & { tokensIssued: string[] };
  /** Service configuration pointing at the fakes. */
  env: Record<string, string>;
  keyId: string;
  teamId: string;
  topic: string;
  project: string;
  close(): Promise<void>;
}

type Handler = (
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  body: string,
) => Promise<{ status: number; body: unknown }>;

async function serve(tls: { key: string; cert: string }, handle: Handler): Promise<Fake> {
  const sessions = new Set<Http2Session>();
  const server: Http2SecureServer = http2.createSecureServer(tls);
  const fake: Fake = {
    url: '',
    requests: [],
    dead: new Set(),
    failNext: [],
    arrived: [],
    close: () =>
      new Promise((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    // The sender's port, read now: once the session is torn down (its process killed) it is gone.
    const fromPort = stream.session?.socket?.remotePort;
    // A stream reset by `before`, or whose client went away while it was held, errs: nothing to report.
    if (fake.before) stream.on('error', () => undefined);
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // form or empty
      }
      const arrival: Arrival = {
        path: String(headers[':path']),
        headers,
        body,
        at: Date.now(),
        fromPort,
      };
      fake.arrived.push(arrival);
      const decided = fake.before ? await fake.before(arrival) : undefined;
      if (decided === 'reset') {
        if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        return;
      }
      const answer = decided ?? fake.failNext.shift() ?? (await handle(stream, headers, raw));
      fake.requests.push({
        path: String(headers[':path']),
        headers,
        body,
        status: answer.status,
        at: Date.now(),
        arrivedAt: arrival.at,
      });
      // Held until its sender went away (a process killed): taken, but nobody hears the answer.
      if (stream.destroyed || stream.closed) return;
      stream.respond({ ':status': answer.status, 'content-type': 'application/json' });
      stream.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function apnsHandler(publicKey: KeyObject, keyId: string, teamId: string, topic: string, fake: () => Fake): Handler {
  return async (_stream, headers, raw) => {
    const match = /^\/3\/device\/([0-9a-f]{64,200})$/.exec(String(headers[':path']));
    if (headers[':method'] !== 'POST' || !match) return { status: 404, body: { reason: 'BadPath' } };
    const auth = String(headers.authorization ?? '');
    if (!auth.startsWith('bearer ')) return { status: 403, body: { reason: 'MissingProviderToken' } };
    try {
      const jwt = auth.slice(7);
      if (decodeProtectedHeader(jwt).kid !== keyId) throw new Error('kid');
      const { payload } = await jwtVerify(jwt, publicKey, { algorithms: ['ES256'], issuer: teamId, maxTokenAge: '1h' });
      if (typeof payload.iat !== 'number') throw new Error('iat');
    } catch {
      return { status: 403, body: { reason: 'InvalidProviderToken' } };
    }
    if (!headers['apns-topic']) return { status: 400, body: { reason: 'MissingTopic' } };
    if (headers['apns-topic'] !== topic) return { status: 400, body: { reason: 'TopicDisallowed' } };
    if (headers['apns-push-type'] !== 'alert') return { status: 400, body: { reason: 'InvalidPushType' } };
    let payload: any;
    try {
      payload = JSON.parse(raw);
    } catch {
      return { status: 400, body: { reason: 'PayloadEmpty' } };
    }
    if (!payload?.aps?.alert?.title || typeof payload.confirmToken !== 'string')
      return { status: 400, body: { reason: 'BadPayload' } };
    if (fake().dead.has(match[1])) return { status: 410, body: { reason: 'Unregistered', timestamp: Date.now() } };
    return { status: 200, body: undefined };
  };
}

function fcmHandler(
  publicKey: KeyObject,
  email: string,
  project: string,
  fake: () => Fake & { tokensIssued: string[] },
): Handler {
  return async (_stream, headers, raw) => {
    const url = fake().url;
    if (headers[':path'] === '/token') {
      const form = new URLSearchParams(raw);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return { status: 400, body: { error: 'unsupported_grant_type' } };
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', publicKey, {
          algorithms: ['RS256'],
          issuer: email,
          audience: `${url}/token`,
        });
        if (!String(payload.scope).split(' ').includes('https://www.googleapis.com/auth/firebase.messaging'))
          throw new Error('scope');
      } catch {
        return { status: 400, body: { error: 'invalid_grant' } };
      }
      const token = `ya29.${randomBytes(16).toString('hex')}`;
      fake().tokensIssued.push(token);
      return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
    }
    if (headers[':path'] !== `/v1/projects/${project}/messages:send`)
      return { status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } };
    const bearer = String(headers.authorization ?? '').replace(/^Bearer /, '');
    if (!fake().tokensIssued.includes(bearer))
      return { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } };
    const message = (JSON.parse(raw) as any).message;
    if (!message?.token || typeof message.data?.confirmToken !== 'string' || !message.notification?.title) {
      return { status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT' } } };
    }
    if (fake().dead.has(message.token)) {
      return {
        status: 404,
        body: {
          error: {
            code: 404,
            status: 'NOT_FOUND',
            details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
          },
        },
      };
    }
    return { status: 200, body: { name: `projects/${project}/messages/${randomBytes(6).toString('hex')}` } };
  };
}

/** Starts APNs (production and sandbox) and FCM fakes with fresh keys, certificates and credentials. */
export async function startPushFakes(): Promise<PushFakes> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-fakes-'));
  const keyFile = path.join(dir, 'tls-key.pem');
  const certFile = path.join(dir, 'tls-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  const tls = { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };

  const apnsKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const apnsKeyFile = path.join(dir, 'AuthKey.p8');
  fs.writeFileSync(apnsKeyFile, apnsKey.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const [keyId, teamId, topic, project, email] = [
    'KEY1234567',
    'TEAM123456',
    'org.alarmhub.app',
    'alarm-hub-test',
    'push@alarm-hub-test.iam.gserviceaccount.com',
  ];

  const apns: Fake = await serve(
    tls,
    apnsHandler(apnsKey.publicKey, keyId, teamId, topic, () => apns),
  );
  const apnsSandbox: Fake = await serve(
    tls,
    apnsHandler(apnsKey.publicKey, keyId, teamId, topic, () => apnsSandbox),
  );
  const account = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const fcm: Fake & { tokensIssued: string[] } = Object.assign(
    await serve(
      tls,
      fcmHandler(account.publicKey, email, project, (): Fake & { tokensIssued: string[] } => fcm),
    ),
    { tokensIssued: [] as string[] },
  );
  const serviceAccountFile = path.join(dir, 'service-account.json');
  fs.writeFileSync(
    serviceAccountFile,
    JSON.stringify({
      type: 'service_account',
      project_id: project,
      private_key_id: 'abc123',
      client_email: email,
      private_key: account.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: `${fcm.url}/token`,
    }),
  );

  return {
    apns,
    apnsSandbox,
    fcm,
    keyId,
    teamId,
    topic,
    project,
    env: {
      APNS_KEY_FILE: apnsKeyFile,
      APNS_KEY_ID: keyId,
      APNS_TEAM_ID: teamId,
      APNS_TOPIC: topic,
      APNS_HOST: apns.url,
      APNS_SANDBOX_HOST: apnsSandbox.url,
      FCM_SERVICE_ACCOUNT_FILE: serviceAccountFile,
      FCM_HOST: fcm.url,
      PUSH_EXTRA_CA_FILE: certFile,
    },
    async close() {
      await Promise.all([apns.close(), apnsSandbox.close(), fcm.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
