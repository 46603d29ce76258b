// Identity commands behind the admin command line (and the tests' fixtures).
import { withClaimLock } from '../db/claim-lock.js';
import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';
import { credentialsChanged } from './credential-changes.js';
import { organizationExists, userExists } from './lookup.js';
import { identityModels, type MembershipEntry, type Role, type Token, type TokenKind } from './models.js';
import { lastUseOf, withLastUse } from './token-uses.js';
import { generateToken, hashToken } from './tokens.js';

/** The identity commands over one database. */
export class IdentityCommands {
  private readonly models;

  constructor(private readonly db: Database) {
    this.models = identityModels(db);
  }

  /** Creates an organization. */
  async createOrganization(name: string): Promise<{ id: number; name: string }> {
    const { Organization } = this.models;
    const id = await this.db.ids.next('organization');
    // No record limit of its own: the configured default applies until `org limit` sets one.
    await Organization.create({ _id: String(id), name, recordLimit: null, createdAt: new Date() });
    return { id, name };
  }

  /** Creates a user. */
  async createUser(name: string): Promise<{ id: number; name: string }> {
    const { User } = this.models;
    const id = await this.db.ids.next('user');
    await User.create({ _id: String(id), name, memberships: [], createdAt: new Date() });
    return { id, name };
  }

  /** Adds a user to an organization (joining now), or changes his role there. */
  async addMember(organizationId: number, userId: number, role: Role, units?: string[]) {
    await this.requireOrganization(organizationId);
    let kept: string[] = [];
    await this.changeMemberships(userId, (list) => {
      const was = list.find((m) => m.organizationId === organizationId);
      kept = units ?? was?.units ?? [];
      const joinedAt = was ? was.joinedAt : new Date();
      return [
        ...list.filter((m) => m.organizationId !== organizationId),
        { organizationId, role, units: kept, ...(joinedAt ? { joinedAt } : {}) },
      ];
    });
    return { organizationId, userId, role, units: kept };
  }

  /** Sets the units a member rides in an organization (the wall lists him under them). */
  async setMemberUnits(organizationId: number, userId: number, units: string[]) {
    let role: Role | null = null;
    await this.changeMemberships(userId, (list) =>
      list.map((m) => {
        if (m.organizationId !== organizationId) return m;
        role = m.role;
        return { ...m, units };
      }),
    );
    if (!role) throw notFound(`User ${userId} is not a member of organization ${organizationId}`);
    return { organizationId, userId, role, units };
  }

  /** Removes a user from an organization; his screens there are disconnected within the hub's recheck. */
  async removeMember(organizationId: number, userId: number) {
    let was = false;
    await this.changeMemberships(userId, (list) => {
      was = list.some((m) => m.organizationId === organizationId);
      return list.filter((m) => m.organizationId !== organizationId);
    });
    if (!was) {
      // A retry of a removal whose mark failed after its write finds no membership: it marks anyway.
      await credentialsChanged(this.db);
      throw notFound(`User ${userId} is not a member of organization ${organizationId}`);
    }
    return { organizationId, userId, removed: true as const };
  }

  // Read-modify-write of one user's memberships, one change at a time across processes.
  private async changeMemberships(userId: number, change: (list: MembershipEntry[]) => MembershipEntry[]) {
    const { User } = this.models;
    const { Lock } = this.db.system;
    await withClaimLock(Lock, `user:${userId}`, async () => {
      const user = await User.findById(String(userId)).lean();
      if (!user) throw notFound(`User ${userId} not found`);
      const next = change(
        user.memberships.map(({ organizationId, role, units, joinedAt }) => ({
          organizationId,
          role,
          units: units ?? [],
          ...(joinedAt ? { joinedAt } : {}),
        })),
      );
      await User.updateOne({ _id: String(userId) }, { $set: { memberships: next } });
      // A user who left an organization: the hub's next recheck looks at his sockets.
      if (user.memberships.some((m) => !next.some((n) => n.organizationId === m.organizationId)))
        await credentialsChanged(this.db);
    });
  }

  /** Creates an organization API key; the token is returned once and stored only as a hash. */
  async createApiKey(organizationId: number, name: string) {
    await this.requireOrganization(organizationId);
    return this.createToken({ kind: 'apikey', name, organizationId, userId: null });
  }

  /** Creates a user's personal access token. */
  async createPersonalToken(userId: number, name: string) {
    if (!(await userExists(this.db, userId))) throw notFound(`User ${userId} not found`);
    return this.createToken({ kind: 'pat', name, organizationId: null, userId });
  }

  /** Revokes a token by ID; revoking twice is harmless. */
  async revokeToken(id: number): Promise<{ revoked: true }> {
    const doc = await this.models.Token.findOne({ tokenId: id }).lean();
    if (!doc) throw notFound(`Token ${id} not found`);
    if (!doc.revokedAt) await this.models.Token.updateOne({ _id: doc._id }, { $set: { revokedAt: new Date() } });
    // Also when it was revoked already: a revocation whose mark failed is marked by its retry.
    await credentialsChanged(this.db);
    return { revoked: true };
  }

  /**
   * An organization's API keys (docs/people.md "API keys"), oldest first. Few keys and a rare request of
   * an admin: the scan of the tokens by organization is cheap enough here.
   */
  async apiKeysOf(organizationId: number) {
    const docs = await withLastUse(this.db, await this.models.Token.find({ organizationId, kind: 'apikey' }).lean());
    return docs.sort((a, b) => a.tokenId - b.tokenId).map(apiKeyView);
  }

  /**
   * One of an organization's API keys with the hash it is stored under (for the hub to forget it); another
   * organization's key, or a token of another kind, is not found.
   */
  async apiKeyOf(organizationId: number, keyId: number) {
    const doc = await this.models.Token.findOne({ tokenId: keyId }).lean();
    if (!doc || doc.kind !== 'apikey' || doc.organizationId !== organizationId)
      throw notFound(`API key ${keyId} not found in organization ${organizationId}`);
    return { key: apiKeyView({ ...doc, lastUsedAt: await lastUseOf(this.db, doc) }), hash: doc._id };
  }

  /** Every organization, by ID, with the record limit that applies to it: its own, else `defaultRecordLimit`. */
  async listOrganizations(defaultRecordLimit: number) {
    const docs = await this.models.Organization.find({}).lean();
    return docs
      .map((o) => ({
        id: Number(o._id),
        name: o.name,
        recordLimit: o.recordLimit ?? defaultRecordLimit,
        recordLimitFrom: o.recordLimit == null ? 'THINGS_RECORD_LIMIT' : 'org limit',
        createdAt: o.createdAt.toISOString(),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** Every user (or the members of one organization), by ID, with their memberships. */
  async listUsers(organizationId?: number) {
    if (organizationId !== undefined) await this.requireOrganization(organizationId);
    const docs = await this.models.User.find(
      organizationId === undefined ? {} : { 'memberships.organizationId': organizationId },
    ).lean();
    return docs
      .map((u) => ({
        id: Number(u._id),
        name: u.name,
        createdAt: u.createdAt.toISOString(),
        memberships: u.memberships.map(({ organizationId: org, role, units }) => ({
          organizationId: org,
          role,
          units: units ?? [],
        })),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** The members of an organization with their roles. */
  async listMembers(organizationId: number) {
    const users = await this.listUsers(organizationId);
    return users.map((u) => ({
      userId: u.id,
      name: u.name,
      role: u.memberships.find((m) => m.organizationId === organizationId)!.role,
      units: u.memberships.find((m) => m.organizationId === organizationId)!.units,
    }));
  }

  /** The tokens of an organization (API keys and screen tokens) or of a user: never the secret. */
  async listTokens(owner: { organizationId: number } | { userId: number }) {
    if ('organizationId' in owner) await this.requireOrganization(owner.organizationId);
    else if (!(await userExists(this.db, owner.userId))) throw notFound(`User ${owner.userId} not found`);
    const docs = await withLastUse(
      this.db,
      await this.models.Token.find(
        'organizationId' in owner ? { organizationId: owner.organizationId } : { userId: owner.userId },
      ).lean(),
    );
    return docs
      .map((t) => ({
        id: t.tokenId,
        name: t.name,
        kind: t.kind,
        ...(t.screenId ? { screenId: t.screenId, monitorId: t.monitorId } : {}),
        createdAt: t.createdAt.toISOString(),
        lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
        revokedAt: t.revokedAt?.toISOString() ?? null,
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** Sets the record limit of an organization (things area). */
  async setRecordLimit(organizationId: number, recordLimit: number) {
    await this.requireOrganization(organizationId);
    await this.models.Organization.updateOne({ _id: String(organizationId) }, { $set: { recordLimit } });
    return { organizationId, recordLimit };
  }

  /** True when the organization exists. */
  organizationExists(id: number): Promise<boolean> {
    return organizationExists(this.db, id);
  }

  private async requireOrganization(id: number) {
    if (!(await organizationExists(this.db, id))) throw notFound(`Organization ${id} not found`);
  }

  /** Creates a screen's token: it reads one monitor only. */
  async createScreenToken(screen: { screenId: number; monitorId: number; organizationId: number; name: string }) {
    return this.createToken({
      kind: 'screen',
      name: screen.name,
      organizationId: screen.organizationId,
      userId: null,
      screenId: screen.screenId,
      monitorId: screen.monitorId,
    });
  }

  private async createToken(fields: {
    kind: TokenKind;
    name: string;
    organizationId: number | null;
    userId: number | null;
    screenId?: number;
    monitorId?: number;
  }) {
    const { Token } = this.models;
    const token = generateToken(fields.kind);
    const id = await this.db.ids.next('token');
    await Token.create({ _id: hashToken(token), tokenId: id, ...fields, createdAt: new Date(), revokedAt: null });
    return { id, token };
  }
}

/** An API key as K1–K3 show it (never its token). */
function apiKeyView(t: Pick<Token, 'tokenId' | 'name' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>) {
  return {
    id: t.tokenId,
    name: t.name,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}
