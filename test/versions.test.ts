// The version chain of monitor data with two stores on one database, as two hub processes have them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VersionStore } from '../server/areas/monitor/versions.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { testDbUri } from './helpers/service.js';

interface Ctx {
  db: Database;
}

const chain = suite<Ctx>('data versions across processes', {} as Ctx);
let monitorId = 9_000_000 + Math.floor(Math.random() * 1_000_000);

chain.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri());
});
chain.after(async (ctx) => {
  await ctx.db.close();
});

const write = (n: number) => () => ({ section: 'meta' as const, op: 'patch' as const, payload: { latestAlarms: [`write ${n}`] }, at: new Date().toISOString() });

async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

chain('a store whose cached base was pruned meanwhile neither answers an old version nor loses its write', async (ctx) => {
  const id = ++monitorId;
  const a = new VersionStore(ctx.db.models.MonitorState);
  const b = new VersionStore(ctx.db.models.MonitorState);
  assert.is((await a.append(id, write(1))).version, 1);
  for (let n = 2; n <= 40; n++) assert.is((await b.append(id, write(n))).version, n);
  // b pruned versions 1..20 behind itself (prefix); a still holds version 1 as its fresh head.
  await until(async () => !(await ctx.db.models.MonitorState.exists({ _id: `${id}:2` })), 'the prune of the old versions');
  assert.is(await a.latestVersion(id), 40, 'a does not report its stale head');
  const result = await a.append(id, write(41));
  assert.is(result.version, 41);
  const latest = await b.latest(id);
  assert.is(latest.version, 41);
  assert.equal(latest.data.metaData.latestAlarms, ['write 41']);
});

chain('the same with no read in between: the re-inserted old version is detected and removed', async (ctx) => {
  const id = ++monitorId;
  const a = new VersionStore(ctx.db.models.MonitorState);
  const b = new VersionStore(ctx.db.models.MonitorState);
  await a.append(id, write(1));
  await a.append(id, write(2));
  for (let n = 3; n <= 40; n++) await b.append(id, write(n));
  await until(async () => !(await ctx.db.models.MonitorState.exists({ _id: `${id}:3` })), 'the prune of the old versions');
  const result = await a.append(id, write(41));
  assert.is(result.version, 41);
  assert.not.ok(await ctx.db.models.MonitorState.exists({ _id: `${id}:3` }), 'no stray version 3 is left behind');
  assert.equal((await b.latest(id)).data.metaData.latestAlarms, ['write 41']);
});

chain('concurrent appends on two stores give each version exactly once and keep every write', async (ctx) => {
  const id = ++monitorId;
  const stores = [new VersionStore(ctx.db.models.MonitorState), new VersionStore(ctx.db.models.MonitorState)];
  const results = await Promise.all(Array.from({ length: 30 }, (_, n) => stores[n % 2].append(id, () => ({ section: 'alarming', op: 'patch', payload: { [`k${n}`]: n } as never, at: new Date().toISOString() }))));
  assert.equal(results.map((r) => r.version).sort((x, y) => x - y), Array.from({ length: 30 }, (_, i) => i + 1));
  const { data } = await stores[0].latest(id);
  for (let n = 0; n < 30; n++) assert.is((data.alarmData as Record<string, unknown>)[`k${n}`], n);
});

chain.run();
