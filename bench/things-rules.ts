// What one organization's rules cost another's record writes (issue 20, item 5): organization B saves
// 2,000 large rules (40 entities × 50, each about 16 KB), then A's T9 on a record of an entity with two
// rules of its own and A's T10 are timed, before and after B's rules exist; and what B's own full
// entity costs B: T9 on one of its records, and T12-delete plus T11 of one large rule.
// Usage: npx tsx bench/things-rules.ts [runs=20]
import { apiCall, benchService, median as medianOf } from './setup.js';

const runs = Number(process.argv[2] ?? 20);
const bench = await benchService();

const call = (token: string, method: string, path: string, body?: unknown) =>
  apiCall(bench.url, token, method, path, body);
// Without warm-up calls, as this benchmark always measured.
const median = (fn: () => Promise<unknown>) => medianOf(runs, fn, 0);

const a = bench.token;
const orgA = (await call(a, 'GET', `/api/v1/monitor/${bench.monitorId}`)).organizationID as number;
const orgB = await bench.identity.createOrganization('Other');
const b = (await bench.identity.createApiKey(orgB.id, 'bench')).token;

const fields = [
  { name: 'Name', type: 'text' },
  { name: 'State', type: 'text' },
];
const entity = await call(a, 'POST', '/api/v1/things/entities', { name: 'Hydrants', organizationID: orgA, fields });
const [name, state] = entity.fields.map((f: { id: string }) => f.id);
for (const word of ['defekt', 'gesperrt']) {
  await call(a, 'POST', `/api/v1/things/entities/${entity.id}/rules`, {
    name: `Hydrant ${word}`,
    action: 'alarm',
    triggers: ['record_updated'],
    conditions: [{ fieldID: state, operator: 'eq', comparison: word }],
    actionAlarmTemplate: { alarmMessage: `Hydrant {{${name}}} ist ${word}` },
  });
}
const record = await call(a, 'POST', `/api/v1/things/entities/${entity.id}/records`, {
  values: [{ fieldID: name, value: 'H1' }],
});
let n = 0;
const measure = async () => ({
  t9: await median(() =>
    call(a, 'PUT', `/api/v1/things/records/${record.id}`, { values: [{ fieldID: state, value: `ok ${n++}` }] }),
  ),
  t10: await median(() => call(a, 'GET', `/api/v1/things/entities/${entity.id}/rules`)),
});

const before = await measure();
const started = performance.now();
const text = (k: number) => `${k} `.padEnd(480, 'Wasserentnahmestelle ');
let full: any;
let lastRule: any;
for (let e = 0; e < 40; e++) {
  const other = await call(b, 'POST', '/api/v1/things/entities', {
    name: `Other ${e}`,
    organizationID: orgB.id,
    fields,
  });
  const rule = (k: number) => ({
    name: `Rule ${k}`,
    description: text(k).repeat(4).slice(0, 2000),
    action: 'alarm',
    triggers: ['record_created', 'record_updated', 'record_deleted'],
    conditions: Array.from({ length: 20 }, (_, c) => ({
      fieldID: other.fields[c % 2].id,
      operator: 'contains',
      comparison: text(k * 20 + c),
    })),
    actionAlarmTemplate: { alarmMessage: text(k).repeat(4).slice(0, 2000), eventName: 'Alarm' },
  });
  for (let k = 0; k < 50; k += 5) {
    const made = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(b, 'POST', `/api/v1/things/entities/${other.id}/rules`, rule(e * 50 + k + i)),
      ),
    );
    lastRule = made[4];
  }
  full = { entity: other, rule };
}
console.error(`B's 2,000 rules saved in ${((performance.now() - started) / 1000).toFixed(0)} s`);
const after = await measure();
const own = await call(b, 'POST', `/api/v1/things/entities/${full.entity.id}/records`, {
  values: [{ fieldID: full.entity.fields[0].id, value: 'x' }],
});
const bT9 = await median(() =>
  call(b, 'PUT', `/api/v1/things/records/${own.id}`, {
    values: [{ fieldID: full.entity.fields[1].id, value: `ok ${n++}` }],
  }),
);
const bCycle = await median(async () => {
  await call(b, 'DELETE', `/api/v1/things/entities/${full.entity.id}/rules/${lastRule.id}`);
  lastRule = await call(b, 'POST', `/api/v1/things/entities/${full.entity.id}/rules`, full.rule(n++));
});

console.log(`A's requests, median of ${runs} (ms)   without B's rules   with B's 2,000 rules`);
console.log(
  `T9 update record                    ${before.t9.toFixed(1).padStart(8)}   ${after.t9.toFixed(1).padStart(18)}`,
);
console.log(
  `T10 list rules                      ${before.t10.toFixed(1).padStart(8)}   ${after.t10.toFixed(1).padStart(18)}`,
);
console.log(
  `B's T9 on an entity with 50 large rules: ${bT9.toFixed(1)} ms; T12-delete + T11 of one of them: ` +
    `${bCycle.toFixed(1)} ms`,
);
await bench.close();
