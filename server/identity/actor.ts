// Who is calling: resolved from a credential for REST and for the hub's handshake alike.
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { identityModels, type Role, type TokenKind } from './models.js';
import { recordUse } from './token-uses.js';
import { hashToken } from './tokens.js';

/** An organization's API key: full rights in its own organization. */
export interface ApiKeyActor {
  kind: 'apikey';
  tokenId: number;
  /** The stored key of the credential (its hash), to check it again cheaply. */
  credential: string;
  organizationId: number;
}

/** A user acting through a personal access token or a session (the console's cookie), with his memberships. */
export interface UserActor {
  kind: 'user';
  tokenId: number;
  credential: string;
  userId: number;
  roles: Map<number, Role>;
  /** Through a session (docs/people.md "Sessions"): P3–P5 act on it. */
  session?: true;
}

/** A session ends after this long unused (docs/people.md "Sessions"). */
export const SESSION_IDLE_MS = 30 * 24 * 3_600_000;

export type Actor = ApiKeyActor | UserActor;

/**
 * A paired station screen (docs/hub.md "The screen fleet"): it reads one monitor (M4, M6, a hub subscription) and
 * nothing else. It is not an Actor: the router admits it only to operations declared for screens, so
 * no other operation ever sees one.
 */
export interface ScreenActor {
  kind: 'screen';
  tokenId: number;
  credential: string;
  screenId: number;
  monitorId: number;
  organizationId: number;
}

/** Whoever presented a valid credential. */
export type Caller = Actor | ScreenActor;

const MAX_TOKEN_LENGTH = 200;
const TOUCH_EVERY_MS = 60_000;
const MAX_TOUCHED = 10_000;

/** Reads credentials from one database and records their use (CredentialCache keeps what it reads). */
export class CredentialReader {
  // When each credential's use was last recorded (here, or as read with it): the write happens at most
  // once a minute.
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Pick<Database, 'conn' | 'bookkeeping'>,
    private readonly log?: Pick<Logger, 'debug'>,
  ) {}

  /** The caller for a token presented under a scheme, or null when unknown, revoked or of another scheme. */
  async resolve(kind: 'apikey' | 'pat' | 'session', token: string): Promise<Actor | null>;
  async resolve(kind: TokenKind, token: string): Promise<Caller | null>;
  async resolve(kind: TokenKind, token: string): Promise<Caller | null> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return null;
    const credential = hashToken(token);
    const [found, use] = await Promise.all([
      identityModels(this.db).Token.findById(credential).lean(),
      identityModels(this.db).TokenUse.findById(credential, { at: 1 }).lean(),
    ]);
    if (!found || found.revokedAt || found.kind !== kind) return null;
    const lastUsed = Math.max(found.lastUsedAt?.getTime() ?? 0, use?.at.getTime() ?? 0);
    if (kind === 'session' && Date.now() - (lastUsed || found.createdAt.getTime()) > SESSION_IDLE_MS) return null;
    this.touch(credential, lastUsed);
    if (found.kind === 'apikey')
      return { kind: 'apikey', tokenId: found.tokenId, credential, organizationId: found.organizationId! };
    if (found.kind === 'screen')
      return {
        kind: 'screen',
        tokenId: found.tokenId,
        credential,
        screenId: found.screenId!,
        monitorId: found.monitorId!,
        organizationId: found.organizationId!,
      };
    const user = await identityModels(this.db).User.findById(String(found.userId), { memberships: 1 }).lean();
    return {
      kind: 'user',
      tokenId: found.tokenId,
      credential,
      userId: found.userId!,
      roles: new Map((user?.memberships ?? []).map((m) => [m.organizationId, m.role])),
      ...(kind === 'session' ? { session: true as const } : {}),
    };
  }

  private touch(credential: string, recorded: number): void {
    const { touched } = this;
    const now = Date.now();
    const last = Math.max(touched.get(credential) ?? 0, recorded);
    touched.delete(credential);
    if (now - last < TOUCH_EVERY_MS) {
      touched.set(credential, last);
    } else {
      touched.set(credential, now);
      // Bookkeeping, behind the reads others wait for (server/db/lane.ts).
      // Into a document of its own, never into the token (TokenUse in models.ts).
      void this.db.bookkeeping
        .run(() => recordUse(this.db, credential, new Date(now)))
        .catch((err) =>
          // Only "last used" is a little older; the next use a minute on writes it again.
          this.log?.debug({ err }, "a credential's last use could not be recorded"),
        );
    }
    if (touched.size > MAX_TOUCHED) touched.delete(touched.keys().next().value!);
  }
}
