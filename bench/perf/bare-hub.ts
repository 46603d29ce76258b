// The baseline of the fan-out and memory figures: a bare Socket.IO server with the same Redis adapter,
// which only broadcasts. No authentication, no database. PATCH /patch/:monitorId broadcasts one patch of
// the same shape and size as alarm-hub's to the monitor's room on every process.
import http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { reportMemoryOnRequest } from './memory.js';

const port = Number(process.env.PORT ?? 0);
const server = http.createServer();
const io = new Server(server, { path: '/socket.io', serveClient: false, pingInterval: 10_000, pingTimeout: 5_000 });
if (process.env.REDIS_URL) {
  const pub = new Redis(process.env.REDIS_URL);
  const sub = pub.duplicate();
  io.adapter(createAdapter(pub, sub, { key: `bare-${process.env.BARE_PREFIX ?? 'x'}` }));
}
io.on('connection', (socket) => {
  socket.on('monitor:subscribe', async (request: { monitorId: number }, ack: (a: unknown) => void) => {
    await socket.join(`monitor:${request.monitorId}`);
    ack({ data: { monitorId: request.monitorId, version: 0 } });
  });
});
const versions = new Map<number, number>();
server.on('request', (req, res) => {
  const match = /^\/patch\/(\d+)$/.exec(req.url ?? '');
  if (req.method !== 'PATCH' || !match) return void res.writeHead(404).end();
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const monitorId = Number(match[1]);
    // Versions unique across the processes (no shared counter: the bare server has no database).
    const count = (versions.get(monitorId) ?? 0) + 1;
    versions.set(monitorId, count);
    const version = count * 2 + Number(process.env.BARE_INDEX ?? 0);
    io.to(`monitor:${monitorId}`).emit('monitor:patch', {
      monitorId,
      version,
      epoch: 'e',
      baseEpoch: 'e',
      section: 'alarming',
      op: 'patch',
      payload: JSON.parse(body),
      at: new Date().toISOString(),
    });
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ message: `saved (version ${version})` }));
  });
});
reportMemoryOnRequest(() => io.engine.clientsCount);
server.listen(port, '127.0.0.1', () => process.send?.({ listening: (server.address() as { port: number }).port }));
process.on('message', (message: { stop?: true }) => message.stop && process.exit(0));
