// Resolved credentials are reused for CREDENTIAL_CACHE_MS (issue 11: a busy client's requests no longer
// each read the credential): a token revoked elsewhere stops working within that time, and one revoked
// by any process (a removed screen) at once on every process.
import { createHash } from 'node:crypto';
import { suite } from './helpers/suite.js';
import { generateToken, hashToken } from '../server/identity/tokens.js';
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { eventually } from './helpers/fleet.js';
import { client, request } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { identityModels } from '../server/identity/models.js';
import { CredentialReader } from '../server/identity/actor.js';
import { People } from '../server/identity/people.js';
import { Lane } from '../server/db/lane.js';
import { credentialChangeMark } from '../server/identity/credential-changes.js';
import { screenModels } from '../server/areas/screens/models.js';
import { pairScreen } from './helpers/world.js';

const cache = suite<{ svc: TestService; org: OrgFixture }>(
  'credential cache',
  {} as { svc: TestService; org: OrgFixture },
);

cache.before(async (ctx) => {
  ctx.svc = await startTestService({ CREDENTIAL_CACHE_MS: '400' });
  ctx.org = await createOrg(ctx.svc);
});
cache.after(async (ctx) => {
  await ctx.svc.close();
});

cache('a credential is found by the SHA-256 of its token in hex, as stored by every earlier version', async () => {
  for (const token of [generateToken('apikey'), generateToken('screen'), 'ahp_ünïcödé', '']) {
    assert.is(hashToken(token), createHash('sha256').update(token).digest('hex'), token);
  }
});

cache("a token revoked behind the process's back answers 401 within CREDENTIAL_CACHE_MS", async (ctx) => {
  const path = `/api/v1/monitor?organization=${ctx.org.orgId}`;
  const pat = client(ctx.svc.url, { pat: ctx.org.member.token });
  assert.is((await pat.get(path)).status, 200);
  await ctx.svc.identity.revokeToken(ctx.org.member.tokenId);
  expectError(
    await eventually(
      () => pat.get(path),
      (r) => r.status !== 200,
      'the revocation seen',
    ),
    401,
    'unauthorized',
  );
});

cache('a removed membership is seen within CREDENTIAL_CACHE_MS', async (ctx) => {
  const path = `/api/v1/monitor?organization=${ctx.org.orgId}`;
  const admin = client(ctx.svc.url, { pat: ctx.org.admin.token });
  assert.is((await admin.get(path)).status, 200);
  await ctx.svc.identity.removeMember(ctx.org.orgId, ctx.org.admin.userId);
  expectError(
    await eventually(
      () => admin.get(path),
      (r) => r.status !== 200,
      'the removed membership seen',
    ),
    403,
    'forbidden',
  );
});

cache('requests arriving together with a credential not yet cached read it once', async () => {
  // A cache time no request of this test outlives: every read after the first is one too many.
  const svc = await startTestService({ CREDENTIAL_CACHE_MS: '60000' }, { monitorCommands: true });
  try {
    const org = await createOrg(svc);
    let reads = 0;
    const driver = svc.db.conn.getClient();
    const count = (event: { commandName: string; command: Record<string, unknown> }) => {
      if (event.commandName === 'find' && event.command.find === 'tokens') reads++;
    };
    driver.on('commandStarted', count);
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          client(svc.url, { apiKey: org.apiKey }).get(`/api/v1/monitor?organization=${org.orgId}`),
        ),
      );
      assert.ok(
        answers.every((r) => r.status === 200),
        answers.map((r) => r.status).join(','),
      );
    } finally {
      driver.off('commandStarted', count);
    }
    assert.is(reads, 1, `${reads} reads of the token for 40 requests`);
  } finally {
    await svc.close();
  }
});

cache(
  "a credential's use is recorded at most once a minute, also when another process recorded it: " +
    'one read with a recent last use writes nothing',
  async (ctx) => {
    const { Token, TokenUse } = identityModels(ctx.svc.db);
    const [fresh, stale, older] = await Promise.all(
      ['fresh', 'stale', 'older'].map((name) => ctx.svc.identity.createApiKey(ctx.org.orgId, `touch ${name}`)),
    );
    const recent = new Date(Date.now() - 10_000);
    await TokenUse.create({ _id: hashToken(fresh.token), at: recent });
    await TokenUse.create({ _id: hashToken(stale.token), at: new Date(Date.now() - 5 * 60_000) });
    // A last use written into the token by an earlier version counts too.
    const legacy = new Date(Date.now() - 20_000);
    await Token.updateOne({ _id: hashToken(older.token) }, { $set: { lastUsedAt: legacy } });
    // Read as a process that has not used them yet would read them, its writes on a lane of its own.
    const lane = new Lane(1);
    const reader = new CredentialReader({ conn: ctx.svc.db.conn, bookkeeping: lane });
    for (const t of [fresh, stale, older]) assert.ok(await reader.resolve('apikey', t.token));
    const lastUsed = async (token: string) => (await TokenUse.findById(hashToken(token)).lean())?.at.getTime() ?? null;
    await eventually(
      () => lastUsed(stale.token),
      (at) => at !== null && Date.now() - at < 60_000,
      "the stale credential's use recorded",
    );
    // Whatever else was written is written by now.
    await eventually(
      async () => lane.size,
      (size) => size === 0,
      'the lane idle',
    );
    assert.is(await lastUsed(fresh.token), recent.getTime(), 'a use recorded 10 s ago was written again');
    assert.is(await lastUsed(older.token), null, 'a use recorded 20 s ago in the token was written again');
    const keys = await ctx.svc.identity.apiKeysOf(ctx.org.orgId);
    assert.is(keys.find((k) => k.id === older.id)!.lastUsedAt, legacy.toISOString(), "the token's own last use");
    assert.is(keys.find((k) => k.id === fresh.id)!.lastUsedAt, recent.toISOString(), 'the recorded last use');
  },
);

cache('the hourly sweep ends sessions unused for 30 days by their last use, wherever it was recorded', async (ctx) => {
  const people = new People(ctx.svc.db, ctx.svc.identity, async () => undefined);
  const { Token, TokenUse } = identityModels(ctx.svc.db);
  const day = 24 * 3_600_000;
  const now = Date.now();
  const user = ctx.org.member.userId;
  const names = ['used now', 'used long ago', 'used long ago, in the token', 'signed out', 'signed out today'];
  const sessions = await Promise.all(names.map((name) => people.startSession(user, name)));
  const [usedNow, longAgo, inToken, signedOut, today] = sessions.map((t) => hashToken(t));
  // All began 40 days ago; how each was used since.
  for (const _id of [usedNow, longAgo, inToken, signedOut, today])
    await Token.updateOne({ _id }, { $set: { createdAt: new Date(now - 40 * day) } });
  await TokenUse.updateOne({ _id: usedNow }, { $set: { at: new Date(now - day) } });
  await TokenUse.updateOne({ _id: longAgo }, { $set: { at: new Date(now - 31 * day) } });
  await TokenUse.deleteOne({ _id: inToken });
  await Token.updateOne({ _id: inToken }, { $set: { lastUsedAt: new Date(now - 31 * day) } });
  await Token.updateOne({ _id: signedOut }, { $set: { revokedAt: new Date(now - 2 * day) } });
  await Token.updateOne({ _id: today }, { $set: { revokedAt: new Date(now - 3_600_000) } });
  const swept = await people.sweep(now);
  assert.ok(swept.sessions >= 3, JSON.stringify(swept));
  const left = await Promise.all(sessions.map((t) => Token.findById(hashToken(t), { _id: 1 }).lean()));
  assert.equal(
    names.filter((_, i) => left[i]),
    ['used now', 'signed out today'],
  );
  assert.is(await TokenUse.findById(longAgo).lean(), null, "a swept session's use goes with it");
});

cache('recording a use never writes the token, so a revocation at the same moment is never lost', async () => {
  const svc = await startTestService({}, { monitorCommands: true });
  try {
    const org = await createOrg(svc);
    const { Token } = identityModels(svc.db);
    const keys = await Promise.all(
      Array.from({ length: 40 }, (_, i) => svc.identity.createApiKey(org.orgId, `race ${i}`)),
    );
    const tokenWrites: string[] = [];
    const driver = svc.db.conn.getClient();
    const watch = (event: { commandName: string; command: Record<string, unknown> }) => {
      if (['update', 'findAndModify'].includes(event.commandName) && event.command[event.commandName] === 'tokens')
        tokenWrites.push(JSON.stringify(event.command));
    };
    driver.on('commandStarted', watch);
    try {
      // Each key's first use (its use is recorded) and its revocation, together: on the embedded engine an
      // update of the token for the use would write back the token as read before the revocation.
      const reader = new CredentialReader(svc.db);
      const used = (
        await Promise.all(
          keys.map(async (k) => {
            const [actor] = await Promise.all([
              reader.resolve('apikey', k.token),
              Token.updateOne({ _id: hashToken(k.token) }, { $set: { revokedAt: new Date() } }),
            ]);
            return actor ? hashToken(k.token) : null;
          }),
        )
      ).filter((c) => c !== null);
      await eventually(
        () => identityModels(svc.db).TokenUse.countDocuments({ _id: { $in: used } }),
        (n) => n === used.length,
        'every use recorded',
      );
    } finally {
      driver.off('commandStarted', watch);
    }
    assert.is(tokenWrites.length, keys.length, `only the revocations wrote tokens: ${tokenWrites.join('\n')}`);
    const revoked = await Promise.all(keys.map((k) => Token.findById(hashToken(k.token), { revokedAt: 1 }).lean()));
    assert.is(revoked.filter((t) => !t?.revokedAt).length, 0, 'a revocation was lost');
  } finally {
    await svc.close();
  }
});

cache.run();

interface TwoCtx {
  a: TestService;
  b: TestService;
  org: OrgFixture;
  monitorId: number;
}

const two = suite<TwoCtx>('credential cache: two processes on one database and Redis', {} as TwoCtx);

two.before(async (ctx) => {
  // Both bounds far above the test's length: only being told at once can make it pass.
  const env = {
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    CREDENTIAL_CACHE_MS: '60000',
    TOKEN_RECHECK_MS: '60000',
  };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
  ctx.monitorId = (
    await client(ctx.a.url, { apiKey: ctx.org.apiKey }).post('/api/v1/monitor', {
      name: 'Halle',
      organizationID: ctx.org.orgId,
    })
  ).body.id;
});
two.after(async (ctx) => {
  await ctx.a.close();
  await ctx.b.close();
});

two(
  'a screen removed (F5) on process A: its token is refused at once on process B, over REST (401) ' +
    'and at the hub handshake',
  async (ctx) => {
    const { id: screenId, token } = await pairScreen(
      ctx.a,
      { apiKey: ctx.org.apiKey },
      ctx.monitorId,
      'Removed elsewhere',
    );
    const m6 = (url: string) =>
      request(url, 'GET', `/api/v1/monitor/${ctx.monitorId}/data`, { headers: { 'Screen-Token': token } });
    // Both processes have resolved (and cached) the token, over REST and over the hub.
    for (const svc of [ctx.a, ctx.b]) assert.is((await m6(svc.url)).status, 200);
    const wall = await connectScreen(ctx.b.url, token, 'screen-token');
    assert.ok('data' in (await wall.subscribe(ctx.monitorId)));
    let dropped = false;
    wall.socket.on('disconnect', () => (dropped = true));

    const removed = await client(ctx.a.url, { apiKey: ctx.org.apiKey }).delete(`/api/v1/screens/${screenId}`);
    assert.equal(removed.body, { status: 'deleted' });
    expectError(await m6(ctx.b.url), 401, 'unauthorized');
    expectError(await m6(ctx.a.url), 401, 'unauthorized');
    await wall.waitFor(() => dropped, WAIT_MS, 'the socket on B dropped');
    wall.close();
    const refused = await connectScreen(ctx.b.url, token, 'screen-token').then(
      (s) => (s.close(), null),
      (e: Error) => e,
    );
    assert.is(refused?.message, 'unauthorized');
  },
);

two.run();

// The hub's recheck (server/hub/recheck.ts) reads the credential change mark, then only the
// credentials not yet checked under it: paired screens each have a token of their own, and reading
// them all every TOKEN_RECHECK_MS was a lookup per screen and pass with nothing changed.
const recheck = suite<{ svc: TestService; org: OrgFixture; monitorId: number }>(
  "credential cache: the hub's recheck",
  {} as { svc: TestService; org: OrgFixture; monitorId: number },
);

recheck.before(async (ctx) => {
  ctx.svc = await startTestService({
    CREDENTIAL_CACHE_MS: '60000',
    TOKEN_RECHECK_MS: '100',
    TOKEN_FULL_RECHECK_MS: '600000',
  });
  ctx.org = await createOrg(ctx.svc);
  ctx.monitorId = (
    await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/monitor', {
      name: 'Halle',
      organizationID: ctx.org.orgId,
    })
  ).body.id;
});
recheck.after(async (ctx) => {
  await ctx.svc.close();
});

recheck(
  'with nothing revoked a pass reads no token; after a revocation one pass checks them, drops ' +
    'only the revoked screen, and the next ones read none again',
  async (ctx) => {
    // Counted from before the handshakes, so that a handshake that did not tag its socket shows.
    const { Token, CredentialChange } = identityModels(ctx.svc.db);
    const [readToken, readMark] = [Token.findById, CredentialChange.findById];
    const reads = { tokens: 0, marks: 0 };
    Token.findById = ((...args: Parameters<typeof readToken>) => (
      reads.tokens++,
      readToken.apply(Token, args)
    )) as typeof readToken;
    CredentialChange.findById = ((...args: Parameters<typeof readMark>) => (
      reads.marks++,
      readMark.apply(CredentialChange, args)
    )) as typeof readMark;
    const screens = [];
    for (const name of ['Halle 1', 'Halle 2', 'Halle 3']) {
      const { id: screenId, token } = await pairScreen(ctx.svc, { apiKey: ctx.org.apiKey }, ctx.monitorId, name);
      const wall = await connectScreen(ctx.svc.url, token, 'screen-token');
      assert.ok('data' in (await wall.subscribe(ctx.monitorId)));
      const state = { wall, screenId, dropped: false };
      wall.socket.on('disconnect', () => (state.dropped = true));
      screens.push(state);
    }
    const passes = async (n: number, what: string) => {
      const until = reads.marks + n;
      await eventually(
        async () => reads.marks,
        (marks) => marks >= until,
        what,
      );
    };
    try {
      await passes(3, 'three recheck passes');
      // Each handshake read its screen's token once; a socket it tagged with the mark it read under is
      // not read again by the passes.
      assert.is(reads.tokens, 3, 'the tokens read by the handshakes and by passes with nothing changed');

      const revoked = screens[1];
      const doc = await screenModels(ctx.svc.db).Screen.findById(String(revoked.screenId)).lean();
      await ctx.svc.identity.revokeToken(doc!.tokenId!);
      await eventually(
        async () => revoked.dropped,
        (dropped) => dropped,
        'the revoked screen dropped',
      );
      // The pass that dropped it read the three tokens once (passes take turns; a screen the server
      // disconnected does not reconnect by itself).
      await passes(2, 'the passes after the drop');
      const afterDrop = reads.tokens;
      assert.is(afterDrop, 6, "the handshakes' reads and one pass's after the revocation");
      await passes(3, 'three more passes');
      assert.is(reads.tokens, afterDrop, 'the tokens read by passes after the one that checked them');
      assert.equal(
        screens.map((s) => s.dropped),
        [false, true, false],
      );
    } finally {
      Token.findById = readToken;
      CredentialChange.findById = readMark;
      for (const s of screens) s.wall.close();
    }
  },
);

recheck('a revocation whose mark was never written still drops its screen, at the next full pass', async () => {
  const svc = await startTestService({
    CREDENTIAL_CACHE_MS: '60000',
    TOKEN_RECHECK_MS: '100',
    TOKEN_FULL_RECHECK_MS: '1000',
  });
  try {
    const org = await createOrg(svc);
    const monitorId = (
      await client(svc.url, { apiKey: org.apiKey }).post('/api/v1/monitor', {
        name: 'Halle',
        organizationID: org.orgId,
      })
    ).body.id;
    const { id: screenId, token } = await pairScreen(svc, { apiKey: org.apiKey }, monitorId, 'Halle 1');
    const wall = await connectScreen(svc.url, token, 'screen-token');
    try {
      assert.ok('data' in (await wall.subscribe(monitorId)));
      let dropped = false;
      wall.socket.on('disconnect', (reason) => (dropped = reason === 'io server disconnect'));
      const markBefore = await credentialChangeMark(svc.db);
      // The revocation's own write, and no mark after it: as when writing the mark failed.
      const doc = await screenModels(svc.db).Screen.findById(String(screenId)).lean();
      assert.is(
        (await identityModels(svc.db).Token.updateOne({ tokenId: doc!.tokenId! }, { $set: { revokedAt: new Date() } }))
          .modifiedCount,
        1,
      );
      await eventually(
        async () => dropped,
        (d) => d,
        'the screen of the revoked token dropped',
      );
      assert.is(await credentialChangeMark(svc.db), markBefore, 'no mark was written');
    } finally {
      wall.close();
    }
  } finally {
    await svc.close();
  }
});

recheck.run();
