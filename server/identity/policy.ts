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
