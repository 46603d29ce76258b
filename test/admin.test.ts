// The admin command line (docs/api.md "Authentication and permissions") as a user runs it: every command prints one
// JSON object on stdout, and what it creates works against the API.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { runAdmin, type CliResult } from './helpers/cli.js';
import { expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { startTestService, testDbUri, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
}

const admin = suite<Ctx>('admin command line', {} as Ctx);
const env = () => ({ MONGODB_URI: testDbUri(), LOG_LEVEL: 'silent' });
const run = (...args: string[]) => runAdmin(args, env());

/** Asserts exit 0 and exactly one JSON object on stdout, and returns it. */
function ok(res: CliResult): any {
  assert.is(res.code, 0, `exit ${res.code}; stdout ${res.stdout}; stderr ${res.stderr}`);
  assert.is(res.stdout.split('\n').filter(Boolean).length, 1, `one line on stdout: ${res.stdout}`);
  assert.type(res.json, 'object');
  return res.json;
}

const state: {
  orgId?: number;
  adminId?: number;
  memberId?: number;
  apiKey?: { id: number; token: string };
  pat?: { id: number; token: string };
  memberPat?: { id: number; token: string };
} = {};

admin.before(async (ctx) => {
  ctx.svc = await startTestService();
});

admin.after(async (ctx) => {
  await ctx.svc.close();
});

admin('exit 2 with a JSON usage error for an unknown command, a missing flag or a bad ID', async () => {
  const [unknown, noName, badRole, badId] = await Promise.all([
    run('frobnicate'),
    run('org', 'create'),
    run('member', 'add', '--org', '1', '--user', '1', '--role', 'owner'),
    run('token', 'revoke', '--id', '9007199254740993'),
  ]);
  for (const res of [unknown, noName, badRole, badId]) {
    assert.is(res.code, 2, `exit ${res.code}: ${res.stdout} ${res.stderr}`);
    assert.is(res.stdout.split('\n').filter(Boolean).length, 1);
    assert.is(res.json.error, 'usage');
    assert.type(res.json.message, 'string');
  }
  assert.match(noName.json.message, '--name');
  assert.match(badRole.json.message, '--role');
  assert.match(unknown.stderr, 'usage:');
});

admin(
  'help lists every command as one JSON object, exit 0; member remove → {organizationId, userId, removed}',
  async () => {
    const help = await run('help');
    assert.is(help.code, 0);
    assert.ok(help.json.usage.includes('member remove --org ID --user ID'), help.stdout);
    const org = (await run('org', 'create', '--name', 'Wache West')).json;
    const user = (await run('user', 'create', '--name', 'Kim')).json;
    await run('member', 'add', '--org', String(org.id), '--user', String(user.id), '--role', 'member');
    const removed = await run('member', 'remove', '--org', String(org.id), '--user', String(user.id));
    assert.is(removed.code, 0);
    assert.equal(removed.json, { organizationId: org.id, userId: user.id, removed: true });
    const again = await run('member', 'remove', '--org', String(org.id), '--user', String(user.id));
    assert.is(again.code, 1);
    assert.is(again.json.error, 'not_found');
  },
);

admin('exit 1 with a JSON not_found error for an organization that does not exist', async () => {
  const res = await run('apikey', 'create', '--org', '9007199254740991', '--name', 'ghost');
  assert.is(res.code, 1);
  assert.is(res.json.error, 'not_found');
});

admin('org create → {id, name}; user create → {id, name}; member add → {organizationId, userId, role}', async () => {
  const org = ok(await run('org', 'create', '--name', 'Fire Dept North'));
  assert.equal(Object.keys(org).sort(), ['id', 'name']);
  assert.ok(Number.isSafeInteger(org.id) && org.id > 0);
  assert.is(org.name, 'Fire Dept North');
  state.orgId = org.id;

  const [alex, sam] = await Promise.all([
    run('user', 'create', '--name', 'Alex'),
    run('user', 'create', '--name', 'Sam'),
  ]).then((r) => r.map(ok));
  assert.equal(Object.keys(alex).sort(), ['id', 'name']);
  assert.is(alex.name, 'Alex');
  assert.is(sam.name, 'Sam');
  assert.is.not(alex.id, sam.id);
  state.adminId = alex.id;
  state.memberId = sam.id;

  const asAdmin = ok(await run('member', 'add', '--org', String(org.id), '--user', String(alex.id), '--role', 'admin'));
  assert.equal(asAdmin, { organizationId: org.id, userId: alex.id, role: 'admin', units: [] });
  const asMember = ok(
    await run(
      'member',
      'add',
      '--org',
      String(org.id),
      '--user',
      String(sam.id),
      '--role',
      'member',
      '--units',
      'HLF 20/1, ELW 1',
    ),
  );
  assert.equal(asMember, { organizationId: org.id, userId: sam.id, role: 'member', units: ['HLF 20/1', 'ELW 1'] });
  // Added again (another role): the units stay unless given; member units changes them alone.
  const again = ok(await run('member', 'add', '--org', String(org.id), '--user', String(sam.id), '--role', 'member'));
  assert.equal(again.units, ['HLF 20/1', 'ELW 1']);
  const moved = ok(
    await run('member', 'units', '--org', String(org.id), '--user', String(sam.id), '--units', 'DLK 23'),
  );
  assert.equal(moved, { organizationId: org.id, userId: sam.id, role: 'member', units: ['DLK 23'] });
});

admin('apikey create and pat create → {id, token} with distinct random tokens', async () => {
  const [key, pat, memberPat] = await Promise.all([
    run('apikey', 'create', '--org', String(state.orgId), '--name', 'station'),
    run('pat', 'create', '--user', String(state.adminId), '--name', 'laptop'),
    run('pat', 'create', '--user', String(state.memberId), '--name', 'phone'),
  ]).then((r) => r.map(ok));
  for (const t of [key, pat, memberPat]) {
    assert.equal(Object.keys(t).sort(), ['id', 'token']);
    assert.ok(Number.isSafeInteger(t.id) && t.id > 0);
    assert.ok(t.token.length >= 43, 'at least 32 random bytes');
  }
  assert.is(new Set([key.token, pat.token, memberPat.token]).size, 3);
  state.apiKey = key;
  state.pat = pat;
  state.memberPat = memberPat;
});

admin('org limit → {organizationId, recordLimit}', async () => {
  const res = ok(await run('org', 'limit', '--org', String(state.orgId), '--records', '500'));
  assert.equal(res, { organizationId: state.orgId, recordLimit: 500 });
});

admin(
  "org list shows the limit that applies: the organization's own, else THINGS_RECORD_LIMIT (10000 unless set)",
  async () => {
    const plain = ok(await run('org', 'create', '--name', 'No Own Limit'));
    const find = (res: CliResult, id: number) => ok(res).organizations.find((o: { id: number }) => o.id === id);
    const [byDefault, bySetting] = await Promise.all([
      run('org', 'list'),
      runAdmin(['org', 'list'], { ...env(), THINGS_RECORD_LIMIT: '1234' }),
    ]);
    assert.equal(
      { ...find(byDefault, plain.id), createdAt: 0 },
      { id: plain.id, name: 'No Own Limit', recordLimit: 10_000, recordLimitFrom: 'THINGS_RECORD_LIMIT', createdAt: 0 },
    );
    assert.is(find(bySetting, plain.id).recordLimit, 1234);
    assert.equal(
      [find(byDefault, state.orgId!).recordLimit, find(bySetting, state.orgId!).recordLimit],
      [500, 500],
      'an own limit wins over the setting',
    );
  },
);

admin('every command names the database it talks to on stderr, while stdout stays one JSON object', async () => {
  const res = await run('org', 'list');
  ok(res);
  assert.is(res.stderr, `alarm-hub admin: database: MongoDB at ${new URL(testDbUri()).toString()} (MONGODB_URI)\n`);
});

admin('the created API key and admin token work against the API: M3 201, M1 200', async (ctx) => {
  const byKey = client(ctx.svc.url, { apiKey: state.apiKey!.token });
  const created = await byKey.post('/api/v1/monitor', { name: 'Made by CLI key', organizationID: state.orgId });
  assert.is(created.status, 201);
  const byPat = client(ctx.svc.url, { pat: state.pat!.token });
  const second = await byPat.post('/api/v1/monitor', { name: 'Made by CLI admin', organizationID: state.orgId });
  assert.is(second.status, 201);
  const listed = await byPat.get(`/api/v1/monitor?organization=${state.orgId}`);
  assert.is(listed.status, 200);
  assert.equal(
    listed.body.map((m: { name: string }) => m.name),
    ['Made by CLI key', 'Made by CLI admin'],
  );
});

admin('the member added by the CLI reads (M1 200) but may not write (M3 403)', async (ctx) => {
  const c = client(ctx.svc.url, { pat: state.memberPat!.token });
  assert.is((await c.get(`/api/v1/monitor?organization=${state.orgId}`)).status, 200);
  expectError(await c.post('/api/v1/monitor', { name: 'Nope', organizationID: state.orgId }), 403, 'forbidden');
});

admin('invite → {code, link, expiresAt}: the code joins (P2) as an admin of the organization', async (ctx) => {
  const org = await ctx.svc.identity.createOrganization('Invited by the command');
  const made = ok(
    await runAdmin(['invite', '--org', String(org.id), '--name', 'Alex', '--role', 'admin'], {
      ...env(),
      PUBLIC_URL: 'https://alarm.example.org/',
    }),
  );
  assert.equal(Object.keys(made).sort(), ['code', 'expiresAt', 'link']);
  assert.is(made.link, `https://alarm.example.org/join/${made.code}`);
  const joined = await request(ctx.svc.url, 'POST', '/api/v1/join', { body: { code: made.code } });
  assert.is(joined.status, 201, JSON.stringify(joined.body));
  assert.equal([joined.body.organizationId, joined.body.role, joined.body.user.name], [org.id, 'admin', 'Alex']);
  const missing = await runAdmin(['invite', '--org', '999999', '--name', 'Alex', '--role', 'admin'], env());
  assert.is(missing.code, 1);
  assert.is(missing.json.error, 'not_found');
});

admin('token revoke → {revoked: true}; afterwards the token gets 401 and other tokens still work', async (ctx) => {
  const res = ok(await run('token', 'revoke', '--id', String(state.apiKey!.id)));
  assert.equal(res, { revoked: true });
  const path = `/api/v1/monitor?organization=${state.orgId}`;
  expectError(await client(ctx.svc.url, { apiKey: state.apiKey!.token }).get(path), 401, 'unauthorized');
  assert.is((await client(ctx.svc.url, { pat: state.pat!.token }).get(path)).status, 200);
  ok(await run('token', 'revoke', '--id', String(state.pat!.id)));
  expectError(await client(ctx.svc.url, { pat: state.pat!.token }).get(path), 401, 'unauthorized');
});

admin('usage errors answer at once without a database; unknown commands list the valid ones', async () => {
  const unreachable = { MONGODB_URI: 'mongodb://127.0.0.1:1/', LOG_LEVEL: 'silent' };
  const started = Date.now();
  const [badId, unknown] = await Promise.all([
    runAdmin(['member', 'add', '--org', 'x1', '--user', '1', '--role', 'admin'], unreachable),
    runAdmin(['org', 'destroy'], unreachable),
  ]);
  assert.ok(Date.now() - started < 15_000);
  assert.is(badId.code, 2);
  assert.is(badId.json.message, '--org must be a positive integer up to 2^53-1');
  assert.is(unknown.code, 2);
  assert.match(unknown.json.message, 'unknown command "org destroy"');
  assert.ok(unknown.json.commands.includes('token list --org ID | --user ID'), unknown.stdout);
  assert.not.match(badId.stderr + unknown.stderr, 'database:', 'no database was started');
  const both = await runAdmin(['token', 'list', '--org', '1', '--user', '2'], unreachable);
  assert.is(both.code, 2);
  assert.is(both.json.message, 'give exactly one of --org and --user');
});

admin(
  'org list, user list, member list --org and token list --org|--user print ids, names, kinds ' +
    'and dates, never a secret',
  async (ctx) => {
    const orgs = ok(await run('org', 'list')).organizations;
    const org = orgs.find((o: { id: number }) => o.id === state.orgId);
    assert.equal(Object.keys(org).sort(), ['createdAt', 'id', 'name', 'recordLimit', 'recordLimitFrom']);
    assert.is(org.name, 'Fire Dept North');
    assert.is(org.recordLimit, 500);
    assert.is(org.recordLimitFrom, 'org limit');
    // Alex and Sam were created at once: their IDs may come in either order, and lists are by ID.
    const byId = <T extends { id?: number; userId?: number }>(list: T[]) =>
      [...list].sort((x, y) => (x.id ?? x.userId!) - (y.id ?? y.userId!));
    const users = ok(await run('user', 'list', '--org', String(state.orgId))).users;
    assert.equal(users, byId(users), 'listed by ID');
    const alex = users.find((u: { id: number }) => u.id === state.adminId);
    assert.is(alex.name, 'Alex');
    assert.equal(alex.memberships, [{ organizationId: state.orgId, role: 'admin', units: [] }]);
    const members = ok(await run('member', 'list', '--org', String(state.orgId)));
    assert.equal(members, {
      organizationId: state.orgId,
      members: byId([
        { userId: state.adminId!, name: 'Alex', role: 'admin', units: [] },
        { userId: state.memberId!, name: 'Sam', role: 'member', units: ['DLK 23'] },
      ]),
    });
    // A request with the member's token is recorded as its last use.
    await client(ctx.svc.url, { pat: state.memberPat!.token }).get(`/api/v1/monitor?organization=${state.orgId}`);
    // Recorded in the background (the request does not wait for it): look until it is there.
    const deadline = Date.now() + 20_000;
    let userTokens = ok(await run('token', 'list', '--user', String(state.memberId))).tokens;
    while (!userTokens[0]?.lastUsedAt && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      userTokens = ok(await run('token', 'list', '--user', String(state.memberId))).tokens;
    }
    assert.is(userTokens.length, 1);
    assert.equal(Object.keys(userTokens[0]).sort(), ['createdAt', 'id', 'kind', 'lastUsedAt', 'name', 'revokedAt']);
    assert.is(userTokens[0].kind, 'pat');
    assert.ok(Date.now() - Date.parse(userTokens[0].lastUsedAt) < 60_000);
    const orgTokens = ok(await run('token', 'list', '--org', String(state.orgId))).tokens;
    assert.ok(
      orgTokens.some(
        (t: { id: number; kind: string; revokedAt: string | null }) =>
          t.id === state.apiKey!.id && t.kind === 'apikey' && t.revokedAt,
      ),
    );
    const all = JSON.stringify([orgs, users, orgTokens, userTokens]);
    for (const secret of [state.apiKey!.token, state.pat!.token, state.memberPat!.token])
      assert.not.ok(all.includes(secret.slice(4)), 'no secret printed');
    const missing = await run('member', 'list', '--org', '9007199254740991');
    assert.is(missing.code, 1);
    assert.is(missing.json.error, 'not_found');
  },
);

admin('a command on a DATA_DIR no service runs on says that it started the database itself', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'alarm-hub-admin-'));
  try {
    const res = await runAdmin(['org', 'list'], { DATA_DIR: dataDir, MONGODB_URI: undefined, LOG_LEVEL: 'silent' });
    assert.is(res.code, 0, res.stderr);
    assert.equal(res.json, { organizations: [] });
    assert.match(res.stderr, `note: no service runs on DATA_DIR ${dataDir}; this command started its database itself`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

admin.run();
