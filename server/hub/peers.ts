// The hub processes on one database and how each reaches the others. A process without REDIS_URL
// beside processes with it (or two on different Redis servers or prefixes) would deliver writes to
// the other's screens only through the periodic resync: each process records its hub configuration,
// compares it with the live ones at start and on every heartbeat, logs a mismatch as an error and
// reports it on /readyz.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { SystemModels } from '../db/system.js';
import { clusterNodes } from './redis.js';

export interface HubPeers {
  /** Hub configurations of live processes on this database that differ from this one's. */
  mismatches(): Array<{ process: string; hub: string }>;
  /** Records that this process is alive and looks at the others again (the scheduler runs it every heartbeat). */
  beat(): Promise<void>;
  /** Removes this process's record. */
  close(): Promise<void>;
}

/** What a process's hub configuration is, as comparable text (never a password). */
export function hubSignature(redisUrl: string | undefined, prefix: string): string {
  if (!redisUrl) return 'no Redis (single-process hub)';
  const nodes = clusterNodes(redisUrl);
  if (nodes)
    return `Redis Cluster ${nodes
      .map((n) => `${n.host}:${n.port}`)
      .sort()
      .join(',')} prefix ${prefix}`;
  const url = new URL(redisUrl);
  return `Redis ${url.hostname}:${url.port || 6379}${url.pathname || '/0'} prefix ${prefix}`;
}

/** Records this process and watches the others; beats are `heartbeatMs` apart, silent for 3 beats = gone. */
export async function watchHubPeers(
  models: SystemModels,
  hub: string,
  log: Logger,
  heartbeatMs = 10_000,
): Promise<HubPeers> {
  const id = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const now = new Date();
  await models.HubProcess.create({ _id: id, host: os.hostname(), pid: process.pid, hub, startedAt: now, seenAt: now });
  let found: Array<{ process: string; hub: string }> = [];
  let reported = '';
  const check = async () => {
    const since = new Date(Date.now() - 3 * heartbeatMs);
    // A scan of a collection with a handful of small documents, every few seconds.
    const live = await models.HubProcess.find({ seenAt: { $gte: since } }).lean();
    found = live.filter((p) => p._id !== id && p.hub !== hub).map((p) => ({ process: p._id, hub: p.hub }));
    const text = found.map((p) => `${p.process}: ${p.hub}`).join('; ');
    if (text && text !== reported)
      log.error(
        { self: hub, others: found },
        `hub configuration differs between processes on this database: this one uses ${hub}; ${text}. ` +
          `Writes reach the other processes' screens only through the 10 s resync; give every process ` +
          `the same REDIS_URL and REDIS_PREFIX`,
      );
    reported = text;
    await models.HubProcess.deleteMany({ seenAt: { $lt: new Date(Date.now() - 30 * heartbeatMs) } });
  };
  await check();
  return {
    mismatches: () => found,
    async beat() {
      await models.HubProcess.updateOne({ _id: id }, { $set: { seenAt: new Date() } });
      await check();
    },
    async close() {
      try {
        await models.HubProcess.deleteOne({ _id: id });
      } catch (err) {
        // The record ages out: after 3 beats the others count this process as gone.
        log.warn({ err }, 'this process could not remove its hub record; the others stop counting it after 3 beats');
      }
    },
  };
}
