// Devices (A1–A4, A6): owner-scoped like every channel resource, plus a unique name per owner and the
// platform that chooses the push path: FCM, APNs, or Web Push for a browser (docs/members-app.md "Web Push").
import type { DeviceCreateInput, DeviceUpdateInput } from '../../../schemas/app.js';
import type { Database } from '../../db/database.js';
import { badRequest, type ErrorDetail } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { PAYLOAD } from '../channels/messages.js';
import { OwnedResources } from '../channels/owned.js';
import { uniquely } from '../channels/unique.js';
import { appModels, type DeviceDoc, type Platform } from './models.js';
import { parseSubscription } from './push/subscription.js';

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

/**
 * The push path an `os` text names: "web" as a word ("Web Chrome 131 Android": a browser, whatever it runs on),
 * else "android", or "ios" / "ipados" (any case); null when none or both of the latter.
 */
export function platformOf(os: string): Platform | null {
  const text = os.toLowerCase();
  if (/\bweb\b/.test(text)) return 'web';
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

const OS_PROBLEM =
  'must contain exactly one of the keywords "android" (FCM) or "ios" (APNs; iPadOS counts as ios), or the ' +
  'word "web" (Web Push), in any case';

/** Why a push token cannot be used on its platform, or null. */
function tokenProblem(platform: Platform, token: string, origins: readonly string[]): string | null {
  switch (platform) {
    // APNs device tokens are hex; anything else would also end up in the gateway's request path.
    case 'ios':
      return /^[0-9a-fA-F]{64,200}$/.test(token)
        ? null
        : 'must be the APNs device token in hex (64 to 200 digits) for iOS';
    case 'android':
      return /^[A-Za-z0-9_:.-]+$/.test(token)
        ? null
        : 'must be the FCM registration token (letters, digits and _ : . -) for Android';
    case 'web': {
      const parsed = parseSubscription(token, origins);
      return 'problem' in parsed ? parsed.problem : null;
    }
  }
}

/** The os and pushToken problems of a device body (any shape: a body the schema refused too). */
export function deviceProblems(body: unknown, origins: readonly string[]): ErrorDetail[] {
  const { os, pushToken } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof os !== 'string') return [];
  const platform = platformOf(os);
  if (!platform) return [{ in: 'body', path: 'os', problem: OS_PROBLEM }];
  if (typeof pushToken !== 'string') return [];
  const problem = tokenProblem(platform, pushToken, origins);
  return problem ? [{ in: 'body', path: 'pushToken', problem }] : [];
}

function storedFields(input: DeviceCreateInput | DeviceUpdateInput, origins: readonly string[]) {
  const problems = deviceProblems(input, origins);
  if (problems.length) throw badRequest('invalid_body', PAYLOAD, problems);
  const platform = platformOf(input.os)!;
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

  constructor(
    private readonly db: Database,
    /** Push service origins a web device's subscription may name besides the known ones (WEB_PUSH_ORIGINS). */
    readonly origins: readonly string[],
  ) {
    this.owned = new OwnedResources(db, appModels(db).Device, 'device', MAX_DEVICES_PER_OWNER);
  }

  /** A1. */
  async list(actor: Actor, ownerId: number, organizationId: number | undefined): Promise<DeviceView[]> {
    return (await this.owned.list(actor, ownerId, organizationId)).map(presentDevice);
  }

  /** A2: the name must be new among the owner's devices (409), also when two creates race. */
  async create(actor: Actor, organizationId: number | undefined, input: DeviceCreateInput): Promise<DeviceView> {
    // The body is checked first (400 before 403); the name's key needs who enters it.
    const fields = storedFields(input, this.origins);
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
    const fields = storedFields(input, this.origins);
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
  async deactivate(device: DeviceDoc): Promise<boolean> {
    let deactivated = false;
    // Only while it still has the token the push service called dead: a token the app registered since
    // (A4) is a new one, and the device stays active.
    await this.owned.changing(device.ownerID, (inTime) =>
      this.db.revisions.change(appModels(this.db).Device, device._id, (current) => {
        inTime();
        deactivated = current.pushToken === device.pushToken;
        return deactivated ? { active: false, updatedAt: new Date() } : {};
      }),
    );
    return deactivated;
  }
}
