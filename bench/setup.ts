// Shared set-up of the benchmarks: a private database (the launcher's order, in a temp dir), the
// service on a free port, and an organization with an API key and one monitor.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../server/config.js';
import { launchDatabase } from '../server/db/launcher.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { startService } from '../server/service.js';

/** Starts everything a benchmark needs; `close()` tears it down. */
export async function benchService(env: Record<string, string> = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-bench-'));
  const database = await launchDatabase({ uri: process.env.MONGODB_URI, dataDir, say: (l) => console.error(l) });
  // Benchmarks connect many sockets with one key: the per-token socket cap is off like the rate limits.
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_SECOND: '0',
    HUB_MAX_SOCKETS_PER_TOKEN: '0',
    ...env,
  });
  const service = await startService(config, database.uri, pino({ level: 'silent' }));
  const identity = new IdentityCommands(service.db);
  const org = await identity.createOrganization('Bench');
  const { token } = await identity.createApiKey(org.id, 'bench');
  const url = `http://127.0.0.1:${service.port}`;
  const res = await fetch(`${url}/api/v1/monitor`, {
    method: 'POST',
    headers: { 'API-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', organizationID: org.id }),
  });
  const monitorId = ((await res.json()) as { id: number }).id;
  // An active alarm, so that alarming patches (M8) have something to patch.
  await fetch(`${url}/api/v1/monitor/${monitorId}/data/alarming`, {
    method: 'POST',
    headers: { 'API-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ eventId: 1, event: 'Bench alarm', positiveResponses: 0 }),
  });
  console.error(`database: ${database.engine}`);
  return {
    url,
    token,
    monitorId,
    config,
    service,
    identity,
    async close() {
      await service.close();
      await database.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Median of `runs` sequential calls of `fn`, in ms, after `warmup` calls that warm the code paths up. */
export async function median(runs: number, fn: () => Promise<unknown>, warmup = 5): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

/** A REST call with an API key (none for public operations); throws unless it succeeded. */
export async function apiCall(url: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    ...(token ? { 'API-TOKEN': token } : {}),
  };
  const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** One call's median alone and beside a large neighbour, in ms. */
export interface NeighbourRow {
  label: string;
  alone: number;
  beside: number;
}

/** The rows as a table, with each ratio. */
export function neighbourTable(rows: NeighbourRow[]): string {
  const head = `${'call'.padEnd(40)} ${'alone'.padStart(8)} ${'beside'.padStart(9)} ${'ratio'.padStart(6)}`;
  return [
    head,
    ...rows.map(
      (r) =>
        `${r.label.padEnd(40)} ${r.alone.toFixed(1).padStart(8)} ${r.beside.toFixed(1).padStart(9)} ` +
        `${(r.beside / r.alone).toFixed(2).padStart(5)}×`,
    ),
  ].join('\n');
}
