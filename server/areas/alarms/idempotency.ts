// AL1's Idempotency-Key (docs/alarms.md "Raised"): the first request with a key takes it under a unique
// _id (per organization) naming the alarm ID it will raise; a repeat within 24 h answers that alarm. A
// key whose request died before its alarm appeared is given up after ABANDONED_KEY_MS.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { isDuplicateKey } from '../../db/errors.js';
import { AppError, badRequest, conflict } from '../../errors.js';
import type { AlarmDoc, AlarmModels } from './models.js';

/** How long an Idempotency-Key answers with the alarm it raised. */
export const IDEMPOTENCY_MS = 24 * 60 * 60_000;
/** A key whose alarm never appeared this long after it was taken (its request died) may be used again. */
const ABANDONED_KEY_MS = 30_000;
const MAX_KEY_LENGTH = 200;

/** What a request with a key gets: the alarm an earlier request raised, or the ID to raise it under. */
export type KeyOutcome = { earlier: AlarmDoc } | { alarmId: number; release(): Promise<void> };

/** Idempotency keys of AL1 requests. */
export class IdempotencyKeys {
  constructor(
    private readonly models: Pick<AlarmModels, 'AlarmKey'>,
    private readonly find: (alarmId: number) => Promise<AlarmDoc | null>,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** The key's earlier alarm, or `alarmId` taken under the key; `release` frees it when nothing was raised. */
  async take(organizationId: number, key: string, alarmId: number): Promise<KeyOutcome> {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw badRequest('invalid_parameter', 'Idempotency-Key in wrong format', [
        { in: 'header', path: 'Idempotency-Key', problem: `must be 1 to ${MAX_KEY_LENGTH} characters` },
      ]);
    }
    // Per organization: another organization's key of the same text is another key.
    const keyId = `${organizationId}:${createHash('sha256').update(key).digest('hex')}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.models.AlarmKey.create({ _id: keyId, alarmId, at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const taken = await this.models.AlarmKey.findById(keyId).lean();
        if (!taken) continue;
        const age = Date.now() - taken.at.getTime();
        const earlier = await this.find(taken.alarmId);
        if (earlier && age < IDEMPOTENCY_MS) return { earlier };
        if (!earlier && age < ABANDONED_KEY_MS)
          throw new AppError(
            409,
            'conflict',
            'A request with this Idempotency-Key is still being processed; try again',
            undefined,
            { 'Retry-After': '1' },
          );
        await this.models.AlarmKey.deleteOne({ _id: keyId, at: taken.at });
        continue;
      }
      return {
        alarmId,
        release: async () => {
          try {
            await this.models.AlarmKey.deleteOne({ _id: keyId, alarmId });
          } catch (err) {
            // The key is given up by the next request with it after ABANDONED_KEY_MS.
            this.log.warn({ err, alarmId }, 'an Idempotency-Key whose alarm was not raised could not be freed');
          }
        },
      };
    }
    throw conflict('conflict', 'The Idempotency-Key changed hands too often; try again');
  }
}
