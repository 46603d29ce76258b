// Journal and integration throughput and latency with autocannon: J9 entries written by the holder
// (serialised per journal), J6 pages of a growing journal, E3 credentials read back (decrypted).
// Usage: npx tsx bench/journal.ts [seconds=10] [connections=20]
import autocannon from 'autocannon';
import { benchService } from './setup.js';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 20);
const bench = await benchService({ SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') });
const headers = { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(bench.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as any;
};

const journal = await call('GET', '/api/v1/journal?event_id=4711');
const category = await call('POST', '/api/v1/journal/categories', {
  name: 'Lage',
  description: 'Bench',
  organizationId: journal.organizationId,
});
await call('POST', `/api/v1/journal/${journal.id}/lock`);
await call('PUT', `/api/v1/els-cobra/credentials/${journal.organizationId}?serviceName=alarm`, {
  username: 'u',
  password: 'p',
  url: 'https://cobra.example/',
});

const cases = [
  {
    name: 'J9 POST entry',
    method: 'POST',
    path: `/api/v1/journal/${journal.id}/entries`,
    body: JSON.stringify({
      journalId: journal.id,
      categoryId: category.id,
      text: 'Lagemeldung',
      location: 'Abschnitt Nord',
    }),
  },
  { name: 'J6 GET page of 10', method: 'GET', path: '/api/v1/journal?event_id=4711' },
  { name: 'J6 GET page of 50', method: 'GET', path: '/api/v1/journal?event_id=4711&limit=50&offset=100' },
  {
    name: 'E3 GET credentials',
    method: 'GET',
    path: `/api/v1/els-cobra/credentials/${journal.organizationId}?serviceName=alarm`,
  },
] as const;

console.log(`journal and integration, ${seconds} s per case, ${connections} connections`);
console.log('case                 req/s     p50 ms   p99 ms   non-2xx');
for (const c of cases) {
  const result = await autocannon({
    url: bench.url + c.path,
    method: c.method,
    headers,
    body: 'body' in c ? c.body : undefined,
    connections,
    duration: seconds,
  });
  console.log(
    `${c.name.padEnd(20)} ${result.requests.average.toFixed(0).padStart(6)}   ${String(result.latency.p50).padStart(6)} ` +
      `  ${String(result.latency.p99).padStart(6)}   ${result.non2xx}`,
  );
}
const after = await call('GET', '/api/v1/journal?event_id=4711&limit=50');
const serials = after.entryList.entries.map((e: { serialNumber: number }) => e.serialNumber);
console.log(
  `entries written: ${after.entryList.totalEntries}; newest page gapless: ${serials.every((s: number, i: number) => s === after.entryList.totalEntries - i)}`,
);
await bench.close();
