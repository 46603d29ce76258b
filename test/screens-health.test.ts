// Screen health writes on one process (server/areas/screens/health.ts): a connect's user agent, a
// report and heartbeats arriving together must all be kept — FerretDB applies each update by reading
// and rewriting the whole document, so two at once could lose a field.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { ScreenHealth } from '../server/areas/screens/health.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { testDbUri } from './helpers/service.js';
import { screenModels } from '../server/areas/screens/models.js';
import { BOOKKEEPING_IN_FLIGHT } from '../server/db/lane.js';

const health = suite<{ db: Database }>('screens: health writes', {} as { db: Database });

health.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
});
health.after(async (ctx) => {
  await ctx.db.close();
});

health('a connect, a report and heartbeats at once: every field each of them set is there afterwards', async (ctx) => {
  const { Screen } = screenModels(ctx.db);
  const screenId = 900_000 + Math.floor(Math.random() * 90_000);
  await Screen.create({
    _id: String(screenId),
    monitorId: 1,
    organizationId: 1,
    name: 'Wache Nord',
    createdAt: new Date(),
    credential: null,
    tokenId: null,
    online: true,
    episode: 1,
    lastSeen: null,
    versionShown: null,
    pageVersion: null,
    userAgent: null,
  });
  const recorder = new ScreenHealth(ctx.db, 60_000, () => {});
  for (let round = 1; round <= 15; round++) {
    await Promise.all([
      recorder.connected(screenId, `Kiosk/${round}`),
      recorder.report(screenId, { versionShown: round, pageVersion: `page-${round}` }),
      recorder.seen([screenId]),
      recorder.seen([screenId]),
    ]);
    const doc = await Screen.findById(String(screenId)).lean();
    assert.is(doc?.userAgent, `Kiosk/${round}`, `round ${round}: the user agent was lost`);
    assert.is(doc?.pageVersion, `page-${round}`, `round ${round}: the report was lost`);
    assert.is(doc?.versionShown, round);
  }
  await Screen.deleteOne({ _id: String(screenId) });
});

health(
  'a sweep writes lastSeen of the screens here once it is a fifth of the offline time old, and ' +
    'then brings back one another process marked offline',
  async (ctx) => {
    const { Screen } = screenModels(ctx.db);
    const screenId = 900_000 + Math.floor(Math.random() * 90_000);
    await Screen.create({
      _id: String(screenId),
      monitorId: 7,
      organizationId: 3,
      name: 'Wache Süd',
      createdAt: new Date(),
      credential: null,
      tokenId: null,
      online: true,
      episode: 1,
      lastSeen: null,
      versionShown: null,
      pageVersion: null,
      userAgent: null,
    });
    const events: unknown[] = [];
    // The sweep also finds other test files' stale screens in the shared database: only this one counts.
    const recorder = new ScreenHealth(
      ctx.db,
      100_000,
      (organizationId, event) => event.screenId === screenId && events.push({ organizationId, ...event }),
    );
    const lastSeen = async () => (await Screen.findById(String(screenId)).lean())!.lastSeen!.getTime();
    try {
      await recorder.connected(screenId, 'Kiosk/1');
      const connectedAt = await lastSeen();
      // Sweeps at "now" plus less than 20 s leave it alone; the test's time is given to the sweep.
      for (const ahead of [0, 10_000, 19_000]) await recorder.sweep(new Set([screenId]), Date.now() + ahead);
      assert.is(await lastSeen(), connectedAt, 'lastSeen written by a sweep before it was due');
      // Meanwhile another process judged it silent.
      await Screen.updateOne({ _id: String(screenId) }, { $set: { online: false } });
      await recorder.sweep(new Set([screenId]), Date.now() + 21_000);
      const doc = (await Screen.findById(String(screenId)).lean())!;
      assert.ok(doc.lastSeen!.getTime() > connectedAt, 'lastSeen written once due');
      assert.equal([doc.online, doc.episode, doc.userAgent], [true, 2, 'Kiosk/1']);
      assert.equal(events, [{ organizationId: 3, kind: 'online', screenId, monitorId: 7 }]);
    } finally {
      await Screen.deleteOne({ _id: String(screenId) });
    }
  },
);

health(
  'a storm of screens connecting: their health writes take at most BOOKKEEPING_IN_FLIGHT of the ' +
    "pool's connections at a time, and all are written",
  async () => {
    // A connection of its own, with the driver's command events: only this test's commands are counted.
    const db = await openDatabase(testDbUri(), serviceModels, { monitorCommands: true });
    const { Screen } = screenModels(db);
    const base = 800_000 + Math.floor(Math.random() * 90_000);
    const ids = Array.from({ length: 40 }, (_, i) => base + i);
    try {
      await Screen.insertMany(
        ids.map((id) => ({
          _id: String(id),
          monitorId: 1,
          organizationId: 1,
          name: `Wache ${id}`,
          createdAt: new Date(),
          credential: null,
          tokenId: null,
          online: true,
          episode: 1,
          lastSeen: null,
          versionShown: null,
          pageVersion: null,
          userAgent: null,
        })),
      );
      const inFlight = new Set<number>();
      let most = 0;
      const client = db.conn.getClient();
      client.on('commandStarted', (event) => {
        if (event.commandName !== 'findAndModify' && event.commandName !== 'update') return;
        inFlight.add(event.requestId);
        most = Math.max(most, inFlight.size);
      });
      const done = (event: { requestId: number }) => void inFlight.delete(event.requestId);
      client.on('commandSucceeded', done);
      client.on('commandFailed', done);
      const recorder = new ScreenHealth(db, 60_000, () => {});
      await Promise.all(
        ids.flatMap((id) => [
          recorder.connected(id, 'Kiosk/storm'),
          recorder.report(id, { versionShown: 3, pageVersion: 'storm' }),
        ]),
      );
      assert.ok(most <= BOOKKEEPING_IN_FLIGHT, `${most} health writes were in flight at once`);
      const docs = await Screen.find({ _id: { $in: ids.map(String) } }).lean();
      assert.is(
        docs.filter((d) => d.userAgent === 'Kiosk/storm' && d.pageVersion === 'storm' && d.lastSeen).length,
        ids.length,
      );
    } finally {
      await Screen.deleteMany({ _id: { $in: ids.map(String) } });
      await db.close();
    }
  },
);

health.run();
