// Organizations, users (with their memberships) and tokens (docs/api.md "Authentication and permissions"). Every
// document is keyed by a string _id, so resolving a credential on each request is two exact lookups on FerretDB too.
import { Schema, type Connection, type Model } from 'mongoose';
import { defineModels } from '../db/models.js';

export type Role = 'admin' | 'member';
export type TokenKind = 'apikey' | 'pat' | 'screen' | 'session';

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
  /** When he joined (P6); unset for memberships older than invitations. */
  joinedAt?: Date;
}

export interface User {
  /** The user's ID as a string. */
  _id: string;
  name: string;
  /** The organizations he belongs to: read with the user on every request of his tokens. */
  memberships: MembershipEntry[];
  /** His passkeys' credential IDs (the passkeys collection holds them by these). */
  passkeys?: string[];
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
  /**
   * Written by versions before last uses moved to `token_uses` (TokenUse), and still read as the earliest
   * last use: nothing writes it any more.
   */
  lastUsedAt?: Date | null;
  revokedAt: Date | null;
}

/**
 * When a credential was last presented, in a document of its own under the token's _id (recorded at
 * most once a minute per process). Kept apart from the token so that the token is written only by its
 * revocation: on the embedded engine an update is read-modify-write without a lock, and a last use
 * written into the token could write a revocation that landed meanwhile away (docs/storage.md "Rules
 * for a model").
 */
export interface TokenUse {
  _id: string;
  at: Date;
}

/**
 * A code handed to a person (docs/people.md "Invitations and sign-in links"): an invitation to join an
 * organization (P1), or a one-time link to sign in on another device (P5). Only its hash is stored.
 */
export interface Invitation {
  /** SHA-256 of the code: P2 finds it by one exact lookup. */
  _id: string;
  kind: 'invitation' | 'signin';
  /** The invitation's organization and role; null for a sign-in link. */
  organizationId: number | null;
  role: Role | null;
  /** The person's name for a new member; the user re-invited or signing in otherwise. */
  name: string;
  userId: number | null;
  /** Who made it: a user, or null for an API key or the admin command. */
  createdBy: number | null;
  createdAt: Date;
  expiresAt: Date;
  /** Set once, by the request that used it (an atomic claim). */
  usedAt: Date | null;
}

/** A person's passkey (WebAuthn, docs/people.md "Passkeys"), by its credential ID: sign-in reads it by _id. */
export interface Passkey {
  /** The credential ID (base64url). */
  _id: string;
  userId: number;
  /** The COSE public key (base64url). */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A WebAuthn challenge handed out, used once (its use is an InvitationUse `challenge:<id>`). */
export interface PasskeyChallenge {
  _id: string;
  challenge: string;
  purpose: 'register' | 'signin';
  /** The person registering; null for a sign-in (the passkey names him). */
  userId: number | null;
  expiresAt: Date;
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
  TokenUse: Model<TokenUse>;
  CredentialChange: Model<CredentialChange>;
  Invitation: Model<Invitation>;
  /** One per code used, keyed by the code's hash: the unique _id lets exactly one request use it. */
  InvitationUse: Model<{ _id: string; at: Date }>;
  Passkey: Model<Passkey>;
  PasskeyChallenge: Model<PasskeyChallenge>;
}

const opts = { versionKey: false } as const;

/** Identity's collections (read and written in server/identity/ only). */
export const identityModels = defineModels((conn: Connection): IdentityModels => {
  const token = new Schema<Token>(
    {
      _id: String,
      tokenId: { type: Number, required: true },
      kind: { type: String, required: true, enum: ['apikey', 'pat', 'screen', 'session'] },
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
              joinedAt: { type: Date, default: undefined },
            },
            { _id: false },
          ),
        ],
        default: [],
      },
      passkeys: { type: [String], default: undefined },
      createdAt: { type: Date, required: true },
    },
    opts,
  );
  const invitation = new Schema<Invitation>(
    {
      _id: String,
      kind: { type: String, required: true, enum: ['invitation', 'signin'] },
      organizationId: { type: Number, default: null },
      role: { type: String, default: null, enum: ['admin', 'member', null] },
      name: { type: String, required: true },
      userId: { type: Number, default: null },
      createdBy: { type: Number, default: null },
      createdAt: { type: Date, required: true },
      expiresAt: { type: Date, required: true },
      usedAt: { type: Date, default: null },
    },
    opts,
  );
  // The open invitations of an organization (the console's list; administration, not a request path).
  invitation.index({ organizationId: 1 });

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
    TokenUse: conn.model<TokenUse>(
      'TokenUse',
      new Schema<TokenUse>({ _id: String, at: { type: Date, required: true } }, opts),
      'token_uses',
    ),
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
    Invitation: conn.model<Invitation>('Invitation', invitation, 'invitations'),
    InvitationUse: conn.model<{ _id: string; at: Date }>(
      'InvitationUse',
      new Schema<{ _id: string; at: Date }>({ _id: String, at: { type: Date, required: true } }, opts),
      'invitation_uses',
    ),
    Passkey: conn.model<Passkey>(
      'Passkey',
      new Schema<Passkey>(
        {
          _id: String,
          userId: { type: Number, required: true },
          publicKey: { type: String, required: true },
          counter: { type: Number, required: true },
          transports: { type: [String], default: [] },
          name: { type: String, required: true },
          createdAt: { type: Date, required: true },
          lastUsedAt: { type: Date, default: null },
        },
        opts,
      ),
      'passkeys',
    ),
    PasskeyChallenge: conn.model<PasskeyChallenge>(
      'PasskeyChallenge',
      new Schema<PasskeyChallenge>(
        {
          _id: String,
          challenge: { type: String, required: true },
          purpose: { type: String, required: true, enum: ['register', 'signin'] },
          userId: { type: Number, default: null },
          expiresAt: { type: Date, required: true },
        },
        opts,
      ),
      'passkey_challenges',
    ),
  };
});
