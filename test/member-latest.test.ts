// The number notes that reply SMS and call keys answer (server/areas/alarms/member-latest.ts): two
// processes noting two members at one number at once, its earlier note past the reply window, leave the
// number shared, whoever comes first — a reply from it answers neither; a later alarm's notes are inserts,
// never a rewrite per number.
import * as assert from 'uvu/assert';
import { serviceModels } from '../server/areas/models.js';
import { answerModels } from '../server/areas/alarms/answer-models.js';
import { LatestAlarms, REPLY_WINDOW_MS } from '../server/areas/alarms/member-latest.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { testDbUri } from './helpers/service.js';
import { suite } from './helpers/suite.js';

const s = suite<{ db: Database }>('number notes', {} as { db: Database });
s.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels, { monitorCommands: true });
});
s.after(async (ctx) => {
  await ctx.db.close();
});

s('two members noted at one number at once, on two processes: the number is shared', async ({ db }) => {
  const [one, two] = [new LatestAlarms(db), new LatestAlarms(db)];
  const now = Date.now();
  for (let round = 0; round < 20; round++) {
    const number = `004915${String(7_000_000 + round)}`;
    // Member 1's alarm there started more than the window before the two below.
    await one.sending(
      { channel: 'sms', recipientUserId: 1, target: number },
      { id: 5 + round * 10, organizationId: 1, startedAt: new Date(now - REPLY_WINDOW_MS - 60_000) },
    );
    assert.is(await one.ofNumber(number), null, 'past the window');
    await Promise.all([
      one.sending(
        { channel: 'sms', recipientUserId: 1, target: number },
        { id: 7 + round * 10, organizationId: 1, startedAt: new Date(now) },
      ),
      two.sending(
        { channel: 'sms', recipientUserId: 2, target: number },
        { id: 8 + round * 10, organizationId: 2, startedAt: new Date(now) },
      ),
    ]);
    assert.is(await one.ofNumber(number), 'shared', `round ${round}`);
  }
});

s(
  'one alarm to two members at one number, noted on two processes at once: shared, whoever comes first',
  async ({ db }) => {
    for (let round = 0; round < 10; round++) {
      const [one, two] = [new LatestAlarms(db), new LatestAlarms(db)];
      const number = `004915${String(7_100_000 + round)}`;
      const alarm = { id: 500 + round, organizationId: 3, startedAt: new Date() };
      await Promise.all([
        one.sending({ channel: 'sms', recipientUserId: 31, target: number }, alarm),
        two.sending({ channel: 'call', recipientUserId: 32, target: number }, alarm),
      ]);
      assert.is(await one.ofNumber(number), 'shared', `round ${round}`);
    }
  },
);

s(
  'another member reached within the window before the latest alarm: shared, even once his alarm is past it',
  async ({ db }) => {
    const latest = new LatestAlarms(db);
    const now = Date.now();
    // Member 41 of organization 4, then member 42 of organization 5, at one number, so many hours ago.
    const reached = async (
      number: string,
      first: [number, number],
      second: [number, number],
      channel: 'sms' | 'call',
    ) => {
      for (const [[id, hours], userId, organizationId] of [
        [first, 41, 4],
        [second, 42, 5],
      ] as const)
        await latest.sending(
          { channel, recipientUserId: userId, target: number },
          { id, organizationId, startedAt: new Date(now - hours * 3_600_000) },
        );
    };
    // 1.5 h and 0.5 h ago: the earlier member's alarm is still within the window before the later one.
    const close = '004915755555551';
    await reached(close, [600, 1.5], [601, 0.5], 'sms');
    assert.is(await latest.ofNumber(close), 'shared');
    // 40 minutes later the first is past answering, and the number is still shared.
    assert.is(await latest.ofNumber(close, now + 40 * 60_000), 'shared');
    // 2.5 h and 0.3 h ago: more than the window apart, the later alarm is his.
    const apart = '004915755555552';
    await reached(apart, [602, 2.5], [603, 0.3], 'call');
    assert.equal(await latest.ofNumber(apart), { userId: 42, alarmId: 603, organizationId: 5 });
    // Past the window of the latest: nothing.
    assert.is(await latest.ofNumber(apart, now + REPLY_WINDOW_MS), null);
  },
);

s('a member noted again at his number: his later alarm replaces the earlier, never the other way', async ({ db }) => {
  const latest = new LatestAlarms(db);
  const number = '004915799999999';
  const now = new Date();
  await latest.sending(
    { channel: 'sms', recipientUserId: 3, target: number },
    { id: 10, organizationId: 1, startedAt: now },
  );
  await latest.sending(
    { channel: 'sms', recipientUserId: 3, target: number },
    { id: 12, organizationId: 1, startedAt: now },
  );
  // An older alarm noted late by another process.
  await new LatestAlarms(db).sending(
    { channel: 'call', recipientUserId: 3, target: number },
    { id: 11, organizationId: 1, startedAt: now },
  );
  assert.equal(await latest.ofNumber(number), { userId: 3, alarmId: 12, organizationId: 1 });
});

s(
  'a number two members of one alarm share, noted in one batch: shared, and neither note waits on the other',
  async ({ db }) => {
    const latest = new LatestAlarms(db);
    const number = '004915788888888';
    const now = new Date();
    await latest.sending(
      { channel: 'sms', recipientUserId: 4, target: number },
      { id: 20, organizationId: 1, startedAt: now },
    );
    // The same turn of the event loop: one batch, the number twice (a lock of its own would wait on itself).
    await Promise.all([
      latest.sending(
        { channel: 'sms', recipientUserId: 4, target: number },
        { id: 21, organizationId: 1, startedAt: now },
      ),
      latest.sending(
        { channel: 'sms', recipientUserId: 5, target: number },
        { id: 21, organizationId: 1, startedAt: now },
      ),
    ]);
    assert.is(await latest.ofNumber(number), 'shared');
  },
);

// docs/storage.md "Rules for a model": an update costs the embedded engine about forty inserts of a batch;
// the notes of a later alarm are inserted beside the earlier ones, never written over them.
s(
  '150 members noted again at once, for a later alarm: inserts only, every number answers the later',
  async ({ db }) => {
    const latest = new LatestAlarms(db);
    const now = new Date();
    const numbers = Array.from({ length: 150 }, (_, i) => `004917${String(6_000_000 + i)}`);
    const note = (alarmId: number) =>
      Promise.all(
        numbers.map((target, i) =>
          latest.sending(
            { channel: 'sms', recipientUserId: 100 + i, target },
            { id: alarmId, organizationId: 7, startedAt: now },
          ),
        ),
      );
    await note(30);
    const commands: string[] = [];
    const listener = (event: { commandName: string; command: Record<string, any> }) => {
      const collection = event.command[event.commandName];
      if (['insert', 'update', 'delete', 'find'].includes(event.commandName) && typeof collection === 'string')
        commands.push(`${event.commandName} ${collection}`);
    };
    const driver = db.conn.getClient();
    driver.on('commandStarted', listener);
    try {
      // Another process (its own knowledge empty) and this one.
      await Promise.all([
        note(31),
        new LatestAlarms(db).sending(
          { channel: 'call', recipientUserId: 100, target: numbers[0] },
          { id: 31, organizationId: 7, startedAt: now },
        ),
      ]);
    } finally {
      driver.off('commandStarted', listener);
    }
    const per = (name: string) => commands.filter((c) => c === name).length;
    assert.is(per('update alarm_reached'), 0, 'no note rewritten');
    assert.is(per('update alarm_numbers'), 0, 'no number rewritten');
    assert.ok(per('insert alarm_reached') <= 2, `${per('insert alarm_reached')} inserts of notes`);
    assert.ok(per('update alarm_recent') <= 1, 'the alarm listed once');
    for (const [i, number] of numbers.entries())
      assert.equal(await latest.ofNumber(number), { userId: 100 + i, alarmId: 31, organizationId: 7 });
  },
);

s(
  'a number in two organizations: the latest alarm of either; the sweep keeps what a reply still needs',
  async ({ db }) => {
    const [one, two] = [new LatestAlarms(db), new LatestAlarms(db)];
    const number = '004915766666666';
    const now = Date.now();
    await one.sending(
      { channel: 'sms', recipientUserId: 8, target: number },
      { id: 40, organizationId: 11, startedAt: new Date(now) },
    );
    await two.sending(
      { channel: 'call', recipientUserId: 8, target: number },
      { id: 41, organizationId: 12, startedAt: new Date(now) },
    );
    assert.equal(await one.ofNumber(number), { userId: 8, alarmId: 41, organizationId: 12 });
    await one.sending(
      { channel: 'sms', recipientUserId: 8, target: number },
      { id: 42, organizationId: 11, startedAt: new Date(now) },
    );
    assert.equal(await two.ofNumber(number), { userId: 8, alarmId: 42, organizationId: 11 });
    // Another number's alarm past twice the window: answers nothing, and the sweep takes its note and list.
    const old = '004915766666667';
    await one.sending(
      { channel: 'sms', recipientUserId: 9, target: old },
      { id: 43, organizationId: 13, startedAt: new Date(now - 2 * REPLY_WINDOW_MS - 60_000) },
    );
    assert.is(await two.ofNumber(old), null);
    const { Reached, RecentAlarms } = answerModels(db);
    assert.ok(await Reached.findById(`${old}@43`).lean());
    assert.ok((await one.sweep()) >= 2);
    assert.is(await Reached.findById(`${old}@43`).lean(), null);
    assert.is(await RecentAlarms.findById('13').lean(), null);
    assert.equal(await two.ofNumber(number), { userId: 8, alarmId: 42, organizationId: 11 });
  },
);

s.run();
