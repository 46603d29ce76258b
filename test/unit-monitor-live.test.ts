// The hub's subscriptions and a monitor's live side on a real Socket.IO server, without a database or
// Redis: the monitor area's source of monitors reads a map of versions, the read check is a function,
// the handshake none, and the periodic resync runs on a scheduler of the test's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { MonitorHubSource } from '../server/areas/monitor/hub-source.js';
import type { MonitorStore } from '../server/areas/monitor/store.js';
import { CacheGeneration } from '../server/db/generation.js';
import { MonitorLive } from '../server/hub/monitor-live.js';
import { Scheduler } from '../server/scheduler.js';
import { serviceSchemas } from '../server/areas/index.js';
import { forbidden } from '../server/errors.js';
import { Admission } from '../server/hub/admission.js';
import { createIo, type HubServer } from '../server/hub/io.js';
import { handleSubscriptions } from '../server/hub/subscriptions.js';
import { Limits } from '../server/http/limits.js';
import { Validator } from '../server/http/validation.js';
import type { Caller } from '../server/identity/actor.js';
import { applyWrite, emptyData, type DataWrite, type JsonObject, type MonitorData } from '../common/monitor-data.js';
import type { PatchEvent } from '../common/hub-protocol.js';
import { connectScreen, type Screen } from './helpers/screen.js';

const MONITOR = 7;
const READABLE_BY = 1;

/** A store of one monitor's data versions (epoch e<n>), as MonitorStore answers the live side. */
class VersionsInMemory {
  versions: Array<{ n: number; epoch: string; body: MonitorData }> = [{ n: 1, epoch: 'e1', body: emptyData() }];
  /** Reads of the version, the record and the data; each answers what was stored when it began, `slowMs` later. */
  reads = { version: 0, record: 0, data: 0 };
  slowMs = 0;
  head() {
    return this.versions.at(-1)!;
  }
  /** Stores the next version (in history `history`) and returns the patch its write publishes. */
  write(payload: JsonObject, history = 'e'): PatchEvent {
    const write: DataWrite = { section: 'meta', op: 'patch', payload, at: new Date().toISOString() };
    const { n, epoch, body } = this.head();
    this.versions.push({ n: n + 1, epoch: `${history}${n + 1}`, body: applyWrite(body, write) });
    return { monitorId: MONITOR, version: n + 1, epoch: `${history}${n + 1}`, baseEpoch: epoch, ...write };
  }
  private async answer<T>(value: T): Promise<T> {
    if (this.slowMs) await new Promise((resolve) => setTimeout(resolve, this.slowMs));
    return value;
  }
  /** When each read of the version began. */
  versionReadAt: number[] = [];
  async dataVersion() {
    this.reads.version++;
    this.versionReadAt.push(performance.now());
    const { n, epoch } = this.head();
    return this.answer({ n, epoch, at: new Date() });
  }
  async latestData() {
    this.reads.data++;
    return this.answer({ ...this.head(), at: new Date() });
  }
  async get(id: number) {
    this.reads.record++;
    return this.answer(
      id === MONITOR ? { id, organizationID: READABLE_BY, revision: 1, config: { name: 'Wache 1' } } : null,
    );
  }
  learnData() {}
}

interface Ctx {
  server: http.Server;
  io: HubServer;
  store: VersionsInMemory;
  live: MonitorLive;
  scheduler: Scheduler;
  url: string;
  screens: Screen[];
}

const live = suite<Ctx>('hub subscriptions and a monitor live, without a database', {} as Ctx);

live.before.each(async (ctx) => {
  ctx.store = new VersionsInMemory();
  ctx.io = createIo(null, 'test');
  ctx.live = liveSide(ctx, 60_000);
  const admission = new Admission({ limits: new Limits({ enabled: false }), maxSocketsPerToken: 0 });
  // The handshake's part: the token names the organization whose monitors the socket may read.
  ctx.io.use((socket, next) => {
    const organizationId = Number((socket.handshake.auth as { token: string }).token);
    socket.data.actor = {
      kind: 'apikey',
      organizationId,
      tokenId: organizationId,
      credential: `c${organizationId}`,
    } as unknown as Caller;
    socket.data.address = '127.0.0.1';
    next();
  });
  ctx.io.on('connection', (socket) =>
    handleSubscriptions(socket, {
      admission,
      validator: new Validator(serviceSchemas),
      monitors: {
        dataReadable: async (caller) => {
          if ((caller as { organizationId: number }).organizationId !== READABLE_BY) throw forbidden();
          return { id: MONITOR, organizationID: READABLE_BY };
        },
      },
      live: ctx.live,
      screens: { runningTestAlarm: async () => null },
      log: { warn() {} },
    }),
  );
  ctx.server = http.createServer();
  ctx.io.attach(ctx.server);
  await new Promise<void>((resolve) => ctx.server.listen(0, '127.0.0.1', resolve));
  ctx.url = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}`;
  ctx.screens = [];
});

live.after.each(async (ctx) => {
  for (const screen of ctx.screens) screen.close();
  await ctx.scheduler.stop();
  ctx.live.close();
  await ctx.io.close();
});

// The monitor's live side on the test's store (through the monitor area's source, as the service builds
// it), its periodic pass every `resyncMs` on a scheduler that replaces the last one.
function liveSide(ctx: Ctx, resyncMs: number): MonitorLive {
  void ctx.scheduler?.stop();
  const live = new MonitorLive(ctx.io, new MonitorHubSource(ctx.store as unknown as MonitorStore), {
    generation: new CacheGeneration(),
    redis: null,
    metrics: { patchEmitted() {}, snapshotSent() {} },
    log: { warn() {} },
    resyncMs: resyncMs,
  });
  ctx.scheduler = new Scheduler({ warn() {} });
  ctx.scheduler.every('monitor-resync', resyncMs, () => live.resyncPass());
  ctx.scheduler.start();
  return live;
}

async function screen(ctx: Ctx, organizationId: number): Promise<Screen> {
  const s = await connectScreen(ctx.url, String(organizationId));
  ctx.screens.push(s);
  return s;
}

live(
  'a subscription gets the stored state, then every write as a patch in version order, also when ' +
    'two overtake each other',
  async (ctx) => {
    const wall = await screen(ctx, READABLE_BY);
    const ack = await wall.subscribe(MONITOR);
    assert.ok('data' in ack && ack.data.snapshot, JSON.stringify(ack));
    assert.is(ack.data.snapshot.version, 1);
    assert.is(ack.data.snapshot.monitor.name, 'Wache 1');
    wall.version = 1;
    const second = ctx.store.write({ pagers: 2 });
    const third = ctx.store.write({ pagers: 3 });
    ctx.live.dataWritten(third);
    ctx.live.dataWritten(second);
    ctx.live.dataWritten(ctx.store.write({ pagers: 4 }));
    await wall.waitFor(() => wall.version === 4, undefined, 'version 4');
    const patches = wall.events.filter((e) => e.name === 'monitor:patch').map((e) => e.payload.version);
    assert.equal(patches, [2, 3, 4]);
    assert.is(wall.events.filter((e) => e.name === 'monitor:snapshot').length, 0);
  },
);

live('a screen that already shows the stored version and epoch gets no snapshot again', async (ctx) => {
  ctx.store.write({ pagers: 1 });
  const wall = await screen(ctx, READABLE_BY);
  const ack = await wall.subscribe(MONITOR, 2, 'e2');
  assert.ok('data' in ack, JSON.stringify(ack));
  assert.equal({ ...ack.data, serverTime: 0 }, { monitorId: MONITOR, version: 2, epoch: 'e2', serverTime: 0 });
});

live('a socket that may not read the monitor is refused and receives none of its patches', async (ctx) => {
  const stranger = await screen(ctx, 2);
  const ack = await stranger.subscribe(MONITOR);
  assert.ok('error' in ack && ack.error.error === 'forbidden', JSON.stringify(ack));
  const wall = await screen(ctx, READABLE_BY);
  await wall.subscribe(MONITOR);
  wall.version = 1;
  ctx.live.dataWritten(ctx.store.write({ pagers: 5 }));
  await wall.waitFor(() => wall.version === 2, undefined, 'the patch on the readable wall');
  assert.equal(
    stranger.events.filter((e) => e.name.startsWith('monitor:')).map((e) => e.name),
    [],
  );
});

live('a reset history (a restored database) reaches the screens as a snapshot marked reset', async (ctx) => {
  const wall = await screen(ctx, READABLE_BY);
  await wall.subscribe(MONITOR);
  wall.version = 1;
  ctx.live.dataWritten(ctx.store.write({ pagers: 1 }));
  await wall.waitFor(() => wall.version === 2, undefined, 'version 2');
  // Another history at version 2: the sequencer doubts the patch and the live side compares with the store.
  ctx.store.versions = [{ n: 1, epoch: 'r1', body: emptyData() }];
  ctx.live.dataWritten(ctx.store.write({ pagers: 9 }, 'r'));
  await wall.waitFor(() => wall.events.some((e) => e.name === 'monitor:snapshot'), undefined, 'a snapshot');
  const snapshot = wall.events.find((e) => e.name === 'monitor:snapshot')!.payload;
  assert.equal([snapshot.version, snapshot.epoch, snapshot.reset], [2, 'r2', true]);
});

live(
  'screens of one monitor subscribing at once share its reads: one in flight and one after it, not one each',
  async (ctx) => {
    ctx.store.slowMs = 100;
    const walls = await Promise.all(Array.from({ length: 30 }, () => screen(ctx, READABLE_BY)));
    const acks = await Promise.all(walls.map((wall) => wall.subscribe(MONITOR)));
    for (const ack of acks) assert.is('data' in ack && ack.data.snapshot?.version, 1, JSON.stringify(ack));
    // Before the reads were shared: 30 of each. Screens without a version need no read of it apart.
    assert.ok(
      ctx.store.reads.version === 0 && ctx.store.reads.record <= 2 && ctx.store.reads.data <= 2,
      JSON.stringify(ctx.store.reads),
    );
    // Screens coming back with the version they show share the version's reads, and need no snapshot.
    ctx.store.reads = { version: 0, record: 0, data: 0 };
    const back = await Promise.all(walls.map((wall) => wall.subscribe(MONITOR, 1, 'e1')));
    for (const ack of back)
      assert.ok('data' in ack && ack.data.version === 1 && !ack.data.snapshot, JSON.stringify(ack));
    assert.ok(
      ctx.store.reads.version <= 2 && ctx.store.reads.record === 0 && ctx.store.reads.data === 0,
      JSON.stringify(ctx.store.reads),
    );
  },
);

live(
  "a screen subscribing while an older read is in flight gets the state stored when it asked, not that read's",
  async (ctx) => {
    ctx.store.slowMs = 150;
    const [first, second] = [await screen(ctx, READABLE_BY), await screen(ctx, READABLE_BY)];
    const firstAck = first.subscribe(MONITOR);
    await first.waitFor(() => ctx.store.reads.record > 0, undefined, 'the first read under way');
    // Written while the first screen's read of version 1 is in flight; the second screen is not yet in the room.
    ctx.live.dataWritten(ctx.store.write({ pagers: 2 }));
    const secondAck = await second.subscribe(MONITOR);
    assert.is('data' in secondAck && secondAck.data.snapshot?.version, 2, JSON.stringify(secondAck));
    // The first screen was in the room before the write: it has version 2 from its answer or as a patch.
    const ack = await firstAck;
    assert.ok('data' in ack, JSON.stringify(ack));
    const reached = () =>
      ack.data.version === 2 ||
      first.events.some((e) => ['monitor:patch', 'monitor:snapshot'].includes(e.name) && e.payload.version === 2);
    await first.waitFor(reached, undefined, 'the first screen at version 2');
  },
);

live(
  'the periodic pass reads the version of a monitor whose screens are up to date once, not once more to compare',
  async (ctx) => {
    // A live side whose pass runs every 300 ms (the screens connecting below are handed to it).
    ctx.live.close();
    ctx.live = liveSide(ctx, 300);
    const wall = await screen(ctx, READABLE_BY);
    await wall.subscribe(MONITOR);
    ctx.store.versionReadAt = [];
    await wall.waitFor(() => ctx.store.versionReadAt.length >= 6, undefined, 'the version read by a few passes');
    // A pass's reads follow each other at once; passes are 300 ms apart (150 ms tells them apart).
    const passes: number[][] = [];
    for (const at of ctx.store.versionReadAt) {
      const last = passes.at(-1);
      if (last && at - last.at(-1)! < 150) last.push(at);
      else passes.push([at]);
    }
    // Before: two reads a pass (the lag check's, and the resync's own before comparing).
    assert.equal(
      passes.map((reads) => reads.length),
      passes.map(() => 1),
    );
    assert.is(wall.events.filter((e) => e.name === 'monitor:snapshot').length, 0);
  },
);

live(
  'the periodic pass finds a history replaced at the same version (another epoch) from its one ' +
    'read and resyncs it as a reset',
  async (ctx) => {
    ctx.live.close();
    ctx.live = liveSide(ctx, 300);
    const wall = await screen(ctx, READABLE_BY);
    await wall.subscribe(MONITOR);
    // Restored under the process, with no patch announcing it: version 1 again, of another history.
    ctx.store.versions = [{ n: 1, epoch: 'r1', body: emptyData() }];
    await wall.waitFor(
      () => wall.events.some((e) => e.name === 'monitor:snapshot'),
      undefined,
      "the periodic pass's snapshot",
    );
    const snapshot = wall.events.find((e) => e.name === 'monitor:snapshot')!.payload;
    assert.equal([snapshot.version, snapshot.epoch, snapshot.reset], [1, 'r1', true]);
  },
);

live.run();
