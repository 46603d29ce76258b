// J9 (create entry) and J10 (delete entry) over the real wire, with the state table's rows for them.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
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

const remove = (
  ctx: JournalCtx,
  auth: ReturnType<typeof as.key>,
  journalId: number | string,
  entryId: number | string,
) => client(ctx.svc.url, auth).delete(`${BASE}/${journalId}/entries/${entryId}`);

// ---------------------------------------------------------------- J9
const j9 = journalSuite('J9 create entry');
rejectsUnauthenticated(j9, 'J9', 'POST', () => `${BASE}/1/entries`, { journalId: 1, categoryId: 1, text: 'x' });

j9('J9 400 on a bad journalID, a missing or malformed body, or an oversized attachment', async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.member(ctx.a));
  const c = client(ctx.svc.url, as.member(ctx.a));
  const url = `${BASE}/${journalId}/entries`;
  const ok = { journalId, categoryId: category.id, text: 'Lage erkundet' };
  expectBadRequest(await c.post(`${BASE}/x/entries`, ok), 'invalid_parameter', wording.journalId, 'path', 'journalID');
  expectBadRequest(await c.post(url), 'invalid_body', wording.entryBody, 'body');
  for (const field of ['journalId', 'categoryId', 'text']) {
    const body: Record<string, unknown> = { ...ok };
    delete body[field];
    expectBadRequest(await c.post(url, body), 'invalid_body', wording.entryBody, 'body', field);
  }
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ text: '' }, 'text'],
    [{ text: 'x'.repeat(10_001) }, 'text'],
    [{ priority: 1 }, 'priority'],
    [{ customTime: 'yesterday' }, 'customTime'],
    [{ location: 7 }, 'location'],
    [{ attachment: 'a'.repeat(2049) }, 'attachment'],
    [{ attachment: 'ü'.repeat(1025) }, 'attachment'],
    [{ categoryId: -1 }, 'categoryId'],
  ];
  for (const [change, field] of bad)
    expectBadRequest(await c.post(url, { ...ok, ...change }), 'invalid_body', wording.entryBody, 'body', field);
  expectBadRequest(
    await c.post(url, `{"journalId":${journalId},"categoryId":${ABOVE_MAX_ID},"text":"x"}`),
    'invalid_body',
    wording.entryBody,
    'body',
    'categoryId',
  );
});

j9("J9 400 when the body's journalId is not the path's, or the category is not the organization's", async (ctx) => {
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.member(ctx.a));
  const mine = await newCategory(ctx, ctx.a);
  const ofB = await newCategory(ctx, ctx.b);
  expectBadRequest(
    await client(ctx.svc.url, as.member(ctx.a)).post(`${BASE}/${journalId}/entries`, {
      journalId: journalId + 1,
      categoryId: mine.id,
      text: 'x',
    }),
    'invalid_body',
    wording.journalId,
    'body',
    'journalId',
  );
  for (const categoryId of [ofB.id, 555555])
    expectBadRequest(
      await writeEntry(ctx, journalId, as.member(ctx.a), categoryId),
      'invalid_body',
      wording.category,
      'body',
      'categoryId',
    );
});

j9("J9 404 for an unknown journal and another organization's", async (ctx) => {
  const category = await newCategory(ctx, ctx.b);
  const ofB = await eventJournal(ctx, ctx.b);
  await lock(ctx, ofB, as.key(ctx.b));
  expectError(await writeEntry(ctx, ofB, as.key(ctx.a), category.id), 404, 'not_found', wording.journalId);
  expectError(await writeEntry(ctx, 888888, as.key(ctx.a), category.id), 404, 'not_found', wording.journalId);
});

j9('J9 409 row "not locked, or locked by another user": journal_not_locked, journal_locked', async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const journalId = await eventJournal(ctx);
  expectError(
    await writeEntry(ctx, journalId, as.member(ctx.a), category.id),
    409,
    'journal_not_locked',
    wording.entryFailed,
  );
  await lock(ctx, journalId, as.member(ctx.a));
  for (const auth of [as.admin(ctx.a), as.key(ctx.a)])
    expectError(await writeEntry(ctx, journalId, auth, category.id), 409, 'journal_locked', wording.entryFailed);
});

j9(
  'J9 201 row "locked by the caller": the entry with serial number, category embedded, custom ' +
    'time, location and attachment; still locked',
  async (ctx) => {
    const category = await newCategory(ctx, ctx.a, 'Einsatzabschnitt', 'EA Nord');
    const query = newEventQuery(ctx.a);
    const journalId = await openJournal(ctx, ctx.a, query);
    await lock(ctx, journalId, as.member(ctx.a));
    const from = Date.now();
    const attachment = 'https://files.example/lage/' + 'ä'.repeat(1000);
    const res = await writeEntry(ctx, journalId, as.member(ctx.a), category.id, {
      text: 'DLK in Stellung',
      location: 'Goethestraße 5',
      attachment,
      customTime: '2026-11-22T13:58:00Z',
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    matchesSchema('JournalEntry', res.body);
    assert.equal(res.body, {
      id: res.body.id,
      journalId,
      serialNumber: 1,
      text: 'DLK in Stellung',
      location: 'Goethestraße 5',
      attachment,
      category,
      created: { time: res.body.created.time, timeCustom: '2026-11-22T13:58:00Z', userId: ctx.a.member.userId },
      deleted: null,
    });
    assert.ok(Date.parse(res.body.created.time) >= from - 1000);
    const second = await writeEntry(ctx, journalId, as.member(ctx.a), category.id, { text: 'Zweiter' });
    assert.equal(
      [second.body.serialNumber, second.body.location, second.body.attachment, second.body.created.timeCustom],
      [2, '', '', null],
    );
    assert.ok(second.body.id > res.body.id);
    const journal = (await client(ctx.svc.url, as.key(ctx.a)).get(`${BASE}?${query}`)).body;
    assert.is(journal.locked.userId, ctx.a.member.userId);
    assert.equal(journal.entryList.entries, [second.body, res.body]);
  },
);

j9('J9 201 by the API key holding the lock: created names the key', async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.key(ctx.a));
  const res = await writeEntry(ctx, journalId, as.key(ctx.a), category.id);
  assert.is(res.status, 201);
  assert.equal(res.body.created, {
    time: res.body.created.time,
    timeCustom: null,
    userId: null,
    apiKeyId: ctx.a.apiKeyId,
  });
});

j9.run();

// ---------------------------------------------------------------- J10
const j10 = journalSuite('J10 delete entry');
rejectsUnauthenticated(j10, 'J10', 'DELETE', () => `${BASE}/1/entries/1`);

j10('J10 400 when journalID or entryID is not a positive int64', async (ctx) => {
  expectBadRequest(
    await remove(ctx, as.key(ctx.a), 'x', 1),
    'invalid_parameter',
    wording.entryParams,
    'path',
    'journalID',
  );
  expectBadRequest(
    await remove(ctx, as.key(ctx.a), 1, '0'),
    'invalid_parameter',
    wording.entryParams,
    'path',
    'entryID',
  );
  expectBadRequest(
    await remove(ctx, as.key(ctx.a), 1, ABOVE_MAX_ID),
    'invalid_parameter',
    wording.entryParams,
    'path',
    'entryID',
  );
});

j10('J10 409 row "not locked, or locked by another user", for any entryID', async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.member(ctx.a));
  const entry = (await writeEntry(ctx, journalId, as.member(ctx.a), category.id)).body;
  for (const target of [entry.id, 999999])
    expectError(await remove(ctx, as.admin(ctx.a), journalId, target), 409, 'journal_locked', wording.entryFailed);
  assert.is((await client(ctx.svc.url, as.member(ctx.a)).post(`${BASE}/${journalId}/unlock`)).status, 200);
  expectError(await remove(ctx, as.member(ctx.a), journalId, entry.id), 409, 'journal_not_locked', wording.entryFailed);
});

j10("J10 404 for an unknown entry, an entry of another journal, and another organization's journal", async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const other = await eventJournal(ctx);
  await lock(ctx, other, as.key(ctx.a));
  const elsewhere = (await writeEntry(ctx, other, as.key(ctx.a), category.id)).body;
  const journalId = await eventJournal(ctx);
  await lock(ctx, journalId, as.key(ctx.a));
  expectError(await remove(ctx, as.key(ctx.a), journalId, 999999), 404, 'not_found', wording.entryId);
  expectError(await remove(ctx, as.key(ctx.a), journalId, elsewhere.id), 404, 'not_found', wording.entryId);
  expectError(await remove(ctx, as.key(ctx.b), other, elsewhere.id), 404, 'not_found', wording.journalId);
});

j10(
  'J10 200 row "locked by the caller": the entry gets a deleted record, stays listed, and deleting ' +
    'again changes nothing',
  async (ctx) => {
    const category = await newCategory(ctx, ctx.a);
    const query = newEventQuery(ctx.a);
    const journalId = await openJournal(ctx, ctx.a, query);
    await lock(ctx, journalId, as.admin(ctx.a));
    const entry = (await writeEntry(ctx, journalId, as.admin(ctx.a), category.id, { text: 'Irrtum' })).body;
    const res = await remove(ctx, as.admin(ctx.a), journalId, entry.id);
    assert.is(res.status, 200);
    matchesSchema('JournalEntry', res.body);
    assert.equal(res.body, { ...entry, deleted: { time: res.body.deleted.time, userId: ctx.a.admin.userId } });
    assert.ok(Date.parse(res.body.deleted.time) >= Date.parse(entry.created.time));
    const again = await remove(ctx, as.admin(ctx.a), journalId, entry.id);
    assert.is(again.status, 200);
    assert.equal(again.body, res.body);
    const journal = (await client(ctx.svc.url, as.member(ctx.a)).get(`${BASE}?${query}`)).body;
    assert.equal(journal.entryList, { entries: [res.body], totalEntries: 1 });
    assert.is(journal.locked.userId, ctx.a.admin.userId);
  },
);

j10.run();
