// The alarm outbox on the test database (server/areas/alarms/outbox.ts): two outboxes (as two processes)
// sweeping at once send each item once; a claim whose holder died is taken over after it expires; a
// try that keeps failing ends failed after the last retry.
import * as assert from 'uvu/assert';
import pino from 'pino';
import { openDatabase, type Database } from '../server/db/database.js';
import { serviceModels } from '../server/areas/models.js';
import { alarmModels, type DeliveryItem } from '../server/areas/alarms/models.js';
import { AlarmOutbox, DeliveryError, type Sender } from '../server/areas/alarms/outbox.js';
import { Scheduler } from '../server/scheduler.js';
import { eventually } from './helpers/fleet.js';
import { testDbUri } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import { deliveriesOf } from '../server/areas/alarms/delivery-store.js';
import { DeliveryTries } from '../server/areas/alarms/delivery-tries.js';

const s = suite<{ db: Database }>('alarm outbox', {} as { db: Database });
s.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
});
s.after(async (ctx) => {
  await ctx.db.close();
});

const log = pino({ level: 'silent' });
let next = 900_000;
const items = (alarmId: number, count: number, over: Partial<DeliveryItem> = {}): DeliveryItem[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${alarmId}-${i}`,
    channel: 'sms',
    recipientUserId: i + 1,
    target: `0049176${1_000_000 + i}`,
    status: 'queued',
    attempts: 0,
    lastError: null,
    nextAt: new Date(),
    claim: null,
    ...over,
  }));
type Options = ConstructorParameters<typeof AlarmOutbox>[5];
type Hooks = ConstructorParameters<typeof AlarmOutbox>[3];

// An outbox as the alarms area builds one, with its sweep run by a scheduler of its own (as the
// service's runs it); `hooks` (testHooks) may be changed by the test before start().
class SweptOutbox extends AlarmOutbox {
  private readonly scheduler = new Scheduler(log);

  constructor(
    db: Database,
    send: Sender,
    readonly testHooks: Hooks,
    private readonly sweepMs: number,
    options: Options,
    logger: ConstructorParameters<typeof AlarmOutbox>[4] = log,
  ) {
    const noSend: Sender = async () => {
      throw new DeliveryError('not used', true);
    };
    super(alarmModels(db), db.system.Lock, { app: send, sms: send, call: noSend }, testHooks, logger, options);
  }

  start(): void {
    this.scheduler.every('alarm-outbox-sweep', this.sweepMs, () => this.sweep());
    this.scheduler.start();
  }

  override async stop(): Promise<void> {
    await this.scheduler.stop();
    await super.stop();
  }
}

function outbox(db: Database, send: Sender, options: Partial<Options> = {}) {
  const hooks: Hooks = { prepare: async () => null, blocked: async () => null, changed: () => undefined };
  return new SweptOutbox(db, send, hooks, options.sweepMs ?? 50, { sweepMs: 50, claimMs: 1_000, ...options });
}
const enqueue = async (box: AlarmOutbox, alarmId: number, list: DeliveryItem[]) => {
  await box.open(alarmId, 1);
  await box.store(alarmId, 1, list);
};
const stored = async (db: Database, alarmId: number) => (await deliveriesOf(alarmModels(db)).read(alarmId))!.items;
// Until every item of the alarm is recorded sent; its items then.
const everySent = (db: Database, alarmId: number, what = 'every item sent') =>
  eventually(
    () => stored(db, alarmId),
    (list) => list.every((item) => item.status === 'sent'),
    what,
  );

s('two outboxes sweeping the same alarm send each of 40 items exactly once', async ({ db }) => {
  const alarmId = ++next;
  const sent = new Map<string, number>();
  const send: Sender = async (item) => {
    sent.set(item.id, (sent.get(item.id) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 5));
  };
  // Stored by neither: both find the work in the outbox only.
  await alarmModels(db).Outbox.create({ _id: String(alarmId), organizationId: 1, dueAt: new Date() });
  await alarmModels(db).Deliveries.create({ _id: String(alarmId), organizationId: 1, items: items(alarmId, 40) });
  const [one, two] = [outbox(db, send), outbox(db, send)];
  one.start();
  two.start();
  try {
    await everySent(db, alarmId);
    assert.is(sent.size, 40);
    assert.ok(
      [...sent.values()].every((k) => k === 1),
      JSON.stringify([...sent]),
    );
    await eventually(
      () => alarmModels(db).Outbox.findById(String(alarmId)).lean(),
      (entry) => entry === null,
      'the outbox entry gone once all are final',
    );
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
});

s('an item claimed by a process that died is sent after its claim expires, not before', async ({ db }) => {
  const alarmId = ++next;
  const until = new Date(Date.now() + 600);
  await alarmModels(db).Outbox.create({ _id: String(alarmId), organizationId: 1, dueAt: new Date() });
  await alarmModels(db).Deliveries.create({
    _id: String(alarmId),
    organizationId: 1,
    items: items(alarmId, 3, { status: 'sending', attempts: 1, claim: { by: 'dead', until } }),
  });
  const at: number[] = [];
  const survivor = outbox(db, async () => void at.push(Date.now()));
  survivor.start();
  try {
    await everySent(db, alarmId, 'the orphaned items sent');
    assert.is(at.length, 3);
    assert.ok(
      at.every((t) => t >= until.getTime()),
      'not before the claim expired',
    );
    assert.ok((await stored(db, alarmId)).every((i) => i.attempts === 2 && i.claim === null));
  } finally {
    await survivor.stop();
  }
});

s('a try that keeps failing is retried with backoff and ends failed with its reason after the last', async ({ db }) => {
  const alarmId = ++next;
  const tries: number[] = [];
  const failing = outbox(
    db,
    async () => {
      tries.push(Date.now());
      throw new DeliveryError('gateway answered 502');
    },
    { retryDelaysMs: [100, 200] },
  );
  failing.start();
  try {
    await enqueue(failing, alarmId, items(alarmId, 1));
    const [item] = await eventually(
      () => stored(db, alarmId),
      (list) => list[0].status === 'failed',
      'the item failed',
    );
    assert.equal(
      { attempts: item.attempts, lastError: item.lastError },
      { attempts: 3, lastError: 'gateway answered 502' },
    );
    assert.is(tries.length, 3);
    assert.ok(tries[1] - tries[0] >= 100 && tries[2] - tries[1] >= 200, JSON.stringify(tries));
    assert.is(failing.failedTries, 3);
  } finally {
    await failing.stop();
  }
});

s('a push confirmed while its try is being recorded stays delivered', async ({ db }) => {
  const alarmId = ++next;
  let release!: () => void;
  let called = false;
  const held = new Promise<void>((r) => (release = r));
  const box = outbox(db, async () => {
    called = true;
    await held;
  });
  let changes = 0;
  box.testHooks.changed = () => void changes++;
  box.start();
  try {
    await enqueue(box, alarmId, items(alarmId, 1, { channel: 'app', target: '77' }));
    await eventually(
      async () => called,
      (c) => c,
      'the try under way',
    );
    await box.markDelivered(alarmId, 77);
    release();
    await eventually(
      async () => changes,
      (k) => k === 2,
      'the receipt and then the try recorded',
    );
    assert.equal(
      { ...(await stored(db, alarmId))[0], nextAt: undefined },
      {
        ...items(alarmId, 1, { channel: 'app', target: '77' })[0],
        nextAt: undefined,
        status: 'delivered',
        attempts: 1,
      },
    );
  } finally {
    release();
    await box.stop();
  }
});

s('a slow gateway: two outboxes send each of 60 items once, no claim expiring under a live sender', async ({ db }) => {
  const alarmId = ++next;
  const sent = new Map<string, number>();
  const slow: Sender = async (item) => {
    sent.set(item.id, (sent.get(item.id) ?? 0) + 1);
    // The gateway's answer time: what makes the claims run out without checkpoints.
    await new Promise((r) => setTimeout(r, 2_000));
  };
  // 60 items, 10 at a time, two seconds each: 12 s of sending against claims of 6 s (checkpoints every
  // two seconds leave four for the database on a busy machine).
  const [one, two] = [
    outbox(db, slow, { concurrency: 10, claimMs: 6_000 }),
    outbox(db, slow, { concurrency: 10, claimMs: 6_000 }),
  ];
  await enqueue(one, alarmId, items(alarmId, 60));
  one.start();
  two.start();
  try {
    await everySent(db, alarmId);
    assert.is(sent.size, 60);
    assert.ok(
      [...sent.values()].every((k) => k === 1),
      JSON.stringify([...sent].filter(([, k]) => k > 1)),
    );
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
});

s('the next batch is claimed while the last tries of one are under way: the pool does not run dry', async ({ db }) => {
  const alarmId = ++next;
  // 300 items, a batch being 250, 10 at a time: the last five of the first batch are held until an item
  // of the second begins (or 10 s pass, which fails the test): a second batch claimed only after the
  // first ended would wait for them.
  let second!: () => void;
  const secondBegan = new Promise<void>((resolve) => (second = resolve));
  let heldOut = false;
  const send: Sender = async (item) => {
    const k = Number(item.id.split('-')[1]);
    if (k >= 250) second();
    else if (k >= 245) {
      const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000));
      if ((await Promise.race([secondBegan, timer])) === 'timeout') heldOut = true;
    }
  };
  const box = outbox(db, send, { concurrency: 10, claimMs: 60_000, sweepMs: 60_000 });
  await enqueue(box, alarmId, items(alarmId, 300));
  try {
    await everySent(db, alarmId);
  } finally {
    await box.stop();
  }
  assert.not.ok(heldOut, 'the second batch waited for the first to end');
});

s(
  'a process stopping while it claims the next batch begins none of it: the batch goes back to the queue',
  async ({ db }) => {
    const alarmId = ++next;
    const begun: number[] = [];
    // The first batch's last five tries are held until the next batch is claimed (or 10 s have passed):
    // the run is still sending when it claims it.
    let claimed!: () => void;
    const nextClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const send: Sender = async (item) => {
      const k = Number(item.id.split('-')[1]);
      begun.push(k);
      if (k >= 245 && k < 250) await Promise.race([nextClaimed, new Promise((r) => setTimeout(r, 10_000))]);
    };
    const box = outbox(db, send, { concurrency: 10, claimMs: 60_000, sweepMs: 60_000 });
    // The flags are read for each batch: the second read is the next batch's, claimed by then. The
    // process is told to stop right then (the outbox's own stop, which stops at once: this box's sweep
    // was never started), and the held tries end.
    let reads = 0;
    let stopping: Promise<void> | undefined;
    box.testHooks.blocked = async () => {
      if (++reads === 2) {
        stopping = AlarmOutbox.prototype.stop.call(box);
        claimed();
      }
      return null;
    };
    await enqueue(box, alarmId, items(alarmId, 300));
    try {
      await eventually(
        async () => reads,
        (n) => n >= 2,
        'the next batch claimed',
      );
      await stopping;
    } finally {
      await box.stop();
    }
    const [beforeStop, list] = [begun.filter((k) => k >= 250), await stored(db, alarmId)];
    // Another process sends the rest (the alarm is left finished for the tests after this one).
    const other = outbox(db, send, { concurrency: 10, claimMs: 60_000 });
    other.start();
    try {
      await everySent(db, alarmId, 'the rest sent by the other');
    } finally {
      await other.stop();
    }
    assert.equal(beforeStop, [], 'none of the next batch begun');
    assert.equal(
      list.slice(250).filter((item) => item.status !== 'queued' || item.claim !== null),
      [],
      'the next batch is queued again, unclaimed',
    );
    assert.ok(
      list.slice(0, 250).every((item) => item.status === 'sent'),
      'the first batch sent',
    );
    // Each item of the rest once.
    assert.equal(
      begun.filter((k) => k >= 250).sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, k) => 250 + k),
    );
  },
);

s(
  'tries still under way at a checkpoint have their results recorded by the run, not left to a later claim',
  async ({ db }) => {
    const alarmId = ++next;
    let ended = 0;
    // Tries of 0.4–0.9 s, 10 at a time (about 3 s for all), against a checkpoint every 2 s: it comes
    // while tries are under way, which end after it. A try may take 3 s (a third of the claim), so a
    // busy machine's late timers do not fail one.
    const send: Sender = async (item) => {
      await new Promise((r) => setTimeout(r, 400 + (Number(item.id.split('-')[1]) % 6) * 100));
      ended++;
    };
    const box = outbox(db, send, { concurrency: 10, claimMs: 9_000, sweepMs: 60_000 });
    await enqueue(box, alarmId, items(alarmId, 40));
    try {
      await eventually(
        async () => ended,
        (n) => n === 40,
        'every try ended',
      );
    } finally {
      // Waits for the run's last record.
      await box.stop();
    }
    const list = await stored(db, alarmId);
    assert.equal(
      list.filter((item) => item.status !== 'sent').map((item) => `${item.id} ${item.status}`),
      [],
    );
  },
);

s(
  'a try past its limit is told to stop: its late request is not made, and the retry sends the item once',
  async ({ db }) => {
    const alarmId = ++next;
    const made: string[] = [];
    let [begun, ended] = [0, 0];
    const send: Sender = async (item, _alarmId, signal) => {
      try {
        // The first try's text takes longer than the try may: its request would leave late.
        if (++begun === 1) await new Promise((r) => setTimeout(r, 600));
        if (signal.aborted) throw new DeliveryError('stopped before the request');
        made.push(item.id);
      } finally {
        ended++;
      }
    };
    const box = outbox(db, send, { tryMs: 150, retryDelaysMs: [50, 50] });
    await enqueue(box, alarmId, items(alarmId, 1));
    box.start();
    try {
      const [item] = await eventually(
        () => stored(db, alarmId),
        (list) => list[0].status === 'sent',
        'the item sent',
      );
      await eventually(
        async () => ended,
        (n) => n === begun && n >= 2,
        'every try over',
      );
      assert.equal(made, [item.id]);
      assert.is(item.attempts, 2);
    } finally {
      await box.stop();
    }
  },
);

s(
  'deliveries promised but never stored (the raising process died) are built by a sweeper once their time is up',
  async ({ db }) => {
    const alarmId = ++next;
    const sent: string[] = [];
    const survivor = outbox(db, async (item) => void sent.push(item.id), { prepareAfterMs: 300 });
    let asked = 0;
    survivor.testHooks.prepare = async () => ({
      organizationId: 1,
      items: items(alarmId, 2, { nextAt: new Date() }).map((i) => (asked++, i)),
    });
    const opened = Date.now();
    await survivor.open(alarmId, 1);
    survivor.start();
    try {
      await eventually(
        () => deliveriesOf(alarmModels(db)).read(alarmId),
        (doc) => doc?.items.every((i) => i.status === 'sent') ?? false,
        'the promised deliveries built and sent',
      );
      assert.ok(Date.now() - opened >= 300, 'not before the raising process had its time');
      assert.equal(sent.sort(), [`${alarmId}-0`, `${alarmId}-1`]);
      assert.is(asked, 2);
    } finally {
      await survivor.stop();
    }
  },
);

s('a channel the organization disabled sends nothing more: its queued items fail with the reason', async ({ db }) => {
  const alarmId = ++next;
  let calls = 0;
  const box = outbox(db, async () => void calls++);
  box.testHooks.blocked = async (channel) => (channel === 'sms' ? 'the organization disabled the sms channel' : null);
  box.start();
  try {
    await enqueue(box, alarmId, items(alarmId, 3));
    const list = await eventually(
      () => stored(db, alarmId),
      (l) => l.every((i) => i.status === 'failed'),
      'the items failed',
    );
    assert.ok(list.every((i) => i.lastError === 'the organization disabled the sms channel'));
    assert.is(calls, 0);
  } finally {
    await box.stop();
  }
});

s(
  'a try that never answers counts as failed within a third of the claim; stopping gives the unsent items back at once',
  async ({ db }) => {
    const hanging = ++next;
    const box = outbox(db, () => new Promise<void>(() => undefined), { claimMs: 900, retryDelaysMs: [60_000] });
    box.start();
    try {
      await enqueue(box, hanging, items(hanging, 1));
      const [item] = await eventually(
        () => stored(db, hanging),
        (l) => l[0].status === 'queued' && l[0].attempts === 1,
        'the try given up',
      );
      assert.equal(
        { lastError: item.lastError, claim: item.claim },
        { lastError: 'no answer within 300 ms', claim: null },
      );
    } finally {
      await box.stop();
    }
    const stopping = ++next;
    let started = 0;
    const slow = outbox(
      db,
      async () => {
        started++;
        await new Promise((r) => setTimeout(r, 200));
      },
      { concurrency: 1 },
    );
    slow.start();
    await enqueue(slow, stopping, items(stopping, 5));
    await eventually(
      async () => started,
      (k) => k >= 1,
      'the first send under way',
    );
    await slow.stop();
    const list = await stored(db, stopping);
    assert.is(list.filter((i) => i.status === 'sent').length, started, 'what was sent is recorded');
    assert.ok(
      list
        .filter((i) => i.status !== 'sent')
        .every((i) => i.status === 'queued' && i.claim === null && i.attempts === 0),
      JSON.stringify(list),
    );
    // Due at once for another process: its next sweep takes them, not the claim's expiry 30 s on.
    const entry = await alarmModels(db).Outbox.findById(String(stopping)).lean();
    assert.ok(entry && entry.dueAt.getTime() <= Date.now(), `the outbox entry is due now: ${JSON.stringify(entry)}`);
  },
);

s('a process stopping in the middle of an alarm: another takes the rest within a couple of sweeps', async ({ db }) => {
  const alarmId = ++next;
  // Only this alarm's items: an alarm a test before left unsent may be swept by these outboxes too.
  const sent: string[] = [];
  const mine = (id: string) => id.startsWith(`${alarmId}-`);
  const slowly = async (item: DeliveryItem) => {
    await new Promise((r) => setTimeout(r, 300));
    if (mine(item.id)) sent.push(item.id);
  };
  // A gateway answering in 300 ms, claims of 30 s as the service's, two processes sweeping.
  const first = outbox(db, slowly, { concurrency: 2, claimMs: 30_000, sweepMs: 100 });
  first.start();
  await enqueue(first, alarmId, items(alarmId, 12));
  await eventually(
    async () => sent.length,
    (n) => n >= 2,
    'the first sends',
  );
  let secondSentAt = 0;
  const second = outbox(
    db,
    async (item) => {
      if (!mine(item.id)) return;
      secondSentAt ||= Date.now();
      sent.push(item.id);
    },
    { claimMs: 30_000, sweepMs: 100 },
  );
  second.start();
  try {
    // The second process's sweep finds everything claimed: the entry is due when the claims run out.
    const claimed = Math.min(
      ...(await stored(db, alarmId)).filter((i) => i.claim).map((i) => i.claim!.until.getTime()),
    );
    await eventually(
      async () => (await alarmModels(db).Outbox.findById(String(alarmId)).lean())?.dueAt.getTime() ?? 0,
      (dueAt) => dueAt >= claimed,
      "the entry due at the first process's claims' end",
    );
    await first.stop();
    await everySent(db, alarmId);
    assert.ok(secondSentAt > 0 && secondSentAt < claimed, 'taken before the released claims would have run out');
    assert.equal(
      [...new Set(sent)].sort(),
      items(alarmId, 12)
        .map((i) => i.id)
        .sort(),
    );
    assert.is(sent.length, 12, 'each sent once');
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});

// docs/alarms.md "Delivered", at most once per recipient: a try is taken by a unique insert before it is sent and
// keeps its outcome, so no record that fails and no claim that runs out sends a delivery twice.
s(
  'a record refused (a dead process holds the alarm lock) sends nothing twice once the lock is free',
  async ({ db }) => {
    const alarmId = ++next;
    const lockId = `lock:alarm-deliveries:${alarmId}`;
    const sent = new Map<string, number>();
    const send: Sender = async (item) => {
      sent.set(item.id, (sent.get(item.id) ?? 0) + 1);
      // Another process takes the alarm's lock while the first wave is under way and dies holding it:
      // the wave's results cannot be recorded (a dead holder's lock stays 30 s; the test frees it sooner).
      if (sent.get(item.id) === 1)
        await db.system.Lock.create({ _id: lockId, at: new Date(), owner: 'dead' }).catch(() => undefined);
    };
    const warnings: string[] = [];
    const logger = { warn: (_: unknown, msg: string) => void warnings.push(msg), info: () => undefined };
    const hooks: Hooks = { prepare: async () => null, blocked: async () => null, changed: () => undefined };
    const box = new SweptOutbox(db, send, hooks, 50, { sweepMs: 50, claimMs: 1_000 }, logger as unknown as typeof log);
    box.start();
    try {
      await enqueue(box, alarmId, items(alarmId, 5));
      await eventually(
        async () => warnings,
        (w) => w.some((m) => m.startsWith('alarm deliveries could not be sent now')),
        'the record given up',
      );
      assert.is(sent.size, 5);
      // The batch's claims ran out meanwhile: the next claim takes the items over as a dead process's.
      await db.system.Lock.deleteOne({ _id: lockId });
      const list = await everySent(db, alarmId, 'every item recorded sent');
      assert.equal([...sent.values()], [1, 1, 1, 1, 1], JSON.stringify([...sent]));
      assert.ok(
        list.every((i) => i.attempts === 1 && i.claim === null),
        JSON.stringify(list),
      );
    } finally {
      await db.system.Lock.deleteOne({ _id: lockId });
      await box.stop();
    }
  },
);

s('a holder stalled past its claim (a slow flag read) sends nothing of what another took over', async ({ db }) => {
  const alarmId = ++next;
  const sent: string[] = [];
  // Only this alarm's items: an item a test before left to be retried in a minute may come due now.
  const sender =
    (by: string): Sender =>
    async (item) =>
      void (item.id.startsWith(`${alarmId}-`) && sent.push(`${by} ${item.id}`));
  const stalled = outbox(db, sender('stalled'), { claimMs: 600 });
  let stalling = false;
  // Its flag read answers only once the other process has taken every item over and sent it.
  stalled.testHooks.blocked = async () => {
    stalling = true;
    await everySent(db, alarmId, 'the items taken over and sent');
    return null;
  };
  stalled.start();
  const other = outbox(db, sender('other'), { claimMs: 600 });
  try {
    await enqueue(stalled, alarmId, items(alarmId, 4));
    await eventually(
      async () => stalling,
      (k) => k,
      'the stalled holder claimed the items',
    );
    other.start();
    await everySent(db, alarmId);
    await stalled.stop();
    // All by the other: the stalled holder's claims were not extended while it waited (had they been,
    // its read would end only when the wait above gives up, and it would send them itself).
    assert.equal(
      sent.sort(),
      items(alarmId, 4)
        .map((i) => `other ${i.id}`)
        .sort(),
    );
  } finally {
    await Promise.all([stalled.stop(), other.stop()]);
  }
});

s('a try begun by a process that died unrecorded counts as failed: tried again, as the next try', async ({ db }) => {
  const alarmId = ++next;
  const { Tries, Outbox, Deliveries } = alarmModels(db);
  const list = items(alarmId, 1, { status: 'sending', claim: { by: 'gone', until: new Date(Date.now() - 1) } });
  // Its first try taken a minute ago and never noted: its process died during it.
  await Tries.create({ _id: `${alarmId}-0:1`, alarmId, at: new Date(Date.now() - 60_000) });
  await Outbox.create({ _id: String(alarmId), organizationId: 1, dueAt: new Date() });
  await Deliveries.create({ _id: String(alarmId), organizationId: 1, items: list });
  const sent: string[] = [];
  const box = outbox(db, async (item) => void sent.push(item.id), { retryDelaysMs: [50] });
  box.start();
  try {
    const [item] = await eventually(
      () => stored(db, alarmId),
      (l) => l[0].status === 'sent',
      'the item sent by its second try',
    );
    assert.equal(sent, [`${alarmId}-0`]);
    assert.is(item.attempts, 2);
    assert.is(box.failedTries, 1);
  } finally {
    await box.stop();
  }
});

s(
  'a try another holder began is not sent again: it waits until the try is surely over, then takes its outcome',
  async ({ db }) => {
    const alarmId = ++next;
    const { Tries, Outbox, Deliveries } = alarmModels(db);
    // The holder's claim ran out while its try was under way (begun now, not yet noted).
    const list = items(alarmId, 1, { status: 'sending', claim: { by: 'slow', until: new Date(Date.now() - 1) } });
    const at = new Date();
    await Tries.create({ _id: `${alarmId}-0:1`, alarmId, at });
    await Outbox.create({ _id: String(alarmId), organizationId: 1, dueAt: new Date() });
    await Deliveries.create({ _id: String(alarmId), organizationId: 1, items: list });
    const sent: string[] = [];
    // A try gives up within a third of the claim: a try begun `claimMs` ago is over, whatever its outcome.
    const claimMs = 6_000;
    const box = outbox(db, async (item) => void sent.push(item.id), { claimMs });
    box.start();
    try {
      const [waiting] = await eventually(
        () => stored(db, alarmId),
        (l) => l[0].status === 'queued',
        'the item due again when the try is over',
      );
      assert.equal(
        { attempts: waiting.attempts, nextAt: waiting.nextAt.getTime(), claim: waiting.claim },
        { attempts: 0, nextAt: at.getTime() + claimMs, claim: null },
      );
      // The holder notes that its gateway took it: taken as the try's outcome, not sent again.
      await Tries.updateOne({ _id: `${alarmId}-0:1` }, { $set: { outcome: { status: 'sent', lastError: null } } });
      const [item] = await eventually(
        () => stored(db, alarmId),
        (l) => l[0].status === 'sent',
        'the noted outcome taken',
      );
      assert.is(item.attempts, 1);
      assert.equal(sent, []);
      // All final: the alarm's tries go with its outbox entry.
      await eventually(
        () => Outbox.findById(String(alarmId)).lean(),
        (entry) => entry === null,
        'the outbox entry gone',
      );
      assert.is(await Tries.findById(`${alarmId}-0:1`).lean(), null);
    } finally {
      await box.stop();
    }
  },
);

s(
  "a try's outcome goes into the alarm's notes, numbered on past another process's: another holder takes it without sending, and the alarm's end removes them all",
  async ({ db }) => {
    const alarmId = ++next;
    const { Tries } = alarmModels(db);
    const [item] = items(alarmId, 1, { status: 'sending' });
    // Another process noted the first batch of this alarm's tries.
    await Tries.create({ _id: `${alarmId}:notes:0`, alarmId, at: new Date(), notes: JSON.stringify([]) });
    const here = new DeliveryTries(Tries, log, 60_000);
    const failure = (err: unknown, reason?: string) => ({
      status: 'failed' as const,
      lastError: reason ?? String(err),
    });
    const sent: string[] = [];
    const change = await here.once(
      { alarmId, item, n: 1, limitMs: 1_000 },
      async () => void sent.push(item.id),
      failure,
    );
    assert.equal(change.status, 'sent');
    await here.noted();
    const ours = await Tries.findById(`${alarmId}:notes:1`).lean();
    assert.equal(JSON.parse(ours!.notes!), [[`${item.id}:1`, 'sent', null, null]]);
    assert.is(await Tries.findById(`${alarmId}:notes:2`).lean(), null);
    // Another holder (its claim taken over) finds the try taken and its outcome noted: not sent again.
    const there = new DeliveryTries(Tries, log, 60_000);
    const taken = await there.once(
      { alarmId, item, n: 1, limitMs: 1_000 },
      async () => void sent.push(item.id),
      failure,
    );
    assert.equal({ status: taken.status, attempts: taken.attempts }, { status: 'sent', attempts: 1 });
    assert.equal(sent, [item.id]);
    // The first notes removed already (a forget that stopped part-way): the rest go all the same.
    await Tries.deleteOne({ _id: `${alarmId}:notes:0` });
    await there.forget(alarmId, [{ ...item, status: 'sent', attempts: 1 }]);
    assert.equal(await Tries.find({ alarmId }).lean(), []);
  },
);

s(
  "an alarm's notes past a round of 25: the next one free found after them, and all removed though the first round's were gone",
  async ({ db }) => {
    const alarmId = ++next;
    const { Tries } = alarmModels(db);
    const list = items(alarmId, 31, { status: 'sending' });
    // Another process noted 30 batches of this alarm's tries, one try each.
    for (let k = 0; k < 30; k++)
      await Tries.create({
        _id: `${alarmId}:notes:${k}`,
        alarmId,
        at: new Date(),
        notes: JSON.stringify([[`${list[k].id}:1`, 'sent', null, null]]),
      });
    const here = new DeliveryTries(Tries, log, 60_000);
    const failure = (err: unknown) => ({ status: 'failed' as const, lastError: String(err) });
    await here.once({ alarmId, item: list[30], n: 1, limitMs: 1_000 }, async () => undefined, failure);
    await here.noted();
    assert.equal(JSON.parse((await Tries.findById(`${alarmId}:notes:30`).lean())!.notes!), [
      [`${list[30].id}:1`, 'sent', null, null],
    ]);
    // A try of the first batch, its holder gone: its outcome read from the notes, not sent.
    await Tries.create({ _id: `${list[3].id}:1`, alarmId, at: new Date() });
    const taken = await here.once(
      { alarmId, item: list[3], n: 1, limitMs: 1_000 },
      async () => assert.unreachable('sent again'),
      failure,
    );
    assert.is(taken.status, 'sent');
    // A forget that stopped after the first round: the next one goes on past the gap.
    await Tries.deleteMany({ _id: { $in: Array.from({ length: 25 }, (_, k) => `${alarmId}:notes:${k}`) } });
    await here.forget(
      alarmId,
      list.map((item) => ({ ...item, status: 'sent', attempts: 1 })),
    );
    assert.equal(await Tries.find({ alarmId }).lean(), []);
  },
);

s.run();
