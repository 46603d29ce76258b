// FreshReads (server/db/fresh-reads.ts): callers asking at once share a read, and never one that began
// before they asked.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { FreshReads } from '../server/db/fresh-reads.js';

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

reads('twenty callers asking at once cause two reads: the first caller\'s, and one the other nineteen share', async () => {
  const { source, fresh, release } = slowSource();
  const answers = Promise.all(Array.from({ length: 20 }, () => fresh.get('a')));
  await release();
  await release();
  assert.equal(await answers, Array(20).fill(0));
  assert.is(source.started, 2);
  assert.is(fresh.size, 0);
});

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
  const failure = await bad.then(() => null, (err: Error) => err.message);
  assert.is(failure, 'read failed');
  assert.is(await good, 'good');
  assert.is(await fresh.get('bad'), 'bad');
});

reads.run();
