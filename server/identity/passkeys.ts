// Passkeys (WebAuthn; docs/people.md "Passkeys"): a signed-in person registers them, and signs in with
// one on /signin. SimpleWebAuthn makes the options and verifies the browser's answers; this file keeps
// the challenges (each used once, by inserting its use) and the credentials (by credential ID, so a
// sign-in is one exact lookup), with the counter each answer must raise.
import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { withClaimLock } from '../db/claim-lock.js';
import type { Database } from '../db/database.js';
import { isDuplicateKey } from '../db/errors.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { identityModels, type PasskeyChallenge } from './models.js';

/** A challenge is answered within this long (the browser's own prompt times out sooner). */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** The transports WebAuthn names (AuthenticatorTransport). */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** Passkeys a person may hold (phones, laptops, a security key or two). */
export const MAX_PASSKEYS = 20;

/** Where the service is reached: WebAuthn binds a passkey to its host and checks the page's origin. */
export interface RelyingParty {
  name: string;
  id: string;
  origin: string;
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const notVerified = (why: string) => new AppError(401, 'unauthorized', `The passkey was not accepted: ${why}`);

/** The passkeys of every person, over one database. */
export class Passkeys {
  private readonly models;

  constructor(private readonly db: Database) {
    this.models = identityModels(db);
  }

  /** Options for the browser to create a passkey for `userId` (resident key, user verification preferred). */
  async registrationOptions(userId: number, rp: RelyingParty) {
    const user = await this.models.User.findById(String(userId), { name: 1, passkeys: 1 }).lean();
    if (!user) throw notFound(`User ${userId} not found`);
    if ((user.passkeys?.length ?? 0) >= MAX_PASSKEYS)
      throw conflict('limit_reached', `A person holds at most ${MAX_PASSKEYS} passkeys: remove one first`);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.name,
      userDisplayName: user.name,
      userID: new TextEncoder().encode(`user:${userId}`),
      attestationType: 'none',
      excludeCredentials: (user.passkeys ?? []).map((id) => ({ id })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    return { challengeId: await this.hold(options.challenge, 'register', userId), options };
  }

  /** Verifies the browser's new passkey and keeps it. */
  async register(
    userId: number,
    input: { challengeId: string; response: unknown; name?: string },
    rp: RelyingParty,
  ): Promise<PasskeyView> {
    const challenge = await this.use(input.challengeId, 'register', userId);
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: input.response as RegistrationResponseJSON,
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch (err) {
      throw badRequest('invalid_body', `The passkey could not be read: ${(err as Error).message}`);
    }
    if (!verified.verified) throw badRequest('invalid_body', 'The passkey could not be verified');
    const { credential } = verified.registrationInfo;
    const now = new Date();
    // The person's document is changed one writer at a time (as memberships are: identity/commands.ts).
    await withClaimLock(this.db.system.Lock, `user:${userId}`, async () => {
      const user = await this.models.User.findById(String(userId), { passkeys: 1 }).lean();
      if (!user) throw notFound(`User ${userId} not found`);
      if ((user.passkeys?.length ?? 0) >= MAX_PASSKEYS)
        throw conflict('limit_reached', `A person holds at most ${MAX_PASSKEYS} passkeys: remove one first`);
      try {
        await this.models.Passkey.create({
          _id: credential.id,
          userId,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          // What the browser says it reaches the key by, as far as WebAuthn names it; nothing else is kept.
          transports: (credential.transports ?? [])
            .filter((t): t is string => typeof t === 'string' && TRANSPORTS.has(t))
            .slice(0, 10),
          name: (input.name ?? '').trim().slice(0, 100) || 'Passkey',
          createdAt: now,
          lastUsedAt: null,
        });
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict('already_exists', 'This passkey is registered already');
        throw err;
      }
      await this.models.User.updateOne(
        { _id: String(userId) },
        { $set: { passkeys: [...(user.passkeys ?? []), credential.id] } },
      );
    });
    return { id: credential.id, name: input.name?.trim() || 'Passkey', createdAt: now.toISOString(), lastUsedAt: null };
  }

  /** Options for a sign-in with any passkey of this service (the browser offers the person's own). */
  async signInOptions(rp: RelyingParty) {
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred' });
    return { challengeId: await this.hold(options.challenge, 'signin', null), options };
  }

  /** Verifies a sign-in answer; returns the passkey's person. */
  async signIn(input: { challengeId: string; response: unknown }, rp: RelyingParty): Promise<number> {
    const response = input.response as AuthenticationResponseJSON;
    if (typeof response?.id !== 'string') throw badRequest('invalid_body', 'response.id is missing');
    const challenge = await this.use(input.challengeId, 'signin', null);
    const passkey = await this.models.Passkey.findById(response.id).lean();
    if (!passkey) throw notVerified('it is not known here (removed, or made for another service)');
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey._id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      });
    } catch (err) {
      throw notVerified((err as Error).message);
    }
    if (!verified.verified) throw notVerified('the signature does not match');
    await this.models.Passkey.updateOne(
      { _id: passkey._id },
      { $set: { counter: verified.authenticationInfo.newCounter, lastUsedAt: new Date() } },
    );
    return passkey.userId;
  }

  /** The person's passkeys, newest first. */
  async list(userId: number): Promise<PasskeyView[]> {
    const user = await this.models.User.findById(String(userId), { passkeys: 1 }).lean();
    const found = await Promise.all((user?.passkeys ?? []).map((id) => this.models.Passkey.findById(id).lean()));
    return found
      .filter((p) => p !== null)
      .map((p) => ({
        id: p._id,
        name: p.name,
        createdAt: p.createdAt.toISOString(),
        lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
      }))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** Removes one of the person's passkeys; another person's is not found. */
  async remove(userId: number, id: string): Promise<{ status: 'deleted' }> {
    const passkey = await this.models.Passkey.findById(id, { userId: 1 }).lean();
    if (!passkey || passkey.userId !== userId) throw notFound('No such passkey of yours');
    await withClaimLock(this.db.system.Lock, `user:${userId}`, async () => {
      await this.models.Passkey.deleteOne({ _id: id });
      const user = await this.models.User.findById(String(userId), { passkeys: 1 }).lean();
      await this.models.User.updateOne(
        { _id: String(userId) },
        { $set: { passkeys: (user?.passkeys ?? []).filter((p) => p !== id) } },
      );
    });
    return { status: 'deleted' };
  }

  private async hold(challenge: string, purpose: PasskeyChallenge['purpose'], userId: number | null): Promise<string> {
    const id = randomBytes(18).toString('base64url');
    await this.models.PasskeyChallenge.create({
      _id: id,
      challenge,
      purpose,
      userId,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    });
    return id;
  }

  // A challenge answers once: its use is inserted under its ID, so of two answers racing (on any
  // process) one is taken.
  private async use(
    id: string,
    purpose: PasskeyChallenge['purpose'],
    userId: number | null,
  ): Promise<PasskeyChallenge> {
    const expired = () =>
      new AppError(404, 'invalid_code', 'This passkey prompt is unknown, expired or already answered: try again');
    const challenge = await this.models.PasskeyChallenge.findById(id).lean();
    if (!challenge || challenge.purpose !== purpose || challenge.userId !== userId || challenge.expiresAt <= new Date())
      throw expired();
    try {
      await this.models.InvitationUse.create({ _id: `challenge:${id}`, at: new Date() });
    } catch (err) {
      if (isDuplicateKey(err)) throw expired();
      throw err;
    }
    await this.models.PasskeyChallenge.deleteOne({ _id: id });
    return challenge;
  }
}
