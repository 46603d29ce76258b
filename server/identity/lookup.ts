// Identity lookups the areas need beyond the caller's own actor (e.g. "is the owner of this device a
// member of that organization?"). Each is one exact lookup by string _id.
import type { IdentityModels, Role } from './models.js';

/** The role of a user in an organization, or null when he is not a member (or does not exist). */
export async function roleOf(models: IdentityModels, organizationId: number, userId: number): Promise<Role | null> {
  const user = await models.User.findById(String(userId), { memberships: 1 }).lean();
  return user?.memberships.find((m) => m.organizationId === organizationId)?.role ?? null;
}

/** True when the user exists. */
export async function userExists(models: IdentityModels, userId: number): Promise<boolean> {
  return (await models.User.findById(String(userId), { _id: 1 }).lean()) !== null;
}

/** True when the organization exists. */
export async function organizationExists(models: IdentityModels, organizationId: number): Promise<boolean> {
  return (await models.Organization.findById(String(organizationId), { _id: 1 }).lean()) !== null;
}

/** Which of the given users are members of the organization (one exact lookup per user). */
export async function membersAmong(models: IdentityModels, organizationId: number, userIds: number[]): Promise<Set<number>> {
  const unique = [...new Set(userIds)];
  const roles = await Promise.all(unique.map((id) => roleOf(models, organizationId, id)));
  return new Set(unique.filter((_, i) => roles[i] !== null));
}
