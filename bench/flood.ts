// One organization's alarm beside another's flood of alarm data writes (docs/operating.md, "Alarm data writes"):
// A's M8 latency alone, then while B runs `threads` concurrent loops of ~170 KB M7 writes on 10
// monitors. Alarm data writes are never refused for rate; DATA_WRITES_PER_ORGANIZATION bounds what B
// takes of the process. Run it with DATA_WRITES_PER_ORGANIZATION=0 to see the figures without the bound.
// Usage: npx tsx bench/flood.ts [threads=30] [samples=200]
import { performance } from 'node:perf_hooks';
import { benchService } from './setup.js';

const threads = Number(process.argv[2] ?? 30);
const samples = Number(process.argv[3] ?? 200);
const bench = await benchService(
  process.env.DATA_WRITES_PER_ORGANIZATION
    ? { DATA_WRITES_PER_ORGANIZATION: process.env.DATA_WRITES_PER_ORGANIZATION }
    : {},
);
const headers = (token: string) => ({ 'API-TOKEN': token, 'Content-Type': 'application/json' });

const b = await bench.identity.createOrganization('Flooding');
const { token: bToken } = await bench.identity.createApiKey(b.id, 'flood');
const bMonitors: number[] = [];
for (let i = 0; i < 10; i++) {
  const res = await fetch(`${bench.url}/api/v1/monitor`, {
    method: 'POST',
    headers: headers(bToken),
    body: JSON.stringify({ name: `B ${i}`, organizationID: b.id }),
  });
  bMonitors.push(((await res.json()) as { id: number }).id);
}
// About 170 KB: ten units of 150 members each, as a large dispatch system sends them.
const member = (i: number) => ({
  feedback: 1,
  name: `Maximilian Mustermann-${i}`,
  position: 'Atemschutzgeräteträger',
  label: { name: 'AGT', color: '#dc2626' },
});
const large = JSON.stringify({
  eventId: 7,
  event: 'B: Flut',
  message: 'Keller unter Wasser',
  units: Array.from({ length: 10 }, (_, u) => ({
    name: `HLF ${u}`,
    feedback: Array.from({ length: 150 }, (_, i) => member(u * 1000 + i)),
  })),
});
console.error(`B's body: ${(Buffer.byteLength(large) / 1024).toFixed(0)} KiB`);

async function patchA(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${bench.url}/api/v1/monitor/${bench.monitorId}/data/alarming`, {
    method: 'PATCH',
    headers: headers(bench.token),
    body: JSON.stringify({ positiveResponses: Math.floor(Math.random() * 50) }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`A's M8: ${res.status}`);
  return performance.now() - started;
}

function summary(label: string, times: number[]): void {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
  console.log(
    `${label.padEnd(34)} A's M8  p50 ${at(0.5).padStart(7)} ms   p95 ${at(0.95).padStart(7)} ms ` +
      `  (${times.length} samples)`,
  );
}

const alone: number[] = [];
for (let i = 0; i < samples; i++) alone.push(await patchA());
summary('alone', alone);

let flooding = true;
const statuses = new Map<number, number>();
const loops = Array.from({ length: threads }, async (_, i) => {
  while (flooding) {
    const res = await fetch(`${bench.url}/api/v1/monitor/${bMonitors[i % bMonitors.length]}/data/alarming`, {
      method: 'POST',
      headers: headers(bToken),
      body: large,
    });
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
});
await new Promise((r) => setTimeout(r, 2_000));
const flooded: number[] = [];
for (let i = 0; i < samples; i++) flooded.push(await patchA());
flooding = false;
await Promise.all(loops);
summary(`under B's flood (${threads} threads)`, flooded);
console.log(
  `B's writes: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}   DATA_WRITES_PER_ORGANIZATION=${bench.config.dataWrites.concurrency}${process.env.DATA_WRITES_PER_ORGANIZATION ? '' : ' (default)'}`,
);
await bench.close();
