// Who may open a socket (docs/hub.md "Protocol"): a credential in the handshake's auth, resolved as
// REST resolves it; refused handshakes count against the client's address, admitted ones against the
// credential's socket cap until their connection closes.
import { SESSION_COOKIE } from '../http/authenticate.js';
import type { CredentialCache } from '../identity/credential-cache.js';
import type { Admission } from './admission.js';
import { ackError, type HubServer } from './io.js';

const SCHEMES = {
  'api-token': 'apikey',
  'personal-access-token': 'pat',
  'screen-token': 'screen',
  session: 'session',
} as const;

// The console's session rides in its cookie (docs/people.md "Sessions"), sent with the handshake.
function sessionCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      // A malformed cookie is no credential (and must never throw out of the handshake).
      return undefined;
    }
  }
  return undefined;
}

export interface HandshakeOptions {
  credentials: CredentialCache;
  admission: Admission;
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy?: boolean;
  /** The service's public origin: a session's socket must come from a page of it. */
  publicOrigin(): string;
}

/** Admits or refuses every new socket of `io`; an admitted one carries its actor, role and address. */
export function checkHandshakes(
  io: HubServer,
  { credentials, admission, trustProxy, publicOrigin }: HandshakeOptions,
): void {
  io.use(async (socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; scheme?: unknown; role?: unknown };
    const kind = SCHEMES[auth.scheme as keyof typeof SCHEMES];
    // The rightmost entry is the one the trusted proxy added; the ones before it are the client's say.
    const forwarded = trustProxy
      ? (
          String(socket.handshake.headers['x-forwarded-for'] ?? '')
            .split(',')
            .pop() ?? ''
        ).trim()
      : '';
    const address = forwarded || socket.handshake.address;
    // Only refused handshakes count against the address, and only they are answered rate_limited.
    const refuse = async () => next(new Error(await admission.refusal(address)));
    // A session's socket: the cookie is the credential, and a page of another site may not open one with it.
    const token =
      kind === 'session'
        ? socket.handshake.headers.origin === publicOrigin() ||
          socket.handshake.headers['sec-fetch-site'] === 'same-origin'
          ? sessionCookie(socket.handshake.headers.cookie)
          : undefined
        : auth.token;
    if (typeof token !== 'string' || !kind) return refuse();
    try {
      const actor = await credentials.resolve(kind, token);
      if (!actor) return refuse();
      // A client that left during the (awaited) lookup is not counted in: nothing would count it out.
      if (socket.conn.readyState !== 'open') return next(new Error('unavailable'));
      if (!admission.admit(actor.tokenId, socket.id)) return next(new Error('too_many_connections'));
      // Counted out when its connection closes, whether or not the socket ever connected: Socket.IO
      // drops a socket whose client left during the handshake without a 'disconnect'.
      socket.conn.once('close', () => admission.release(actor.tokenId, socket.id));
      socket.data.actor = actor;
      socket.data.agent = actor.kind === 'screen' && auth.role === 'agent';
      socket.data.address = address;
      next();
    } catch (err) {
      next(new Error(ackError(err).error));
    }
  });
}
