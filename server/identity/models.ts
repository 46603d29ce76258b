// Organizations, users (with their memberships) and tokens (docs/api.md "Authentication and permissions"). Every
// document is keyed by a string _id, so resolving a credential on each request is two exact lookups on FerretDB too.
import { Schema, type Connection, type Model } from 'mongoose';
import { defineModels } from '../db/models.js';

export type Role = 'admin' | 'member';
export type TokenKind = 'apikey' | 'pat' | 'screen';

export interface Organization {
  /** The organization's ID as a string. */
  _id: string;
  name: string;
  /** Things records the organization may hold; null: the configured default (THINGS_RECORD_LIMIT). */
  recordLimit: number | null;
  createdAt: Date;
}

export interface MembershipEntry {
  organizationId: number;
  role: Role;
  /** The units (vehicles) he rides in this organization, by name: the wall lists him under them. */
  units?: string[];
}

export interface User {
  /** The user's ID as a string. */
  _id: string;
  name: string;
  /** The organizations he belongs to: read with the user on every request of his tokens. */
  memberships: MembershipEntry[];
  createdAt: Date;
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
  /** A screen token's screen and the one monitor it may read. */
  screenId?: number | null;
  monitorId?: number | null;
  createdAt: Date;
  /** When a request or screen last presented it (recorded at most once a minute per process). */
  lastUsedAt?: Date | null;
  revokedAt: Date | null;
}

/** The mark of the latest change that may take rights away from a credential (credential-changes.ts). */
export interface CredentialChange {
  _id: string;
  /** A new random value on every such change. */
  mark: string;
  at: Date;
}

export interface IdentityModels {
  Organization: Model<Organization>;
  User: Model<User>;
  Token: Model<Token>;
  CredentialChange: Model<CredentialChange>;
}

const opts = { versionKey: false } as const;

/** Identity's collections (read and written in server/identity/ only). */
export const identityModels = defineModels((conn: Connection): IdentityModels => {
  const token = new Schema<Token>(
    {
      _id: String,
      tokenId: { type: Number, required: true },
      kind: { type: String, required: true, enum: ['apikey', 'pat', 'screen'] },
      name: { type: String, required: true },
      organizationId: { type: Number, default: null },
      userId: { type: Number, default: null },
      screenId: { type: Number, default: null },
      monitorId: { type: Number, default: null },
      createdAt: { type: Date, required: true },
      lastUsedAt: { type: Date, default: null },
      revokedAt: { type: Date, default: null },
    },
    opts,
  );
  token.index({ tokenId: 1 }, { unique: true });
  token.index({ organizationId: 1 });
  token.index({ userId: 1 });

  const user = new Schema<User>(
    {
      _id: String,
      name: { type: String, required: true },
      memberships: {
        type: [
          new Schema<MembershipEntry>(
            {
              organizationId: { type: Number, required: true },
              role: { type: String, required: true, enum: ['admin', 'member'] },
              units: { type: [String], default: undefined },
            },
            { _id: false },
          ),
        ],
        default: [],
      },
      createdAt: { type: Date, required: true },
    },
    opts,
  );
  // Members of an organization (administration, not a request path).
  user.index({ 'memberships.organizationId': 1 });

  return {
    Organization: conn.model<Organization>(
      'Organization',
      new Schema<Organization>(
        {
          _id: String,
          name: { type: String, required: true },
          recordLimit: { type: Number, default: null },
          createdAt: { type: Date, required: true },
        },
        opts,
      ),
      'organizations',
    ),
    User: conn.model<User>('User', user, 'users'),
    Token: conn.model<Token>('Token', token, 'tokens'),
    CredentialChange: conn.model<CredentialChange>(
      'CredentialChange',
      new Schema<CredentialChange>(
        {
          _id: String,
          mark: { type: String, required: true },
          at: { type: Date, required: true },
        },
        opts,
      ),
      'credential_changes',
    ),
  };
});
