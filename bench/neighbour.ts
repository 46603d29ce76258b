// One organization's latency beside a large neighbour: M6 (read data) and M8 (patch alarm) of a small
// monitor of organization A, measured before and after organization B filled monitors with about
// 16 MB of data. On the embedded database only exact string-_id lookups use an index, so the figures
// stay flat only if every hot path is one.
// Usage: npx tsx bench/neighbour.ts [requests=300] [megabytes=16]
import { performance } from 'node:perf_hooks';
import { benchService } from './setup.js';

const requests = Number(process.argv[2] ?? 300);
const megabytes = Number(process.argv[3] ?? 16);
const bench = await benchService();
const headers = (token: string) => ({ 'API-TOKEN': token, 'Content-Type': 'application/json' });

async function timed(method: string, path: string, body?: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(bench.url + path, {
    method,
    headers: headers(bench.token),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
  return performance.now() - started;
}

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
  return `p50 ${at(0.5).padStart(6)} ms   p99 ${at(0.99).padStart(6)} ms`;
}

async function measure(label: string): Promise<void> {
  const m6: number[] = [];
  const m8: number[] = [];
  for (let i = 0; i < requests; i++) {
    m6.push(await timed('GET', `/api/v1/monitor/${bench.monitorId}/data`));
    m8.push(await timed('PATCH', `/api/v1/monitor/${bench.monitorId}/data/alarming`, { positiveResponses: i }));
  }
  console.log(`${label.padEnd(34)} M6 ${percentiles(m6)}   M8 ${percentiles(m8)}`);
}

console.log(`Organization A's small monitor, ${requests} sequential M6 + M8 each`);
await measure('alone');

// Organization B: monitors of about 3.8 MB each (the per-monitor limit is 4 MiB) until `megabytes`.
const org = await bench.identity.createOrganization('Neighbour');
const { token } = await bench.identity.createApiKey(org.id, 'big');
const table = 'x'.repeat(950_000);
let written = 0;
for (let m = 0; written < megabytes * 1_000_000; m++) {
  const res = await fetch(`${bench.url}/api/v1/monitor`, {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({ name: `Big ${m}`, organizationID: org.id }),
  });
  const id = ((await res.json()) as { id: number }).id;
  for (let t = 0; t < 4 && written < megabytes * 1_000_000; t++) {
    const patch = await fetch(`${bench.url}/api/v1/monitor/${id}/data/meta`, {
      method: 'PATCH',
      headers: headers(token),
      body: JSON.stringify({ tables: { [`t${t}`]: table } }),
    });
    if (patch.status !== 200) throw new Error(`neighbour write: ${patch.status}`);
    written += table.length;
  }
}
await measure(`beside ${(written / 1e6).toFixed(1)} MB of B's monitor data`);
await bench.close();
