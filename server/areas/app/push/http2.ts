// HTTP/2 requests to the push gateways and the OAuth2 token endpoint (node:http2): one session per
// origin, reused while it lives, so a push costs no new TLS handshake.
import http2, { type ClientHttp2Session, type OutgoingHttpHeaders } from 'node:http2';
import { AppError } from '../../../errors.js';

export interface Http2Reply {
  status: number;
  body: string;
}

const REQUEST_TIMEOUT_MS = 10_000;
const IDLE_CLOSE_MS = 60_000;

/** 503 push_unavailable: the gateway could not be reached or is overloaded; retrying later may work. */
export const pushUnavailable = (message: string) =>
  new AppError(503, 'push_unavailable', message, undefined, { 'Retry-After': '30' });

/** Sessions per origin, trusting `ca` (the system's CAs plus an extra one) when given. */
export class Http2Pool {
  private readonly sessions = new Map<string, ClientHttp2Session>();

  constructor(private readonly ca: string[] | undefined) {}

  /** Sends one request and reads the whole answer; network failures and timeouts are a 503. */
  async request(url: string, headers: OutgoingHttpHeaders, body?: string): Promise<Http2Reply> {
    const { origin, pathname, search } = new URL(url);
    try {
      return await this.exchange(this.session(origin), { ':path': pathname + search, ...headers }, body);
    } catch (err) {
      if (err instanceof AppError) throw err;
      // One stream reset by the push service leaves the connection and its other pushes alone: destroying
      // it would fail every push in flight on it, some of which the service took (docs/alarms.md "Delivered").
      if ((err as { code?: string }).code !== 'ERR_HTTP2_STREAM_ERROR') this.sessions.get(origin)?.destroy();
      throw pushUnavailable(`${origin} could not be reached: ${(err as Error).message}`);
    }
  }

  /** Closes every session (service shutdown and tests). */
  close(): void {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }

  private session(origin: string): ClientHttp2Session {
    const existing = this.sessions.get(origin);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = http2.connect(origin, this.ca ? { ca: this.ca } : {});
    // An idle session is closed, and it never keeps the process alive.
    session.setTimeout(IDLE_CLOSE_MS, () => session.close());
    session.unref();
    session.on('error', () => session.destroy());
    session.on('close', () => {
      if (this.sessions.get(origin) === session) this.sessions.delete(origin);
    });
    this.sessions.set(origin, session);
    return session;
  }

  private exchange(session: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: string): Promise<Http2Reply> {
    return new Promise((resolve, reject) => {
      const stream = session.request(headers);
      stream.setTimeout(REQUEST_TIMEOUT_MS, () =>
        stream.close(http2.constants.NGHTTP2_CANCEL, () => reject(new Error('timed out'))),
      );
      let status = 0;
      const chunks: Buffer[] = [];
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A stream that ends without an answer (reset, or its connection went away) is a network failure.
      stream.on('end', () =>
        status === 0
          ? reject(new Error('the stream ended without an answer'))
          : resolve({ status, body: Buffer.concat(chunks).toString('utf8') }),
      );
      stream.on('error', reject);
      stream.end(body);
    });
  }
}
