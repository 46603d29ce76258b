// Devices (A1–A4, A6): owner-scoped like every channel resource, plus a unique name per owner and the
// platform that chooses the push path.
import type { DeviceCreateInput, DeviceUpdateInput } from '../../../schemas/app.js';
import type { Database } from '../../db/database.js';
import { badRequest } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { PAYLOAD } from '../channels/messages.js';
import { OwnedResources } from '../channels/owned.js';
import { uniquely } from '../channels/unique.js';
import { appModels, type DeviceDoc, type Platform } from './models.js';

/** A device as returned. */
export interface DeviceView {
  id: number;
  active: boolean;
  name: string;
  os: string;
  ownerID: number;
  pushToken: string;
  pushTokenDevelopment: boolean;
}

/** The push path an `os` text names: "android", or "ios" / "ipados" (any case); null when neither or both. */
export function platformOf(os: string): Platform | null {
  const text = os.toLowerCase();
  const android = text.includes('android');
  const ios = text.includes('ios') || text.includes('ipados');
  if (android === ios) return null;
  return android ? 'android' : 'ios';
}

/** The public shape of a stored device. */
export function presentDevice(doc: DeviceDoc): DeviceView {
  const { ownerID, name, os, pushToken, pushTokenDevelopment, active } = doc;
  return { id: Number(doc._id), active, name, os, ownerID, pushToken, pushTokenDevelopment };
}

// Names compare without case and surrounding spaces: "iPhone " and "iphone" would confuse the owner.
// They are unique among what one party entered for the owner (channels/owned.ts): the owner's own
// (the plain name, as always stored) or an organization's ("org:<id>:" before it), so one organization
// can neither see nor block the names another gave.
const nameKey = (name: string, enteredBy: number | null) =>
  `${enteredBy === null ? '' : `org:${enteredBy}:`}${name.normalize('NFC').trim().toLowerCase()}`;

function storedFields(input: DeviceCreateInput | DeviceUpdateInput) {
  const platform = platformOf(input.os);
  if (!platform)
    throw badRequest('invalid_body', PAYLOAD, [
      {
        in: 'body',
        path: 'os',
        problem:
          'must contain exactly one of the keywords "android" (FCM) or "ios" (APNs; iPadOS counts as ios), in any case',
      },
    ]);
  // APNs device tokens are hex; anything else would also end up in the gateway's request path.
  if (platform === 'ios' && !/^[0-9a-fA-F]{64,200}$/.test(input.pushToken)) {
    throw badRequest('invalid_body', PAYLOAD, [
      { in: 'body', path: 'pushToken', problem: 'must be the APNs device token in hex (64 to 200 digits) for iOS' },
    ]);
  }
  const { active, os, pushToken, pushTokenDevelopment } = input;
  return {
    name: input.name.trim(),
    nameKey: nameKey(input.name, null),
    os,
    platform,
    pushToken,
    pushTokenDevelopment,
    active,
    updatedAt: new Date(),
  };
}

const taken = (name: string) => `The owner already has a device named "${name.trim()}"`;

/** Devices a user may register himself, and each organization for him (channels/owned.ts). */
export const MAX_DEVICES_PER_OWNER = 10;

/** The device commands. */
export class Devices {
  readonly owned: OwnedResources<DeviceDoc>;

  constructor(private readonly db: Database) {
    this.owned = new OwnedResources(db, appModels(db).Device, 'device', MAX_DEVICES_PER_OWNER);
  }

  /** A1. */
  async list(actor: Actor, ownerId: number, organizationId: number | undefined): Promise<DeviceView[]> {
    return (await this.owned.list(actor, ownerId, organizationId)).map(presentDevice);
  }

  /** A2: the name must be new among the owner's devices (409), also when two creates race. */
  async create(actor: Actor, organizationId: number | undefined, input: DeviceCreateInput): Promise<DeviceView> {
    // The body is checked first (400 before 403); the name's key needs who enters it.
    const fields = storedFields(input);
    const reach = await this.owned.checkOwner(actor, organizationId, input.ownerID, 'refuse');
    fields.nameKey = nameKey(input.name, reach.via === 'organization' ? reach.organizationId : null);
    const doc = await uniquely(taken(input.name), () =>
      this.owned.create(actor, organizationId, input.ownerID, { ...fields, createdAt: fields.updatedAt }),
    );
    return presentDevice(doc);
  }

  /** A4: replaces the device's fields; a rename to a name the owner uses is a 409. */
  async update(
    actor: Actor,
    id: number,
    organizationId: number | undefined,
    input: DeviceUpdateInput,
  ): Promise<DeviceView> {
    if (input.id !== undefined && input.id !== id)
      throw badRequest('invalid_body', PAYLOAD, [{ in: 'body', path: 'id', problem: 'differs from deviceID' }]);
    const fields = storedFields(input);
    const current = await this.owned.reachable(actor, id, organizationId, 'write');
    fields.nameKey = nameKey(input.name, current.organizationID ?? null);
    return presentDevice(
      await uniquely(taken(input.name), () =>
        this.owned.update(actor, id, organizationId, { ...fields, ownerID: input.ownerID }, PAYLOAD),
      ),
    );
  }

  /**
   * Marks a device inactive after its push gateway declared the token dead (never undoing an A4 that ran meanwhile).
   */
  async deactivate(device: DeviceDoc): Promise<void> {
    await this.db.revisions.change(appModels(this.db).Device, device._id, () => ({
      active: false,
      updatedAt: new Date(),
    }));
  }
}
