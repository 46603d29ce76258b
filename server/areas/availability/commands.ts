// Availability (W2, W3; docs/people.md "Availability"): a member says whether he can come, until a time
// or until he changes it; the organization counts who can. Every change goes to the organization's
// room as `availability:changed` with the new counts.
import type { AvailabilityCounts } from '../../../common/hub-protocol.js';
import type { Database } from '../../db/database.js';
import { conflict, forbidden } from '../../errors.js';
import type { AvailabilityEvents } from '../../hub/events.js';
import type { AvailabilityPort } from '../../hub/ports.js';
import type { Actor, Caller } from '../../identity/actor.js';
import { canRead } from '../../identity/policy.js';
import { availabilityKey, availabilityModels, type AvailabilityDoc } from './models.js';

/** The organization's members by name (P6's list): whose availability counts. */
export type MemberNames = (organizationId: number) => Promise<Array<{ userId: number; name: string }>>;

/** A monitor as a wall's question needs it: its organization and its standby view's settings. */
export type WallMonitor = (
  caller: Caller,
  monitorId: number,
) => Promise<{ organizationID: number; configurationStandby: Record<string, unknown> }>;

/** A stored availability that still holds at `now`, else null (not said, or its `until` passed). */
function holding(doc: AvailabilityDoc | null, now: number): AvailabilityDoc | null {
  return doc && (doc.until === null || doc.until.getTime() > now) ? doc : null;
}

export class AvailabilityCommands implements AvailabilityPort {
  constructor(
    private readonly db: Database,
    private readonly events: AvailabilityEvents,
    private readonly memberNames: MemberNames,
    private readonly wallMonitor: WallMonitor,
  ) {}

  /** W2: the member's own availability; an `until` already past clears it. */
  async set(actor: Actor, body: { organizationID: number; available: boolean; until?: string; note?: string }) {
    const organizationId = body.organizationID;
    if (actor.kind !== 'user') throw forbidden('Availability is said by the member himself, not by an API key');
    if (!actor.roles.has(organizationId)) throw forbidden(`You are not a member of organization ${organizationId}`);
    const { Availability } = availabilityModels(this.db);
    const _id = availabilityKey(organizationId, actor.userId);
    const now = new Date();
    const until = body.until === undefined ? null : new Date(body.until);
    const note = body.note?.trim() || null;
    let view;
    if (until !== null && until.getTime() <= now.getTime()) {
      await Availability.deleteOne({ _id });
      view = { userId: actor.userId, organizationId, available: null, until: null, note: null, changedAt: now };
    } else {
      const doc = { _id, organizationId, userId: actor.userId, available: body.available, until, note, changedAt: now };
      await Availability.replaceOne({ _id }, doc, { upsert: true });
      view = { userId: actor.userId, organizationId, available: body.available, until, note, changedAt: now };
    }
    this.events.availabilityChanged(countsOf(organizationId, await this.summary(organizationId)));
    return { ...view, until: view.until?.toISOString() ?? null, changedAt: view.changedAt.toISOString() };
  }

  /** W3: every member with what he said, and the counts. */
  async list(actor: Actor, organizationId: number) {
    if (!canRead(actor, organizationId)) throw forbidden(`You are not a member of organization ${organizationId}`);
    return this.summary(organizationId);
  }

  /** A wall's question (the hub's `availability:watch`): only a monitor whose standby view shows it. */
  async watch(caller: Caller, monitorId: number): Promise<AvailabilityCounts> {
    const monitor = await this.wallMonitor(caller, monitorId);
    if (monitor.configurationStandby.showAvailability !== true)
      throw conflict(
        'not_configured',
        'This monitor does not show availability (configurationStandby.showAvailability)',
      );
    return countsOf(monitor.organizationID, await this.summary(monitor.organizationID));
  }

  private async summary(organizationId: number) {
    const { Availability } = availabilityModels(this.db);
    const members = await this.memberNames(organizationId);
    const now = Date.now();
    // One exact lookup per member: the fast read on both engines (docs/storage.md "Lists by exact lookups").
    const docs = await Promise.all(
      members.map((m) => Availability.findById(availabilityKey(organizationId, m.userId)).lean()),
    );
    let [available, unavailable, unknown] = [0, 0, 0];
    let next: number | null = null;
    const listed = members.map((m, i) => {
      const doc = holding(docs[i], now);
      if (!doc) unknown++;
      else if (doc.available) available++;
      else unavailable++;
      if (doc?.until) next = Math.min(next ?? Infinity, doc.until.getTime());
      return {
        userId: m.userId,
        name: m.name,
        available: doc?.available ?? null,
        until: doc?.until?.toISOString() ?? null,
        note: doc?.note ?? null,
      };
    });
    return {
      available,
      unavailable,
      unknown,
      nextChangeAt: next === null ? null : new Date(next).toISOString(),
      members: listed,
    };
  }
}

function countsOf(
  organizationId: number,
  s: { available: number; unavailable: number; unknown: number; nextChangeAt: string | null },
): AvailabilityCounts {
  return {
    organizationId,
    available: s.available,
    unavailable: s.unavailable,
    unknown: s.unknown,
    nextChangeAt: s.nextChangeAt,
  };
}
