// Availability (docs/people.md "Availability", W2, W3): said by the member himself, counted for his
// organization, told to its room; an `until` that passes makes it unknown; strangers and keys refused.
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  other: OrgFixture;
}

const availability = suite<Ctx>('availability: W2 and W3', {} as Ctx);

availability.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.org = await createOrg(ctx.svc);
  ctx.other = await createOrg(ctx.svc);
});
availability.after(async (ctx) => ctx.svc.close());

const summary = (ctx: Ctx, org = ctx.org) =>
  client(ctx.svc.url, { apiKey: org.apiKey }).get(`/api/v1/organizations/${org.orgId}/availability`);

availability('a member says he can come; the counts and his room say so', async (ctx) => {
  const before = await summary(ctx);
  assert.is(before.status, 200, JSON.stringify(before.body));
  assert.equal(
    [before.body.available, before.body.unavailable, before.body.unknown],
    [0, 0, 2],
    'admin and member said nothing',
  );
  const room = await connectScreen(ctx.svc.url, ctx.org.apiKey);
  await room.waitFor(() => room.socket.connected, WAIT_MS, 'the room connects');
  try {
    const member = client(ctx.svc.url, { pat: ctx.org.member.token });
    const said = await member.put('/api/v1/availability', {
      organizationID: ctx.org.orgId,
      available: true,
      note: ' ab 18 Uhr ',
    });
    assert.is(said.status, 200, JSON.stringify(said.body));
    assert.equal(
      { ...said.body, changedAt: typeof said.body.changedAt },
      {
        userId: ctx.org.member.userId,
        organizationId: ctx.org.orgId,
        available: true,
        until: null,
        note: 'ab 18 Uhr',
        changedAt: 'string',
      },
    );
    await room.waitFor(
      () => room.events.some((e) => e.name === 'availability:changed'),
      WAIT_MS,
      'availability:changed',
    );
    assert.equal(room.events.find((e) => e.name === 'availability:changed')!.payload, {
      organizationId: ctx.org.orgId,
      available: 1,
      unavailable: 0,
      unknown: 1,
      nextChangeAt: null,
    });
    const after = (await summary(ctx)).body;
    assert.equal([after.available, after.unavailable, after.unknown], [1, 0, 1]);
    const his = after.members.find((m: { userId: number }) => m.userId === ctx.org.member.userId);
    assert.equal(his, {
      userId: ctx.org.member.userId,
      name: his.name,
      available: true,
      until: null,
      note: 'ab 18 Uhr',
    });
    // The other organization counts nothing of it.
    assert.equal((await summary(ctx, ctx.other)).body.available, 0);
  } finally {
    room.close();
  }
});

availability(
  'an until that passes makes him unknown, and nextChangeAt names when; a past until clears at once',
  async (ctx) => {
    const admin = client(ctx.svc.url, { pat: ctx.org.admin.token });
    const until = new Date(Date.now() + 1_500).toISOString();
    const said = await admin.put('/api/v1/availability', { organizationID: ctx.org.orgId, available: false, until });
    assert.is(said.status, 200, JSON.stringify(said.body));
    assert.is(said.body.until, until);
    const now = (await summary(ctx)).body;
    // Read before the until passed (the answer names it), or after: either way consistent.
    if (now.nextChangeAt) assert.is(now.nextChangeAt, until);
    const deadline = Date.now() + WAIT_MS;
    let body = now;
    while (
      Date.now() < new Date(until).getTime() + 50 ||
      body.members.some((m: { until: string | null }) => m.until === until)
    ) {
      if (Date.now() > deadline) throw new Error(`still counted after its until: ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 100));
      body = (await summary(ctx)).body;
    }
    const his = body.members.find((m: { userId: number }) => m.userId === ctx.org.admin.userId);
    assert.is(his.available, null);
    assert.is(body.nextChangeAt, null);

    await admin.put('/api/v1/availability', { organizationID: ctx.org.orgId, available: true });
    const cleared = await admin.put('/api/v1/availability', {
      organizationID: ctx.org.orgId,
      available: true,
      until: new Date(Date.now() - 60_000).toISOString(),
    });
    assert.is(cleared.status, 200);
    assert.is(cleared.body.available, null);
    const mine = (await summary(ctx)).body.members.find((m: { userId: number }) => m.userId === ctx.org.admin.userId);
    assert.is(mine.available, null);
  },
);

availability('a key, a stranger and bad bodies are refused and change nothing', async (ctx) => {
  const before = (await summary(ctx)).body;
  const key = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  expectError(
    await key.put('/api/v1/availability', { organizationID: ctx.org.orgId, available: true }),
    403,
    'forbidden',
  );
  const stranger = client(ctx.svc.url, { pat: ctx.other.member.token });
  expectError(
    await stranger.put('/api/v1/availability', { organizationID: ctx.org.orgId, available: true }),
    403,
    'forbidden',
  );
  expectError(await stranger.get(`/api/v1/organizations/${ctx.org.orgId}/availability`), 403, 'forbidden');
  const member = client(ctx.svc.url, { pat: ctx.org.member.token });
  for (const body of [
    {},
    { organizationID: ctx.org.orgId },
    { organizationID: ctx.org.orgId, available: 'yes' },
    { organizationID: ctx.org.orgId, available: true, until: 'morgen' },
    { organizationID: ctx.org.orgId, available: true, note: 'a\nb' },
    { organizationID: ctx.org.orgId, available: true, note: 'x'.repeat(201) },
    { organizationID: ctx.org.orgId, available: true, userId: ctx.org.admin.userId },
  ]) {
    const res = await member.put('/api/v1/availability', body);
    expectError(res, 400, 'invalid_body');
  }
  assert.equal((await summary(ctx)).body, before);
});

availability.run();
