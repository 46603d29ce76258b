// The hub's Redis clients (server/hub/redis.ts): subscriptions made before the connection is up must
// hold. (A process that started quickly lost them: its ready check's INFO was refused in subscriber
// mode, the connection dropped, and the reconnect did not subscribe again — no patch crossed processes.)
import { pino } from 'pino';
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { connectRedis } from '../server/hub/redis.js';

test('subscriptions made at once, before Redis answered, receive messages', async () => {
  for (let round = 0; round < 5; round++) {
    const pair = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', pino({ level: 'silent' }));
    const got: string[] = [];
    pair.sub.on('messageBuffer', (channel: Buffer) => got.push(channel.toString()));
    pair.sub.on('pmessageBuffer', (_pattern: Buffer, channel: Buffer) => got.push(channel.toString()));
    const tag = `redis-clients-test-${process.pid}-${round}`;
    // The window that lost them: connected, the ready check not yet answered.
    while (pair.sub.status !== 'connect' && pair.sub.status !== 'ready') await new Promise((r) => setImmediate(r));
    void pair.sub.psubscribe(`${tag}-p*`);
    void pair.sub.subscribe(`${tag}-a`, `${tag}-b`);
    const deadline = Date.now() + 5_000;
    while (!pair.up() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    // Published until both arrive (a subscription answered late on a busy machine is not lost, a lost
    // one never answers): each channel heard at least once.
    const until = Date.now() + 20_000;
    while (new Set(got).size < 2 && Date.now() < until) {
      await pair.pub.publish(`${tag}-a`, 'x');
      await pair.pub.publish(`${tag}-p1`, 'x');
      await new Promise((r) => setTimeout(r, 50));
    }
    await pair.close();
    assert.equal([...new Set(got)].sort(), [`${tag}-a`, `${tag}-p1`], `round ${round}`);
  }
});

test(
  'a publish while Redis is away settles at 0 receivers, and the ioredis clients themselves are ' + 'left as they are',
  async () => {
    // A port nothing listens on: every command fails at once (no offline queue on the publisher).
    const pair = connectRedis('redis://127.0.0.1:1', pino({ level: 'silent' }));
    try {
      assert.is(await pair.pub.publish('redis-clients-test-away', 'x'), 0);
      const own = Object.getPrototypeOf(pair.pub) as { publish: unknown; constructor: unknown };
      assert.is(
        pair.pub.constructor,
        own.constructor,
        'the constructor as ioredis has it (the adapter tells a Cluster by its name)',
      );
      // The wrapped view settles; the client's own method still rejects, as ioredis made it.
      let rejected = false;
      await (own.publish as (this: unknown, c: string, m: string) => Promise<number>)
        .call(pair.pub, 'redis-clients-test-away', 'x')
        .catch(() => (rejected = true));
      assert.ok(rejected, "the prototype method is ioredis's own");
    } finally {
      await pair.close();
    }
  },
);

test.run();
