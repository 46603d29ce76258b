// The number notes that reply SMS and call keys answer (server/areas/alarms/member-latest.ts): two
// processes noting two members at one number at once, its earlier note past the reply window, leave the
// number shared, whoever comes first — a reply from it answers neither.
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
    // Member 1's alarm there is past answering by reply.
    await answerModels(db).LatestAlarm.create({
      _id: number,
      userId: 1,
      alarmId: 5,
      organizationId: 1,
      startedAt: new Date(now - REPLY_WINDOW_MS - 60_000),
      at: new Date(now - REPLY_WINDOW_MS - 60_000),
    });
    await Promise.all([
      one.sending(
        { channel: 'sms', recipientUserId: 1, target: number },
        { id: 7, organizationId: 1, startedAt: new Date(now) },
      ),
      two.sending(
        { channel: 'sms', recipientUserId: 2, target: number },
        { id: 8, organizationId: 2, startedAt: new Date(now) },
      ),
    ]);
    assert.is(await one.ofNumber(number), 'shared', `round ${round}`);
  }
});

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

// docs/storage.md "Rules for a model": an update command of many statements stalls the embedded engine
// (one of 100 held all of its connections and waited for another, and the service's every query with it).
s(
  '150 members noted again at once, for a later alarm: every note replaced, one statement per update',
  async ({ db }) => {
    const latest = new LatestAlarms(db);
    const now = new Date();
    const numbers = Array.from({ length: 150 }, (_, i) => `004917${String(6_000_000 + i)}`);
    const note = (alarmId: number) =>
      Promise.all(
        numbers.map((target, i) =>
          latest.sending(
            { channel: 'sms', recipientUserId: 100 + i, target },
            { id: alarmId, organizationId: 1, startedAt: now },
          ),
        ),
      );
    await note(30);
    const statements: number[] = [];
    const listener = (event: { commandName: string; command: Record<string, any> }) => {
      if (event.commandName === 'update' && event.command.update === 'alarm_latest')
        statements.push(event.command.updates.length);
    };
    const driver = db.conn.getClient();
    driver.on('commandStarted', listener);
    try {
      await note(31);
    } finally {
      driver.off('commandStarted', listener);
    }
    assert.ok(statements.length >= numbers.length, `${statements.length} update commands`);
    assert.equal([...new Set(statements)], [1], 'statements per update command');
    for (const [i, number] of numbers.entries())
      assert.equal(await latest.ofNumber(number), { userId: 100 + i, alarmId: 31, organizationId: 1 });
  },
);

s.run();
