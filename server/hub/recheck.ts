// Connected screens keep the rights they had at the handshake only as long as those still hold:
// a revoked token, or a user who lost a membership, is disconnected within one interval. The
// display client reconnects after such a disconnect, and the handshake then decides afresh.
import type { Database } from '../db/database.js';
import type { Actor } from '../identity/actor.js';

interface Connected {
  data: { actor: Actor };
  disconnect(close: boolean): unknown;
}

/** Disconnects the sockets whose token was revoked or whose user left an organization they joined. */
export async function recheckSockets(db: Database, sockets: Iterable<Connected>): Promise<{ revoked: number; membership: number }> {
  const list = [...sockets];
  if (list.length === 0) return { revoked: 0, membership: 0 };
  const tokenIds = [...new Set(list.map((s) => s.data.actor.tokenId))];
  const userIds = [...new Set(list.flatMap((s) => (s.data.actor.kind === 'user' ? [s.data.actor.userId] : [])))];
  const [revoked, memberships] = await Promise.all([
    db.models.Token.find({ tokenId: { $in: tokenIds }, revokedAt: { $ne: null } }, { tokenId: 1 }).lean(),
    userIds.length ? db.models.Membership.find({ userId: { $in: userIds } }).lean() : Promise.resolve([]),
  ]);
  const revokedIds = new Set(revoked.map((t) => t.tokenId));
  const orgsOf = new Map<number, Set<number>>();
  for (const m of memberships) orgsOf.set(m.userId, (orgsOf.get(m.userId) ?? new Set()).add(m.organizationId));

  const counts = { revoked: 0, membership: 0 };
  for (const socket of list) {
    const { actor } = socket.data;
    if (revokedIds.has(actor.tokenId)) {
      socket.disconnect(true);
      counts.revoked++;
    } else if (actor.kind === 'user' && [...actor.roles.keys()].some((org) => !orgsOf.get(actor.userId)?.has(org))) {
      socket.disconnect(true);
      counts.membership++;
    }
  }
  return counts;
}
