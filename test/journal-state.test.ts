// J7 (lock), J8 (unlock), close and force-unlock over the real wire, and every row of the interface's
// state table for them (J9/J10's rows are in journal-entries.test.ts).
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client, type Credential } from './helpers/http.js';
import {
  BASE,
  as,
  eventJournal,
  journalSuite,
  lock,
  matchesSchema,
  newCategory,
  newEventQuery,
  openJournal,
  rejectsUnauthenticated,
  wording,
  writeEntry,
  type JournalCtx,
} from './helpers/journal.js';

const post = (ctx: JournalCtx, auth: Credential, journalId: number | string, action: string, body?: unknown) =>
  client(ctx.svc.url, auth).post(`${BASE}/${journalId}/${action}`, body);
const since = (from: number) => (time: string) =>
  Date.parse(time) >= from - 1000 && Date.parse(time) <= Date.now() + 1000;

// ---------------------------------------------------------------- J7
const j7 = journalSuite('J7 lock journal');
rejectsUnauthenticated(j7, 'J7', 'POST', () => `${BASE}/1/lock`);

j7(
  "J7 400 when journalID is not a positive int64; 404 for an unknown journal or another organization's",
  async (ctx) => {
    for (const bad of ['x', '0', ABOVE_MAX_ID])
      expectBadRequest(
        await post(ctx, as.key(ctx.a), bad, 'lock'),
        'invalid_parameter',
        wording.journalId,
        'path',
        'journalID',
      );
    const ofB = await eventJournal(ctx, ctx.b);
    expectError(await post(ctx, as.key(ctx.a), ofB, 'lock'), 404, 'not_found', wording.journalId);
    expectError(await post(ctx, as.member(ctx.a), 777777, 'lock'), 404, 'not_found', wording.journalId);
  },
);

j7('J7 200 row "not locked, not closed": locked by the caller with time and user (a member)', async (ctx) => {
  const journalId = await eventJournal(ctx);
  const from = Date.now();
  const res = await post(ctx, as.member(ctx.a), journalId, 'lock');
  assert.is(res.status, 200);
  matchesSchema('JournalState', res.body);
  assert.equal(res.body, {
    id: journalId,
    organizationId: ctx.a.orgId,
    eventId: res.body.eventId,
    closed: false,
    locked: { time: res.body.locked.time, userId: ctx.a.member.userId },
  });
  assert.ok(since(from)(res.body.locked.time));
});

j7('J7 200 by the API key: the lock names the key (userId null, apiKeyId)', async (ctx) => {
  const journalId = await eventJournal(ctx);
  const res = await post(ctx, as.key(ctx.a), journalId, 'lock');
  assert.is(res.status, 200);
  assert.equal(res.body.locked, { time: res.body.locked.time, userId: null, apiKeyId: ctx.a.apiKeyId });
});

j7(
  'J7 409 row "locked or closed": journal_locked when locked by another user or the caller, journal_closed when closed',
  async (ctx) => {
    const journalId = await eventJournal(ctx);
    await lock(ctx, journalId, as.member(ctx.a));
    expectError(await post(ctx, as.admin(ctx.a), journalId, 'lock'), 409, 'journal_locked', wording.lockFailed);
    expectError(await post(ctx, as.member(ctx.a), journalId, 'lock'), 409, 'journal_locked', wording.lockFailed);
    const closed = await eventJournal(ctx);
    assert.is((await post(ctx, as.admin(ctx.a), closed, 'close')).status, 200);
    expectError(await post(ctx, as.member(ctx.a), closed, 'lock'), 409, 'journal_closed', wording.lockFailed);
  },
);

j7.run();

// ---------------------------------------------------------------- J8
const j8 = journalSuite('J8 unlock journal');
rejectsUnauthenticated(j8, 'J8', 'POST', () => `${BASE}/1/unlock`);

j8("J8 400 when journalID is not a positive int64; 404 for another organization's journal", async (ctx) => {
  expectBadRequest(
    await post(ctx, as.key(ctx.a), '-1', 'unlock'),
    'invalid_parameter',
    wording.journalId,
    'path',
    'journalID',
  );
  const ofB = await eventJournal(ctx, ctx.b);
  await lock(ctx, ofB, as.member(ctx.b));
  expectError(await post(ctx, as.member(ctx.a), ofB, 'unlock'), 404, 'not_found', wording.journalId);
});

j8('J8 200 row "locked by the caller, not closed": not locked afterwards, and lockable again', async (ctx) => {
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.admin(ctx.a));
  const res = await post(ctx, as.admin(ctx.a), journalId, 'unlock');
  assert.is(res.status, 200);
  matchesSchema('JournalState', res.body);
  assert.equal(res.body, {
    id: journalId,
    organizationId: ctx.a.orgId,
    eventId: res.body.eventId,
    closed: false,
    locked: null,
  });
  await lock(ctx, journalId, as.member(ctx.a));
});

j8(
  'J8 409 row "not locked, locked by another user, or closed": journal_not_locked, journal_locked, journal_closed',
  async (ctx) => {
    const journalId = await eventJournal(ctx);
    expectError(
      await post(ctx, as.member(ctx.a), journalId, 'unlock'),
      409,
      'journal_not_locked',
      wording.unlockFailed,
    );
    await lock(ctx, journalId, as.member(ctx.a));
    // Another user, an admin, and the organization's API key are all "another" than the holder.
    for (const auth of [as.admin(ctx.a), as.key(ctx.a)])
      expectError(await post(ctx, auth, journalId, 'unlock'), 409, 'journal_locked', wording.unlockFailed);
    assert.is((await post(ctx, as.key(ctx.a), journalId, 'close')).status, 200);
    expectError(await post(ctx, as.member(ctx.a), journalId, 'unlock'), 409, 'journal_closed', wording.unlockFailed);
  },
);

j8.run();

// ---------------------------------------------------------------- close
const close = journalSuite('J-close close journal');
rejectsUnauthenticated(close, 'J-close', 'POST', () => `${BASE}/1/close`);

close("J-close 400 on a bad journalID; 403 for a member; 404 for another organization's journal", async (ctx) => {
  expectBadRequest(
    await post(ctx, as.key(ctx.a), 'abc', 'close'),
    'invalid_parameter',
    wording.journalId,
    'path',
    'journalID',
  );
  const journalId = await eventJournal(ctx);
  expectError(await post(ctx, as.member(ctx.a), journalId, 'close'), 403, 'forbidden', wording.unauthorizedUser);
  expectError(await post(ctx, as.key(ctx.b), journalId, 'close'), 404, 'not_found', wording.journalId);
});

close('J-close 200 ends a lock and every change for good; 409 journal_closed when closed again', async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const query = newEventQuery(ctx.a);
  const journalId = await openJournal(ctx, ctx.a, query);
  await lock(ctx, journalId, as.member(ctx.a));
  const entry = await writeEntry(ctx, journalId, as.member(ctx.a), category.id);
  const res = await post(ctx, as.admin(ctx.a), journalId, 'close');
  assert.is(res.status, 200);
  assert.equal(res.body, {
    id: journalId,
    organizationId: ctx.a.orgId,
    eventId: res.body.eventId,
    closed: true,
    locked: null,
  });
  expectError(await post(ctx, as.key(ctx.a), journalId, 'close'), 409, 'journal_closed', wording.alreadyClosed);
  expectError(
    await writeEntry(ctx, journalId, as.member(ctx.a), category.id),
    409,
    'journal_closed',
    wording.entryFailed,
  );
  expectError(
    await client(ctx.svc.url, as.member(ctx.a)).delete(`${BASE}/${journalId}/entries/${entry.body.id}`),
    409,
    'journal_closed',
    wording.entryFailed,
  );
  expectError(await post(ctx, as.key(ctx.a), journalId, 'lock'), 409, 'journal_closed', wording.lockFailed);
  expectError(
    await post(ctx, as.key(ctx.a), journalId, 'force-unlock', { reason: 'x' }),
    409,
    'journal_closed',
    wording.notLockedOrClosed,
  );
  const journal = (await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}?${query}`)).body;
  assert.is(journal.closed, true);
  assert.is(journal.locked, null);
  assert.is(journal.entryList.totalEntries, 1);
});

close.run();

// ---------------------------------------------------------------- force-unlock
const force = journalSuite('J-force-unlock break a lock');
rejectsUnauthenticated(force, 'J-force-unlock', 'POST', () => `${BASE}/1/force-unlock`, { reason: 'x' });

force(
  "J-force-unlock 400 without a reason, with an unknown field, or with another organization's category",
  async (ctx) => {
    const journalId = await eventJournal(ctx);
    await lock(ctx, journalId, as.member(ctx.a));
    const c = (body?: unknown) => post(ctx, as.admin(ctx.a), journalId, 'force-unlock', body);
    expectBadRequest(await c(), 'invalid_body', wording.forceUnlockBody, 'body');
    expectBadRequest(await c({}), 'invalid_body', wording.forceUnlockBody, 'body', 'reason');
    expectBadRequest(await c({ reason: '' }), 'invalid_body', wording.forceUnlockBody, 'body', 'reason');
    expectBadRequest(await c({ reason: 'gone', by: 1 }), 'invalid_body', wording.forceUnlockBody, 'body', 'by');
    expectBadRequest(
      await c({ reason: 'gone', categoryId: 0 }),
      'invalid_body',
      wording.forceUnlockBody,
      'body',
      'categoryId',
    );
    const ofB = await newCategory(ctx, ctx.b);
    expectBadRequest(
      await c({ reason: 'gone', categoryId: ofB.id }),
      'invalid_body',
      wording.category,
      'body',
      'categoryId',
    );
  },
);

force('J-force-unlock 403 for a member (even the holder); 404 for another organization', async (ctx) => {
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.member(ctx.a));
  expectError(
    await post(ctx, as.member(ctx.a), journalId, 'force-unlock', { reason: 'x' }),
    403,
    'forbidden',
    wording.unauthorizedUser,
  );
  expectError(
    await post(ctx, as.admin(ctx.b), journalId, 'force-unlock', { reason: 'x' }),
    404,
    'not_found',
    wording.journalId,
  );
});

force('J-force-unlock 409 journal_not_locked when nobody holds the lock', async (ctx) => {
  const journalId = await eventJournal(ctx);
  expectError(
    await post(ctx, as.admin(ctx.a), journalId, 'force-unlock', { reason: 'x' }),
    409,
    'journal_not_locked',
    wording.notLockedOrClosed,
  );
});

force(
  'J-force-unlock 200 breaks the lock of a user who left the organization and records it as an entry',
  async (ctx) => {
    const category = await newCategory(ctx, ctx.a, 'Verwaltung', 'v');
    const leaver = await ctx.svc.identity.createUser('Gruppenführer who leaves');
    await ctx.svc.identity.addMember(ctx.a.orgId, leaver.id, 'member');
    const token = (await ctx.svc.identity.createPersonalToken(leaver.id, 'tablet')).token;
    const query = newEventQuery(ctx.a);
    const journalId = await openJournal(ctx, ctx.a, query);
    await lock(ctx, journalId, { pat: token });
    await writeEntry(ctx, journalId, { pat: token }, category.id, { text: 'Erster Eintrag' });
    await ctx.svc.identity.removeMember(ctx.a.orgId, leaver.id);
    // He can no longer unlock (the journal is not his organization's any more), nor can anyone else.
    expectError(await post(ctx, { pat: token }, journalId, 'unlock'), 404, 'not_found', wording.journalId);
    expectError(await post(ctx, as.member(ctx.a), journalId, 'lock'), 409, 'journal_locked', wording.lockFailed);
    const res = await post(ctx, as.admin(ctx.a), journalId, 'force-unlock', {
      reason: 'Tablet verloren',
      categoryId: category.id,
    });
    assert.is(res.status, 200);
    assert.equal(res.body, {
      id: journalId,
      organizationId: ctx.a.orgId,
      eventId: res.body.eventId,
      closed: false,
      locked: null,
    });
    const journal = (await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}?${query}`)).body;
    assert.is(journal.entryList.totalEntries, 2);
    const record = journal.entryList.entries[0];
    assert.is(record.serialNumber, 2);
    assert.match(
      record.text,
      new RegExp(`^Lock of user ${leaver.id} held since \\S+ broken by user ${ctx.a.admin.userId}: Tablet verloren$`),
    );
    assert.equal(record.category, category);
    assert.is(record.created.userId, ctx.a.admin.userId);
    await lock(ctx, journalId, as.member(ctx.a));
  },
);

force('J-force-unlock 200 by the API key without a category: the entry has category null', async (ctx) => {
  const query = newEventQuery(ctx.a);
  const journalId = await openJournal(ctx, ctx.a, query);
  await lock(ctx, journalId, as.admin(ctx.a));
  assert.is((await post(ctx, as.key(ctx.a), journalId, 'force-unlock', { reason: 'Schichtwechsel' })).status, 200);
  const record = (await client(ctx.svc.url, as.key(ctx.a)).get(`${BASE}?${query}`)).body.entryList.entries[0];
  matchesSchema('JournalEntry', record);
  assert.is(record.category, null);
  assert.equal(record.created, { time: record.created.time, timeCustom: null, userId: null, apiKeyId: ctx.a.apiKeyId });
  assert.match(record.text, `broken by API key ${ctx.a.apiKeyId}: Schichtwechsel`);
});

force.run();
