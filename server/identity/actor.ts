// Who is calling: resolved from a credential for REST and for the hub's handshake alike.
import type { IdentityModels, Role, TokenKind } from './models.js';
import { hashToken } from './tokens.js';

/** An organization's API key: full rights in its own organization. */
export interface ApiKeyActor {
  kind: 'apikey';
  tokenId: number;
  organizationId: number;
}

/** A user acting through a personal access token, with his memberships. */
export interface UserActor {
  kind: 'user';
  tokenId: number;
  userId: number;
  roles: Map<number, Role>;
}

export type Actor = ApiKeyActor | UserActor;

const MAX_TOKEN_LENGTH = 200;

/** The actor for a token presented under a scheme, or null when unknown, revoked or of the other scheme. */
export async function resolveActor(models: IdentityModels, kind: TokenKind, token: string): Promise<Actor | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const found = await models.Token.findById(hashToken(token)).lean();
  if (!found || found.revokedAt || found.kind !== kind) return null;
  if (found.kind === 'apikey') return { kind: 'apikey', tokenId: found.tokenId, organizationId: found.organizationId! };
  const memberships = await models.Membership.find({ userId: found.userId }).lean();
  return {
    kind: 'user',
    tokenId: found.tokenId,
    userId: found.userId!,
    roles: new Map(memberships.map((m) => [m.organizationId, m.role])),
  };
}
