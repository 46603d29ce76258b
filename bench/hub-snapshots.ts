// Snapshots served per second for one monitor: screens (re)subscribing to a monitor whose data is large
// (a table of about 1 MB), as a reconnect storm or a misbehaving client would. The data of one version
// is read from the database once and then served from the process's cache of versions.
// Usage: npx tsx bench/hub-snapshots.ts [sockets=20] [seconds=10] [kilobytes=1000]
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { benchService } from './setup.js';

const socketCount = Number(process.argv[2] ?? 20);
const seconds = Number(process.argv[3] ?? 10);
const kilobytes = Number(process.argv[4] ?? 1000);
const bench = await benchService({ HUB_MAX_SOCKETS_PER_TOKEN: '0' });
await fetch(`${bench.url}/api/v1/monitor/${bench.monitorId}/data/meta`, {
  method: 'POST',
  headers: { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' },
  body: JSON.stringify({ tables: { roster: 'x'.repeat(kilobytes * 1000) } }),
});

let contentReads = 0;
bench.service.db.conn.set('debug', (collection: string, method: string) => {
  if (collection === 'chain_contents' && method.startsWith('find')) contentReads++;
});

const sockets: Socket[] = [];
for (let i = 0; i < socketCount; i++) {
  const socket = io(bench.url, { auth: { token: bench.token, scheme: 'api-token' }, transports: ['websocket'] });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  sockets.push(socket);
}

let served = 0;
let bytes = 0;
const deadline = performance.now() + seconds * 1000;
await Promise.all(
  sockets.map(async (socket) => {
    while (performance.now() < deadline) {
      const ack = await socket.emitWithAck('monitor:subscribe', { monitorId: bench.monitorId });
      if (!ack.data?.snapshot) throw new Error(`no snapshot: ${JSON.stringify(ack).slice(0, 200)}`);
      served++;
      bytes += kilobytes * 1000;
    }
  }),
);
console.log(`${socketCount} sockets re-subscribing for ${seconds} s to one monitor with ${kilobytes} kB of data:`);
console.log(
  `${(served / seconds).toFixed(0)} snapshots/s (${(bytes / seconds / 1e6).toFixed(0)} MB/s), ` +
    `data read from the database ${contentReads} time(s)`,
);
for (const socket of sockets) socket.close();
await bench.close();
