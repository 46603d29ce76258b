// An alarm's raise answers before its deliveries are built (server/areas/alarms/commands.ts, docs/alarms.md
// "Delivered"): the answer does not wait for the members' targets, and a process that dies between the
// answer and the store loses no delivery and sends none twice — a sweeper builds them once the promise's
// time is up, and a late store of the raising process changes nothing.
import * as assert from 'uvu/assert';
import pino from 'pino';
import { serviceModels } from '../server/areas/models.js';
import { AlarmCommands } from '../server/areas/alarms/commands.js';
import { alarmModels, type AlarmDoc, type DeliveryItem } from '../server/areas/alarms/models.js';
import { AlarmOutbox, DeliveryError, type OutboxHooks, type Sender } from '../server/areas/alarms/outbox.js';
import { AlarmPresenter } from '../server/areas/alarms/presenter.js';
import { AlarmRecords } from '../server/areas/alarms/records.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { eventually } from './helpers/fleet.js';
import { testDbUri } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import { deliveriesOf } from '../server/areas/alarms/delivery-store.js';

const s = suite<{ db: Database }>('alarm raise', {} as { db: Database });
s.before(async (ctx) => {
  ctx.db = await openDatabase(testDbUri(), serviceModels);
});
s.after(async (ctx) => {
  await ctx.db.close();
});

const log = pino({ level: 'silent' });
const ORG = 770_001;

/** A promise and the hand that settles it. */
function gate<T>() {
  let open!: (value: T) => void;
  const closed = new Promise<T>((resolve) => (open = resolve));
  return { closed, open };
}

const itemsOf = (doc: Pick<AlarmDoc, 'id'>, count: number, from = 0): DeliveryItem[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${doc.id}-${from + i}`,
    channel: 'sms',
    recipientUserId: from + i + 1,
    target: `0049176${2_000_000 + from + i}`,
    status: 'queued',
    attempts: 0,
    lastError: null,
    nextAt: new Date(),
    claim: null,
  }));

/** One process's alarm commands and outbox; `build` makes the deliveries of its raises, chunk by chunk. */
function processOf(
  db: Database,
  build: (doc: AlarmDoc) => AsyncIterable<DeliveryItem[]>,
  sent: string[],
  prepareAfterMs = 300,
) {
  const records = new AlarmRecords(db);
  const send: Sender = async (item) => void sent.push(item.id);
  const hooks: OutboxHooks = {
    prepare: async (alarmId) => {
      const doc = await records.find(alarmId);
      if (!doc) return null;
      const items: DeliveryItem[] = [];
      for await (const chunk of build(doc)) items.push(...chunk);
      return { organizationId: doc.organizationId, items };
    },
    blocked: async () => null,
    changed: () => undefined,
  };
  const noCall: Sender = async () => {
    throw new DeliveryError('not used', true);
  };
  const outbox = new AlarmOutbox(
    alarmModels(db),
    db.system.Lock,
    { app: noCall, sms: send, call: noCall },
    hooks,
    log,
    { sweepMs: 50, claimMs: 1_000, prepareAfterMs },
  );
  const shown: number[] = [];
  const commands = new AlarmCommands({
    db,
    records,
    presenter: new AlarmPresenter(db, records),
    wall: { raised: async (doc: AlarmDoc) => void shown.push(doc.id), rewriteSoon: () => undefined } as never,
    recipients: { of: build } as never,
    outbox,
    keys: {} as never,
    monitors: { list: async () => [] },
    events: { toOrganization: () => undefined } as never,
    log,
  });
  return { commands, outbox, shown };
}

s('AL1 answers once the alarm is stored and shown, before its deliveries are built', async ({ db }) => {
  const held = gate<void>();
  let asked = 0;
  const sent: string[] = [];
  const one = processOf(
    db,
    async function* (doc) {
      asked++;
      await held.closed;
      yield itemsOf(doc, 3);
    },
    sent,
  );
  const alarm = await one.commands.raise(ORG, 'api', { event: 'B3 Wohnungsbrand', channels: ['sms'] });
  try {
    assert.is(asked, 1, 'the build began');
    assert.equal(one.shown, [alarm.id], 'shown on the wall before the answer');
    assert.equal(alarm.recipients.sms, { targets: 0, sent: 0, delivered: 0, failed: 0 });
    assert.is(await deliveriesOf(alarmModels(db)).read(alarm.id), null, 'nothing built yet');
    assert.ok(await alarmModels(db).Outbox.findById(String(alarm.id)).lean(), 'the promise is stored');
    held.open();
    await eventually(
      async () => sent.length,
      (n) => n === 3,
      'the deliveries built and sent',
    );
    assert.equal(sent.sort(), [`${alarm.id}-0`, `${alarm.id}-1`, `${alarm.id}-2`]);
  } finally {
    held.open();
    await one.outbox.stop();
  }
});

s(
  'a process that dies between the answer and the store loses no delivery, and its late store doubles none',
  async ({ db }) => {
    const late = gate<void>();
    const sentByDying: string[] = [];
    // The raising process: its build stalls (as if it died) until the survivor sent everything.
    const dying = processOf(
      db,
      async function* (doc) {
        await late.closed;
        yield itemsOf(doc, 4);
      },
      sentByDying,
    );
    const sentBySurvivor: string[] = [];
    let built = 0;
    const survivor = processOf(
      db,
      async function* (doc) {
        built++;
        yield itemsOf(doc, 4);
      },
      sentBySurvivor,
    );
    const raisedAt = Date.now();
    const alarm = await dying.commands.raise(ORG, 'api', { event: 'B4 Großbrand', channels: ['sms'] });
    const sweeping = setInterval(() => void survivor.outbox.sweep(), 50);
    try {
      await eventually(
        async () => sentBySurvivor.length,
        (n) => n === 4,
        'the promised deliveries built and sent by the survivor',
      );
      assert.ok(Date.now() - raisedAt >= 300, 'not before the raising process had its time');
      assert.is(built, 1);
      // The raising process comes back to life: its store finds them stored and sends nothing again.
      late.open();
      await dying.outbox.stop();
      const doc = await deliveriesOf(alarmModels(db)).read(alarm.id);
      assert.ok(doc!.items.every((i) => i.status === 'sent' && i.attempts === 1));
      assert.equal(sentByDying, []);
      assert.is(new Set(sentBySurvivor).size, 4);
    } finally {
      clearInterval(sweeping);
      late.open();
      await dying.outbox.stop();
      await survivor.outbox.stop();
    }
  },
);

s(
  'deliveries stored chunk by chunk go out as they come; a builder that stops part-way has the rest built by a sweeper, each once',
  async ({ db }) => {
    const second = gate<void>();
    const sentByRaiser: string[] = [];
    // The raising process stores its first chunk of 3 and stalls (as if it died) before the next 3.
    const raiser = processOf(
      db,
      async function* (doc) {
        yield itemsOf(doc, 3);
        await second.closed;
        yield itemsOf(doc, 3, 3);
      },
      sentByRaiser,
      // Long enough for this test to look at the first chunk before anyone takes the build over.
      1_500,
    );
    const sentBySurvivor: string[] = [];
    const survivor = processOf(
      db,
      async function* (doc) {
        yield itemsOf(doc, 3);
        yield itemsOf(doc, 3, 3);
      },
      sentBySurvivor,
      1_500,
    );
    const alarm = await raiser.commands.raise(ORG, 'api', { event: 'THL Person eingeklemmt', channels: ['sms'] });
    let sweeping: NodeJS.Timeout | undefined;
    try {
      await eventually(
        async () => sentByRaiser.length,
        (n) => n === 3,
        'the first chunk sent while the rest is not built',
      );
      const early = await deliveriesOf(alarmModels(db)).read(alarm.id);
      assert.is(early!.items.length, 3);
      assert.ok(early!.buildingUntil, 'marked as still being built');
      // The other process sweeps from now on.
      sweeping = setInterval(() => void survivor.outbox.sweep(), 50);
      await eventually(
        async () => sentBySurvivor.length,
        (n) => n === 3,
        'the rest built and sent by the survivor once the builder’s time was up',
      );
      // The raiser comes back: its late chunk is not added again.
      second.open();
      await raiser.outbox.stop();
      const doc = await deliveriesOf(alarmModels(db)).read(alarm.id);
      assert.is(doc!.buildingUntil, undefined);
      assert.equal(
        doc!.items.map((i) => i.target).sort(),
        itemsOf(alarm, 6)
          .map((i) => i.target)
          .sort(),
      );
      assert.is(new Set(doc!.items.map((i) => i.id)).size, 6, 'every delivery its own id');
      assert.equal([...sentByRaiser, ...sentBySurvivor].sort(), doc!.items.map((i) => i.id).sort());
    } finally {
      clearInterval(sweeping);
      second.open();
      await raiser.outbox.stop();
      await survivor.outbox.stop();
    }
  },
);

s.run();
