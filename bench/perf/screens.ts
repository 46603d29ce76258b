// A child process holding many screens (socket.io-client, WebSocket transport). Told by its parent over
// IPC what to connect to; reports, per patch version, when each of its screens received it.
// Message in:  { start: { url, count, auth?, monitors: number[], bare: boolean } } (one screen after another)
//              { storm: the same } (all at once, as after a restart or a network blip)
// Messages out: { ready: n } once all are connected and subscribed; { flushed: { receipts: [[monitorId, version,
// …receipt times]…], snapshots } } on 'flush';              { stormed: { lastAt, connectedAt, subscribed, failed } }
// after a storm (lastAt: when the last              answer came; connectedAt: when the last screen connected).
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';

interface Start {
  url: string;
  count: number;
  auth?: { token: string; scheme: string };
  monitors: number[];
  bare: boolean;
}

const now = () => performance.timeOrigin + performance.now();
const sockets: Socket[] = [];
// monitorId:version → when each screen here received it
const receipts = new Map<string, number[]>();

async function connectAll(start: Start): Promise<void> {
  for (let i = 0; i < start.count; i++) {
    const monitorId = start.monitors[i % start.monitors.length];
    const socket = io(start.url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: start.auth,
      reconnection: false,
      forceNew: true,
    });
    // A snapshot after subscribing: the process resynced this screen instead of sending some patches.
    socket.on('monitor:snapshot', () => void (ready && snapshots++));
    socket.on('monitor:patch', (p: { monitorId: number; version: number }) => {
      const key = `${p.monitorId}:${p.version}`;
      const at = now();
      received++;
      const list = receipts.get(key);
      if (list) list.push(at);
      else receipts.set(key, [at]);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    await socket.emitWithAck('monitor:subscribe', { monitorId });
    sockets.push(socket);
  }
}

// Every screen at once: connect, subscribe, and count the answers that hold the monitor's data.
async function storm(
  start: Start,
): Promise<{ lastAt: number; connectedAt: number; subscribed: number; failed: number }> {
  let [lastAt, connectedAt, subscribed, failed] = [0, 0, 0, 0];
  await Promise.all(
    Array.from({ length: start.count }, async (_, i) => {
      const monitorId = start.monitors[i % start.monitors.length];
      const socket = io(start.url, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: start.auth,
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        connectedAt = Math.max(connectedAt, now());
        const ack = (await socket.timeout(120_000).emitWithAck('monitor:subscribe', { monitorId })) as {
          data?: unknown;
        };
        if (ack.data) subscribed++;
        else failed++;
      } catch {
        failed++;
      }
      lastAt = Math.max(lastAt, now());
    }),
  );
  return { lastAt, connectedAt, subscribed, failed };
}

let received = 0;
let snapshots = 0;
let ready = false;
process.on('message', async (message: { start?: Start; storm?: Start; flush?: true; stop?: true; count?: true }) => {
  if (message.storm) {
    process.send!({ stormed: await storm(message.storm) });
  } else if (message.count) {
    process.send!({ count: received });
  } else if (message.start) {
    await connectAll(message.start);
    ready = true;
    process.send!({ ready: sockets.length });
  } else if (message.flush) {
    process.send!({
      flushed: {
        receipts: [...receipts.entries()].map(([k, times]) => [...k.split(':').map(Number), ...times]),
        snapshots,
      },
    });
    receipts.clear();
  } else if (message.stop) {
    for (const s of sockets) s.close();
    process.exit(0);
  }
});

// Messages sent before this listener existed would be lost: the parent waits for this.
process.send!({ alive: true });
