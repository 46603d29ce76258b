// A local Web Push service (RFC 8030) that checks and decrypts what it receives, as a browser's push
// service and the browser would: the VAPID header (RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT
// signed ES256 by k, aud the service's origin, exp within 24 hours, a sub), the headers (TTL, Urgency,
// Topic, Content-Encoding aes128gcm) and the body, decrypted (RFC 8291) with the subscription's private
// key and auth secret — made here with node:crypto's ECDH, as a browser makes them. Plain HTTP on
// 127.0.0.1: the service under test lists its origin in WEB_PUSH_ORIGINS. Every push is recorded with
// what was wrong with it; the next answers of a subscription can be set (201, 404, 410, 429, 500, slow,
// never, a redirect, a body of many megabytes streamed as fast as the reader takes it).
import { createECDH, createPublicKey, randomBytes, type ECDH } from 'node:crypto';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { jwtVerify } from 'jose';

/** A browser's subscription: what it gives the app (`json`), and the secrets it keeps. */
export interface FakeSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** JSON.stringify(subscription) in a browser: a web device's pushToken. */
  json: string;
}

export interface ReceivedPush {
  subscriptionId: string;
  /** What the fake answered (or was to answer: see `answered`). */
  status: number;
  /** False while a slow answer waits, and for good when the sender gave up first. */
  answered: boolean;
  headers: IncomingHttpHeaders;
  /** The VAPID claims, when the header was valid. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string } | null;
  /** The decrypted payload, parsed as JSON (text when it is not). */
  payload: any;
  /** Why the push was refused (401 bad VAPID, 400 bad headers or body), or null. */
  problem: string | null;
  /** When its body had arrived (Date.now()). */
  at: number;
  /** When the answer was sent, or null (Date.now()). */
  answeredAt: number | null;
  /** Bytes of a streamed body (`bodyBytes`) the sender's connection took before it closed. */
  streamed: number;
}

/** An answer to the next push of a subscription: its status, an optional Retry-After and body, or a delay first. */
export interface FakeAnswer {
  status: number;
  retryAfter?: number;
  delayMs?: number;
  body?: string;
  /** Never answered: the connection stays open until the sender gives up. */
  never?: boolean;
  /** A Location header (a redirect). */
  location?: string;
  /** A body of this many bytes, streamed a 64 KiB chunk at a time as the connection takes them. */
  bodyBytes?: number;
}

export interface WebPushFake {
  /** The fake's origin, for WEB_PUSH_ORIGINS. */
  url: string;
  received: ReceivedPush[];
  /** A new subscription at this fake, as PushManager.subscribe() makes one. */
  subscribe(): FakeSubscription;
  /** The answers to the next pushes of a subscription, in order (then 201 again). */
  answer(subscriptionId: string, ...answers: FakeAnswer[]): void;
  /** The pushes of a subscription the fake took (2xx, the answer sent). */
  delivered(subscriptionId: string): ReceivedPush[];
  close(): Promise<void>;
}

const ONE_DAY_S = 24 * 3600;

// The VAPID public key as a verification key: the 65-byte uncompressed point as a P-256 JWK.
function verificationKey(raw: Buffer) {
  if (raw.length !== 65 || raw[0] !== 0x04) throw new Error('k is not an uncompressed P-256 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
}

async function checkVapid(header: string | undefined, origin: string): Promise<NonNullable<ReceivedPush['vapid']>> {
  const match = /^vapid t=([A-Za-z0-9_.-]+), ?k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`Authorization is not "vapid t=…, k=…": ${header}`);
  const publicKey = match[2];
  const { payload, protectedHeader } = await jwtVerify(match[1], verificationKey(Buffer.from(publicKey, 'base64url')), {
    algorithms: ['ES256'],
    audience: origin,
  });
  if (protectedHeader.alg !== 'ES256') throw new Error('alg is not ES256');
  const now = Date.now() / 1000;
  if (typeof payload.exp !== 'number' || payload.exp <= now || payload.exp > now + ONE_DAY_S)
    throw new Error(`exp ${payload.exp} is not within the next 24 hours`);
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
    throw new Error(`sub ${payload.sub} is no mailto: or https: URL`);
  return { aud: String(payload.aud), sub: payload.sub, exp: payload.exp, publicKey };
}

function checkHeaders(headers: IncomingHttpHeaders): void {
  if (!/^[0-9]+$/.test(String(headers.ttl ?? ''))) throw new Error('TTL is missing or not a number');
  if (headers['content-encoding'] !== 'aes128gcm') throw new Error('Content-Encoding is not aes128gcm');
  if (headers.urgency && !['very-low', 'low', 'normal', 'high'].includes(String(headers.urgency)))
    throw new Error(`Urgency ${headers.urgency} is not one of RFC 8030's`);
  if (headers.topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(String(headers.topic)))
    throw new Error('Topic is not at most 32 characters of base64url');
}

/** Starts the fake on a free port of 127.0.0.1. */
export async function startWebPushFake(): Promise<WebPushFake> {
  const secrets = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const queued = new Map<string, FakeAnswer[]>();
  const timers = new Set<NodeJS.Timeout>();
  const received: ReceivedPush[] = [];
  let origin = '';

  const respond = (res: ServerResponse, answer: FakeAnswer, record: ReceivedPush) => {
    const send = () => {
      // The sender gave up waiting (its connection is gone): the push counts as not taken.
      if (res.destroyed || !res.socket || res.socket.destroyed) return;
      record.answered = true;
      record.answeredAt = Date.now();
      res.writeHead(answer.status, {
        'content-type': 'text/plain',
        ...(answer.retryAfter !== undefined ? { 'retry-after': String(answer.retryAfter) } : {}),
        ...(answer.status === 201 ? { location: `${origin}/message/${randomBytes(6).toString('hex')}` } : {}),
        ...(answer.location ? { location: answer.location } : {}),
      });
      if (answer.bodyBytes) return stream(res, answer.bodyBytes, record);
      res.end(answer.body ?? (answer.status < 300 ? '' : `fake push service answered ${answer.status}`));
    };
    if (answer.never) return;
    if (!answer.delayMs) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, answer.delayMs);
    timers.add(timer);
  };

  // Writes `bytes` as the reader takes them (waiting for 'drain'), counting what its connection took.
  const stream = (res: ServerResponse, bytes: number, record: ReceivedPush) => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const more = () => {
      while (record.streamed < bytes && !res.destroyed) {
        const size = Math.min(chunk.length, bytes - record.streamed);
        record.streamed += size;
        if (!res.write(chunk.subarray(0, size))) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end();
    };
    res.on('error', () => undefined);
    more();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const at = Date.now();
      const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const secret = secrets.get(id);
      const record: ReceivedPush = {
        subscriptionId: id,
        status: 201,
        answered: false,
        headers: req.headers,
        vapid: null,
        payload: null,
        problem: null,
        at,
        answeredAt: null,
        streamed: 0,
      };
      let answer: FakeAnswer = { status: 201 };
      try {
        if (req.method !== 'POST' || !secret) throw Object.assign(new Error('no such subscription'), { status: 404 });
        try {
          record.vapid = await checkVapid(req.headers.authorization, origin);
        } catch (err) {
          throw Object.assign(err as Error, { status: 401 });
        }
        checkHeaders(req.headers);
        const plain = ece.decrypt(Buffer.concat(chunks), {
          version: 'aes128gcm',
          privateKey: secret.ecdh,
          authSecret: secret.auth,
        });
        const text = plain.toString('utf8');
        try {
          record.payload = JSON.parse(text);
        } catch {
          record.payload = text;
        }
        answer = queued.get(id)?.shift() ?? answer;
      } catch (err) {
        record.problem = (err as Error).message;
        answer = { status: (err as { status?: number }).status ?? 400 };
      }
      record.status = answer.status;
      received.push(record);
      respond(res, answer, record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    received,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomBytes(12).toString('base64url');
      secrets.set(id, { ecdh, auth });
      const endpoint = `${origin}/push/${id}`;
      const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') };
      return { id, endpoint, keys, json: JSON.stringify({ endpoint, expirationTime: null, keys }) };
    },
    answer(subscriptionId, ...answers) {
      queued.set(subscriptionId, [...(queued.get(subscriptionId) ?? []), ...answers]);
    },
    delivered: (subscriptionId) =>
      received.filter((r) => r.subscriptionId === subscriptionId && r.answered && r.status >= 200 && r.status < 300),
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
