// The journal export (J-export) of a journal of 5,000 entries (1 in 50 deleted): wall time of the whole
// request, CSV and PDF, several runs each, with the file's size and the PDF's page count. Goal: under
// 2 s on this machine (docs/api.md "Journal export").
// Usage: npx tsx bench/journal-export.ts [entries=5000] [runs=5]
import { performance } from 'node:perf_hooks';
import { benchService } from './setup.js';

const entries = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 5);
const bench = await benchService({ RATE_LIMIT_PER_SECOND: '0' });
const headers = { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(bench.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
};

const journal = await call('GET', '/api/v1/journal?event_id=4711');
const category = await call('POST', '/api/v1/journal/categories', {
  name: 'Lagemeldung',
  description: 'Bench',
  organizationId: journal.organizationId,
});
await call('POST', `/api/v1/journal/${journal.id}/lock`);
const started = performance.now();
for (let i = 1; i <= entries; i++) {
  const entry = await call('POST', `/api/v1/journal/${journal.id}/entries`, {
    journalId: journal.id,
    categoryId: category.id,
    text: `Meldung ${i}: Trupp an Verteiler, Schlauchleitung über Treppenraum – Druck gut, Lage unverändert`,
    location: i % 3 ? 'Abschnitt Nord' : '',
  });
  if (i % 50 === 0) await call('DELETE', `/api/v1/journal/${journal.id}/entries/${entry.id}`);
}
console.log(`${entries} entries written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

console.log('format   run   ms      bytes');
for (const format of ['csv', 'pdf']) {
  const times: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const t0 = performance.now();
    const res = await fetch(`${bench.url}/api/v1/journal/${journal.id}/export?format=${format}&lang=de`, { headers });
    const bytes = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`export ${format}: ${res.status}`);
    times.push(ms);
    const pages =
      format === 'pdf' ? ` (${(bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length} pages)` : '';
    console.log(
      `${format.padEnd(8)} ${String(run).padStart(3)}   ${ms.toFixed(0).padStart(5)}   ${bytes.length}${pages}`,
    );
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${format}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, worst ${sorted.at(-1)!.toFixed(0)} ` +
      `ms over ${runs} runs`,
  );
}
await bench.close();
