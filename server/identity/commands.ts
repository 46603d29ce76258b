// Identity commands behind the admin command line (and the tests' fixtures).
import type { Database } from '../db/database.js';
import { isDuplicateKey } from '../db/errors.js';
import { notFound } from '../http/errors.js';
import type { Role } from './models.js';
import { generateToken, hashToken } from './tokens.js';

/** The identity commands over one database. */
export class IdentityCommands {
  constructor(private readonly db: Database) {}

  /** Creates an organization. */
  async createOrganization(name: string): Promise<{ id: number; name: string }> {
    const { Organization } = this.db.models;
    const id = await this.db.ids.next('organization');
    // No record limit of its own: the configured default applies until `org limit` sets one.
    await Organization.create({ _id: id, name, recordLimit: null, createdAt: new Date() });
    return { id, name };
  }

  /** Creates a user. */
  async createUser(name: string): Promise<{ id: number; name: string }> {
    const { User } = this.db.models;
    const id = await this.db.ids.next('user');
    await User.create({ _id: id, name, createdAt: new Date() });
    return { id, name };
  }

  /** Adds a user to an organization, or changes his role there. */
  async addMember(organizationId: number, userId: number, role: Role) {
    await this.requireOrganization(organizationId);
    if (!(await this.db.models.User.exists({ _id: userId }))) throw notFound(`User ${userId} not found`);
    const { Membership } = this.db.models;
    try {
      await Membership.create({ organizationId, userId, role });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      await Membership.updateOne({ organizationId, userId }, { $set: { role } });
    }
    return { organizationId, userId, role };
  }

  /** Removes a user from an organization; his screens there are disconnected within the hub's recheck. */
  async removeMember(organizationId: number, userId: number) {
    const { deletedCount } = await this.db.models.Membership.deleteOne({ organizationId, userId });
    if (!deletedCount) throw notFound(`User ${userId} is not a member of organization ${organizationId}`);
    return { organizationId, userId, removed: true as const };
  }

  /** Creates an organization API key; the token is returned once and stored only as a hash. */
  async createApiKey(organizationId: number, name: string) {
    await this.requireOrganization(organizationId);
    return this.createToken({ kind: 'apikey', name, organizationId, userId: null });
  }

  /** Creates a user's personal access token. */
  async createPersonalToken(userId: number, name: string) {
    if (!(await this.db.models.User.exists({ _id: userId }))) throw notFound(`User ${userId} not found`);
    return this.createToken({ kind: 'pat', name, organizationId: null, userId });
  }

  /** Revokes a token by ID; revoking twice is harmless. */
  async revokeToken(id: number): Promise<{ revoked: true }> {
    const doc = await this.db.models.Token.findOne({ tokenId: id }).lean();
    if (!doc) throw notFound(`Token ${id} not found`);
    if (!doc.revokedAt) await this.db.models.Token.updateOne({ _id: doc._id }, { $set: { revokedAt: new Date() } });
    return { revoked: true };
  }

  /** Sets the record limit of an organization (things area). */
  async setRecordLimit(organizationId: number, recordLimit: number) {
    await this.requireOrganization(organizationId);
    await this.db.models.Organization.updateOne({ _id: organizationId }, { $set: { recordLimit } });
    return { organizationId, recordLimit };
  }

  private async requireOrganization(id: number) {
    if (!(await this.db.models.Organization.exists({ _id: id }))) throw notFound(`Organization ${id} not found`);
  }

  private async createToken(fields: { kind: 'apikey' | 'pat'; name: string; organizationId: number | null; userId: number | null }) {
    const { Token } = this.db.models;
    const token = generateToken(fields.kind);
    const id = await this.db.ids.next('token');
    await Token.create({ _id: hashToken(token), tokenId: id, ...fields, createdAt: new Date(), revokedAt: null });
    return { id, token };
  }
}
