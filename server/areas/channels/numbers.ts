// A user's mobile (sms) or phone (call) numbers: one implementation for both channels.
import type { Model } from 'mongoose';
import type { NumberCreateInput, NumberUpdateInput } from '../../../schemas/channels.js';
import type { Database } from '../../db/database.js';
import type { Actor } from '../../identity/actor.js';
import { checkGsm } from './fields.js';
import type { NumberDoc } from './models.js';
import { OwnedResources } from './owned.js';

/** A number as returned; `id` is read-only (S12/S13 address numbers by it). */
export interface NumberView {
  id: number;
  active: boolean;
  gsm: string;
  name: string;
  ownerID: number;
}

const PAYLOAD = 'Payload missing or in wrong format';

/** Mobiles (or phones) a user may enter himself, and each organization for him (owned.ts). */
export const MAX_NUMBERS_PER_OWNER = 5;

/** The public shape of a stored number. */
export function presentNumber(doc: NumberDoc): NumberView {
  return { id: Number(doc._id), active: doc.active, gsm: doc.gsm, name: doc.name, ownerID: doc.ownerID };
}

/** Numbers of one channel. */
export class ChannelNumbers {
  readonly owned: OwnedResources<NumberDoc>;

  constructor(db: Database, model: Model<NumberDoc>, noun: 'mobile' | 'phone') {
    this.owned = new OwnedResources(db, model, noun, MAX_NUMBERS_PER_OWNER);
  }

  /** S9/C7. */
  async list(actor: Actor, ownerId: number, organizationId: number | undefined): Promise<NumberView[]> {
    return (await this.owned.list(actor, ownerId, organizationId)).map(presentNumber);
  }

  /** S13/C11. */
  async get(actor: Actor, id: number, organizationId: number | undefined): Promise<NumberView> {
    return presentNumber(await this.owned.reachable(actor, id, organizationId));
  }

  /** S11/C8: name defaults to empty, active to true. */
  async create(actor: Actor, organizationId: number | undefined, input: NumberCreateInput): Promise<NumberView> {
    if (input.gsm !== undefined) input = { ...input, gsm: checkGsm(input.gsm, PAYLOAD, true) };
    const doc = await this.owned.create(actor, organizationId, input.ownerID, {
      name: input.name ?? '',
      gsm: input.gsm,
      active: input.active ?? true,
      createdAt: new Date(),
    });
    return presentNumber(doc);
  }

  /** S10/C9: the given fields replace the stored ones; the owner cannot change. */
  async update(
    actor: Actor,
    id: number,
    organizationId: number | undefined,
    input: NumberUpdateInput,
  ): Promise<NumberView> {
    if (input.gsm !== undefined) input = { ...input, gsm: checkGsm(input.gsm, PAYLOAD, true) };
    const { id: _id, ...set } = input;
    return presentNumber(await this.owned.update(actor, id, organizationId, set, PAYLOAD));
  }

  /** S12/C10. */
  async remove(actor: Actor, id: number, organizationId: number | undefined): Promise<void> {
    await this.owned.remove(actor, id, organizationId);
  }
}
