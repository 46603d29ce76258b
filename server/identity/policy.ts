// Permission rules of CONTRACT.md §4 as pure functions (unit-tested without a database).
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
  if (caller.kind === 'screen') return caller.monitorId === monitor.id && caller.organizationId === monitor.organizationID;
  return canRead(caller, monitor.organizationID);
}
