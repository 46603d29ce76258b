// The fair baseline of the fan-out figures: what a careful engineer would build with the same stack for
// the same job, and no more. A Koa route stores each version durably with the same driver (mongoose) in
// the same database, then broadcasts it through the same Redis adapter; no authentication, validation,
// rate limits, logging, metrics or ordering guarantees beyond the database's unique key. The version is
// one insert of a document holding the monitor's whole state, built with the product's own reducer
// (common/monitor-data.ts: the alarm, its list and the incident log, as alarm-hub stores a version),
// under an `_id` unique per monitor and version; the processes interleave their version numbers
// (process i of n: i, i + n, …) instead of sharing a counter: the cheapest durable write there is.
import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import mongoose from 'mongoose';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { reportMemoryOnRequest } from './memory.js';
import { applyWrite, emptyData, type JsonObject, type MonitorData } from '../../common/monitor-data.js';

const conn = await mongoose
  .createConnection(process.env.BENCH_MONGODB_URI!, { autoIndex: false, bufferCommands: false })
  .asPromise();
const Version = conn.model(
  'FairVersion',
  new mongoose.Schema({ _id: String, state: String, at: Date }, { versionKey: false }),
  'fair_versions',
);

const koa = new Koa();
const router = new Router();
const io = new Server({ path: '/socket.io', serveClient: false, pingInterval: 10_000, pingTimeout: 5_000 });
const pub = new Redis(process.env.REDIS_URL!);
io.adapter(createAdapter(pub, pub.duplicate(), { key: `fair-${process.env.BARE_PREFIX ?? 'x'}` }));
io.on('connection', (socket) => {
  socket.on('monitor:subscribe', async (request: { monitorId: number }, ack: (a: unknown) => void) => {
    await socket.join(`monitor:${request.monitorId}`);
    ack({ data: { monitorId: request.monitorId, version: 0 } });
  });
});

const [index, processes] = [Number(process.env.BARE_INDEX ?? 0), Number(process.env.BARE_PROCESSES ?? 2)];
// Each monitor starts with an alarm (as the benchmark's monitors do), so that patches apply to it.
const states = new Map<number, { version: number; data: MonitorData }>();
const started = (at: string) =>
  applyWrite(emptyData(), { section: 'alarming', op: 'set', payload: { eventId: 1, event: 'Bench alarm' }, at });
router.patch('/patch/:monitorId', async (ctx) => {
  const monitorId = Number(ctx.params.monitorId);
  const payload = JSON.parse(await readBody(ctx.req)) as JsonObject;
  const at = new Date();
  const previous = states.get(monitorId) ?? { version: index - processes, data: started(at.toISOString()) };
  const state = {
    version: previous.version + processes,
    data: applyWrite(previous.data, { section: 'alarming', op: 'patch', payload, at: at.toISOString() }),
  };
  // Taken before the insert, so that two requests for one monitor never build the same version.
  states.set(monitorId, state);
  await Version.create({ _id: `${monitorId}:${state.version}`, state: JSON.stringify(state.data), at });
  io.to(`monitor:${monitorId}`).emit('monitor:patch', {
    monitorId,
    version: state.version,
    epoch: 'e',
    baseEpoch: 'e',
    section: 'alarming',
    op: 'patch',
    payload,
    at: at.toISOString(),
  });
  ctx.body = { message: `saved (version ${state.version})` };
});
koa.use(router.routes());
// The server after the routes: koa.callback() takes the middleware there is at that moment.
const server = http.createServer(koa.callback());
io.attach(server);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

reportMemoryOnRequest(() => io.engine.clientsCount);
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () =>
  process.send?.({ listening: (server.address() as { port: number }).port }),
);
process.on('message', (message: { stop?: true }) => message.stop && process.exit(0));
