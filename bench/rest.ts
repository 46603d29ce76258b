// REST throughput and latency with autocannon: reads (M4, M6) and writes (M8) of one monitor.
// Usage: npx tsx bench/rest.ts [seconds=10] [connections=20]
import autocannon from 'autocannon';
import { benchService } from './setup.js';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 20);
const bench = await benchService();
const headers = { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' };

const cases = [
  { name: 'M4 GET monitor', method: 'GET', path: `/api/v1/monitor/${bench.monitorId}` },
  { name: 'M6 GET data', method: 'GET', path: `/api/v1/monitor/${bench.monitorId}/data` },
  {
    name: 'M8 PATCH alarming',
    method: 'PATCH',
    path: `/api/v1/monitor/${bench.monitorId}/data/alarming`,
    body: JSON.stringify({ positiveResponses: 3, awaitingResponses: 7 }),
  },
] as const;

console.log(`REST, ${seconds} s per case, ${connections} connections`);
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
await bench.close();
