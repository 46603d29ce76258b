// Organizations, users, memberships and tokens (CONTRACT.md §4).
import { Schema, type Connection, type Model } from 'mongoose';

export type Role = 'admin' | 'member';
export type TokenKind = 'apikey' | 'pat';

export interface Organization {
  _id: number;
  name: string;
  /** Things records the organization may hold; null: the configured default (THINGS_RECORD_LIMIT). */
  recordLimit: number | null;
  createdAt: Date;
}

export interface User {
  _id: number;
  name: string;
  createdAt: Date;
}

export interface Membership {
  organizationId: number;
  userId: number;
  role: Role;
}

export interface Token {
  /** SHA-256 of the token; the token itself is shown once and never stored. As _id, the lookup on
   * every request is the cheapest one on both engines. */
  _id: string;
  /** The token's number, as the admin command shows and revokes it. */
  tokenId: number;
  kind: TokenKind;
  name: string;
  organizationId: number | null;
  userId: number | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface IdentityModels {
  Organization: Model<Organization>;
  User: Model<User>;
  Membership: Model<Membership>;
  Token: Model<Token>;
}

const opts = { versionKey: false } as const;

/** Registers the identity models on a connection. */
export function identityModels(conn: Connection): IdentityModels {
  const membership = new Schema<Membership>({
    organizationId: { type: Number, required: true },
    userId: { type: Number, required: true },
    role: { type: String, required: true, enum: ['admin', 'member'] },
  }, opts);
  membership.index({ organizationId: 1, userId: 1 }, { unique: true });
  membership.index({ userId: 1 });

  const token = new Schema<Token>({
    _id: String,
    tokenId: { type: Number, required: true },
    kind: { type: String, required: true, enum: ['apikey', 'pat'] },
    name: { type: String, required: true },
    organizationId: { type: Number, default: null },
    userId: { type: Number, default: null },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
  }, opts);
  token.index({ tokenId: 1 }, { unique: true });

  return {
    Organization: conn.model<Organization>('Organization', new Schema<Organization>({
      _id: Number,
      name: { type: String, required: true },
      recordLimit: { type: Number, default: null },
      createdAt: { type: Date, required: true },
    }, opts), 'organizations'),
    User: conn.model<User>('User', new Schema<User>({
      _id: Number,
      name: { type: String, required: true },
      createdAt: { type: Date, required: true },
    }, opts), 'users'),
    Membership: conn.model<Membership>('Membership', membership, 'memberships'),
    Token: conn.model<Token>('Token', token, 'tokens'),
  };
}
