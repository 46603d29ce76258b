// What a journal PDF export of long entries costs everyone else on the process: a journal of 310
// entries of 10,000 characters each (the longest an entry may be); one PDF export while `/healthz` is
// asked every 50 ms (its answer times: the event loop's stalls), then three PDF exports of the
// organization at once while another organization lists its alarms (AL2) every 100 ms.
// Usage: npx tsx bench/journal-export-load.ts [entries=310]
import { performance } from 'node:perf_hooks';
import { apiCall, benchService } from './setup.js';

const entries = Number(process.argv[2] ?? 310);
const bench = await benchService({ RATE_LIMIT_PER_SECOND: '0' });
const headers = { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' };
const call = (method: string, path: string, body?: unknown) => apiCall(bench.url, bench.token, method, path, body);

const journal = await call('GET', '/api/v1/journal?event_id=4711');
const category = await call('POST', '/api/v1/journal/categories', {
  name: 'Lagemeldung',
  description: 'Bench',
  organizationId: journal.organizationId,
});
await call('POST', `/api/v1/journal/${journal.id}/lock`);
const words = 'Trupp an Verteiler, Schlauchleitung über Treppenraum, Druck gut, Lage unverändert. ';
const text = words.repeat(Math.ceil(10_000 / words.length)).slice(0, 10_000);
for (let i = 1; i <= entries; i++)
  await call('POST', `/api/v1/journal/${journal.id}/entries`, { journalId: journal.id, categoryId: category.id, text });
const other = await bench.identity.createOrganization('Nachbarwehr');
const otherKey = { 'API-TOKEN': (await bench.identity.createApiKey(other.id, 'bench')).token };

const percentile = (list: number[], p: number) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? NaN;

/** Asks `path` every `everyMs` until `done` settles; the answer times. */
async function probe(path: string, everyMs: number, done: Promise<unknown>, auth: Record<string, string> = {}) {
  const times: number[] = [];
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    const t0 = performance.now();
    await fetch(bench.url + path, { headers: auth });
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return times;
}

const exportPdf = async () => {
  const t0 = performance.now();
  const res = await fetch(`${bench.url}/api/v1/journal/${journal.id}/export?format=pdf&lang=de`, { headers });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
};

const one = exportPdf();
const healthz = await probe('/healthz', 50, one);
const single = await one;
console.log(`${entries} entries of 10,000 characters: one PDF export ${single.status} in ${single.ms.toFixed(0)} ms`);
console.log(
  `/healthz during it (${healthz.length} asks): median ${percentile(healthz, 0.5).toFixed(0)} ms, ` +
    `p95 ${percentile(healthz, 0.95).toFixed(0)} ms, worst ${Math.max(...healthz).toFixed(0)} ms`,
);

const three = Promise.all([exportPdf(), exportPdf(), exportPdf()]);
const alarms = await probe(`/api/v1/alarms?organization_id=${other.id}`, 100, three, otherKey);
console.log(
  `three at once: ${(await three).map((r) => `${r.status} in ${r.ms.toFixed(0)} ms`).join(', ')}; another ` +
    `organization's AL2 meanwhile (${alarms.length} asks): median ${percentile(alarms, 0.5).toFixed(0)} ms, worst ${Math.max(...alarms).toFixed(0)} ms`,
);
await bench.close();
process.exit(0);
