// People without passwords (docs/people.md): invitations and sign-in links (P1, P5), joining with a code
// (P2), sessions (P3, P4), and an organization's members (P6–P8). Codes and session tokens are random
// and stored only as their SHA-256; a code is used by inserting its hash once, so it signs in once.
import { withClaimLock } from '../db/claim-lock.js';
import { isDuplicateKey } from '../db/errors.js';
import type { Database } from '../db/database.js';
import { AppError, conflict, notFound } from '../errors.js';
import { SESSION_IDLE_MS, type UserActor } from './actor.js';
import type { IdentityCommands } from './commands.js';
import { credentialsChanged } from './credential-changes.js';
import { identityModels, type Invitation, type Role } from './models.js';
import { forgetUse, lastUseOf, recordUse, withLastUse } from './token-uses.js';
import { generateCode, generateToken, hashToken } from './tokens.js';

/** An invitation is valid this long; a sign-in link for another device much less. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
export const SIGNIN_LINK_TTL_MS = 10 * 60_000;

/** A used, expired and unknown code answer alike: nothing tells a guesser which. */
export const invalidCode = () =>
  new AppError(404, 'invalid_code', 'This code is unknown, expired or already used: ask for a new invitation');

export interface CodeView {
  code: string;
  link: string;
  expiresAt: string;
}

export interface Joined {
  user: { id: number; name: string };
  organizationId: number | null;
  role: Role | null;
  /** The new session's token: the cookie's value, never in a response body. */
  session: string;
}

export interface MemberView {
  userId: number;
  name: string;
  role: Role;
  units: string[];
  joinedAt: string | null;
  lastSeenAt: string | null;
}

/** Last uses the hourly sweep reads at a time. */
const SWEEP_READS = 25;

/** The people of every organization, over one database. */
export class People {
  private readonly models;

  constructor(
    private readonly db: Database,
    private readonly identity: IdentityCommands,
    /** Forgets credentials on every process at once (the hub's broadcast) and closes their sockets. */
    private readonly forget: (credential: string) => Promise<void>,
  ) {
    this.models = identityModels(db);
  }

  /**
   * P1: an invitation to join `organizationId` as `role`; with `userId`, a member already there is
   * invited to sign in on a new device (his role stays). `base`: the service's public URL.
   */
  async invite(
    input: { organizationId: number; name: string; role: Role; userId?: number; createdBy: number | null },
    base: string,
  ): Promise<CodeView & { id: string }> {
    if (input.userId !== undefined) {
      const user = await this.models.User.findById(String(input.userId), { memberships: 1 }).lean();
      if (!user?.memberships.some((m) => m.organizationId === input.organizationId))
        throw notFound(`User ${input.userId} is not a member of organization ${input.organizationId}`);
    }
    const made = await this.issue(
      {
        kind: 'invitation',
        organizationId: input.organizationId,
        role: input.role,
        name: input.name,
        userId: input.userId ?? null,
        createdBy: input.createdBy,
      },
      INVITATION_TTL_MS,
      base,
    );
    return made;
  }

  /** P5: a one-time link that signs the session's user in on another device. */
  async signInLink(actor: UserActor, base: string): Promise<CodeView> {
    const user = await this.models.User.findById(String(actor.userId), { name: 1 }).lean();
    if (!user) throw notFound(`User ${actor.userId} not found`);
    const { id: _id, ...view } = await this.issue(
      {
        kind: 'signin',
        organizationId: null,
        role: null,
        name: user.name,
        userId: actor.userId,
        createdBy: actor.userId,
      },
      SIGNIN_LINK_TTL_MS,
      base,
    );
    return view;
  }

  private async issue(
    fields: Pick<Invitation, 'kind' | 'organizationId' | 'role' | 'name' | 'userId' | 'createdBy'>,
    ttlMs: number,
    base: string,
  ): Promise<CodeView & { id: string }> {
    const code = generateCode();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlMs);
    const id = hashToken(code);
    await this.models.Invitation.create({ _id: id, ...fields, createdAt: now, expiresAt, usedAt: null });
    // The invitation's number for the console is the start of its hash: it names, it does not open.
    return {
      id: id.slice(0, 16),
      code,
      link: `${base.replace(/\/$/, '')}/join/${code}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * P2: claims the code (once, atomically) and signs its person in: a new member is created, an
   * existing one signs in. `device` names the session (the browser's user agent, shortened).
   */
  async join(code: string, device: string): Promise<Joined> {
    const now = new Date();
    const hash = hashToken(code);
    const claimed = await this.models.Invitation.findById(hash).lean();
    if (!claimed || claimed.usedAt || claimed.expiresAt <= now) throw invalidCode();
    // The use is an insert under the code's hash: of requests racing with one code (on any process),
    // exactly one inserts it; a conditional update would let several win on FerretDB.
    try {
      await this.models.InvitationUse.create({ _id: hash, at: now });
    } catch (err) {
      if (isDuplicateKey(err)) throw invalidCode();
      throw err;
    }
    await this.models.Invitation.updateOne({ _id: hash }, { $set: { usedAt: now } });
    let userId = claimed.userId;
    if (claimed.kind === 'invitation' && userId === null) {
      const organizationId = claimed.organizationId!;
      if (!(await this.identity.organizationExists(organizationId))) throw invalidCode();
      const user = await this.identity.createUser(claimed.name);
      userId = user.id;
      await this.identity.addMember(organizationId, userId, claimed.role!);
    }
    const user = await this.models.User.findById(String(userId), { name: 1, memberships: 1 }).lean();
    if (!user) throw invalidCode();
    const membership =
      claimed.organizationId === null
        ? user.memberships[0]
        : user.memberships.find((m) => m.organizationId === claimed.organizationId);
    // A member removed since he was invited to sign in again is not let back in by the old invitation.
    if (claimed.kind === 'invitation' && !membership) throw invalidCode();
    return {
      user: { id: userId!, name: user.name },
      organizationId: membership?.organizationId ?? null,
      role: membership?.role ?? null,
      session: await this.startSession(userId!, device),
    };
  }

  /** A new session of the user (`device` names it); returns its token, the cookie's value. */
  async startSession(userId: number, device: string): Promise<string> {
    const session = generateToken('session');
    const now = new Date();
    const credential = hashToken(session);
    await this.models.Token.create({
      _id: credential,
      tokenId: await this.db.ids.next('token'),
      kind: 'session',
      name: device.slice(0, 120) || 'browser',
      organizationId: null,
      userId,
      createdAt: now,
      revokedAt: null,
    });
    // Signing in is its first use (P6's last seen); without it, the session's start counts.
    await recordUse(this.db, credential, now).catch(() => undefined);
    return session;
  }

  /** The user's name and first organization with his role there (what P2 and a passkey sign-in answer). */
  async signedIn(userId: number) {
    const user = await this.models.User.findById(String(userId), { name: 1, memberships: 1 }).lean();
    if (!user) throw notFound(`User ${userId} not found`);
    const first = user.memberships[0];
    return {
      user: { id: userId, name: user.name },
      organizationId: first?.organizationId ?? null,
      role: first?.role ?? null,
    };
  }

  /** P3: the session's (or token's) person, his organizations and passkeys. */
  async whoAmI(actor: UserActor) {
    const user = await this.models.User.findById(String(actor.userId), { name: 1, memberships: 1, passkeys: 1 }).lean();
    if (!user) throw notFound(`User ${actor.userId} not found`);
    const names = await Promise.all(
      user.memberships.map((m) => this.models.Organization.findById(String(m.organizationId), { name: 1 }).lean()),
    );
    return {
      user: { id: actor.userId, name: user.name },
      organizations: user.memberships
        .map((m, i) => ({ id: m.organizationId, name: names[i]?.name ?? '', role: m.role }))
        .sort((a, b) => a.id - b.id),
      passkeys: user.passkeys?.length ?? 0,
    };
  }

  /** P4: ends the session on every process at once. */
  async signOut(actor: UserActor): Promise<{ signedOut: true }> {
    await this.models.Token.updateOne({ _id: actor.credential }, { $set: { revokedAt: new Date() } });
    await credentialsChanged(this.db);
    await this.forget(actor.credential);
    return { signedOut: true };
  }

  /** P6: the members of an organization, with when each joined and was last seen (his sessions and tokens). */
  async members(organizationId: number): Promise<MemberView[]> {
    const users = await this.models.User.find(
      { 'memberships.organizationId': organizationId },
      { name: 1, memberships: 1 },
    ).lean();
    const listed = users.filter((u) => u.memberships.some((m) => m.organizationId === organizationId));
    const tokens = await withLastUse(
      this.db,
      await this.models.Token.find(
        { userId: { $in: listed.map((u) => Number(u._id)) } },
        { userId: 1, lastUsedAt: 1 },
      ).lean(),
    );
    const seen = new Map<number, number>();
    for (const t of tokens)
      if (t.lastUsedAt) seen.set(t.userId!, Math.max(seen.get(t.userId!) ?? 0, t.lastUsedAt.getTime()));
    return listed
      .map((u) => {
        const m = u.memberships.find((e) => e.organizationId === organizationId)!;
        const last = seen.get(Number(u._id));
        return {
          userId: Number(u._id),
          name: u.name,
          role: m.role,
          units: m.units ?? [],
          joinedAt: m.joinedAt?.toISOString() ?? null,
          lastSeenAt: last ? new Date(last).toISOString() : null,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId - b.userId);
  }

  /** P7: changes a member's role; the last admin stays one (409). */
  async changeRole(organizationId: number, userId: number, role: Role): Promise<MemberView> {
    await this.withAdmins(organizationId, async (admins) => {
      const current = await this.roleOf(organizationId, userId);
      if (current === 'admin' && role !== 'admin' && admins.size === 1)
        throw conflict(
          'last_admin',
          'The last admin of an organization cannot be demoted: make another member admin first',
        );
      await this.identity.addMember(organizationId, userId, role);
    });
    await this.forgetCredentialsOf(userId);
    return (await this.members(organizationId)).find((m) => m.userId === userId)!;
  }

  /** P8: removes a member; his sessions and tokens lose the organization at once, on every process. */
  async remove(organizationId: number, userId: number): Promise<{ status: 'deleted' }> {
    await this.withAdmins(organizationId, async (admins) => {
      const current = await this.roleOf(organizationId, userId);
      if (current === 'admin' && admins.size === 1)
        throw conflict(
          'last_admin',
          'The last admin of an organization cannot be removed: make another member admin first',
        );
      await this.identity.removeMember(organizationId, userId);
    });
    await this.forgetCredentialsOf(userId);
    return { status: 'deleted' };
  }

  /** Removes users an import had just created (with their invitations), when the import failed midway. */
  async forgetNewUsers(userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.models.Invitation.deleteMany({ userId: { $in: userIds } });
    await this.models.User.deleteMany({ _id: { $in: userIds.map(String) } });
    await credentialsChanged(this.db);
  }

  /**
   * The hourly sweep: what can no longer be used goes — expired passkey challenges, invitations a month
   * past their expiry, code uses older than any code they guard (8 days), sessions signed out or unused
   * for 30 days. Returns how many of each.
   */
  async sweep(now = Date.now()) {
    const { PasskeyChallenge, Invitation, InvitationUse, Token } = this.models;
    const day = 24 * 3_600_000;
    const challenges = await PasskeyChallenge.deleteMany({ expiresAt: { $lt: new Date(now) } });
    const invitations = await Invitation.deleteMany({ expiresAt: { $lt: new Date(now - 30 * day) } });
    const uses = await InvitationUse.deleteMany({ at: { $lt: new Date(now - 8 * day) } });
    // Sessions signed out a day ago, or unused for 30 days. Their last use lives beside them
    // (token-uses.ts): it is read, by exact lookups, only for those the token alone calls unused.
    const idle = now - SESSION_IDLE_MS;
    const sessions = await Token.find({ kind: 'session' }, { createdAt: 1, lastUsedAt: 1, revokedAt: 1 }).lean();
    const signedOut = sessions.filter((t) => t.revokedAt && t.revokedAt.getTime() < now - day);
    const maybeIdle = sessions.filter(
      (t) => !t.revokedAt && Math.max(t.createdAt.getTime(), t.lastUsedAt?.getTime() ?? 0) < idle,
    );
    const lastUses: Array<Date | null> = [];
    for (let i = 0; i < maybeIdle.length; i += SWEEP_READS)
      lastUses.push(...(await Promise.all(maybeIdle.slice(i, i + SWEEP_READS).map((t) => lastUseOf(this.db, t)))));
    const ended = [...signedOut, ...maybeIdle.filter((_, i) => (lastUses[i]?.getTime() ?? 0) < idle)].map((t) => t._id);
    let deleted = 0;
    for (const _id of ended) {
      deleted += (await Token.deleteOne({ _id })).deletedCount;
      await forgetUse(this.db, _id);
    }
    return {
      challenges: challenges.deletedCount,
      invitations: invitations.deletedCount,
      uses: uses.deletedCount,
      sessions: deleted,
    };
  }

  private async roleOf(organizationId: number, userId: number): Promise<Role> {
    const user = await this.models.User.findById(String(userId), { memberships: 1 }).lean();
    const role = user?.memberships.find((m) => m.organizationId === organizationId)?.role;
    if (!role) throw notFound(`User ${userId} is not a member of organization ${organizationId}`);
    return role;
  }

  // Role changes and removals of one organization one at a time, across processes: two admins demoting
  // each other at once leave one admin, not none.
  private withAdmins(organizationId: number, run: (admins: Set<number>) => Promise<void>): Promise<void> {
    return withClaimLock(this.db.system.Lock, `org-admins:${organizationId}`, async () => {
      const members = await this.members(organizationId);
      await run(new Set(members.filter((m) => m.role === 'admin').map((m) => m.userId)));
    });
  }

  // Every process reads the user's credentials afresh, and the hub closes their sockets (they reconnect
  // with the rights that are left).
  private async forgetCredentialsOf(userId: number): Promise<void> {
    const tokens = await this.models.Token.find({ userId, revokedAt: null }, { _id: 1 }).lean();
    for (const t of tokens) await this.forget(t._id);
  }
}
