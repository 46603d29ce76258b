// Requests to Web Push services (docs/members-app.md "Web Push"): one keep-alive agent per push service
// origin, so that an alarm's hundreds of pushes to one service share a few connections instead of a TLS
// handshake each; a deadline per request; and only the start of an answer kept (its reason), so a push
// service cannot make the service buffer much. Redirects are not followed (node's http never does), and
// a known push service's name is connected to only at a public address ("Addresses").
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ForbiddenAddress, forbiddenAddress, publicLookup, systemResolver, type Resolver } from './addresses.js';

export interface WebReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The answer's first BODY_LIMIT bytes, as text. */
  body: string;
}

/** What a push service answers that we read: its reason, a line or a small JSON. */
const BODY_LIMIT = 4096;
/** Connections per push service and process: an alarm's tries go out 250 at a time, its pushes about a third of them. */
const SOCKETS_PER_ORIGIN = 64;
/** Push service origins whose connections are kept; the longest unused beyond them are closed. */
const MAX_ORIGINS = 64;
/** An idle connection is closed after this long (push services close theirs after a few minutes). */
const IDLE_MS = 60_000;

/** A network failure or a push service that did not answer in time (retrying may work). */
export class WebPushUnreachable extends Error {}
/** A kept connection found closed when it was used. */
class StaleConnection extends Error {}

export interface WebPushClientOptions {
  /**
   * Origins the operator listed (WEB_PUSH_ORIGINS): connected to at whatever address they resolve to. Any
   * other origin (a known push service's) only at public addresses.
   */
  origins?: readonly string[];
  /** How names are resolved (the system's resolver; a test answers as a hostile DNS would). */
  resolve?: Resolver;
}

/** Keep-alive connections per origin, trusting `ca` (the system's CAs plus an extra one) when given. */
export class WebPushClient {
  private readonly agents = new Map<string, http.Agent>();
  private readonly origins: ReadonlySet<string>;
  private readonly lookup: net.LookupFunction;

  constructor(
    private readonly ca: string[] | undefined,
    private readonly timeoutMs: number,
    options: WebPushClientOptions = {},
  ) {
    this.origins = new Set(options.origins ?? []);
    this.lookup = publicLookup(options.resolve ?? systemResolver);
  }

  /** POSTs `body` to `endpoint`; resolves with any status, rejects with WebPushUnreachable. */
  async post(endpoint: string, headers: Record<string, string | number>, body: Buffer | null): Promise<WebReply> {
    const deadline = Date.now() + this.timeoutMs;
    try {
      return await this.once(endpoint, headers, body, deadline);
    } catch (err) {
      // A kept connection the push service closed as we sent on it: the request never reached it
      // (Node's advice for keep-alive agents), so it goes once more on a new connection.
      if (!(err instanceof StaleConnection)) throw err;
      try {
        return await this.once(endpoint, headers, body, deadline, true);
      } catch (again) {
        if (again instanceof StaleConnection)
          throw new WebPushUnreachable(`${new URL(endpoint).origin}: ${again.message}`);
        throw again;
      }
    }
  }

  private once(
    endpoint: string,
    headers: Record<string, string | number>,
    body: Buffer | null,
    deadlineAt: number,
    /** On a connection of its own, not a kept one. */
    fresh = false,
  ): Promise<WebReply> {
    const url = new URL(endpoint);
    const secure = url.protocol === 'https:';
    const guarded = !this.origins.has(url.origin);
    // An address written in the endpoint is never looked up: it is checked here instead.
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const why = guarded && net.isIP(literal) ? forbiddenAddress(literal) : null;
    if (why) return Promise.reject(new WebPushUnreachable(`${url.origin}: ${why}: not connected`));
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (fail: Error | null, reply?: WebReply) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        if (fail) reject(fail);
        else resolve(reply!);
      };
      const req = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: fresh ? false : this.agent(url.origin, secure, guarded),
          headers,
          ...(guarded ? { lookup: this.lookup } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const reply = () => ({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).subarray(0, BODY_LIMIT).toString('utf8'),
          });
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size - chunk.length < BODY_LIMIT) chunks.push(chunk);
            // A long answer is not read to its end: the connection is given up instead.
            if (size > BODY_LIMIT * 16) {
              finish(null, reply());
              res.destroy();
            }
          });
          res.on('end', () => finish(null, reply()));
          res.on('error', (err) => finish(new WebPushUnreachable(`${url.origin}: ${err.message}`)));
        },
      );
      const deadline = setTimeout(
        () => {
          finish(new WebPushUnreachable(`${url.origin} did not answer within ${this.timeoutMs} ms`));
          req.destroy();
        },
        Math.max(0, deadlineAt - Date.now()),
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        const stale = req.reusedSocket && ['ECONNRESET', 'EPIPE'].includes(err.code ?? '');
        finish(
          stale
            ? new StaleConnection(err.code)
            : err instanceof ForbiddenAddress
              ? new WebPushUnreachable(`${url.origin}: ${err.message}`)
              : new WebPushUnreachable(`${url.origin} could not be reached (${err.code ?? err.message})`),
        );
      });
      req.end(body ?? undefined);
    });
  }

  /** Closes every connection (service shutdown and tests). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  // The origin's agent, the most recently used last; past MAX_ORIGINS the longest unused one is closed
  // (members' subscriptions may name many hosts of one push service).
  private agent(origin: string, secure: boolean, guarded: boolean): http.Agent {
    let agent = this.agents.get(origin);
    if (agent) this.agents.delete(origin);
    else {
      const options = {
        keepAlive: true,
        maxSockets: SOCKETS_PER_ORIGIN,
        timeout: IDLE_MS,
        ...(guarded ? { lookup: this.lookup } : {}),
      };
      agent = secure ? new https.Agent({ ...options, ...(this.ca ? { ca: this.ca } : {}) }) : new http.Agent(options);
    }
    this.agents.set(origin, agent);
    if (this.agents.size > MAX_ORIGINS) {
      const [oldest, idle] = this.agents.entries().next().value as [string, http.Agent];
      this.agents.delete(oldest);
      idle.destroy();
    }
    return agent;
  }
}
