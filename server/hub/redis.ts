// The Redis clients of the Socket.IO adapter, made safe for outages: a publish while Redis is away
// fails at once and is dropped (screens catch up through version resync) instead of queueing without
// bound or rejecting unhandled — which would end the process and take REST down with it.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisPair {
  pub: Redis;
  sub: Redis;
  /** True while both connections are ready. */
  up(): boolean;
  /** Called each time both connections are ready again after an outage. */
  onRecovered(listener: () => void): void;
  close(): Promise<void>;
}

/** Connects the publishing and the subscribing client. */
export function connectRedis(url: string, log: Logger): RedisPair {
  const options = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 1_000),
    lazyConnect: false,
  };
  const pub = new Redis(url, options);
  // The subscriber must queue: the adapter subscribes before the first connection is up.
  const sub = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
  const publish = pub.publish.bind(pub) as (channel: string | Buffer, message: string | Buffer) => Promise<number>;
  (pub as unknown as { publish: typeof publish }).publish = (channel, message) =>
    publish(channel, message).catch((err: Error) => {
      log.debug({ err: err.message }, 'redis publish dropped');
      return 0;
    });
  // The adapter subscribes without handling a failure: one still queued when the process stops before
  // Redis ever answered would be an unhandled rejection. ioredis subscribes again on every reconnect.
  for (const name of ['subscribe', 'psubscribe'] as const) {
    const original = sub[name].bind(sub) as (...args: unknown[]) => Promise<unknown>;
    (sub as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      original(...args).catch((err: Error) => log.debug({ err: err.message }, `redis ${name} dropped`));
  }

  const listeners: Array<() => void> = [];
  let wasDown = false;
  const up = () => pub.status === 'ready' && sub.status === 'ready';
  for (const [name, client] of [['pub', pub], ['sub', sub]] as const) {
    client.on('error', (err: Error) => {
      if (!wasDown) log.warn({ client: name, err: err.message }, 'redis unavailable');
      wasDown = true;
    });
    client.on('ready', () => {
      if (!wasDown || !up()) return;
      wasDown = false;
      log.info('redis available again');
      for (const listener of listeners) listener();
    });
  }
  return {
    pub,
    sub,
    up,
    onRecovered: (listener) => void listeners.push(listener),
    async close() {
      await Promise.all([pub, sub].map((client) => closeClient(client)));
    },
  };
}

// QUIT waits for Redis to answer, and a client with an offline queue waits forever while Redis is
// away: only a ready client is asked politely, and not for long.
async function closeClient(client: Redis): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  const timer = setTimeout(() => client.disconnect(), 1_000);
  await client.quit().catch(() => client.disconnect());
  clearTimeout(timer);
}
