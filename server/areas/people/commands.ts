// People's operations (P1–P9, docs/people.md) over identity's People: who may do what, the session
// cookie, the guessing limits, and the roster import's channel numbers (the sms and call areas keep them).
import type { Context } from 'koa';
import type { Database } from '../../db/database.js';
import { AppError, badRequest, forbidden, rateLimited } from '../../errors.js';
import { SESSION_COOKIE, fromAnotherSite } from '../../http/authenticate.js';
import type { Limiter, Limits } from '../../http/limits.js';
import type { PublicUrl } from '../../http/public-url.js';
import { SESSION_IDLE_MS, type Actor, type UserActor } from '../../identity/actor.js';
import { IdentityCommands } from '../../identity/commands.js';
import { membershipsOf } from '../../identity/lookup.js';
import type { Role } from '../../identity/models.js';
import { Passkeys, type RelyingParty } from '../../identity/passkeys.js';
import { People } from '../../identity/people.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { CredentialEvents, OrganizationEvents } from '../../hub/events.js';
import type { ChannelNumbers } from '../channels/numbers.js';
import { checkGsm } from '../channels/fields.js';
import { checkNumbers } from './roster.js';

/** The channel numbers a roster import enters (the sms and call areas' parts, asked for when needed). */
export interface RosterChannels {
  mobiles(): ChannelNumbers;
  phones(): ChannelNumbers;
}

export interface ImportLine {
  name: string;
  role?: Role;
  mobile?: string;
  phone?: string;
  units?: string[];
}

/** People's commands, as the routes call them. */
export class PeopleCommands {
  readonly people: People;
  readonly passkeys: Passkeys;
  private readonly identity: IdentityCommands;
  /** Wrong codes per code prefix (a guesser spread over many addresses still meets it). */
  private readonly wrongCodes: Limiter;

  constructor(
    private readonly db: Database,
    private readonly events: CredentialEvents & OrganizationEvents,
    limits: Limits,
    private readonly publicUrl: PublicUrl,
    private readonly channels: RosterChannels,
  ) {
    this.identity = new IdentityCommands(db);
    this.people = new People(db, this.identity, (credential) => events.credentialRevoked(credential));
    this.wrongCodes = limits.create('join-code-prefix', 10 / 60, 10, true);
    this.passkeys = new Passkeys(db);
  }

  /** The relying party passkeys are bound to: the public URL's host and origin. */
  private get rp(): RelyingParty {
    return { name: 'alarm-hub', id: this.publicUrl.hostname, origin: this.publicUrl.origin };
  }

  /** PK1: options to create a passkey (the session's person). */
  passkeyOptions(actor: Actor) {
    return this.passkeys.registrationOptions(session(actor).userId, this.rp);
  }

  /** PK2: keeps the new passkey. */
  registerPasskey(actor: Actor, body: { challengeId: string; response: unknown; name?: string }) {
    return this.passkeys.register(session(actor).userId, body, this.rp);
  }

  /** PK3: the person's passkeys. */
  async listPasskeys(actor: Actor) {
    return { passkeys: await this.passkeys.list(person(actor).userId) };
  }

  /** PK4: removes one of them. */
  removePasskey(actor: Actor, id: string) {
    return this.passkeys.remove(session(actor).userId, id);
  }

  /** PK5: options to sign in with a passkey (no credential). */
  signInOptions() {
    return this.passkeys.signInOptions(this.rp);
  }

  /** PK6: signs the passkey's person in and sets the session cookie. */
  async signInWithPasskey(ctx: Context, body: { challengeId: string; response: unknown }) {
    if (fromAnotherSite(ctx, this.publicUrl))
      throw new AppError(403, 'csrf', `Signing in must be done from a page of ${this.publicUrl.origin}`);
    const userId = await this.passkeys.signIn(body, this.rp);
    this.setCookie(ctx, await this.people.startSession(userId, shortAgent(ctx.get('User-Agent'))), SESSION_IDLE_MS);
    return this.people.signedIn(userId);
  }

  /** P1: admins and the API key of the organization. */
  async invite(actor: Actor, body: { organizationID: number; name: string; role: Role; userId?: number }) {
    this.mayConfigure(actor, body.organizationID);
    // Re-inviting signs the person in with all his rights: only someone who configures every organization
    // he belongs to may hand him that link (docs/people.md "Invitations and sign-in links").
    if (body.userId !== undefined) {
      const his = (await membershipsOf(this.db, [body.userId])).get(body.userId) ?? new Set<number>();
      if ([...his].some((org) => !canConfigure(actor, org)))
        throw forbidden(
          'This person belongs to organizations you do not administer: he signs in with a passkey, a sign-in ' +
            'link from a device he uses, or an invitation from an admin of all of them',
        );
    }
    return this.people.invite(
      {
        organizationId: body.organizationID,
        name: body.name.trim(),
        role: body.role,
        userId: body.userId,
        createdBy: actor.kind === 'user' ? actor.userId : null,
      },
      this.publicUrl.href,
    );
  }

  /** P2: signs the code's person in and sets the session cookie. */
  async join(ctx: Context, code: string) {
    // A cross-site page may not sign a visitor in to a session of its choosing (login CSRF).
    if (fromAnotherSite(ctx, this.publicUrl))
      throw new AppError(403, 'csrf', `Joining must be done from a page of ${this.publicUrl.origin}`);
    // The try is spent before the code is compared, in one atomic step (a look first and a spend after a
    // wrong code let a burst of guesses sent at once all be compared), and given back when the code
    // matched or could not be compared (docs/people.md "Invitations and sign-in links").
    const prefix = code.slice(0, 4);
    const wait = await this.wrongCodes.take(prefix);
    if (wait > 0) throw rateLimited(wait);
    let joined: Awaited<ReturnType<People['join']>>;
    try {
      joined = await this.people.join(code, shortAgent(ctx.get('User-Agent')));
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'invalid_code')) await this.wrongCodes.give(prefix, 1);
      throw err;
    }
    await this.wrongCodes.give(prefix, 1);
    this.setCookie(ctx, joined.session, SESSION_IDLE_MS);
    if (joined.organizationId !== null) this.membersChanged(joined.organizationId);
    const { session: _session, ...answer } = joined;
    return answer;
  }

  /**
   * P3: a person's own view (a session or his personal access token). A session's cookie is sent again
   * with 30 days to live: the pages ask on every load, so a person who uses them stays signed in.
   */
  whoAmI(ctx: Context, actor: Actor) {
    const user = person(actor);
    const cookie = user.session ? ctx.cookies.get(SESSION_COOKIE) : undefined;
    if (cookie) this.setCookie(ctx, cookie, SESSION_IDLE_MS);
    return this.people.whoAmI(user);
  }

  /** P4: the session ends on every process; the cookie is cleared. */
  async signOut(ctx: Context, actor: Actor) {
    const answer = await this.people.signOut(session(actor));
    this.setCookie(ctx, '', 0);
    return answer;
  }

  /** P5: a one-time link for another device. */
  signInLink(actor: Actor) {
    return this.people.signInLink(session(actor), this.publicUrl.href);
  }

  /** P6: every member of the organization reads the list. */
  async members(actor: Actor, organizationId: number) {
    if (!canRead(actor, organizationId)) throw forbidden();
    return { members: await this.people.members(organizationId) };
  }

  /** P7: an admin (a person) changes a role. */
  async changeRole(actor: Actor, organizationId: number, userId: number, role: Role) {
    this.adminPerson(actor, organizationId);
    const member = await this.people.changeRole(organizationId, userId, role);
    this.membersChanged(organizationId);
    return member;
  }

  /** P8: an admin (a person) removes a member. */
  async remove(actor: Actor, organizationId: number, userId: number) {
    this.adminPerson(actor, organizationId);
    const removed = await this.people.remove(organizationId, userId);
    this.membersChanged(organizationId);
    return removed;
  }

  // The console's member lists read P6 again (docs/people.md "Members").
  private membersChanged(organizationId: number): void {
    this.events.toOrganization(organizationId, 'members:changed', { organizationId });
  }

  /**
   * P9: every line is checked first (the schema, then each number as S11/C8 check it); then each person
   * is created with his membership, units, numbers and an invitation to hand over.
   */
  async importRoster(
    actor: Actor,
    organizationId: number,
    lines: ImportLine[],
    csvLine: ((path: string) => string) | null,
  ) {
    this.mayConfigure(actor, organizationId);
    const checked = checkNumbers(lines, checkPersonalNumber, csvLine);
    const members = [];
    const made: { users: number[]; mobiles: number[]; phones: number[] } = { users: [], mobiles: [], phones: [] };
    try {
      for (const line of checked) {
        const name = line.name.trim();
        const user = await this.identity.createUser(name);
        made.users.push(user.id);
        await this.identity.addMember(organizationId, user.id, line.role ?? 'member', line.units ?? []);
        const entered = { ownerID: user.id, name: '', active: true };
        if (line.mobile)
          made.mobiles.push(
            (await this.channels.mobiles().create(actor, organizationId, { ...entered, gsm: line.mobile })).id,
          );
        if (line.phone)
          made.phones.push(
            (await this.channels.phones().create(actor, organizationId, { ...entered, gsm: line.phone })).id,
          );
        const { id: _id, ...invitation } = await this.people.invite(
          {
            organizationId,
            name,
            role: line.role ?? 'member',
            userId: user.id,
            createdBy: actor.kind === 'user' ? actor.userId : null,
          },
          this.publicUrl.href,
        );
        members.push({ userId: user.id, name, invitation });
      }
    } catch (err) {
      // A failure midway (the database went away) takes back what this import made, so that a retry
      // does not create the first people twice.
      await this.undoImport(actor, organizationId, made).catch(() => undefined);
      throw err;
    }
    this.membersChanged(organizationId);
    return { created: members.length, members };
  }

  private async undoImport(
    actor: Actor,
    organizationId: number,
    made: { users: number[]; mobiles: number[]; phones: number[] },
  ): Promise<void> {
    for (const id of made.mobiles) await this.channels.mobiles().remove(actor, id, organizationId);
    for (const id of made.phones) await this.channels.phones().remove(actor, id, organizationId);
    await this.people.forgetNewUsers(made.users);
  }

  private mayConfigure(actor: Actor, organizationId: number): void {
    if (!canConfigure(actor, organizationId))
      throw forbidden("Inviting and importing members needs an organization admin or the organization's API key");
  }

  private adminPerson(actor: Actor, organizationId: number): void {
    if (actor.kind !== 'user' || !canConfigure(actor, organizationId))
      throw forbidden('Changing and removing members needs an admin of the organization (a person, not an API key)');
  }

  // HttpOnly (no script reads it), SameSite=Lax (no cross-site request carries it but a link followed),
  // Secure when the public URL is https.
  private setCookie(ctx: Context, value: string, maxAgeMs: number): void {
    if (this.publicUrl.secure) ctx.cookies.secure = true;
    ctx.cookies.set(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.publicUrl.secure,
      path: '/',
      overwrite: true,
      ...(maxAgeMs > 0 ? { maxAge: maxAgeMs } : { expires: new Date(0) }),
    });
  }
}

/** A number a person carries, as S11 and C8 check it; its stored form (00…). */
export function checkPersonalNumber(gsm: string): string {
  return checkGsm(gsm, 'The number is not valid', true);
}

function person(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw forbidden('An API key is no person: sign in, or use a personal access token');
  return actor;
}

function session(actor: Actor): UserActor {
  if (actor.kind !== 'user' || !actor.session)
    throw badRequest('invalid_parameter', 'This needs the session cookie of a signed-in browser, not a token');
  return actor;
}

// "Firefox on Android": enough for a person to tell his sessions apart.
function shortAgent(agent: string): string {
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrome\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}
