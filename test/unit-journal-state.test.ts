// The journal's state table (interface, "States and transitions") row by row, as pure functions.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { AppError } from '../server/errors.js';
import { wording } from '../server/areas/journal/wording.js';
import {
  INITIAL_STATE,
  holderOf,
  sameHolder,
  transition,
  type ChangeKind,
  type Holder,
  type JournalStateData,
} from '../server/areas/journal/state.js';

const alice: Holder = { userId: 1, apiKeyId: null };
const bob: Holder = { userId: 2, apiKeyId: null };
const key: Holder = { userId: null, apiKeyId: 1 };
const AT = '2026-11-22T14:00:00.000Z';
const lockedBy = (h: Holder): JournalStateData => ({
  ...INITIAL_STATE,
  holder: h,
  lockedAt: AT,
  entries: 4,
  lastEntryAt: 9,
});
const closed: JournalStateData = { ...INITIAL_STATE, closed: true, entries: 4, lastEntryAt: 9 };

function refused(state: JournalStateData, kind: ChangeKind, by: Holder, code: string, message: string) {
  try {
    transition(state, kind, by, AT, 12);
  } catch (err) {
    assert.instance(err, AppError);
    assert.equal([(err as AppError).status, (err as AppError).code, (err as AppError).message], [409, code, message]);
    return;
  }
  assert.unreachable(`${kind} should have been refused`);
}

const table = suite('journal state table');

table('lock: not locked, not closed → locked by the caller with time and user', () => {
  assert.equal(transition(INITIAL_STATE, 'lock', alice, AT, 1), { ...INITIAL_STATE, holder: alice, lockedAt: AT });
});

table('lock: locked (by anyone) or closed → refused, unchanged', () => {
  refused(lockedBy(bob), 'lock', alice, 'journal_locked', wording.lockFailed);
  refused(lockedBy(alice), 'lock', alice, 'journal_locked', wording.lockFailed);
  refused(closed, 'lock', alice, 'journal_closed', wording.lockFailed);
});

table('unlock: locked by the caller, not closed → not locked; otherwise refused', () => {
  assert.equal(transition(lockedBy(alice), 'unlock', alice, AT, 12), {
    ...lockedBy(alice),
    holder: null,
    lockedAt: null,
  });
  refused(INITIAL_STATE, 'unlock', alice, 'journal_not_locked', wording.unlockFailed);
  refused(lockedBy(bob), 'unlock', alice, 'journal_locked', wording.unlockFailed);
  refused(lockedBy(key), 'unlock', alice, 'journal_locked', wording.unlockFailed);
  refused(closed, 'unlock', alice, 'journal_closed', wording.unlockFailed);
});

table('entry and delete: only by the holder; an entry takes the next serial number and stays locked', () => {
  assert.equal(transition(lockedBy(alice), 'entry', alice, AT, 12), {
    ...lockedBy(alice),
    entries: 5,
    lastEntryAt: 12,
  });
  // A delete is counted (its ordinal names its record for the export); a journal begun before the
  // count was kept stays without one.
  assert.equal(transition(lockedBy(key), 'delete', key, AT, 12), { ...lockedBy(key), deletes: 1 });
  const { deletes: _, ...uncounted } = lockedBy(key);
  assert.equal(transition(uncounted, 'delete', key, AT, 12), uncounted);
  for (const kind of ['entry', 'delete'] as const) {
    refused(INITIAL_STATE, kind, alice, 'journal_not_locked', wording.entryFailed);
    refused(lockedBy(bob), kind, alice, 'journal_locked', wording.entryFailed);
    refused(closed, kind, alice, 'journal_closed', wording.entryFailed);
  }
});

table('close: ends a lock; closing twice is refused', () => {
  assert.equal(transition(lockedBy(bob), 'close', alice, AT, 12), {
    ...lockedBy(bob),
    holder: null,
    lockedAt: null,
    closed: true,
  });
  refused(closed, 'close', alice, 'journal_closed', wording.alreadyClosed);
});

table("force-unlock: ends another's lock and is itself an entry; refused when not locked or closed", () => {
  assert.equal(transition(lockedBy(bob), 'force-unlock', alice, AT, 12), {
    ...lockedBy(bob),
    holder: null,
    lockedAt: null,
    entries: 5,
    lastEntryAt: 12,
  });
  refused(INITIAL_STATE, 'force-unlock', alice, 'journal_not_locked', wording.notLockedOrClosed);
  refused(closed, 'force-unlock', alice, 'journal_closed', wording.notLockedOrClosed);
});

table('holders: a user by user ID (any of his tokens), an API key by its own ID', () => {
  assert.equal(holderOf({ kind: 'user', tokenId: 5, credential: 'p', userId: 1, roles: new Map() }), alice);
  assert.equal(holderOf({ kind: 'apikey', tokenId: 1, credential: 'k', organizationId: 3 }), key);
  assert.ok(sameHolder(alice, { userId: 1, apiKeyId: null }));
  assert.not.ok(sameHolder(alice, bob));
  assert.not.ok(sameHolder(key, { userId: null, apiKeyId: 2 }));
  assert.not.ok(sameHolder(null, alice));
});

table.run();
