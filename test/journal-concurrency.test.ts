// The journal's guarantees under concurrency, on the database the run uses (FerretDB here, whose
// updates are not atomic): requests are spread over two service instances on one database, so the
// guarantees are those of the storage, not of one process's queue. Rate limits are off (test service).
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { INITIAL_STATE, transition, type JournalStateData } from '../server/areas/journal/state.js';
import { client, type Credential } from './helpers/http.js';
import { BASE, as, newCategory, newEventQuery, openJournal, type JournalCtx } from './helpers/journal.js';
import { createOrg, startTestService, type TestService } from './helpers/service.js';
import { journalModels } from '../server/areas/journal/models.js';

interface Ctx extends JournalCtx {
  /** A second service instance on the same database (another process's worth of caches and queues). */
  other: TestService;
  users: Array<{ userId: number; token: string }>;
}

const race = suite<Ctx>('journal concurrency', {} as Ctx);
race.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.other = await startTestService();
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
  ctx.users = [];
  for (let i = 0; i < 50; i++) {
    const user = await ctx.svc.identity.createUser(`Helfer ${i}`);
    await ctx.svc.identity.addMember(ctx.a.orgId, user.id, 'member');
    ctx.users.push({ userId: user.id, token: (await ctx.svc.identity.createPersonalToken(user.id, 'phone')).token });
  }
});
race.after(async (ctx) => {
  await ctx.other.close();
  await ctx.svc.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alternates requests between the two instances. */
const via = (ctx: Ctx, i: number, auth: Credential) => client((i % 2 ? ctx.other : ctx.svc).url, auth);

race("10 racing first accesses of an event's journal get one journal", async (ctx) => {
  const query = newEventQuery(ctx.a);
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => via(ctx, i, as.key(ctx.a)).get(`${BASE}?${query}`)),
  );
  assert.ok(
    answers.every((r) => r.status === 200),
    JSON.stringify(answers.map((r) => r.body)),
  );
  assert.is(new Set(answers.map((r) => r.body.id)).size, 1);
  const eventId = answers[0].body.eventId;
  const keys = await journalModels(ctx.svc.db)
    .JournalKey.find({ _id: `event:${ctx.a.orgId}:${eventId}` })
    .lean();
  assert.equal(
    keys.map((k) => k.journalId),
    [answers[0].body.id],
  );
  assert.is(await journalModels(ctx.svc.db).Journal.countDocuments({ organizationId: ctx.a.orgId, eventId }), 1);
});

race('50 users locking at once: exactly one holder, 49 × 409 journal_locked', async (ctx) => {
  const journalId = await openJournal(ctx, ctx.a, newEventQuery(ctx.a));
  const answers = await Promise.all(
    ctx.users.map((u, i) => via(ctx, i, { pat: u.token }).post(`${BASE}/${journalId}/lock`)),
  );
  const winners = answers.filter((r) => r.status === 200);
  assert.is(winners.length, 1, JSON.stringify(answers.map((r) => r.status)));
  assert.ok(answers.every((r) => r.status === 200 || r.body.error === 'journal_locked'));
  const holder = winners[0].body.locked.userId;
  assert.ok(ctx.users.some((u) => u.userId === holder));
  const log = await journalModels(ctx.svc.db).JournalLog.find({ journalId }).lean();
  assert.is(log.length, 1);
  assert.is(log[0].by.userId, holder);
});

race('100 concurrent entries by the holder get serial numbers 1…100, all listed', async (ctx) => {
  const category = await newCategory(ctx, ctx.a);
  const query = newEventQuery(ctx.a);
  const journalId = await openJournal(ctx, ctx.a, query);
  const holder = { pat: ctx.a.member.token };
  assert.is((await client(ctx.svc.url, holder).post(`${BASE}/${journalId}/lock`)).status, 200);
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      via(ctx, i, holder).post(`${BASE}/${journalId}/entries`, {
        journalId,
        categoryId: category.id,
        text: `Meldung ${i}`,
      }),
    ),
  );
  assert.ok(
    answers.every((r) => r.status === 201),
    JSON.stringify(answers.filter((r) => r.status !== 201).map((r) => r.body)),
  );
  assert.equal(
    answers.map((r) => r.body.serialNumber).sort((x, y) => x - y),
    Array.from({ length: 100 }, (_, i) => i + 1),
  );
  assert.is(new Set(answers.map((r) => r.body.id)).size, 100);
  const listed: number[] = [];
  for (let offset = 0; offset < 100; offset += 50) {
    const page = (await client(ctx.svc.url, holder).get(`${BASE}?${query}&limit=50&offset=${offset}`)).body;
    assert.is(page.entryList.totalEntries, 100);
    listed.push(...page.entryList.entries.map((e: any) => e.serialNumber));
  }
  assert.equal(
    listed,
    Array.from({ length: 100 }, (_, i) => 100 - i),
  );
  // Processes without a cached head start probing from the journal's hint, which moved forward.
  assert.ok((await journalModels(ctx.svc.db).Journal.findById(String(journalId)).lean())!.hint > 1);
});

race(
  'locks, entries, unlocks, a close and lock breaks racing: the stored log replays through the state table',
  async (ctx) => {
    const category = await newCategory(ctx, ctx.a);
    const query = newEventQuery(ctx.a);
    const journalId = await openJournal(ctx, ctx.a, query);
    const created: number[] = [];
    // Each worker takes the lock when it can, writes two entries, unlocks, until the journal is closed.
    const worker = async (user: { token: string }, i: number) => {
      for (let round = 0; ; round++) {
        const c = via(ctx, i + round, { pat: user.token });
        const locked = await c.post(`${BASE}/${journalId}/lock`);
        if (locked.body.error === 'journal_closed') return;
        if (locked.status !== 200) {
          await sleep(5);
          continue;
        }
        for (let n = 0; n < 2; n++) {
          const entry = await c.post(`${BASE}/${journalId}/entries`, {
            journalId,
            categoryId: category.id,
            text: `from ${i}`,
          });
          if (entry.status === 201) created.push(entry.body.serialNumber);
          else
            assert.ok(
              ['journal_locked', 'journal_not_locked', 'journal_closed'].includes(entry.body.error),
              JSON.stringify(entry.body),
            );
        }
        await c.post(`${BASE}/${journalId}/unlock`);
      }
    };
    // Breaks a lock now and then and closes the journal while the workers are still busy.
    const breaker = async () => {
      for (let i = 0; i < 4; i++) {
        await sleep(100);
        await via(ctx, i, as.admin(ctx.a)).post(`${BASE}/${journalId}/force-unlock`, { reason: `round ${i}` });
      }
      await sleep(100);
      await client(ctx.other.url, as.key(ctx.a)).post(`${BASE}/${journalId}/close`);
    };
    await Promise.all([...ctx.users.slice(0, 8).map(worker), breaker()]);

    const log = (await journalModels(ctx.svc.db).JournalLog.find({ journalId }).lean()).sort(
      (x, y) => x.position - y.position,
    );
    assert.equal(
      log.map((r) => r.position),
      log.map((_, i) => i + 1),
      'positions without gaps',
    );
    let state: JournalStateData = INITIAL_STATE;
    for (const record of log) {
      // Each stored change must be the one the state table allows on the change before it.
      state = transition(
        state,
        record.kind,
        record.by,
        record.state.lockedAt ?? record.at.toISOString(),
        record.position,
      );
      assert.equal(state, record.state, `position ${record.position} (${record.kind})`);
    }
    assert.is(state.closed, true);
    const journal = (await client(ctx.svc.url, as.key(ctx.a)).get(`${BASE}?${query}&limit=50`)).body;
    assert.is(journal.entryList.totalEntries, state.entries);
    assert.equal(
      journal.entryList.entries.map((e: any) => e.serialNumber),
      Array.from({ length: Math.min(50, state.entries) }, (_, i) => state.entries - i),
    );
    for (const serial of created) assert.ok(serial <= state.entries);
  },
);

race.run();
