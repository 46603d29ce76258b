// Identity lookups the areas need beyond the caller's own actor (e.g. "is the owner of this device a
// member of that organization?"). Kept in one place so their storage can change without the areas.
import type { IdentityModels, Role } from './models.js';

/** The role of a user in an organization, or null when he is not a member. */
export async function roleOf(models: IdentityModels, organizationId: number, userId: number): Promise<Role | null> {
  const found = await models.Membership.findOne({ organizationId, userId }).lean();
  return found?.role ?? null;
}

/** True when the user exists. */
export async function userExists(models: IdentityModels, userId: number): Promise<boolean> {
  return (await models.User.exists({ _id: userId })) !== null;
}

/** Which of the given users are members of the organization. */
export async function membersAmong(models: IdentityModels, organizationId: number, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const found = await models.Membership.find({ organizationId, userId: { $in: userIds } }, { userId: 1 }).lean();
  return new Set(found.map((m) => m.userId));
}
