// Pairing a screen without putting an organization key on the wall (docs/hub.md "The screen fleet"): the screen asks
// for a short code (F1) and polls with a secret only it knows (F2); an admin binds the code to a monitor
// (F3); the next poll hands the screen its own token, exactly once.
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { notFound } from '../../errors.js';
import { IdentityCommands } from '../../identity/commands.js';
import { revokeCredential } from '../../identity/lookup.js';
import { removedMark, screenModels, type ScreenModels } from './models.js';

/** Letters and digits nobody confuses on a wall or a phone: no 0/O, 1/I/L, 2/Z, 5/S, 8/B, G/6, Q. */
export const CODE_ALPHABET = 'ACDEFHJKMNPRTUVWXY3479';
export const CODE_LENGTH = 8;
export const PAIRING_TTL_MS = 10 * 60_000;
/** Expired pairing documents one sweep batch removes. */
const SWEEP_BATCH = 500;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const pairingKey = (id: string) => `p:${id}`;
const codeKey = (code: string) => `c:${code}`;

/** What F1 answers. */
export interface PairingStart {
  pairingId: string;
  code: string;
  expiresAt: string;
  pollSecret: string;
}

/** What F2 answers. */
export type PairingState =
  | { status: 'waiting'; expiresAt: string }
  | { status: 'paired'; token: string; screenId: number; monitorId: number; name: string };

/** A code as typed by a person: case, spaces and dashes do not matter. */
export function normaliseCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Pairings of screens. */
export class Pairings {
  private readonly models: ScreenModels;

  constructor(private readonly db: Database) {
    this.models = screenModels(db);
  }

  /** F1: a new pairing with a code valid for 10 minutes and the secret the screen polls with. */
  async start(now = Date.now()): Promise<PairingStart> {
    const pairingId = randomBytes(16).toString('base64url');
    const pollSecret = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now + PAIRING_TTL_MS);
    for (;;) {
      const code = newCode();
      try {
        // The code's lookup claims the code: two pairings never share one, even when drawn at once.
        await this.models.Pairing.create({
          _id: codeKey(code),
          pairingId,
          code,
          secretHash: '',
          expiresAt,
          screenId: null,
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        await this.dropIfExpired(codeKey(code), now);
        continue;
      }
      await this.models.Pairing.create({
        _id: pairingKey(pairingId),
        pairingId,
        code,
        secretHash: sha256(pollSecret),
        expiresAt,
        screenId: null,
      });
      return { pairingId, code, expiresAt: expiresAt.toISOString(), pollSecret };
    }
  }

  /** F2: waiting, or the screen's token once after an admin bound the code; 404 for anything else. */
  async poll(pairingId: string, secret: string, now = Date.now()): Promise<PairingState> {
    const pairing = await this.models.Pairing.findById(pairingKey(pairingId)).lean();
    const given = Buffer.from(sha256(secret));
    if (!pairing || pairing.expiresAt.getTime() <= now || !timingSafeEqual(Buffer.from(pairing.secretHash), given))
      throw this.gone();
    if (pairing.screenId === null) return { status: 'waiting', expiresAt: pairing.expiresAt.toISOString() };
    // Two polls at once: the one whose claim wins gets the token; the other sees the pairing gone.
    try {
      await this.models.ScreenClaim.create({ _id: `delivered:${pairingId}`, at: new Date(now) });
    } catch (err) {
      if (isDuplicateKey(err)) throw this.gone();
      throw err;
    }
    await this.models.Pairing.deleteOne({ _id: pairingKey(pairingId) });
    const screen = await this.models.Screen.findById(String(pairing.screenId)).lean();
    if (!screen) throw this.gone();
    const { id: tokenId, token } = await new IdentityCommands(this.db).createScreenToken({
      screenId: pairing.screenId,
      monitorId: screen.monitorId,
      organizationId: screen.organizationId,
      name: screen.name,
    });
    await this.models.Screen.updateOne({ _id: screen._id }, { $set: { tokenId, credential: sha256(token) } });
    // F5 removed the screen meanwhile, having read it before its token was stored: the token goes too.
    if (await this.models.ScreenClaim.exists({ _id: removedMark(pairing.screenId) })) {
      await revokeCredential(this.db, sha256(token));
      throw this.gone();
    }
    return { status: 'paired', token, screenId: pairing.screenId, monitorId: screen.monitorId, name: screen.name };
  }

  /** F3's first half: the waiting pairing behind a typed code, bound to `screenId` once. */
  async bind(typed: string, screenId: () => Promise<number>, now = Date.now()): Promise<number> {
    const code = normaliseCode(typed);
    const entry = await this.models.Pairing.findById(codeKey(code)).lean();
    if (!entry || entry.expiresAt.getTime() <= now) throw this.unknownCode();
    // The code is spent by whoever claims it first (an insert both engines decide atomically).
    try {
      await this.models.ScreenClaim.create({ _id: `bound:${entry.pairingId}`, at: new Date(now) });
    } catch (err) {
      if (isDuplicateKey(err)) throw this.unknownCode();
      throw err;
    }
    await this.models.Pairing.deleteOne({ _id: codeKey(code) });
    const id = await screenId();
    await this.models.Pairing.updateOne({ _id: pairingKey(entry.pairingId) }, { $set: { screenId: id } });
    return id;
  }

  /**
   * Removes expired pairings (both documents of each), at most `batches` × SWEEP_BATCH of them; the
   * number removed. Unfinished pairings are only ever read by exact _id; this background pass is the one
   * read by their expiry (a scan on the embedded engine, of a collection that holds only the pairings
   * of the last minutes). Several processes may sweep at once: a document removed twice is simply gone.
   */
  async sweep(now = Date.now(), batches = 10): Promise<number> {
    let removed = 0;
    for (let i = 0; i < batches; i++) {
      const expired = await this.models.Pairing.find({ expiresAt: { $lte: new Date(now) } }, { _id: 1 })
        .limit(SWEEP_BATCH)
        .lean();
      for (const { _id } of expired) removed += (await this.models.Pairing.deleteOne({ _id })).deletedCount;
      if (expired.length < SWEEP_BATCH) break;
    }
    return removed;
  }

  private async dropIfExpired(key: string, now: number): Promise<void> {
    const held = await this.models.Pairing.findById(key).lean();
    if (held && held.expiresAt.getTime() <= now) await this.models.Pairing.deleteOne({ _id: key });
  }

  private gone() {
    return notFound('Pairing not found, expired or already completed');
  }

  private unknownCode() {
    return notFound('Pairing code not found or expired');
  }
}
