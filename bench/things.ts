// Things at scale on the database the launcher picks (the embedded FerretDB unless MONGODB_URI is set):
// T5 (page, search, orderby) and T7 (1,000 creates, updates, deletes) at 1,000 and 10,000 records of one
// entity, plus what one organization's records cost another's small entity.
// Usage: npx tsx bench/things.ts [runs=5]
import { benchService } from './setup.js';

const runs = Number(process.argv[2] ?? 5);
const bench = await benchService({ THINGS_RECORD_LIMIT: '20000' });
const headers = { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' };

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(bench.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await fn();
  return { ms: performance.now() - started, result };
}

/** Median of `runs` timings, in ms. */
async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(fn)).ms);
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const orgId = (await call('GET', `/api/v1/monitor/${bench.monitorId}`)).organizationID as number;
const fields = [
  { name: 'Name', type: 'text' },
  { name: 'Pressure', type: 'number' },
  { name: 'Checked', type: 'date' },
  { name: 'Kind', type: 'selection', selectionValues: ['underground', 'pillar', 'wall'] },
  { name: 'Position', type: 'coordinates' },
  { name: 'Address', type: 'address' },
];
const entity = await call('POST', '/api/v1/things/entities', { name: 'Hydrants', organizationID: orgId, fields });
const small = await call('POST', '/api/v1/things/entities', {
  name: 'Vehicles',
  organizationID: orgId,
  fields: [{ name: 'Call sign', type: 'text' }],
});
await call('POST', `/api/v1/things/entities/${small.id}/records/bulk`, {
  records: Array.from({ length: 10 }, (_, i) => ({ values: [{ fieldID: small.fields[0].id, value: `HLF ${i}` }] })),
});
const [name, pressure, checked, kind, position, address] = entity.fields.map((f: { id: string }) => f.id);
const records = `/api/v1/things/entities/${entity.id}/records`;

const countOf = async () => (await call('GET', `/api/v1/things/entities/${entity.id}`)).recordCount as number;
let made = 0;
const item = () => {
  const n = made++;
  return {
    values: [
      { fieldID: name, value: `Hydrant ${n}` },
      { fieldID: pressure, value: String(((n * 7919) % 1000) / 100) },
      { fieldID: checked, value: `20${10 + (n % 15)}-0${1 + (n % 9)}-1${n % 10}` },
      { fieldID: kind, value: fields[3].selectionValues![n % 3] },
      { fieldID: position, value: `${50 + (n % 100) / 1000},${6 + (n % 77) / 1000}` },
      { fieldID: address, value: `Goethestraße ${n}, 52064 Aachen` },
    ],
  };
};

console.log(`things, median of ${runs} runs (ms); database as printed above`);
console.log('records  case                                         ms');
const row = (count: number, label: string, ms: number) =>
  console.log(`${String(count).padStart(7)}  ${label.padEnd(44)} ${ms.toFixed(0).padStart(6)}`);
for (const target of [1_000, 10_000]) {
  let lastCreate = 0;
  for (let count = await countOf(); count < target; count = await countOf()) {
    lastCreate = (
      await timed(() =>
        call('POST', `${records}/bulk`, { records: Array.from({ length: Math.min(1000, target - count) }, item) }),
      )
    ).ms;
  }
  row(target, 'T7 1,000 creates (the last batch)', lastCreate);
  row(target, 'T5 first page (creation order)', await median(() => call('GET', `${records}?limit=50`)));
  row(
    target,
    'T5 search "hydrant 12" (plain text)',
    await median(() => call('GET', `${records}?search=hydrant%2012&limit=50`)),
  );
  row(
    target,
    'T5 orderby number desc',
    await median(() => call('GET', `${records}?orderby=${pressure}&orderdir=desc&limit=50`)),
  );
  row(
    target,
    'T5 orderby date asc, offset 500',
    await median(() => call('GET', `${records}?orderby=${checked}&offset=500&limit=50`)),
  );
  row(
    target,
    'T5 search + orderby text',
    await median(() => call('GET', `${records}?search=aachen&orderby=${name}&limit=50`)),
  );
  row(
    target,
    'T5 of another entity with 10 records',
    await median(() => call('GET', `/api/v1/things/entities/${small.id}/records`)),
  );
  const page = await call('GET', `${records}?limit=50&offset=100`);
  row(target, 'T8 get record', await median(() => call('GET', `/api/v1/things/records/${page.records[0].id}`)));
  row(target, 'T6 create record', await median(() => call('POST', records, item())));
  row(target, 'T13 usage', await median(() => call('GET', `/api/v1/things/usage?organization_id=${orgId}`)));
  const ids: string[] = (await call('GET', `${records}?orderby=${name}&limit=50`)).records.map(
    (r: { id: string }) => r.id,
  );
  while (ids.length < 1000)
    ids.push(
      ...(await call('GET', `${records}?limit=50&offset=${ids.length}`)).records.map((r: { id: string }) => r.id),
    );
  const updates = ids.slice(0, 1000).map((id) => ({ id, values: [{ fieldID: pressure, value: '4.2' }] }));
  row(target, 'T7 1,000 updates', (await timed(() => call('POST', `${records}/bulk`, { records: updates }))).ms);
  row(
    target,
    'T7 1,000 deletes',
    (await timed(() => call('POST', `${records}/bulk`, { deleteIDs: ids.slice(0, 1000) }))).ms,
  );
}
await bench.close();
