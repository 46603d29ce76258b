// The per-organization disable flag of a way of alarming (A8/A9, S5/S6, C5/C6) and the any-active
// check built on it (A7, S14, C12): one implementation, parameterised by channel.
import type { Database } from '../../db/database.js';
import { forbidden } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { roleOf } from '../../identity/lookup.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import { channelModels, type Channel } from './models.js';
import { setById } from './upsert.js';

/** Anything that lists a user's devices or numbers with their active state. */
export interface ActiveSource {
  usableBy(ownerId: number, organizationId: number): Promise<Array<{ active: boolean }>>;
}

/** Disable flags of every channel, stored under "<channel>:<organizationId>". */
export class ChannelFlags {
  constructor(private readonly db: Database) {}

  /** True when the organization has disabled this way of alarming (never set: false). */
  async isDisabled(channel: Channel, organizationId: number): Promise<boolean> {
    const doc = await channelModels(this.db).ChannelFlag.findById(`${channel}:${organizationId}`).lean();
    return doc?.isDisabled ?? false;
  }

  /** A8/S5/C5: members read the flag, as the one-element list of the 2019 API. */
  async get(actor: Actor, channel: Channel, organizationId: number): Promise<Array<{ isDisabled: boolean }>> {
    if (!canRead(actor, organizationId)) throw forbidden();
    return [{ isDisabled: await this.isDisabled(channel, organizationId) }];
  }

  /** A9/S6/C6: admins and the API key set it; the last write wins. */
  async set(
    actor: Actor,
    channel: Channel,
    organizationId: number,
    isDisabled: boolean,
  ): Promise<{ isDisabled: boolean }> {
    if (!canConfigure(actor, organizationId))
      throw forbidden("Setting the disable flag needs an organization admin or the organization's API key");
    await setById(channelModels(this.db).ChannelFlag, `${channel}:${organizationId}`, {
      isDisabled,
      updatedAt: new Date(),
    });
    return { isDisabled };
  }

  /** A7/S14/C12: the user is a member, the channel is not disabled there, and he has an active one. */
  async anyActive(
    actor: Actor,
    channel: Channel,
    organizationId: number,
    userId: number,
    source: ActiveSource,
  ): Promise<{ anyActive: boolean }> {
    if (!canRead(actor, organizationId)) throw forbidden();
    if (!(await roleOf(this.db, organizationId, userId))) return { anyActive: false };
    if (await this.isDisabled(channel, organizationId)) return { anyActive: false };
    return { anyActive: (await source.usableBy(userId, organizationId)).some((d) => d.active) };
  }
}
