// Confirmation tokens of pushes: 256 random bits, stored only as their SHA-256 (the _id, so every
// lookup is by _id), answerable until they expire. push/delivered records delivery; A11 records the
// one answer, whose document shares the confirmation's _id: of two racing answers only one inserts.
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { WriteBatch } from '../../db/write-batch.js';
import { badRequest, forbidden } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canAnswerPush } from '../../identity/policy.js';
import type { AnswerDataInput } from '../../../schemas/app.js';
import { appModels, type DeviceDoc, type PushConfirmationDoc } from './models.js';

export const TOKEN_INVALID = 'token or answer not found or invalid';
const SWEEP_EVERY_MS = 60 * 60_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const invalid = (problem: string) =>
  badRequest('invalid_parameter', TOKEN_INVALID, [{ in: 'path', path: 'token', problem }]);

/** Issues and answers confirmation tokens. */
export class PushConfirmations {
  private lastSweep = 0;
  // The tokens of an alarm's pushes, issued in the same moment, are stored together (write-batch.ts).
  private readonly inserts: WriteBatch<PushConfirmationDoc>;

  constructor(
    private readonly db: Database,
    private readonly ttlSeconds: number,
  ) {
    this.inserts = new WriteBatch(async (docs) => {
      await appModels(this.db).PushConfirmation.insertMany(docs, { ordered: false, lean: true });
    });
  }

  /** A new token for a push to `device`. */
  async issue(device: DeviceDoc, organizationId: number | null, alarmId: number | null = null): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.inserts.add({
      _id: hash(token),
      deviceId: Number(device._id),
      ownerID: device.ownerID,
      organizationID: organizationId,
      alarmId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ttlSeconds * 1000),
      deliveredAt: null,
    });
    this.sweep(now);
    return token;
  }

  /** Forgets a token whose push was not sent. */
  async discard(token: string): Promise<void> {
    await appModels(this.db).PushConfirmation.deleteOne({ _id: hash(token) });
  }

  /** push/delivered: records the first delivery (later receipts change nothing); the confirmation is returned. */
  async delivered(actor: Actor, token: string): Promise<PushConfirmationDoc> {
    const doc = await this.answerable(actor, token);
    if (!doc.deliveredAt)
      await appModels(this.db).PushConfirmation.updateOne({ _id: doc._id }, { $set: { deliveredAt: new Date() } });
    return doc;
  }

  /** A11: records the answer once; the confirmation it answers is returned. */
  async answer(actor: Actor, token: string, answer: 'yes' | 'no', data: AnswerDataInput): Promise<PushConfirmationDoc> {
    const doc = await this.answerable(actor, token);
    try {
      await appModels(this.db).PushAnswer.create({
        _id: doc._id,
        answer,
        distance: data.distance ?? null,
        duration: data.duration ?? null,
        answeredAt: new Date(),
      });
    } catch (err) {
      if (isDuplicateKey(err)) throw invalid('was already answered');
      throw err;
    }
    // An answer proves delivery, should the receipt have been lost.
    if (!doc.deliveredAt)
      await appModels(this.db).PushConfirmation.updateOne({ _id: doc._id }, { $set: { deliveredAt: new Date() } });
    return doc;
  }

  private async answerable(actor: Actor, token: string): Promise<PushConfirmationDoc> {
    const doc = await appModels(this.db).PushConfirmation.findById(hash(token)).lean();
    if (!doc) throw invalid('is unknown');
    if (doc.expiresAt.getTime() <= Date.now()) throw invalid('has expired');
    if (!canAnswerPush(actor, doc))
      throw forbidden(
        "Only the app of the device's owner (his personal access token), while he is a member of the push's organization, answers this push",
      );
    return doc;
  }

  // Expired tokens are removed at most hourly, by whichever process issues one (FerretDB has no TTL indexes).
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now.getTime();
    // An expired token is refused when it is read (its expiry is checked in code): a removal that fails
    // only leaves it for the next sweep.
    void appModels(this.db)
      .PushConfirmation.deleteMany({ expiresAt: { $lt: now } })
      .catch(() => undefined);
  }
}
