// Permission rules of docs/api.md "Authentication and permissions" as pure functions (unit-tested without a database).
import type { Actor, Caller } from './actor.js';
import type { Role } from './models.js';

/** The actor's role in an organization: an API key is admin of its own; null outside. */
export function roleIn(actor: Actor, organizationId: number): Role | null {
  if (actor.kind === 'apikey') return actor.organizationId === organizationId ? 'admin' : null;
  return actor.roles.get(organizationId) ?? null;
}

/** Members (and API keys) read everything of their organization. */
export function canRead(actor: Actor, organizationId: number): boolean {
  return roleIn(actor, organizationId) !== null;
}

/** Configuration (monitors and their data among it) is written by admins and API keys. */
export function canConfigure(actor: Actor, organizationId: number): boolean {
  return roleIn(actor, organizationId) === 'admin';
}

/** A monitor is read by members and API keys of its organization, and by the screens paired with it. */
export function canReadMonitor(caller: Caller, monitor: { id: number; organizationID: number }): boolean {
  if (caller.kind === 'screen')
    return caller.monitorId === monitor.id && caller.organizationId === monitor.organizationID;
  return canRead(caller, monitor.organizationID);
}

/** How an actor reaches a resource owned by a user (devices, mobile and phone numbers). */
export type OwnerReach =
  | { via: 'self' }
  /** Through an organization the actor configures; the owner must still be a member of it. */
  | { via: 'organization'; organizationId: number }
  | { via: 'none'; status: 403 | 404 };

/**
 * Spec rule 4: a user reaches his own resources without organization_id; with it, that organization's
 * API key or admin reaches its members' (an API key implies its own organization when none is named).
 * Another user's resource without an organization is hidden (404); naming an organization the actor
 * does not configure is a 403.
 */
export function reachOwner(actor: Actor, organizationId: number | undefined, ownerId: number): OwnerReach {
  if (actor.kind === 'user' && actor.userId === ownerId) return { via: 'self' };
  const acting = actor.kind === 'apikey' ? (organizationId ?? actor.organizationId) : organizationId;
  if (acting === undefined) return { via: 'none', status: 404 };
  if (!canConfigure(actor, acting)) return { via: 'none', status: 403 };
  return { via: 'organization', organizationId: acting };
}

/**
 * Push answers and delivery receipts come from the app of the device's owner (his personal token), while
 * he is a member of the organization the push was for (one removed from it answers nothing more).
 */
export function canAnswerPush(actor: Actor, push: { ownerID: number; organizationID: number | null }): boolean {
  if (actor.kind !== 'user' || actor.userId !== push.ownerID) return false;
  return push.organizationID === null || actor.roles.has(push.organizationID);
}

/** The organization an alarm feedback is for: an API key's own, or the one a user names and belongs to. */
export function feedbackOrganization(actor: Actor, organizationId: number | undefined): number | undefined {
  return actor.kind === 'apikey' ? (organizationId ?? actor.organizationId) : organizationId;
}

/** Journal: every member (and the API key) reads journals and writes locks and entries. */
export function canKeepJournal(actor: Actor, organizationId: number): boolean {
  return canRead(actor, organizationId);
}

/** Journal: closing a journal and breaking another's lock need an organization admin or the API key. */
export function canSuperviseJournal(actor: Actor, organizationId: number): boolean {
  return canConfigure(actor, organizationId);
}

/** Integration (els-cobra): its secrets are read back only by organization admins and the API key. */
export function canReadIntegrationSecrets(actor: Actor, organizationId: number): boolean {
  return canConfigure(actor, organizationId);
}

/** What the things policies need of an entity. */
export interface EntityGrants {
  organizationID: number;
  readOnlyUserIDs: number[];
  readWriteUserIDs: number[];
}

/** Things: an entity's records are read by API keys, admins and the members either list names. */
export function canReadRecords(actor: Actor, entity: EntityGrants): boolean {
  const role = roleIn(actor, entity.organizationID);
  if (role === 'admin') return true;
  if (role !== 'member' || actor.kind !== 'user') return false;
  return entity.readOnlyUserIDs.includes(actor.userId) || entity.readWriteUserIDs.includes(actor.userId);
}

/** Things: an entity's records are written by API keys, admins and the members readWriteUserIDs names. */
export function canWriteRecords(actor: Actor, entity: EntityGrants): boolean {
  const role = roleIn(actor, entity.organizationID);
  if (role === 'admin') return true;
  return role === 'member' && actor.kind === 'user' && entity.readWriteUserIDs.includes(actor.userId);
}
