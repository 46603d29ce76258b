// A backup restored under two running processes (docs/operating.md, "Backups"): no ID is issued twice, what the
// processes learned before the restore does not survive it, and no socket keeps a room of the old
// history. The sequence is the one that once handed one organization's monitor to another.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { runAdmin } from './helpers/cli.js';
import { client } from './helpers/http.js';
import { spawnService, type ServiceProcess } from './helpers/processes.js';
import { connectScreen, WAIT_MS, type Screen } from './helpers/screen.js';
import { createOrg, otherDatabase, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  tmp: string;
  uri: string;
  one: TestService;
  two: ServiceProcess;
  a: OrgFixture;
  b: OrgFixture;
  wall: Screen | null;
}

const live = suite<Ctx>('restore under two running processes', {} as Ctx);

live.before(async (ctx) => {
  ctx.tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-restore-'));
  ctx.uri = otherDatabase(`restore_live_${randomBytes(4).toString('hex')}`);
  ctx.one = await startTestService({ REDIS_URL: process.env.REDIS_URL! }, { dbUri: ctx.uri });
  ctx.two = await spawnService({
    MONGODB_URI: ctx.uri,
    REDIS_URL: process.env.REDIS_URL!,
    RATE_LIMIT_PER_SECOND: '0',
    CREDENTIAL_CACHE_MS: '60000',
  });
  ctx.a = await createOrg(ctx.one, 'Restore A');
  ctx.b = await createOrg(ctx.one, 'Restore B');
  ctx.wall = null;
});
live.after(async (ctx) => {
  ctx.wall?.close();
  await ctx.two?.stop();
  await ctx.one?.close();
  await fs.rm(ctx.tmp, { recursive: true, force: true });
});

const admin = (uri: string, ...args: string[]) => runAdmin(args, { MONGODB_URI: uri, LOG_LEVEL: 'silent' });
const monitorIn = async (url: string, org: OrgFixture, name: string) => {
  const res = await client(url, { apiKey: org.apiKey }).post('/api/v1/monitor', { name, organizationID: org.orgId });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as number;
};

live(
  "IDs issued after the backup are never issued again, and A's wall on the other process receives nothing of B's",
  async (ctx) => {
    const dir = path.join(ctx.tmp, 'before');
    const made = await admin(ctx.uri, 'backup', 'create', '--dir', dir);
    assert.is(made.code, 0, made.stdout + made.stderr);

    // After the backup: A's monitor, read and watched through process two (which learns its owner).
    const mine = await monitorIn(ctx.one.url, ctx.a, 'Wache A');
    const aOnTwo = client(ctx.two.url, { apiKey: ctx.a.apiKey });
    assert.is((await aOnTwo.get(`/api/v1/monitor/${mine}/data`)).status, 200);
    const wall = (ctx.wall = await connectScreen(ctx.two.url, ctx.a.apiKey));
    let disconnects = 0;
    wall.socket.on('disconnect', () => disconnects++);
    const subscribed = await wall.subscribe(mine);
    assert.ok('data' in subscribed, JSON.stringify(subscribed));

    const restored = await admin(ctx.uri, 'backup', 'restore', '--dir', dir, '--replace');
    assert.is(restored.code, 0, restored.stdout + restored.stderr);

    // B creates monitors, first on the process that did not issue A's ID, and raises an alarm on each:
    // none gets A's ID (or any below it).
    const theirs: number[] = [];
    for (let i = 0; i < 3; i++) theirs.push(await monitorIn(i % 2 ? ctx.one.url : ctx.two.url, ctx.b, `Wache B ${i}`));
    assert.ok(
      theirs.every((id) => id > mine),
      `B's monitors ${theirs} after A's ${mine}: an ID was issued again`,
    );
    for (const id of theirs) {
      const alarm = await client(ctx.one.url, { apiKey: ctx.b.apiKey }).post(`/api/v1/monitor/${id}/data/alarming`, {
        eventId: 9000 + id,
        event: 'B: Geheim',
      });
      assert.is(alarm.status, 200);
    }

    // A's monitor went with the restore: A reads nothing there, on either process, and writes nothing.
    for (const url of [ctx.one.url, ctx.two.url]) {
      const api = client(url, { apiKey: ctx.a.apiKey });
      assert.is((await api.get(`/api/v1/monitor/${mine}/data`)).status, 404);
      assert.is((await api.post(`/api/v1/monitor/${mine}/data/alarming`, { event: 'A' })).status, 404);
      for (const id of theirs)
        assert.is((await api.get(`/api/v1/monitor/${id}/data`)).status, 404, `A reads B's monitor ${id}`);
    }

    // The wall was let go by process two once it saw the restore, and whatever it received holds nothing of B's.
    await wall.waitFor(() => disconnects > 0, WAIT_MS, 'process two letting the wall go after the restore');
    const leaked = wall.events.filter((e) => JSON.stringify(e.payload ?? null).includes('B: Geheim'));
    assert.equal(leaked, [], "A's wall received B's data");
    const again = await wall.socket.timeout(WAIT_MS).emitWithAck('monitor:subscribe', { monitorId: theirs[0] });
    assert.is(again.error?.error, 'not_found', "A's wall cannot subscribe to B's monitor");
    const gone = await wall.socket.timeout(WAIT_MS).emitWithAck('monitor:subscribe', { monitorId: mine });
    assert.is(gone.error?.error, 'not_found', 'the monitor the restore removed is gone for the wall too');
  },
);

live('a restore keeps the ID sequences of the database when they are ahead of the backup', async (ctx) => {
  const dir = path.join(ctx.tmp, 'sequences');
  assert.is((await admin(ctx.uri, 'backup', 'create', '--dir', dir)).code, 0);
  const before = await monitorIn(ctx.two.url, ctx.a, 'Vor der Rücksicherung');
  await monitorIn(ctx.two.url, ctx.a, 'Noch eine');
  assert.is((await admin(ctx.uri, 'backup', 'restore', '--dir', dir, '--replace')).code, 0);
  // Process two issued both IDs; process one never did: it draws from the merged counter and claims.
  const after = await monitorIn(ctx.one.url, ctx.b, 'Nach der Rücksicherung');
  assert.ok(after > before + 1, `${after} reissues an ID up to ${before + 1}`);
  const native = ctx.one.db.conn.db!;
  const claims = await native
    .collection<{ _id: string }>('id_claims')
    .find({ _id: { $in: [`monitor:${before}`, `monitor:${before + 1}`] } })
    .toArray();
  assert.is(claims.length, 2, 'the claims issued after the backup survive the restore');
});

live("a backup without the list indexes (an older version's) restores lists of exactly its documents", async (ctx) => {
  const kept = [await monitorIn(ctx.one.url, ctx.a, 'Bleibt 1'), await monitorIn(ctx.one.url, ctx.a, 'Bleibt 2')];
  const dir = path.join(ctx.tmp, 'older');
  assert.is((await admin(ctx.uri, 'backup', 'create', '--dir', dir)).code, 0);
  // The older version kept no monitor index: its backup has no such collection.
  const manifestFile = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { collections: Record<string, number> };
  assert.ok('monitor_index' in manifest.collections, JSON.stringify(Object.keys(manifest.collections)));
  delete manifest.collections.monitor_index;
  await fs.writeFile(manifestFile, JSON.stringify(manifest));
  await fs.rm(path.join(dir, 'monitor_index.ejson'));
  // After the backup one of them is deleted and another made: the database's index no longer matches the backup.
  const api = client(ctx.one.url, { apiKey: ctx.a.apiKey });
  assert.is((await api.delete(`/api/v1/monitor/${kept[0]}`)).status, 200);
  const later = await monitorIn(ctx.one.url, ctx.a, 'Danach');
  assert.is((await admin(ctx.uri, 'backup', 'restore', '--dir', dir, '--replace')).code, 0);
  for (const url of [ctx.one.url, ctx.two.url]) {
    const listed = (await client(url, { apiKey: ctx.a.apiKey }).get(`/api/v1/monitor?organization=${ctx.a.orgId}`))
      .body as Array<{ id: number }>;
    const ids = listed.map((m) => m.id);
    assert.ok(
      kept.every((id) => ids.includes(id)) && !ids.includes(later),
      `listed ${ids}, restored ${kept}, made after the backup ${later}`,
    );
  }
});

live.run();
