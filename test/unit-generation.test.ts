// Caches of facts empty themselves once the process saw a restore (server/db/generation.ts).
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { ByteCache } from '../server/db/byte-cache.js';
import { forgetCachedFacts } from '../server/db/generation.js';
import { Recent } from '../server/db/recent.js';

test('Recent and ByteCache hold nothing filled before forgetCachedFacts, and fill again after it', () => {
  const owners = new Recent<number, number>(10);
  const bodies = new ByteCache<string>(1024);
  owners.set(36, 1);
  bodies.set('data:36', 'A', 100);
  assert.is(owners.get(36), 1);
  forgetCachedFacts();
  assert.is(owners.get(36), undefined, 'an owner learned before the restore');
  assert.is(bodies.get('data:36'), undefined, 'a body read before the restore');
  assert.is(bodies.bytes, 0);
  owners.set(36, 2);
  bodies.set('data:36', 'B', 100);
  assert.is(owners.get(36), 2);
  assert.is(bodies.get('data:36'), 'B');
});

test.run();
