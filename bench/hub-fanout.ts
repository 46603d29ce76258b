// Fan-out latency of the hub: N screens subscribed to one monitor; each REST write (M8) is timed
// from just before the request until the patch has reached every screen.
// Usage: npx tsx bench/hub-fanout.ts [screens=200] [writes=100]
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { benchService } from './setup.js';

const screenCount = Number(process.argv[2] ?? 200);
const writes = Number(process.argv[3] ?? 100);
const bench = await benchService();

const screens: Socket[] = [];
const received = new Map<number, number>();
for (let i = 0; i < screenCount; i++) {
  const socket = io(bench.url, { auth: { token: bench.token, scheme: 'api-token' }, transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await socket.emitWithAck('monitor:subscribe', { monitorId: bench.monitorId });
  socket.on('monitor:patch', (p: { version: number }) => received.set(p.version, (received.get(p.version) ?? 0) + 1));
  screens.push(socket);
}
const memory = process.memoryUsage().rss;

const latencies: number[] = [];
for (let i = 0; i < writes; i++) {
  const started = performance.now();
  const res = await fetch(`${bench.url}/api/v1/monitor/${bench.monitorId}/data/alarming`, {
    method: 'PATCH',
    headers: { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ positiveResponses: i }),
  });
  const version = Number(/version (\d+)/.exec(((await res.json()) as { message: string }).message)![1]);
  while ((received.get(version) ?? 0) < screenCount) await new Promise((r) => setImmediate(r));
  latencies.push(performance.now() - started);
}
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
console.log(`hub fan-out: ${screenCount} screens, ${writes} sequential writes (write + delivery to all screens)`);
console.log(
  `p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`,
);
console.log(
  `process RSS with ${screenCount} screens (server and clients in one process): ${(memory / 1048576).toFixed(0)} MiB`,
);
for (const s of screens) s.close();
await bench.close();
