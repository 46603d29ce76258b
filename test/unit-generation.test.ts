// Caches of facts empty themselves once their database's generation moved on (a restore; server/db/generation.ts),
// and a cache of another database (another service in the same process) keeps what it holds.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { ByteCache } from '../server/db/byte-cache.js';
import { CacheGeneration } from '../server/db/generation.js';
import { Recent } from '../server/db/recent.js';

test('Recent and ByteCache hold nothing filled before their generation moved on, and fill again after it', () => {
  const generation = new CacheGeneration();
  const other = new CacheGeneration();
  const owners = new Recent<number, number>(10, generation);
  const bodies = new ByteCache<string>(1024, generation);
  const elsewhere = new Recent<number, number>(10, other);
  elsewhere.set(36, 7);
  owners.set(36, 1);
  bodies.set('data:36', 'A', 100);
  assert.is(owners.get(36), 1);
  generation.forget();
  assert.is(elsewhere.get(36), 7, "another database's cache");
  assert.is(owners.get(36), undefined, 'an owner learned before the restore');
  assert.is(bodies.get('data:36'), undefined, 'a body read before the restore');
  assert.is(bodies.bytes, 0);
  owners.set(36, 2);
  bodies.set('data:36', 'B', 100);
  assert.is(owners.get(36), 2);
  assert.is(bodies.get('data:36'), 'B');
});

test.run();
