// One organization's things calls beside a large neighbour: organization A holds an entity with 10
// records; its T1, T3, T5 (first page, search, orderby), T10 and T13 are timed alone, then again after
// organization B created `records` records (through T7, 1,000 at a time). The goal (BENCHMARKS.md): each
// at most 1.5× its time alone.
// Usage: npx tsx bench/neighbour-things.ts [records=100000] [runs=20]; `npm run bench` runs it too.
import { pathToFileURL } from 'node:url';
import { apiCall, benchService, median as medianOf, neighbourTable, type NeighbourRow } from './setup.js';

export async function neighbourThings(
  neighbour: number,
  runs: number,
  say: (line: string) => void = () => {},
): Promise<NeighbourRow[]> {
  // Twice the neighbour's records: an organization near its limit reads its used slots on every create.
  const bench = await benchService({ THINGS_RECORD_LIMIT: String(2 * neighbour) });

  const call = (token: string, method: string, path: string, body?: unknown) =>
    apiCall(bench.url, token, method, path, body);
  const median = (fn: () => Promise<unknown>) => medianOf(runs, fn);

  const fields = [
    { name: 'Name', type: 'text' },
    { name: 'Pressure', type: 'number' },
  ];
  async function entityWith(token: string, organizationID: number, count: number, name: string) {
    const entity = await call(token, 'POST', '/api/v1/things/entities', { name, organizationID, fields });
    const [text, number] = entity.fields.map((f: { id: string }) => f.id);
    for (let made = 0; made < count; made += 1000) {
      const records = Array.from({ length: Math.min(1000, count - made) }, (_, i) => ({
        values: [
          { fieldID: text, value: `Hydrant ${made + i}` },
          { fieldID: number, value: String((((made + i) * 7919) % 1000) / 100) },
        ],
      }));
      await call(token, 'POST', `/api/v1/things/entities/${entity.id}/records/bulk`, { records });
    }
    return { id: entity.id as string, number: number as string };
  }

  const orgA = (await call(bench.token, 'GET', `/api/v1/monitor/${bench.monitorId}`)).organizationID as number;
  const small = await entityWith(bench.token, orgA, 10, 'Vehicles');
  await call(bench.token, 'POST', `/api/v1/things/entities/${small.id}/rules`, {
    name: 'Low pressure',
    action: 'alarm',
    triggers: ['record_updated'],
    conditions: [{ fieldID: small.number, operator: 'lt', comparison: '2' }],
    actionAlarmTemplate: { alarmMessage: 'Pressure low', eventName: 'Check' },
  });

  const cases: [string, () => Promise<unknown>][] = [
    ['T1 list entities', () => call(bench.token, 'GET', `/api/v1/things/entities?organization_id=${orgA}`)],
    ['T3 get entity (with its record count)', () => call(bench.token, 'GET', `/api/v1/things/entities/${small.id}`)],
    ['T5 first page', () => call(bench.token, 'GET', `/api/v1/things/entities/${small.id}/records`)],
    ['T5 search', () => call(bench.token, 'GET', `/api/v1/things/entities/${small.id}/records?search=hydrant%201`)],
    [
      'T5 orderby number desc',
      () =>
        call(bench.token, 'GET', `/api/v1/things/entities/${small.id}/records?orderby=${small.number}&orderdir=desc`),
    ],
    ['T10 list rules', () => call(bench.token, 'GET', `/api/v1/things/entities/${small.id}/rules`)],
    ['T13 usage', () => call(bench.token, 'GET', `/api/v1/things/usage?organization_id=${orgA}`)],
  ];

  const alone: number[] = [];
  for (const [, fn] of cases) alone.push(await median(fn));

  const orgB = await bench.identity.createOrganization('County');
  const { token: tokenB } = await bench.identity.createApiKey(orgB.id, 'import');
  const loadStarted = performance.now();
  await entityWith(tokenB, orgB.id, neighbour, 'Hydrants');
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  say(`things: neighbour B's ${neighbour} records loaded in ${loadSeconds.toFixed(0)} s through T7`);
  const rows: NeighbourRow[] = [];
  for (const [i, [label, fn]] of cases.entries()) rows.push({ label, alone: alone[i], beside: await median(fn) });
  await bench.close();
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [neighbour, runs] = [Number(process.argv[2] ?? 100_000), Number(process.argv[3] ?? 20)];
  const rows = await neighbourThings(neighbour, runs, console.log);
  console.log(
    `Organization A: one entity with 10 records; neighbour B: ${neighbour} records. Median of ${runs} ` +
      `sequential calls (ms)`,
  );
  console.log(neighbourTable(rows));
}
