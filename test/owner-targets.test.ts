// A member's targets in one document (server/areas/channels/targets.ts; docs/storage.md "A member's
// targets in one document"): every write of a device, mobile or phone through the API leaves the copies
// as the documents are, also many at once; an alarm's deliveries go to the numbers as changed a moment
// before; a write begun and not finished has the documents read instead of the copies; a writer that
// died, or an owner whose copies are missing (older data, a restore), is read the slow way and filled
// again. With the copies in place, a member's targets are one exact read.
import type { Model } from 'mongoose';
import * as assert from 'uvu/assert';
import { alarmModels } from '../server/areas/alarms/models.js';
import { deliveriesOf } from '../server/areas/alarms/delivery-store.js';
import { appModels } from '../server/areas/app/models.js';
import { callModels } from '../server/areas/call/models.js';
import { channelModels, type TargetKind } from '../server/areas/channels/models.js';
import { membersOf } from '../server/identity/lookup.js';
import { usableTargets, type OwnedDoc } from '../server/areas/channels/owned.js';
import { copiesOf, OwnerTargets } from '../server/areas/channels/targets.js';
import { smsModels } from '../server/areas/sms/models.js';
import { newUser, pat, type User } from './helpers/channels.js';
import { eventually } from './helpers/fleet.js';
import { client, type Credential } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import { readMark } from '../server/db/restores.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  other: OrgFixture;
}
const s = suite<Ctx>("a member's targets in one document", {} as Ctx);
s.before(async (ctx) => {
  ctx.svc = await startTestService({}, { monitorCommands: true });
  ctx.org = await createOrg(ctx.svc);
  ctx.other = await createOrg(ctx.svc);
});
s.after(async (ctx) => {
  await ctx.svc.close();
});

let n = 0;
const gsm = () => `0049171${String(3_000_000 + ++n)}`;
const key = (org: OrgFixture): Credential => ({ apiKey: org.apiKey });

const models = (svc: TestService): Record<TargetKind, Model<OwnedDoc>> => ({
  device: appModels(svc.db).Device as unknown as Model<OwnedDoc>,
  mobile: smsModels(svc.db).Mobile as unknown as Model<OwnedDoc>,
  phone: callModels(svc.db).Phone as unknown as Model<OwnedDoc>,
});

/** The member's resources an alarm of the organization may use, read from the documents themselves. */
async function truth(svc: TestService, userId: number, organizationId: number) {
  const read = async (kind: TargetKind) =>
    (await models(svc)[kind].find({ ownerID: userId }).lean())
      .filter((d) => (d.organizationID ?? null) === null || d.organizationID === organizationId)
      .sort((a, b) => Number(a._id) - Number(b._id));
  return { device: await read('device'), mobile: await read('mobile'), phone: await read('phone') };
}

const entryOf = async (svc: TestService, userId: number) => {
  const doc = await channelModels(svc.db).OwnerTargets.findById(String(userId)).lean();
  return doc && { ...doc, copies: copiesOf(doc) };
};

async function expectTrue(svc: TestService, userId: number, organizationId: number, when: string) {
  assert.equal(
    JSON.parse(JSON.stringify(await usableTargets(svc.db, userId, organizationId))),
    JSON.parse(JSON.stringify(await truth(svc, userId, organizationId))),
    when,
  );
}

const device = (ownerID: number) => ({
  name: `Telefon ${++n}`,
  os: 'Android 14',
  ownerID,
  pushToken: `fcm:token-${n}`,
  pushTokenDevelopment: false,
  active: true,
});

async function ok(res: Promise<{ status: number; body: any }>) {
  const done = await res;
  assert.is(done.status, 200, JSON.stringify(done.body));
  return done.body;
}

async function member(ctx: Ctx): Promise<User> {
  const user = await newUser(ctx.svc, ctx.org);
  await ctx.svc.identity.addMember(ctx.other.orgId, user.userId, 'member');
  return user;
}

s('every write through the API, one by one and many at once, leaves the copies as the documents are', async (ctx) => {
  const user = await member(ctx);
  const [mine, byKey, byOther] = [
    client(ctx.svc.url, pat(user)),
    client(ctx.svc.url, key(ctx.org)),
    client(ctx.svc.url, key(ctx.other)),
  ];
  const check = async (when: string) => {
    await expectTrue(ctx.svc, user.userId, ctx.org.orgId, when);
    await expectTrue(ctx.svc, user.userId, ctx.other.orgId, `${when} (the other organization)`);
    const entry = await entryOf(ctx.svc, user.userId);
    assert.ok(entry, `${when}: the entry is written`);
    assert.equal(entry.changing, [], `${when}: no write left unfinished`);
  };
  const own = await ok(mine.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Eigenes' }));
  await check('his own mobile');
  const entered = await ok(byKey.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Dienst' }));
  await ok(byOther.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Andere Wehr' }));
  await check("each organization's own");
  await ok(byKey.put('/api/v1/sms/mobile', { id: entered.id, gsm: gsm(), ownerID: user.userId, active: false }));
  await check('a number changed and silenced');
  const phone = await ok(byKey.post('/api/v1/call/phone', { gsm: gsm(), ownerID: user.userId, name: 'Festnetz' }));
  const pixel = await ok(mine.post('/api/v1/app/device', device(user.userId)));
  await check('a phone and a device');
  await ok(mine.delete(`/api/v1/sms/mobile/${own.id}`));
  await ok(byKey.delete(`/api/v1/call/phone/${phone.id}`));
  await check('two removed');
  // Many at once, of every kind: each write's copies are taken after it, whatever ran between.
  await Promise.all([
    ...Array.from({ length: 3 }, () =>
      ok(byKey.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: `M ${++n}` })),
    ),
    ...Array.from({ length: 3 }, () =>
      ok(byKey.post('/api/v1/call/phone', { gsm: gsm(), ownerID: user.userId, name: `P ${++n}` })),
    ),
    ...Array.from({ length: 3 }, () => ok(mine.post('/api/v1/app/device', device(user.userId)))),
    ok(mine.put(`/api/v1/app/device/${pixel.id}`, { ...device(user.userId), active: false })),
    ok(byKey.put('/api/v1/sms/mobile', { id: entered.id, gsm: gsm(), ownerID: user.userId, active: true })),
  ]);
  await check('eleven writes at once');
});

s(
  "an alarm's deliveries go to the numbers as changed a moment before, and read one document per member",
  async (ctx) => {
    const users = await Promise.all(Array.from({ length: 4 }, () => member(ctx)));
    const byKey = client(ctx.svc.url, key(ctx.org));
    const numbers = new Map<number, string>();
    for (const user of users) {
      const mobile = await ok(byKey.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Dienst' }));
      await ok(byKey.post('/api/v1/call/phone', { gsm: gsm(), ownerID: user.userId, name: 'Festnetz' }));
      // Changed right before the alarm: the alarm must use the new number.
      const changed = gsm();
      await ok(byKey.put('/api/v1/sms/mobile', { id: mobile.id, gsm: changed, ownerID: user.userId }));
      numbers.set(user.userId, changed);
    }
    // Every member's copies in place (those of createOrg's admin and member, who have none, are filled on their first read).
    for (const userId of (await membersOf(ctx.svc.db, ctx.org.orgId)).keys()) {
      await usableTargets(ctx.svc.db, userId, ctx.org.orgId);
      await eventually(
        () => entryOf(ctx.svc, userId),
        (entry) => Boolean(entry?.copies.device && entry.copies.mobile && entry.copies.phone),
        `member ${userId}'s copies`,
      );
    }
    const commands: Array<{ name: string; collection: unknown }> = [];
    const client_ = ctx.svc.db.conn.getClient();
    const watch = (e: { commandName: string; command: Record<string, unknown> }) =>
      commands.push({ name: e.commandName, collection: e.command[e.commandName] });
    client_.on('commandStarted', watch);
    let alarmId: number;
    try {
      const raised = await byKey.post('/api/v1/alarms', {
        organizationID: ctx.org.orgId,
        event: 'B2 Kellerbrand',
        channels: ['sms', 'call'],
      });
      assert.is(raised.status, 201, JSON.stringify(raised.body));
      alarmId = raised.body.id;
      await eventually(
        async () => (await deliveriesOf(alarmModels(ctx.svc.db)).read(alarmId))?.items ?? [],
        (items) => users.every((user) => items.some((i) => i.channel === 'sms' && i.recipientUserId === user.userId)),
        "the new members' deliveries stored",
      );
    } finally {
      client_.off('commandStarted', watch);
    }
    const items = (await deliveriesOf(alarmModels(ctx.svc.db)).read(alarmId))!.items;
    for (const user of users)
      assert.equal(
        items.filter((i) => i.channel === 'sms' && i.recipientUserId === user.userId).map((i) => i.target),
        [numbers.get(user.userId)],
        `member ${user.userId}: the number as changed`,
      );
    const reads = (collection: string) =>
      commands.filter((c) => c.name === 'find' && c.collection === collection).length;
    assert.is(reads('sms_mobiles') + reads('call_phones') + reads('app_devices'), 0, 'no resource read one by one');
    assert.is(reads('owner_index'), 0, 'no owner index read');
    // One per member (the organization's admin and member of createOrg included); a retry of the build may read again.
    assert.ok(reads('owner_targets') >= users.length, `${reads('owner_targets')} reads of the copies`);
  },
);

s(
  'a write begun and not finished: its kind is read from the documents; one left by a dead writer is filled again',
  async (ctx) => {
    const user = await member(ctx);
    const byKey = client(ctx.svc.url, key(ctx.org));
    const mobile = await ok(byKey.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Dienst' }));
    await ok(byKey.post('/api/v1/call/phone', { gsm: gsm(), ownerID: user.userId, name: 'Festnetz' }));
    const { OwnerTargets } = channelModels(ctx.svc.db);
    // A writer marked its write and changed the document; it has not taken the copies yet.
    await OwnerTargets.updateOne(
      { _id: String(user.userId) },
      { $set: { changing: [{ kind: 'mobile', token: 'under-way', at: new Date() }] } },
    );
    const moved = gsm();
    await smsModels(ctx.svc.db).Mobile.updateOne({ _id: String(mobile.id) }, { $set: { gsm: moved } });
    const seen = await usableTargets(ctx.svc.db, user.userId, ctx.org.orgId);
    assert.equal(
      seen.mobile.map((m) => (m as unknown as { gsm: string }).gsm),
      [moved],
      'the document, not the copy',
    );
    await expectTrue(ctx.svc, user.userId, ctx.org.orgId, 'while the write is under way');
    assert.equal((await entryOf(ctx.svc, user.userId))!.changing.length, 1, 'a live writer is left alone');
    // The writer died: minutes later its mark is dropped and the kind copied again.
    await OwnerTargets.updateOne(
      { _id: String(user.userId) },
      { $set: { changing: [{ kind: 'mobile', token: 'under-way', at: new Date(Date.now() - 10 * 60_000) }] } },
    );
    await expectTrue(ctx.svc, user.userId, ctx.org.orgId, 'after the writer died');
    const filled = await eventually(
      () => entryOf(ctx.svc, user.userId),
      (entry) => entry?.changing.length === 0,
      "the dead writer's mark dropped",
    );
    assert.equal(
      (filled!.copies.mobile ?? []).map((m) => (m as unknown as { gsm: string }).gsm),
      [moved],
      'copied again',
    );
  },
);

s('an owner without copies (older data, a restore) is read from the documents and filled', async (ctx) => {
  const user = await member(ctx);
  const byKey = client(ctx.svc.url, key(ctx.org));
  await ok(byKey.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Dienst' }));
  await ok(client(ctx.svc.url, pat(user)).post('/api/v1/app/device', device(user.userId)));
  await channelModels(ctx.svc.db).OwnerTargets.deleteOne({ _id: String(user.userId) });
  await expectTrue(ctx.svc, user.userId, ctx.org.orgId, 'without an entry');
  const filled = await eventually(
    () => entryOf(ctx.svc, user.userId),
    (entry) => Boolean(entry?.copies.device && entry.copies.mobile && entry.copies.phone),
    'every kind copied',
  );
  assert.equal(filled!.changing, []);
  await expectTrue(ctx.svc, user.userId, ctx.org.orgId, 'from the copies');
});

s(
  'copies written under another restore mark (read while a restore loaded) are not trusted, but filled again',
  async (ctx) => {
    const user = await member(ctx);
    const byKey = client(ctx.svc.url, key(ctx.org));
    await ok(byKey.post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Dienst' }));
    const { OwnerTargets } = channelModels(ctx.svc.db);
    const stale = {
      mobile: [{ _id: '1', ownerID: user.userId, organizationID: null, gsm: '00491700000000', active: true }],
    };
    await OwnerTargets.updateOne(
      { _id: String(user.userId) },
      { $set: { copies: JSON.stringify(stale), mark: 'before-the-restore' } },
    );
    await expectTrue(ctx.svc, user.userId, ctx.org.orgId, 'an entry of another restore mark');
    const current = await readMark(ctx.svc.db.conn.db!);
    const filled = await eventually(
      () => OwnerTargets.findById(String(user.userId)).lean(),
      (entry) => (entry?.mark ?? null) === current,
      'filled under the current mark',
    );
    assert.ok(!filled!.copies.includes('00491700000000'), 'the stale copy is gone');
    await expectTrue(ctx.svc, user.userId, ctx.org.orgId, 'from the new copies');
  },
);

s('a write whose answer was lost keeps its mark; a refused or late one takes the copies again', async (ctx) => {
  const user = await member(ctx);
  const mobile = await ok(
    client(ctx.svc.url, key(ctx.org)).post('/api/v1/sms/mobile', { gsm: gsm(), ownerID: user.userId, name: 'Dienst' }),
  );
  const { Mobile } = smsModels(ctx.svc.db);
  // Another process's view of the same copies, its writes as given here.
  const view = (writeByMs?: number) => {
    const targets = new OwnerTargets(
      channelModels(ctx.svc.db).OwnerTargets,
      ctx.svc.db.system.Lock,
      { mark: () => readMark(ctx.svc.db.conn.db!), generation: ctx.svc.db.generation },
      { writeByMs },
    );
    targets.register('mobile', async (ownerId) => Mobile.find({ ownerID: ownerId }).lean());
    return targets;
  };
  const targets = view();
  const gsmOf = async () =>
    ((await targets.of(user.userId)).mobile ?? []).map((m) => (m as unknown as { gsm: string }).gsm);
  const marks = async () => (await entryOf(ctx.svc, user.userId))!.changing.length;

  // Stored, but its answer lost: the kind stays marked, and readers read the document.
  const landed = gsm();
  const lost = Object.assign(new Error('connection timed out'), { name: 'MongoNetworkTimeoutError' });
  const lostErr = await targets
    .changing('mobile', user.userId, async (inTime) => {
      inTime();
      await Mobile.updateOne({ _id: String(mobile.id) }, { $set: { gsm: landed } });
      throw lost;
    })
    .catch((e: unknown) => e);
  assert.is(lostErr, lost);
  assert.is(await marks(), 1, 'the mark stays');
  assert.equal(await gsmOf(), [landed]);
  await channelModels(ctx.svc.db).OwnerTargets.updateOne({ _id: String(user.userId) }, { $set: { changing: [] } });

  // Refused (a duplicate name): nothing changed, the copies are taken again and the mark goes.
  const taken = Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
  const takenErr = await targets
    .changing('mobile', user.userId, async () => {
      throw taken;
    })
    .catch((e: unknown) => e);
  assert.is(takenErr, taken);
  assert.is(await marks(), 0, 'a refusal leaves no mark');
  assert.equal(await gsmOf(), [landed], 'the copies as the documents are');

  // Too late to start (here any time after the mark is too late): refused with a 503, nothing written.
  const late = gsm();
  const err = await view(-1)
    .changing('mobile', user.userId, async (inTime) => {
      inTime();
      await Mobile.updateOne({ _id: String(mobile.id) }, { $set: { gsm: late } });
    })
    .catch((e: unknown) => e);
  assert.is((err as { status?: number }).status, 503);
  assert.is(await marks(), 0);
  assert.equal(await gsmOf(), [landed], 'not written');
});

s.run();
