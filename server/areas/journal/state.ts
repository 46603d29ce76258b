// The journal's state machine (the interface's state table, row by row) as pure functions: every
// change is decided against the state at the head of the journal's log, and its result is stored
// with the change, so the decision and the write are one insert (see log.ts).
import { conflict } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { wording } from './wording.js';

/** Who holds a lock or wrote something: a user, or an organization's API key (userId null). */
export interface Holder {
  userId: number | null;
  apiKeyId: number | null;
}

export type ChangeKind = 'lock' | 'unlock' | 'close' | 'force-unlock' | 'entry' | 'delete';

/** A journal's state after a change of its log. */
export interface JournalStateData {
  holder: Holder | null;
  /** RFC 3339 time the lock was taken; null when not locked. */
  lockedAt: string | null;
  closed: boolean;
  /** The highest serial number given to an entry. */
  entries: number;
  /** Log position of the newest entry (0: none). */
  lastEntryAt: number;
  /**
   * How many deletes the log holds; each one's ordinal names its record in journal_deletions. Absent
   * in journals begun before the count was kept: their export reads every entry (chunks.ts).
   */
  deletes?: number;
}

/** The state of a journal whose log is empty. */
export const INITIAL_STATE: JournalStateData = {
  holder: null,
  lockedAt: null,
  closed: false,
  entries: 0,
  lastEntryAt: 0,
  deletes: 0,
};

/** The holder identity of an actor: the user, or the API key itself. */
export function holderOf(actor: Actor): Holder {
  return actor.kind === 'user' ? { userId: actor.userId, apiKeyId: null } : { userId: null, apiKeyId: actor.tokenId };
}

/** True when two holders are the same user or the same API key. */
export function sameHolder(a: Holder | null, b: Holder): boolean {
  return a !== null && a.userId === b.userId && a.apiKeyId === b.apiKeyId;
}

// Rows "Locked by the caller" of unlock, create and delete: the failure code names what is wrong.
function requireHolder(state: JournalStateData, by: Holder, message: string): void {
  if (state.closed) throw conflict('journal_closed', message);
  if (!state.holder) throw conflict('journal_not_locked', message);
  if (!sameHolder(state.holder, by)) throw conflict('journal_locked', message);
}

/**
 * The state after `kind` by `by` at log position `position`, or the 409 of the table's failing row.
 * Permissions (who may close or break a lock) are checked before, by the commands.
 */
export function transition(
  state: JournalStateData,
  kind: ChangeKind,
  by: Holder,
  at: string,
  position: number,
): JournalStateData {
  switch (kind) {
    case 'lock':
      if (state.closed) throw conflict('journal_closed', wording.lockFailed);
      if (state.holder) throw conflict('journal_locked', wording.lockFailed);
      return { ...state, holder: by, lockedAt: at };
    case 'unlock':
      requireHolder(state, by, wording.unlockFailed);
      return { ...state, holder: null, lockedAt: null };
    case 'entry':
      requireHolder(state, by, wording.entryFailed);
      return { ...state, entries: state.entries + 1, lastEntryAt: position };
    case 'delete':
      requireHolder(state, by, wording.entryFailed);
      return state.deletes === undefined ? state : { ...state, deletes: state.deletes + 1 };
    case 'close':
      // Closing supersedes a lock: nobody changes the journal afterwards, the holder included.
      if (state.closed) throw conflict('journal_closed', wording.alreadyClosed);
      return { ...state, closed: true, holder: null, lockedAt: null };
    case 'force-unlock':
      if (state.closed) throw conflict('journal_closed', wording.notLockedOrClosed);
      if (!state.holder) throw conflict('journal_not_locked', wording.notLockedOrClosed);
      // The break is itself an entry, so the journal records who broke whose lock and why.
      return { ...state, holder: null, lockedAt: null, entries: state.entries + 1, lastEntryAt: position };
  }
}

/** True for changes that write an entry (and so take the next serial number). */
export function writesEntry(kind: ChangeKind): boolean {
  return kind === 'entry' || kind === 'force-unlock';
}
