// The monitor store (server/areas/monitor/store.ts) as several processes have it: stores on one
// database. Deletions racing on two processes leave the tombstone revision by which a third process that
// keeps the monitor learns, with its one lookup, that it is gone.
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { MonitorStore } from '../server/areas/monitor/store.js';
import { testDbUri } from './helpers/service.js';
import { suite } from './helpers/suite.js';

const s = suite<{ db: Database }>('monitor store on several processes', {} as { db: Database });
s.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
});
s.after(async (ctx) => {
  await ctx.db.close();
});

s(
  'two processes deleting a monitor at once leave a tombstone: a third that kept the monitor finds it gone',
  async (ctx) => {
    const [a, b, c] = [new MonitorStore(ctx.db), new MonitorStore(ctx.db), new MonitorStore(ctx.db)];
    const organizationID = 700_000 + Math.floor(Math.random() * 100_000);
    const ids = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) =>
          (
            await a.create(organizationID, {
              name: `Wache ${i}`,
              configuration: {},
              configurationSplitScreen: {},
              configurationStandby: {},
              standbyDelay: 0,
            })
          ).id,
      ),
    );
    for (const id of ids) {
      // The third process checked the right to read it and showed it: it keeps the monitor.
      assert.is((await c.owner(id))?.organizationID, organizationID);
      assert.is((await c.get(id))?.id, id);
    }
    await Promise.all(ids.flatMap((id) => [a.remove(id), b.remove(id)]));
    for (const id of ids) {
      const links = await ctx.db.chains.links.find({ key: `config:${id}` }).lean();
      assert.ok(
        links.some((link) => link.body?.includes('"deleted":true')),
        `monitor ${id}: no tombstone left (${links.length} links)`,
      );
      assert.is(await c.get(id), null, `monitor ${id} is shown after its deletion`);
    }
  },
);

s.run();
