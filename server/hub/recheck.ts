// Connected screens keep the rights they had at the handshake only as long as those still hold:
// a revoked token, or a user who lost a membership, is disconnected within one interval. The
// display client reconnects after such a disconnect, and the handshake then decides afresh.
// A pass reads the credential change mark first (server/identity/credential-changes.ts) and then only
// the credentials of sockets not yet checked under it: with nothing revoked, one lookup per pass. A
// full pass (every TOKEN_FULL_RECHECK_MS) checks every socket: a revocation whose mark write failed
// after its own write, or a credential read that began before a restore, is caught by it.
import type { Database } from '../db/database.js';
import type { Caller } from '../identity/actor.js';
import type { CredentialCache } from '../identity/credential-cache.js';
import { membershipsOf, validCredentials } from '../identity/lookup.js';

interface Connected {
  data: { actor: Caller; checkedUnder?: string | null };
  disconnect(close: boolean): unknown;
}

/**
 * Disconnects the sockets whose token was revoked or whose user left an organization they joined;
 * `full` checks every socket, else only those not checked under the latest change mark.
 */
export async function recheckSockets(
  db: Database,
  credentialCache: Pick<CredentialCache, 'changeMark' | 'readUnderMark'>,
  sockets: Iterable<Connected>,
  full = false,
): Promise<{ checked: number; revoked: number; membership: number }> {
  const all = [...sockets];
  if (all.length === 0) return { checked: 0, revoked: 0, membership: 0 };
  const mark = await credentialCache.changeMark();
  // A socket is checked until it is checked under the latest mark: its handshake's read may be older.
  const list = full
    ? all
    : all.filter((s) => (s.data.checkedUnder ?? credentialCache.readUnderMark(s.data.actor)) !== mark);
  // One exact lookup per distinct credential and user, however many screens share them.
  const credentials = [...new Set(list.map((s) => s.data.actor.credential))];
  const userIds = [...new Set(list.flatMap((s) => (s.data.actor.kind === 'user' ? [s.data.actor.userId] : [])))];
  const [valid, orgsOf] = await Promise.all([validCredentials(db, credentials), membershipsOf(db, userIds)]);

  const counts = { checked: list.length, revoked: 0, membership: 0 };
  for (const socket of list) {
    const { actor } = socket.data;
    if (!valid.has(actor.credential)) {
      socket.disconnect(true);
      counts.revoked++;
    } else if (actor.kind === 'user' && [...actor.roles.keys()].some((org) => !orgsOf.get(actor.userId)?.has(org))) {
      socket.disconnect(true);
      counts.membership++;
    } else {
      socket.data.checkedUnder = mark;
    }
  }
  return counts;
}
