// What other areas ask of identity beyond the caller's own actor ("is the owner of this device a
// member of that organization?", "revoke this screen's token"): identity's collections are read and
// written here and in identity/ only (an ESLint rule says so). Each is an exact lookup by string _id.
import type { Connected } from '../db/models.js';
import { credentialsChanged } from './credential-changes.js';
import { identityModels, type Role } from './models.js';

/** The role of a user in an organization, or null when he is not a member (or does not exist). */
export async function roleOf(db: Connected, organizationId: number, userId: number): Promise<Role | null> {
  const user = await identityModels(db).User.findById(String(userId), { memberships: 1 }).lean();
  return user?.memberships.find((m) => m.organizationId === organizationId)?.role ?? null;
}

/** True when the user exists. */
export async function userExists(db: Connected, userId: number): Promise<boolean> {
  return (await identityModels(db).User.findById(String(userId), { _id: 1 }).lean()) !== null;
}

/** True when the organization exists. */
export async function organizationExists(db: Connected, organizationId: number): Promise<boolean> {
  return (await identityModels(db).Organization.findById(String(organizationId), { _id: 1 }).lean()) !== null;
}

/** The organization's name; null when it does not exist. */
export async function organizationName(db: Connected, organizationId: number): Promise<string | null> {
  return (await identityModels(db).Organization.findById(String(organizationId), { name: 1 }).lean())?.name ?? null;
}

/** Which of the given users are members of the organization (one exact lookup per user). */
export async function membersAmong(db: Connected, organizationId: number, userIds: number[]): Promise<Set<number>> {
  const unique = [...new Set(userIds)];
  const roles = await Promise.all(unique.map((id) => roleOf(db, organizationId, id)));
  return new Set(unique.filter((_, i) => roles[i] !== null));
}

/**
 * The members of an organization by user ID, with their names and units: the recipients of its alarms, as
 * its wall lists them. Filtered on
 * the membership index (on the embedded engine a read of every user, once per alarm raised).
 */
export async function membersOf(
  db: Connected,
  organizationId: number,
): Promise<Map<number, { name: string; units: string[] }>> {
  const users = await identityModels(db)
    .User.find({ 'memberships.organizationId': organizationId }, { name: 1, memberships: 1 })
    .lean();
  const crew = new Map<number, { name: string; units: string[] }>();
  for (const u of users) {
    const membership = u.memberships.find((m) => m.organizationId === organizationId);
    if (membership) crew.set(Number(u._id), { name: u.name, units: membership.units ?? [] });
  }
  return crew;
}

/** The unit names the organization's members ride in, as written in their memberships (sorted). */
export async function unitNamesOf(db: Connected, organizationId: number): Promise<string[]> {
  const users = await identityModels(db)
    .User.find({ 'memberships.organizationId': organizationId }, { memberships: 1 })
    .lean();
  const names = users.flatMap((u) => u.memberships.find((m) => m.organizationId === organizationId)?.units ?? []);
  return [...new Set(names)].sort();
}

/** The names of the given users (an unknown user is left out). */
export async function namesOf(db: Connected, userIds: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(userIds)];
  const users = await Promise.all(unique.map((id) => identityModels(db).User.findById(String(id), { name: 1 }).lean()));
  return new Map(users.filter((u) => u !== null).map((u) => [Number(u._id), u.name]));
}

/** The names of the given users and the units each rides in the organization (exact lookups; an unknown user is left out). */
export async function crewOf(
  db: Connected,
  organizationId: number,
  userIds: number[],
): Promise<Map<number, { name: string; units: string[] }>> {
  const unique = [...new Set(userIds)];
  const users = await Promise.all(
    unique.map((id) => identityModels(db).User.findById(String(id), { name: 1, memberships: 1 }).lean()),
  );
  return new Map(
    users
      .filter((u) => u !== null)
      .map((u) => [
        Number(u._id),
        { name: u.name, units: u.memberships.find((m) => m.organizationId === organizationId)?.units ?? [] },
      ]),
  );
}

/** Which of the credentials (token _ids) exist and are not revoked. */
export async function validCredentials(db: Connected, credentials: string[]): Promise<Set<string>> {
  const tokens = await Promise.all(
    credentials.map((c) => identityModels(db).Token.findById(c, { revokedAt: 1 }).lean()),
  );
  return new Set(credentials.filter((_, i) => tokens[i] && !tokens[i]!.revokedAt));
}

/** The organizations each user is a member of now (an unknown user: none). */
export async function membershipsOf(db: Connected, userIds: number[]): Promise<Map<number, Set<number>>> {
  const users = await Promise.all(
    userIds.map((id) => identityModels(db).User.findById(String(id), { memberships: 1 }).lean()),
  );
  return new Map(userIds.map((id, i) => [id, new Set((users[i]?.memberships ?? []).map((m) => m.organizationId))]));
}

/** Revokes a credential by its _id (a screen's, when the screen is removed); revoking twice is harmless. */
export async function revokeCredential(db: Connected, credential: string): Promise<void> {
  await identityModels(db).Token.updateOne({ _id: credential }, { $set: { revokedAt: new Date() } });
  await credentialsChanged(db);
}

/** The record limit the organization's admin set with `org limit`, or null when it has none of its own. */
export async function ownRecordLimit(db: Connected, organizationId: number): Promise<number | null> {
  const org = await identityModels(db).Organization.findById(String(organizationId), { recordLimit: 1 }).lean();
  return org?.recordLimit ?? null;
}

/** True when at least one organization exists. */
export async function anyOrganization(db: Connected): Promise<boolean> {
  return (await identityModels(db).Organization.exists({})) !== null;
}
