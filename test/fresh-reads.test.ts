// FreshReads (server/db/fresh-reads.ts): callers asking at once share a read, and never one that began
// before they asked.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { FreshReads, KeptReads } from '../server/db/fresh-reads.js';
import { CacheGeneration } from '../server/db/generation.js';

const reads = suite('reads shared by the callers asking at once');

/** A slow read answering how many writes were stored when it began; `gate` releases it. */
function slowSource() {
  const source = { stored: 0, started: 0, gates: [] as Array<() => void> };
  const fresh = new FreshReads<string, number>(async () => {
    source.started++;
    const seen = source.stored;
    await new Promise<void>((resolve) => source.gates.push(resolve));
    return seen;
  });
  const release = async () => {
    while (!source.gates.length) await new Promise((r) => setImmediate(r));
    source.gates.shift()!();
  };
  return { source, fresh, release };
}

reads(
  "twenty callers asking at once cause two reads: the first caller's, and one the other nineteen share",
  async () => {
    const { source, fresh, release } = slowSource();
    const answers = Promise.all(Array.from({ length: 20 }, () => fresh.get('a')));
    await release();
    await release();
    assert.equal(await answers, Array(20).fill(0));
    assert.is(source.started, 2);
    assert.is(fresh.size, 0);
  },
);

reads('a caller asking during a read waits for the next one, which all later callers share', async () => {
  const { source, fresh, release } = slowSource();
  const early = fresh.get('a');
  await new Promise((r) => setImmediate(r));
  source.stored = 1;
  const late = Array.from({ length: 10 }, () => fresh.get('a'));
  await release();
  assert.is(await early, 0);
  await release();
  assert.equal(await Promise.all(late), Array(10).fill(1));
  assert.is(source.started, 2);
  assert.is(fresh.size, 0);
});

reads('keys are read apart, and a failed read fails only its callers', async () => {
  let calls = 0;
  const fresh = new FreshReads<string, string>(async (key) => {
    calls++;
    if (key === 'bad' && calls === 1) throw new Error('read failed');
    return key;
  });
  const bad = fresh.get('bad');
  const good = fresh.get('good');
  const failure = await bad.then(
    () => null,
    (err: Error) => err.message,
  );
  assert.is(failure, 'read failed');
  assert.is(await good, 'good');
  assert.is(await fresh.get('bad'), 'bad');
});

reads.run();

const kept = suite('reads kept while no change is heard');

/** A KeptReads over a counter of stored changes; `reads` counts the reads. */
function keptSource(trustMs = 60_000, trusted = () => true) {
  const source = { stored: 0, reads: 0, slowMs: 0 };
  const generation = new CacheGeneration();
  const cache = new KeptReads<string, number>(
    async () => {
      source.reads++;
      const seen = source.stored;
      if (source.slowMs) await new Promise((r) => setTimeout(r, source.slowMs));
      return seen;
    },
    trustMs,
    generation,
    trusted,
  );
  return { source, cache, generation };
}

kept('an answer is kept for the next callers until a change to its key is heard', async () => {
  const { source, cache } = keptSource();
  assert.is(await cache.get('a'), 0);
  assert.is(await cache.get('a'), 0);
  assert.is(await cache.get('b'), 0);
  assert.is(source.reads, 2);
  source.stored = 1;
  cache.changed('a');
  assert.is(await cache.get('a'), 1);
  assert.is(await cache.get('b'), 0, 'another key keeps its answer');
  assert.is(source.reads, 3);
});

kept('a change that tells the new state is kept as the answer', async () => {
  const { source, cache } = keptSource();
  await cache.get('a');
  cache.changed('a', 5);
  assert.is(await cache.get('a'), 5);
  assert.is(source.reads, 1);
});

kept('a read that a change overtook answers its callers but is not kept', async () => {
  const { source, cache } = keptSource();
  source.slowMs = 50;
  const early = cache.get('a');
  await new Promise((r) => setTimeout(r, 10));
  source.stored = 1;
  cache.changed('a');
  assert.is(await early, 0);
  assert.is(await cache.get('a'), 1);
  assert.is(source.reads, 2);
});

kept(
  'callers that find a read in flight that no change overtook share it; after a change they wait for a new one',
  async () => {
    // Each read waits for its gate, so "in flight" does not depend on this machine's speed.
    const source = { stored: 0, reads: 0, gates: [] as Array<() => void> };
    const cache = new KeptReads<string, number>(
      async () => {
        source.reads++;
        const seen = source.stored;
        await new Promise<void>((resolve) => source.gates.push(resolve));
        return seen;
      },
      60_000,
      new CacheGeneration(),
    );
    // Waits for a read to be waiting (a read that never comes fails the test instead of hanging it).
    const until = async (what: string, condition: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!condition()) {
        if (Date.now() > deadline) assert.unreachable(`no ${what}`);
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    const release = async () => {
      await until('read waiting', () => source.gates.length > 0);
      source.gates.shift()!();
    };
    // A storm's first screens of a monitor: one read for all of them.
    const first = cache.get('a');
    const joined = Array.from({ length: 20 }, () => cache.get('a'));
    await release();
    assert.equal(await Promise.all([first, ...joined]), Array(21).fill(0));
    assert.is(source.reads, 1);
    // A change heard while a read runs: who asks after it gets a read begun after the change.
    cache.changed('a');
    const early = cache.get('a');
    await until('second read', () => source.reads >= 2);
    source.stored = 1;
    cache.changed('a');
    const late = cache.get('a');
    await release();
    await release();
    assert.is(await early, 0);
    assert.is(await late, 1);
    assert.is(source.reads, 3);
    // A forgotten cache (Redis came back) shares nothing that ran before.
    const before = cache.get('b');
    cache.forget();
    const after = cache.get('b');
    await release();
    await release();
    await Promise.all([before, after]);
    assert.is(source.reads, 5);
  },
);

kept('nothing is kept past its trust, while changes may go unheard, or across a restored database', async () => {
  let up = true;
  const { source, cache, generation } = keptSource(30, () => up);
  await cache.get('a');
  await new Promise((r) => setTimeout(r, 40));
  await cache.get('a');
  assert.is(source.reads, 2, 'past its trust');
  up = false;
  await cache.get('a');
  await cache.get('a');
  assert.is(source.reads, 4, 'while changes may go unheard');
  up = true;
  cache.forget();
  await cache.get('a');
  await cache.get('a');
  assert.is(source.reads, 5, 'after forget(), once');
  generation.forget();
  await cache.get('a');
  assert.is(source.reads, 6, 'after a restore');
});

kept.run();
