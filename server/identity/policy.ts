// Permission rules of CONTRACT.md §4 as pure functions (unit-tested without a database).
import type { Actor } from './actor.js';
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
