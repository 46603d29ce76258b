// Version chains (server/db/chain.ts) with two chain instances on one database, as two hub processes
// have them: monitor data versions and configuration revisions rest on these guarantees.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { Chain } from '../server/db/chain.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { testDbUri } from './helpers/service.js';

interface Ctx {
  db: Database;
}

type Body = { writes: number[] };
const chain = suite<Ctx>('version chains across processes', {} as Ctx);
let keyNumber = Math.floor(Math.random() * 1_000_000);
const newKey = () => `test:${++keyNumber}`;
const absent = () => new Error('no history');
const add = (n: number) => (head: { body: Body }) => ({ writes: [...head.body.writes, n] });

chain.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), [], { monitorCommands: true });
});
chain.after(async (ctx) => {
  await ctx.db.close();
});

const two = (ctx: Ctx) => [
  new Chain<Body>(ctx.db.chains, ctx.db.generation, {}),
  new Chain<Body>(ctx.db.chains, ctx.db.generation, {}),
];

async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

chain(
  'a chain whose cached base was pruned meanwhile neither answers an old version nor loses its write',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    assert.is((await a.append(key, add(1), absent)).n, 1);
    for (let n = 2; n <= 40; n++) assert.is((await b.append(key, add(n), absent)).n, n);
    // b pruned versions up to 20 behind itself (prefix, the genesis among them); a's hint is version 1.
    await until(async () => !(await ctx.db.chains.links.findById(`${key}:2`).lean()), 'the prune of the old versions');
    assert.is((await a.newest(key))!.n, 40, 'a does not report its stale hint');
    const result = await a.append(key, add(41), absent);
    assert.is(result.n, 41);
    const latest = await b.latest(key);
    assert.is(latest!.n, 41);
    assert.equal(latest!.body.writes.slice(-2), [40, 41]);
  },
);

chain(
  'a stalled writer on a pruned base re-inserts an old version number: detected and removed, the write is kept',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    await a.append(key, add(1), absent);
    await a.append(key, add(2), absent);
    for (let n = 3; n <= 40; n++) await b.append(key, add(n), absent);
    await until(async () => !(await ctx.db.chains.links.findById(`${key}:3`).lean()), 'the prune of the old versions');
    // a still believes version 2 is the newest and writes version 3 on it: the insert succeeds (3 was
    // pruned) but its base (2) is gone, so it is removed and the write goes on top of 40.
    const result = await a.append(key, add(41), absent);
    assert.is(result.n, 41);
    assert.not.ok(await ctx.db.chains.links.findById(`${key}:3`).lean(), 'no stray version 3 is left behind');
    assert.equal((await b.latest(key))!.body.writes.slice(-2), [40, 41]);
  },
);

chain(
  'pruning deletes each window of old links with one delete command of exact _ids, oldest first, ' +
    'and keeps the newest 20',
  async (ctx) => {
    const key = newKey();
    const [a] = two(ctx);
    const deletes: Array<Array<{ q: { _id: string } }>> = [];
    const seen = (e: Command) => {
      if (e.commandName === 'delete' && e.command.delete === 'chain_links')
        deletes.push(e.command.deletes as Array<{ q: { _id: string } }>);
    };
    await watchingCommands(ctx, seen, async () => {
      await a.start(key, { writes: [] });
      for (let n = 1; n <= 40; n++) await a.append(key, add(n), absent);
      // Versions 20, 30 and 40 each prune the window 20 behind them: 0, 1–10, 11–20 (the newest 20 stay).
      // Each window's delete runs on its own: the later one may land first.
      await until(async () => {
        for (const n of [0, 1, 10, 11, 20]) if (await ctx.db.chains.links.findById(`${key}:${n}`).lean()) return false;
        return true;
      }, 'the prunes of every window');
    });
    const mine = deletes.filter((statements) => statements.some((st) => st.q._id.startsWith(`${key}:`)));
    assert.is(mine.length, 3, 'one delete command per window');
    assert.equal(
      mine.map((statements) => statements.map((st) => st.q._id)),
      [
        [`${key}:0`],
        Array.from({ length: 10 }, (_, i) => `${key}:${i + 1}`),
        Array.from({ length: 10 }, (_, i) => `${key}:${i + 11}`),
      ],
    );
    for (let n = 0; n <= 40; n++) {
      const kept = (await ctx.db.chains.links.findById(`${key}:${n}`).lean()) !== null;
      assert.is(kept, n > 20, `link ${n} ${n > 20 ? 'kept' : 'pruned'}`);
    }
  },
);

chain(
  'a chain keeps only the newest body of a key in memory, whether it wrote the versions or learned them',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    const held = (c: Chain<Body>) => (c as unknown as { bodies: { bytes: number } }).bodies.bytes;
    const size = (body: Body) => Buffer.byteLength(JSON.stringify(body));
    await a.start(key, { writes: [] });
    let last = (await a.latest(key))!;
    for (let n = 1; n <= 12; n++) {
      const written = await a.append(key, add(n), absent);
      // b hears of each write as another process would, and derives it from the one before.
      if (n === 1) await b.latest(key);
      else b.learn(key, written, written.base, (head) => add(n)({ body: head }));
      last = written;
    }
    assert.is(held(a), size(last.body), 'the writer holds the newest body only');
    assert.is(held(b), size(last.body), 'a process that learned the versions holds the newest body only');
    assert.equal((await b.latest(key))!.body, last.body);
  },
);

chain('concurrent appends on two chains give each version exactly once and keep every write', async (ctx) => {
  const key = newKey();
  const chains = two(ctx);
  await chains[0].start(key, { writes: [] });
  const results = await Promise.all(Array.from({ length: 30 }, (_, n) => chains[n % 2].append(key, add(n), absent)));
  assert.equal(
    results.map((r) => r.n).sort((x, y) => x - y),
    Array.from({ length: 30 }, (_, i) => i + 1),
  );
  const { body } = (await chains[0].latest(key))!;
  assert.equal(
    [...body.writes].sort((x, y) => x - y),
    Array.from({ length: 30 }, (_, i) => i),
  );
  const epochs = new Set(results.map((r) => r.epoch));
  assert.is(epochs.size, 30, 'every version has its own epoch');
});

chain(
  'each version names the epoch of its base; a restart of the history gives the same numbers other epochs',
  async (ctx) => {
    const key = newKey();
    const [a] = two(ctx);
    const genesis = await a.start(key, { writes: [] });
    const one = await a.append(key, add(1), absent);
    assert.is(one.base, genesis.epoch);
    const before = one.epoch;
    await a.remove(key);
    const [fresh] = two(ctx);
    await fresh.start(key, { writes: [] });
    const again = await fresh.append(key, add(1), absent);
    assert.is(again.n, 1);
    assert.is.not(again.epoch, before);
  },
);

chain(
  'reading the newest version costs exact lookups only, however far the head moved (hint from another process)',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    await a.append(key, add(1), absent);
    for (let n = 2; n <= 9; n++) await b.append(key, add(n), absent);
    // a's hint is 1; it gallops to 9 without a scan.
    const finds: string[] = [];
    const seen = (e: Command) => {
      if (e.commandName === 'find' && e.command.find === 'chain_links' && concerns(e.command, key))
        finds.push(JSON.stringify(e.command.filter));
    };
    assert.is((await watchingCommands(ctx, seen, () => a.newest(key)))!.n, 9);
    assert.ok(finds.length >= 2, `lookups seen: ${finds.length}`);
    assert.ok(
      finds.every((f) => /^\{"_id":"[^"]+"\}$/.test(f)),
      `only {_id: string} filters: ${finds.join(' ')}`,
    );
  },
);

chain(
  'a process without a hint reads the newest version: its body from the link found after its successor ' +
    'was absent, else read again, and moves the head to it',
  async (ctx) => {
    // The versions of the links looked up, in the order the lookups were sent.
    const lookups: string[] = [];
    const counting = async <R>(read: () => Promise<R>) => {
      const { result, commands } = await chainCommands(ctx, key, read);
      lookups.splice(
        0,
        lookups.length,
        ...commands.filter((c) => c.startsWith('find chain_links ')).map((c) => c.split(' ').pop()!),
      );
      return result;
    };
    // The head document is at the newest version (10): its successor, then the link with its body.
    const key = newKey();
    const [a] = two(ctx);
    await a.start(key, { writes: [] });
    for (let n = 1; n <= 10; n++) await a.append(key, add(n), absent);
    await until(async () => (await ctx.db.chains.heads.findById(key).lean())?.n === 10, 'the head at version 10');
    const cold = await counting(() => new Chain<Body>(ctx.db.chains, ctx.db.generation, {}).latest(key));
    assert.is(cold!.n, 10);
    assert.equal(cold!.body.writes, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(lookups, ['11', '10']);
    // Three versions past the head: found by galloping from the successor, its body read again after
    // the absence that ended the search.
    for (let n = 11; n <= 13; n++) await a.append(key, add(n), absent);
    const galloped = await counting(() => new Chain<Body>(ctx.db.chains, ctx.db.generation, {}).latest(key));
    assert.is(galloped!.n, 13);
    assert.equal(galloped!.body.writes.slice(-3), [11, 12, 13]);
    assert.equal(lookups, ['11', '12', '14', '13', '13']);
    // That search moved the head document to what it found: the next process without a hint starts there.
    await until(
      async () => (await ctx.db.chains.heads.findById(key).lean())?.n === 13,
      'the head moved to version 13 by the cold reader',
    );
    const after = await counting(() => new Chain<Body>(ctx.db.chains, ctx.db.generation, {}).latest(key));
    assert.is(after!.n, 13);
    assert.equal(lookups, ['14', '13']);
  },
);

// The commands a chain sends to its collections while `run` runs: name and, for a lookup, the version
// it names; for an insert, the versions it carries.
async function chainCommands<R>(
  ctx: Ctx,
  key: string,
  run: () => Promise<R>,
): Promise<{ result: R; commands: string[] }> {
  const commands: string[] = [];
  const seen = (e: Command) => {
    const collection = e.command[e.commandName];
    if (collection !== 'chain_links' && collection !== 'chain_contents' && collection !== 'chain_heads') return;
    if (!concerns(e.command, key)) return;
    const filter = (e.command.filter as { _id?: string } | undefined)?._id;
    const documents = (e.command.documents as Array<{ n: number }> | undefined)?.map((d) => d.n);
    commands.push(
      `${e.commandName} ${collection}${filter ? ` ${filter.split(':').pop()}` : ''}${documents ? ` [${documents.join(',')}]` : ''}`,
    );
  };
  return { result: await watchingCommands(ctx, seen, run), commands };
}

// Whether a command reads or writes the chain of `key` (other tests' chains share the collections).
function concerns(command: Record<string, unknown>, key: string): boolean {
  const ours = (id: unknown) => id === key || (typeof id === 'string' && id.startsWith(`${key}:`));
  const { _id: filter, key: scanned } = (command.filter as { _id?: unknown; key?: unknown } | undefined) ?? {};
  const documents = (command.documents as Array<{ key?: string }> | undefined) ?? [];
  const deletes = (command.deletes as Array<{ q: { _id?: unknown } }> | undefined) ?? [];
  return ours(filter) || scanned === key || documents.some((d) => d.key === key) || deletes.some((d) => ours(d.q._id));
}

/** A command the driver starts (its monitoring event, with the command as sent). */
interface Command {
  commandName: string;
  command: Record<string, unknown>;
}

// Runs `run` with `seen` told of every command the driver starts meanwhile.
async function watchingCommands<R>(ctx: Ctx, seen: (e: Command) => void, run: () => Promise<R>): Promise<R> {
  const client = ctx.db.conn.getClient();
  client.on('commandStarted', seen);
  try {
    return await run();
  } finally {
    client.off('commandStarted', seen);
  }
}

chain(
  'a write that finds its version taken builds on the version that took it: a lookup of that link ' +
    'and its successor, no read of the newest',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    await b.latest(key);
    // b still holds version 0 as the newest when a writes version 1.
    await a.append(key, add(1), absent);
    const { result, commands } = await chainCommands(ctx, key, () => b.append(key, add(2), absent));
    assert.is(result.n, 2);
    assert.equal(result.body.writes, [1, 2]);
    assert.is(b.collisions, 1);
    // The refused insert, the taken link with its body and (at once) its successor's, the insert on it,
    // the check of its base; no delete for a body that was never stored apart.
    assert.equal(commands.length, 5, commands.join(' · '));
    assert.equal(
      [commands[0], ...commands.slice(1, 3).sort(), ...commands.slice(3)],
      [
        'insert chain_links [1]',
        'find chain_links 1',
        'find chain_links 2',
        'insert chain_links [2]',
        'find chain_links 1',
      ],
    );
    assert.equal((await a.latest(key))!.body.writes, [1, 2]);
  },
);

chain(
  'a write several versions behind collides once and builds on the newest, not walking version by version',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    await a.append(key, add(1), absent);
    for (let n = 2; n <= 8; n++) await b.append(key, add(n), absent);
    const written = await a.append(key, add(9), absent);
    assert.is(written.n, 9);
    assert.equal(written.body.writes, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.is(a.collisions, 1);
  },
);

chain('a write refused on the version that took its place is decided again on the newest', async (ctx) => {
  const key = newKey();
  const [a, b] = two(ctx);
  await a.start(key, { writes: [] });
  await b.latest(key);
  // Version 1 ends with -1 (a "closed" state that refuses writes), version 2 reopens it.
  await a.append(key, add(-1), absent);
  await a.append(key, add(5), absent);
  const refusing = (head: { body: Body }) => {
    if (head.body.writes.at(-1) === -1) throw new Error('closed');
    return add(6)(head);
  };
  const written = await b.append(key, refusing, absent);
  assert.is(written.n, 3);
  assert.equal(written.body.writes, [-1, 5, 6]);
});

chain(
  'a version counts as stored where it was inserted, already while its base is checked, and where ' +
    'it was read after a collision; nowhere else',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    await b.latest(key);
    // What a knows when its base check (the find after its insert) starts: its patch is not out yet.
    let duringCheck: boolean | undefined;
    let inserted = false;
    await watchingCommands(
      ctx,
      (e) => {
        if (!concerns(e.command, key)) return;
        if (e.commandName === 'insert') inserted = true;
        else if (e.commandName === 'find' && inserted && duringCheck === undefined) duringCheck = a.stored(key, 1);
      },
      () => a.append(key, add(1), absent),
    );
    assert.is(duringCheck, true, 'known stored while its base is checked');
    assert.is(a.stored(key, 2), false);
    assert.is(b.stored(key, 1), false, 'another process has not seen it');
    await b.append(key, add(2), absent);
    assert.is(b.collisions, 1);
    assert.is(b.stored(key, 2), true);
    assert.is(b.stored(key, 3), false);
    await a.remove(key);
    assert.is(a.stored(key, 1), false, 'forgotten with the history it removed');
  },
);

chain(
  'writes waiting for their turn are stored together: one insert and one base check for ten, each ' +
    'its own version in call order',
  async (ctx) => {
    const key = newKey();
    const [a] = two(ctx);
    await a.start(key, { writes: [] });
    const { result, commands } = await chainCommands(ctx, key, () =>
      Promise.all(Array.from({ length: 10 }, (_, i) => a.append(key, add(i + 1), absent))),
    );
    assert.equal(
      result.map((r) => r.n),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    result.forEach((r, i) =>
      assert.equal(
        r.body.writes,
        Array.from({ length: i + 1 }, (_, j) => j + 1),
        `version ${r.n} holds the writes before it`,
      ),
    );
    result.slice(1).forEach((r, i) => assert.is(r.base, result[i].epoch, `version ${r.n} is built on the one before`));
    assert.equal(
      commands.filter((c) => c.includes('chain_links')),
      ['insert chain_links [1,2,3,4,5,6,7,8,9,10]', 'find chain_links 0'],
    );
    // Another process reads every version of the turn.
    const [b] = two(ctx);
    for (const r of result) assert.equal(await b.body(key, r), r.body);
  },
);

chain('a refusal within a turn is decided on the version stored before it; the writes after it go on', async (ctx) => {
  const key = newKey();
  const [a] = two(ctx);
  await a.start(key, { writes: [] });
  const refuseAfterOne = (head: { body: Body }) => {
    if (head.body.writes.at(-1) === 1) throw new Error('refused after 1');
    return add(2)(head);
  };
  const { result: results, commands } = await chainCommands(ctx, key, () =>
    Promise.allSettled([
      a.append(key, add(1), absent),
      a.append(key, refuseAfterOne, absent),
      a.append(key, add(3), absent),
    ]),
  );
  assert.equal(
    commands.filter((c) => c.includes('chain_links')),
    ['insert chain_links [1,2]', 'find chain_links 0'],
    'one turn',
  );
  assert.is(results[0].status === 'fulfilled' && results[0].value.n, 1);
  assert.is(results[1].status === 'rejected' && (results[1].reason as Error).message, 'refused after 1');
  assert.is(results[2].status === 'fulfilled' && results[2].value.n, 2);
  assert.equal((await a.latest(key))!.body.writes, [1, 3]);
});

chain(
  'a turn whose insert stops at a version taken in its middle keeps the versions before it and ' +
    'builds the rest on the taken one',
  async (ctx) => {
    const key = newKey();
    const [a] = two(ctx);
    await a.start(key, { writes: [] });
    await a.append(key, add(1), absent);
    // Version 3 stands for another writer that took it while this turn was on its way.
    await ctx.db.chains.links.create({
      _id: `${key}:3`,
      key,
      n: 3,
      epoch: 'other',
      base: 'x',
      at: new Date(),
      body: JSON.stringify({ writes: [1, 99] }),
    });
    const { result: results, commands } = await chainCommands(ctx, key, () =>
      Promise.all([2, 4, 5].map((n) => a.append(key, add(n), absent))),
    );
    assert.equal(
      results.map((r) => r.n),
      [2, 4, 5],
    );
    // One insert for the turn, stopped at version 3; the check of its base; the taken link and its
    // successor; the rest on version 3 and the check of that base.
    const links = commands.filter((c) => c.includes('chain_links'));
    assert.equal(
      [...links.slice(0, 2), ...links.slice(2, 4).sort(), ...links.slice(4)],
      [
        'insert chain_links [2,3,4]',
        'find chain_links 1',
        'find chain_links 3',
        'find chain_links 4',
        'insert chain_links [4,5]',
        'find chain_links 3',
      ],
    );
    assert.is(results[1].base, 'other');
    assert.equal(results[2].body.writes, [1, 99, 4, 5]);
    assert.is(a.collisions, 1);
    assert.equal(
      (await ctx.db.chains.links.findById(`${key}:2`).lean())?.body,
      JSON.stringify({ writes: [1, 2] }),
      'the version before the taken one stays stored',
    );
  },
);

chain(
  'at most 100 writes of a key wait in a process: the rest are refused with 503 and nothing of them is stored',
  async (ctx) => {
    const key = newKey();
    const [a] = two(ctx);
    await a.start(key, { writes: [] });
    const results = await Promise.allSettled(Array.from({ length: 105 }, (_, i) => a.append(key, add(i), absent)));
    const refused = results.filter((r) => r.status === 'rejected');
    assert.is(refused.length, 5);
    for (const r of refused) assert.is(((r as PromiseRejectedResult).reason as { status?: number }).status, 503);
    const latest = (await a.latest(key))!;
    assert.is(latest.n, 100);
    assert.equal(
      latest.body.writes,
      Array.from({ length: 100 }, (_, i) => i),
    );
  },
);

chain(
  'a key under steady load keeps taking writes: its limit counts the writes waiting, not the turns they took',
  async (ctx) => {
    const key = newKey();
    const [a] = two(ctx);
    await a.start(key, { writes: [] });
    // 20 writers, each writing again as soon as its write is stored: about 20 wait at any time.
    const writer = async (w: number) => {
      for (let i = 0; i < 15; i++) await a.append(key, add(w * 100 + i), absent);
    };
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, w) => writer(w)));
    const refused = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as Error).message);
    assert.equal(refused, []);
    const latest = (await a.latest(key))!;
    assert.is(latest.n, 300);
    assert.is(latest.body.writes.length, 300);
  },
);

chain('a history without a genesis (removed) refuses appends with the absent error', async (ctx) => {
  const key = newKey();
  const [a] = two(ctx);
  await assert.not.ok(await a.latest(key));
  try {
    await a.append(key, add(1), absent);
    assert.unreachable('append must fail');
  } catch (err) {
    assert.is((err as Error).message, 'no history');
  }
});

chain(
  'small bodies travel in their link, large ones in a content document; another process reads ' +
    'both, old large ones are pruned',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    const big = Array.from({ length: 5_000 }, (_, i) => i * 1_000_003); // about 50 KiB of JSON
    const small = await a.append(key, add(1), absent);
    const large = await a.append(key, () => ({ writes: big }), absent);
    const linkOf = (n: number) => ctx.db.chains.links.findById(`${key}:${n}`).lean();
    assert.ok((await linkOf(small.n))?.body, 'a small body is in its link');
    assert.is((await linkOf(large.n))?.body, undefined, 'a large body is not');
    assert.ok(
      await ctx.db.chains.contents.findById(`${key}:${large.n}:${large.epoch}`).lean(),
      'it has its own document',
    );
    assert.equal(await b.body(key, small), { writes: [1] });
    assert.equal((await b.body(key, large))!.writes.length, big.length);
    for (let n = 0; n < 4; n++) await a.append(key, add(n), absent);
    await until(
      async () => !(await ctx.db.chains.contents.findById(`${key}:${large.n}:${large.epoch}`).lean()),
      'the prune of the old large body',
    );
    assert.equal((await a.latest(key))!.body.writes.slice(0, 3), big.slice(0, 3));
  },
);

chain(
  'the head document follows every tenth version and never moves back; a process without a hint still finds the newest',
  async (ctx) => {
    const key = newKey();
    const [a, b] = two(ctx);
    await a.start(key, { writes: [] });
    for (let n = 1; n <= 25; n++) await a.append(key, add(n), absent);
    await until(async () => (await ctx.db.chains.heads.findById(key).lean())?.n === 20, 'the head at version 20');
    // A late update from a slow process names an older version: it does not win.
    await ctx.db.chains.heads.updateOne({ _id: key }, { $max: { n: 10 } });
    assert.is((await ctx.db.chains.heads.findById(key).lean())?.n, 20);
    const fresh = new Chain<Body>(ctx.db.chains, ctx.db.generation, {});
    assert.is((await fresh.newest(key))!.n, 25);
    assert.equal((await b.latest(key))!.body.writes.length, 25);
  },
);

chain(
  'a failed housekeeping write (head hint) is logged with its error and never fails the version it follows',
  async (ctx) => {
    const key = newKey();
    const heads = ctx.db.chains.heads;
    const failing = new Proxy(heads, {
      get: (target, name) =>
        name === 'updateOne' ? () => Promise.reject(new Error('disk full')) : (Reflect.get(target, name) as unknown),
    });
    const warned: Array<{ obj: { err?: unknown; key?: string }; msg: string }> = [];
    const log = { warn: (obj: { err?: unknown; key?: string }, msg: string) => void warned.push({ obj, msg }) };
    const c = new Chain<Body>({ ...ctx.db.chains, heads: failing }, ctx.db.generation, { log: log as never });
    await c.start(key, { writes: [] });
    for (let n = 1; n <= 10; n++) assert.is((await c.append(key, add(n), absent)).n, n);
    await until(async () => warned.length > 0, 'the head hint failure logged');
    assert.is(warned[0].msg, 'version chain head hint failed');
    assert.is(warned[0].obj.key, key);
    assert.instance(warned[0].obj.err, Error, 'the error itself (its stack is logged), not only its message');
    assert.is((await c.latest(key))!.body.writes.length, 10);
  },
);

chain.run();
