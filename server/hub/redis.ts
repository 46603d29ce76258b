// The Redis clients of the hub's adapter and the shared rate limits, made safe for outages: a publish
// while Redis is away fails at once and is dropped (screens catch up through version resync) instead of
// queueing without bound or rejecting unhandled — which would end the process and take REST down with
// it. `REDIS_URL` names one Redis (`redis://host:6379/0`) or a Redis Cluster by some of its nodes
// (`redis-cluster://host1:7000,host2:7001`); a cluster carries the hub over sharded pub/sub (Redis 7).
import { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RedisClient = Redis | Cluster;

export interface RedisPair {
  pub: RedisClient;
  sub: RedisClient;
  /** True for a Redis Cluster (the hub then uses the sharded adapter). */
  cluster: boolean;
  /** True while both connections are ready. */
  up(): boolean;
  /** Called each time both connections are ready again after an outage. */
  onRecovered(listener: () => void): void;
  close(): Promise<void>;
}

const CLUSTER_SCHEME = /^rediss?-cluster:\/\//;

/** The seed nodes of a `redis-cluster://host:port,host:port` URL, or null for a single Redis. */
export function clusterNodes(url: string): Array<{ host: string; port: number }> | null {
  if (!CLUSTER_SCHEME.test(url)) return null;
  return url
    .replace(CLUSTER_SCHEME, '')
    .replace(/\/.*$/, '')
    .split(',')
    .map((node) => {
      const [host, port] = node.split(':');
      return { host, port: Number(port || 6379) };
    });
}

/** Connects the publishing and the subscribing client. */
export function connectRedis(url: string, log: Logger): RedisPair {
  const options = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 1_000),
    lazyConnect: false,
  };
  // The subscriber must queue: the adapter subscribes before the first connection is up. Its ready
  // check is off: subscriptions written while the check's INFO is still unanswered put the connection
  // in subscriber mode, the INFO is refused there, the connection drops, and the reconnect forgets the
  // subscriptions (seen when a process started quickly: no patch crossed processes).
  const queued = { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null, enableReadyCheck: false };
  const nodes = clusterNodes(url);
  const make = (o: typeof options | typeof queued): RedisClient =>
    nodes
      ? new Cluster(nodes, {
          shardedSubscribers: true,
          enableOfflineQueue: o.enableOfflineQueue,
          enableReadyCheck: 'enableReadyCheck' in o ? o.enableReadyCheck : true,
          clusterRetryStrategy: options.retryStrategy,
          redisOptions: { maxRetriesPerRequest: o.maxRetriesPerRequest },
        })
      : new Redis(url, o);
  const pub = make(options);
  const sub = make(queued);
  // A publish while Redis is away fails at once and counts 0 receivers; a subscription that fails (one
  // still queued when the process stops before Redis ever answered, which the adapter does not handle)
  // is logged: ioredis subscribes again on every reconnect. The clients themselves stay as ioredis made
  // them; the adapter and the limits get these views of them.
  const dropped = (name: string) => (err: unknown) => {
    log.debug({ err }, `redis ${name} dropped`);
    return 0;
  };
  const safePub = guarded(pub, ['publish', 'spublish'], dropped);
  const safeSub = guarded(sub, ['subscribe', 'psubscribe', 'ssubscribe'], dropped);

  const listeners: Array<() => void> = [];
  let wasDown = false;
  const up = () => pub.status === 'ready' && sub.status === 'ready';
  for (const [name, client] of [
    ['pub', pub],
    ['sub', sub],
  ] as const) {
    client.on('error', (err: Error) => {
      if (!wasDown) log.warn({ client: name, err }, 'redis unavailable');
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
    pub: safePub,
    sub: safeSub,
    cluster: nodes !== null,
    up,
    onRecovered: (listener) => void listeners.push(listener),
    async close() {
      await Promise.all([pub, sub].map((client) => closeClient(client)));
    },
  };
}

/**
 * A view of `client` whose `methods` settle instead of rejecting (with what `onError(name)` returns);
 * everything else is the client's own. The client object is not changed.
 */
function guarded(
  client: RedisClient,
  methods: readonly string[],
  onError: (name: string) => (err: unknown) => unknown,
): RedisClient {
  const wrapped = new Map(
    methods.map((name) => {
      const method = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name];
      return [name, (...args: unknown[]) => method.apply(client, args).catch(onError(name))] as const;
    }),
  );
  return new Proxy(client, {
    get(target, property, receiver) {
      if (typeof property === 'string' && wrapped.has(property)) return wrapped.get(property);
      const value: unknown = Reflect.get(target, property, receiver);
      // Methods run on the client itself; its constructor is told as it is (the adapter reads its name).
      return typeof value === 'function' && property !== 'constructor' ? value.bind(target) : value;
    },
  });
}

// QUIT waits for Redis to answer, and a client with an offline queue waits forever while Redis is
// away: only a ready client is asked politely, and not for long.
async function closeClient(client: RedisClient): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  const timer = setTimeout(() => client.disconnect(), 1_000);
  await client.quit().catch(() => client.disconnect());
  clearTimeout(timer);
}
