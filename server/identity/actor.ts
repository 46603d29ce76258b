// Who is calling: resolved from a credential for REST and for the hub's handshake alike.
import { bookkeeping } from '../db/lane.js';
import type { Connected } from '../db/models.js';
import { identityModels, type Role, type TokenKind } from './models.js';
import { hashToken } from './tokens.js';

/** An organization's API key: full rights in its own organization. */
export interface ApiKeyActor {
  kind: 'apikey';
  tokenId: number;
  /** The stored key of the credential (its hash), to check it again cheaply. */
  credential: string;
  organizationId: number;
}

/** A user acting through a personal access token, with his memberships. */
export interface UserActor {
  kind: 'user';
  tokenId: number;
  credential: string;
  userId: number;
  roles: Map<number, Role>;
}

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
// When each credential's use was last recorded (here, or as read with it): the write happens at most
// once a minute.
const touched = new Map<string, number>();

function touch(db: Connected, credential: string, recorded: Date | null | undefined): void {
  const now = Date.now();
  const last = Math.max(touched.get(credential) ?? 0, recorded?.getTime() ?? 0);
  touched.delete(credential);
  if (now - last < TOUCH_EVERY_MS) {
    touched.set(credential, last);
  } else {
    touched.set(credential, now);
    // Bookkeeping, behind the reads others wait for (server/db/lane.ts): a failed write only leaves
    // "last used" a little older.
    void bookkeeping(db)
      .run(() => identityModels(db).Token.updateOne({ _id: credential }, { $set: { lastUsedAt: new Date(now) } }))
      .catch(() => {});
  }
  if (touched.size > MAX_TOUCHED) touched.delete(touched.keys().next().value!);
}

/** The caller for a token presented under a scheme, or null when unknown, revoked or of another scheme. */
export async function resolveActor(db: Connected, kind: 'apikey' | 'pat', token: string): Promise<Actor | null>;
export async function resolveActor(db: Connected, kind: TokenKind, token: string): Promise<Caller | null>;
export async function resolveActor(db: Connected, kind: TokenKind, token: string): Promise<Caller | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const credential = hashToken(token);
  const found = await identityModels(db).Token.findById(credential).lean();
  if (!found || found.revokedAt || found.kind !== kind) return null;
  touch(db, credential, found.lastUsedAt);
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
  const user = await identityModels(db).User.findById(String(found.userId), { memberships: 1 }).lean();
  return {
    kind: 'user',
    tokenId: found.tokenId,
    credential,
    userId: found.userId!,
    roles: new Map((user?.memberships ?? []).map((m) => [m.organizationId, m.role])),
  };
}
