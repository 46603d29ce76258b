// Backups (issue 12): `admin backup create` and `backup restore` as an operator runs them, into a new
// database and over a running one — whose screens take the restored state instead of freezing.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { runAdmin } from './helpers/cli.js';
import { credentialChangeMark } from '../server/identity/credential-changes.js';
import { client } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, otherDatabase, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  tmp: string;
  source: string;
  svc: TestService;
  org: OrgFixture;
  monitorId: number;
}

const backups = suite<Ctx>('backup and restore', {} as Ctx);

backups.before(async (ctx) => {
  ctx.tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-backup-'));
  ctx.source = otherDatabase(`backup_src_${randomBytes(4).toString('hex')}`);
  // Fast resyncs are not needed: the hub compares every 10 s; the test waits for that.
  ctx.svc = await startTestService({}, { dbUri: ctx.source });
  ctx.org = await createOrg(ctx.svc);
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  ctx.monitorId = (await api.post('/api/v1/monitor', { name: 'Wache Süd', organizationID: ctx.org.orgId })).body.id;
  await api.post(`/api/v1/monitor/${ctx.monitorId}/data/alarming`, { eventId: 1, event: 'Vor der Sicherung' });
});
backups.after(async (ctx) => {
  await ctx.svc.close();
  await fs.rm(ctx.tmp, { recursive: true, force: true });
});

const admin = (uri: string, ...args: string[]) => runAdmin(args, { MONGODB_URI: uri, LOG_LEVEL: 'silent' });

backups(
  'backup create writes every collection and a manifest; restore into a new database gives back a working installation',
  async (ctx) => {
    const dir = path.join(ctx.tmp, 'first');
    // The answer links' key, as the first alarm SMS makes it: the database's own, never in a backup.
    const keys = ctx.svc.db.conn.collection('alarm_link_keys');
    await keys.insertOne({
      _id: 'answer-links',
      key: randomBytes(32).toString('base64'),
      createdAt: new Date(),
    } as never);
    const made = await admin(ctx.source, 'backup', 'create', '--dir', dir);
    assert.is(made.code, 0, made.stdout + made.stderr);
    assert.ok(made.json.documents > 10, made.stdout);
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8'));
    assert.is(manifest.installationId, ctx.svc.installationId);
    assert.ok(manifest.collections.organizations >= 1 && manifest.collections.chain_links >= 1);
    assert.not.ok('alarm_link_keys' in manifest.collections, "the answer links' key is not saved");
    assert.not.ok((await fs.readdir(dir)).some((file) => file.startsWith('alarm_link_keys')));
    assert.is((await admin(ctx.source, 'backup', 'create', '--dir', dir)).code, 1, 'never over an existing backup');

    const target = otherDatabase(`backup_dst_${randomBytes(4).toString('hex')}`);
    const restored = await admin(target, 'backup', 'restore', '--dir', dir);
    assert.is(restored.code, 0, restored.stdout + restored.stderr);
    assert.is(restored.json.restored, true);
    assert.is(restored.json.documents, made.json.documents);
    const copy = await startTestService({}, { dbUri: target });
    try {
      assert.is(copy.installationId, ctx.svc.installationId, 'the installation keeps its identity');
      assert.is(await copy.db.conn.collection('alarm_link_keys').countDocuments(), 0, 'a copy makes a key of its own');
      // Tokens made since the backup are gone: a new credential change mark has the hub check every
      // connected socket again, even one whose handshake read its token before the restore.
      assert.is.not(
        await credentialChangeMark(copy.db),
        await credentialChangeMark(ctx.svc.db),
        'a restore writes a new credential change mark',
      );
      const api = client(copy.url, { apiKey: ctx.org.apiKey });
      const data = await api.get(`/api/v1/monitor/${ctx.monitorId}/data`);
      assert.is(data.status, 200, 'the API key works on the copy');
      assert.is(data.headers.get('etag'), '"1"');
      assert.is(data.body.alarmData.event, 'Vor der Sicherung');
      assert.is(
        (await api.post(`/api/v1/monitor/${ctx.monitorId}/data/alarming`, { event: 'Auf der Kopie' })).body.message,
        'Alarming data saved (version 2)',
      );
      const created = await api.post('/api/v1/monitor', { name: 'Neu', organizationID: ctx.org.orgId });
      assert.ok(created.body.id > ctx.monitorId, 'IDs continue after the restored ones');
    } finally {
      await copy.close();
    }
    const refused = await admin(target, 'backup', 'restore', '--dir', dir);
    assert.is(refused.code, 1);
    assert.match(refused.json.message, 'already holds data');
  },
);

backups(
  'restore --replace under a running service: its screens reconnect and take the restored state instead of freezing',
  async (ctx) => {
    const dir = path.join(ctx.tmp, 'second');
    assert.is((await admin(ctx.source, 'backup', 'create', '--dir', dir)).code, 0);
    const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
    for (const event of ['Nach der Sicherung 1', 'Nach der Sicherung 2', 'Nach der Sicherung 3'])
      await api.post(`/api/v1/monitor/${ctx.monitorId}/data/alarming`, { event });
    const screen = await connectScreen(ctx.svc.url, ctx.org.apiKey);
    try {
      const first = await screen.subscribe(ctx.monitorId);
      assert.ok('data' in first);
      const before = screen.version;
      let disconnected = false;
      screen.socket.on('disconnect', () => (disconnected = true));
      const key = await ctx.svc.db.conn.collection('alarm_link_keys').findOne({});
      assert.ok(key);
      const restored = await admin(ctx.source, 'backup', 'restore', '--dir', dir, '--replace');
      assert.is(restored.code, 0, restored.stdout + restored.stderr);
      assert.equal(
        await ctx.svc.db.conn.collection('alarm_link_keys').findOne({}),
        key,
        "a restore keeps the database's key: the links of alarms under way still answer",
      );
      // The service lets every hub connection go once it sees the restore; the client reconnects by itself
      // and subscribes with what it shows, as the display does, and gets the stored state.
      await screen.waitFor(
        () => disconnected && screen.socket.connected,
        WAIT_MS,
        'the screen reconnecting after the restore',
      );
      const again = await screen.subscribe(ctx.monitorId, before, first.data.epoch);
      assert.ok('data' in again && again.data.snapshot, JSON.stringify(again));
      const reset = again.data.snapshot!;
      assert.ok(reset.version < before);
      assert.is(reset.data.alarmData.event, 'Vor der Sicherung');
      const next = await api.post(`/api/v1/monitor/${ctx.monitorId}/data/alarming`, {
        event: 'Nach der Wiederherstellung',
      });
      assert.is(next.status, 200);
      await screen.waitFor(
        () =>
          screen.events.some(
            (e) => e.name === 'monitor:patch' && e.payload.payload.event === 'Nach der Wiederherstellung',
          ),
        WAIT_MS,
        'live patches again',
      );
    } finally {
      screen.close();
    }
  },
);

backups('usage: --dir is required; restore of a folder that holds no backup fails clearly', async (ctx) => {
  const none = await admin(ctx.source, 'backup', 'create');
  assert.is(none.code, 2);
  assert.is(none.json.message, '--dir is required');
  const empty = path.join(ctx.tmp, 'empty');
  await fs.mkdir(empty);
  const res = await admin(
    otherDatabase(`backup_none_${randomBytes(4).toString('hex')}`),
    'backup',
    'restore',
    '--dir',
    empty,
  );
  assert.is(res.code, 1);
  assert.match(res.json.message, 'manifest.json');
});

backups.run();
