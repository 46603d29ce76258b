// journal:changed on the hub: every change to a journal reaches the organization's room (socket.io
// client with a member's token), and no other organization's.
import * as assert from 'uvu/assert';
import { client } from './helpers/http.js';
import { BASE, as, journalSuite, newCategory, newEventQuery, openJournal } from './helpers/journal.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';

const live = journalSuite('journal:changed');

live(
  "every change (lock, entry created and deleted, unlock, lock broken, closed) reaches the organization's room in order",
  async (ctx) => {
    const staff = await connectScreen(ctx.svc.url, ctx.a.member.token);
    const stranger = await connectScreen(ctx.svc.url, ctx.b.apiKey);
    try {
      const category = await newCategory(ctx, ctx.a, 'Lage', 'l');
      const journalId = await openJournal(ctx, ctx.a, newEventQuery(ctx.a));
      const holder = client(ctx.svc.url, as.member(ctx.a));
      const admin = client(ctx.svc.url, as.admin(ctx.a));
      const locked = (await holder.post(`${BASE}/${journalId}/lock`)).body;
      const entry = (
        await holder.post(`${BASE}/${journalId}/entries`, { journalId, categoryId: category.id, text: 'Wasser marsch' })
      ).body;
      const deleted = (await holder.delete(`${BASE}/${journalId}/entries/${entry.id}`)).body;
      await holder.post(`${BASE}/${journalId}/unlock`);
      await admin.post(`${BASE}/${journalId}/lock`);
      await client(ctx.svc.url, as.key(ctx.a)).post(`${BASE}/${journalId}/force-unlock`, { reason: 'Übergabe' });
      await admin.post(`${BASE}/${journalId}/close`);

      const changes = () => staff.events.filter((e) => e.name === 'journal:changed').map((e) => e.payload);
      await staff.waitFor(() => changes().length >= 7, WAIT_MS, 'seven journal:changed events');
      const events = changes();
      assert.equal(
        events.map((e) => e.kind),
        ['locked', 'entry-created', 'entry-deleted', 'unlocked', 'locked', 'lock-broken', 'closed'],
      );
      assert.ok(
        events.every(
          (e) => e.journalId === journalId && e.journal.id === journalId && e.journal.organizationId === ctx.a.orgId,
        ),
      );
      assert.equal(events[0], { journalId, kind: 'locked', journal: { ...locked, totalEntries: 0 } });
      assert.equal(events[1].entry, entry);
      assert.equal(events[2].entry, deleted);
      assert.is(events[2].journal.totalEntries, 1);
      assert.is(events[3].journal.locked, null);
      assert.is(events[4].journal.locked.userId, ctx.a.admin.userId);
      assert.is(events[5].entry.serialNumber, 2);
      assert.match(events[5].entry.text, 'Übergabe');
      assert.equal(events[6].journal, {
        id: journalId,
        organizationId: ctx.a.orgId,
        eventId: events[6].journal.eventId,
        closed: true,
        locked: null,
        totalEntries: 2,
      });
      // The other organization's screen saw none of it (its own room only).
      await client(ctx.svc.url, as.key(ctx.b)).post(`${BASE}/${await openJournal(ctx, ctx.b)}/lock`);
      await stranger.waitFor(
        () => stranger.events.some((e) => e.name === 'journal:changed'),
        WAIT_MS,
        "its own journal's event",
      );
      assert.equal(
        stranger.events.filter((e) => e.name === 'journal:changed').map((e) => e.payload.journal.organizationId),
        [ctx.b.orgId],
      );
    } finally {
      staff.close();
      stranger.close();
    }
  },
);

live('a refused change publishes nothing', async (ctx) => {
  const staff = await connectScreen(ctx.svc.url, ctx.a.apiKey);
  try {
    const journalId = await openJournal(ctx, ctx.a, newEventQuery(ctx.a));
    assert.is((await client(ctx.svc.url, as.member(ctx.a)).post(`${BASE}/${journalId}/unlock`)).status, 409);
    assert.is((await client(ctx.svc.url, as.member(ctx.a)).post(`${BASE}/${journalId}/lock`)).status, 200);
    assert.is((await client(ctx.svc.url, as.admin(ctx.a)).post(`${BASE}/${journalId}/lock`)).status, 409);
    assert.is((await client(ctx.svc.url, as.member(ctx.a)).post(`${BASE}/${journalId}/unlock`)).status, 200);
    // Events of one room arrive in the order they were sent: had a refused change published, it would
    // sit between these two.
    const kinds = () => staff.events.filter((e) => e.name === 'journal:changed').map((e) => e.payload.kind);
    await staff.waitFor(() => kinds().length >= 2, WAIT_MS, "the lock's and the unlock's events");
    assert.equal(kinds(), ['locked', 'unlocked']);
  } finally {
    staff.close();
  }
});

live.run();
