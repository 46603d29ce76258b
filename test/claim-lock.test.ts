// The claim lock across processes (server/db/claim-lock.ts) when the database fails in the middle: a
// lock whose removal failed, or whose insert was stored although its answer was lost, is removed once
// the database answers again, instead of locking its key until it is stale (30 s).
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import type { Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../server/db/claim-lock.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { testDbUri } from './helpers/service.js';

interface Ctx {
  db: Database;
}

const lock = suite<Ctx>('claim lock when the database fails', {} as Ctx);
lock.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), []);
});
lock.after(async (ctx) => {
  await ctx.db.close();
});

let n = 0;
const lost = () => Object.assign(new Error('connection closed'), { name: 'MongoNetworkError' });

/** The lock model with `deleteOne` or `create` failing as a lost connection would, `failures` times. */
function failing(model: Model<LockDoc>, method: 'deleteOne' | 'create', failures: number): Model<LockDoc> {
  let left = failures;
  return new Proxy(model, {
    get(target, prop, receiver) {
      if (prop === 'deleteOne' && method === 'deleteOne') {
        return (...args: Parameters<Model<LockDoc>['deleteOne']>) =>
          left-- > 0 ? Promise.reject(lost()) : target.deleteOne(...args);
      }
      // The insert is stored, its answer lost.
      if (prop === 'create' && method === 'create')
        return async (doc: LockDoc) => {
          await target.create(doc);
          if (left-- > 0) throw lost();
        };
      return Reflect.get(target, prop, receiver);
    },
  });
}

async function gone(ctx: Ctx, id: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (await ctx.db.system.Lock.findById(id).lean()) {
    assert.ok(Date.now() < deadline, `lock ${id} still there`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

lock(
  "a lock whose removal failed is removed when the database answers again; the task's result stands " +
    'and the next holder gets the lock',
  async (ctx) => {
    const key = `test-release-${process.pid}-${++n}`;
    const result = await withClaimLock(failing(ctx.db.system.Lock, 'deleteOne', 3), key, async () => 'done');
    assert.is(result, 'done');
    await gone(ctx, `lock:${key}`);
    assert.is(await withClaimLock(ctx.db.system.Lock, key, async () => 'next'), 'next');
  },
);

lock('a lock stored although its insert answered an error is removed; the next holder gets the lock', async (ctx) => {
  const key = `test-insert-${process.pid}-${++n}`;
  let ran = false;
  const error = await withClaimLock(failing(ctx.db.system.Lock, 'create', 1), key, async () => (ran = true)).catch(
    (err: Error) => err,
  );
  assert.instance(error, Error);
  assert.is((error as Error).message, 'connection closed');
  assert.not.ok(ran, 'the task did not run without the lock');
  await gone(ctx, `lock:${key}`);
  assert.is(await withClaimLock(ctx.db.system.Lock, key, async () => 'next'), 'next');
});

lock(
  'the late removal of a lock whose insert failed never touches the lock another holder took meanwhile',
  async (ctx) => {
    const key = `test-owner-${process.pid}-${++n}`;
    const id = `lock:${key}`;
    await withClaimLock(failing(ctx.db.system.Lock, 'create', 1), key, async () => 'never').catch(() => undefined);
    // The failed holder's lock goes (as if its removal had run already), and another caller takes the key.
    await ctx.db.system.Lock.deleteOne({ _id: id });
    const seen: Array<string | undefined> = [];
    await withClaimLock(ctx.db.system.Lock, key, async () => {
      // Long enough for the failed holder's removal (50 ms after its failure, then retried) to have run.
      for (let i = 0; i < 10; i++) {
        seen.push((await ctx.db.system.Lock.findById(id).lean())?.owner);
        await new Promise((r) => setTimeout(r, 30));
      }
    });
    assert.ok(
      seen.every((owner) => owner !== undefined && owner === seen[0]),
      `the holder's lock while it held it: ${seen.join(', ')}`,
    );
  },
);

lock.run();
