// The hub's Redis clients (server/hub/redis.ts): subscriptions made before the connection is up must
// hold. (A process that started quickly lost them: its ready check's INFO was refused in subscriber
// mode, the connection dropped, and the reconnect did not subscribe again — no patch crossed processes.)
import { pino } from 'pino';
import { test } from 'uvu';
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

test.run();
