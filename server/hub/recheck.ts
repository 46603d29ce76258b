// Connected screens keep the rights they had at the handshake only as long as those still hold:
// a revoked token, or a user who lost a membership, is disconnected within one interval. The
// display client reconnects after such a disconnect, and the handshake then decides afresh.
import type { Database } from '../db/database.js';
import type { Caller } from '../identity/actor.js';
import { membershipsOf, validCredentials } from '../identity/lookup.js';

interface Connected {
  data: { actor: Caller };
  disconnect(close: boolean): unknown;
}

/** Disconnects the sockets whose token was revoked or whose user left an organization they joined. */
export async function recheckSockets(db: Database, sockets: Iterable<Connected>): Promise<{ revoked: number; membership: number }> {
  const list = [...sockets];
  if (list.length === 0) return { revoked: 0, membership: 0 };
  // One exact lookup per distinct credential and user, however many screens share them.
  const credentials = [...new Set(list.map((s) => s.data.actor.credential))];
  const userIds = [...new Set(list.flatMap((s) => (s.data.actor.kind === 'user' ? [s.data.actor.userId] : [])))];
  const [valid, orgsOf] = await Promise.all([validCredentials(db, credentials), membershipsOf(db, userIds)]);

  const counts = { revoked: 0, membership: 0 };
  for (const socket of list) {
    const { actor } = socket.data;
    if (!valid.has(actor.credential)) {
      socket.disconnect(true);
      counts.revoked++;
    } else if (actor.kind === 'user' && [...actor.roles.keys()].some((org) => !orgsOf.get(actor.userId)?.has(org))) {
      socket.disconnect(true);
      counts.membership++;
    }
  }
  return counts;
}
