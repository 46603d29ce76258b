// Sequential IDs stay unique and within 2^53-1 under concurrent creates; concurrent data writes each
// get their own version (docs/api.md "Base, formats, IDs", docs/hub.md "Protocol").
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { MAX_SAFE_ID } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

const BASE = '/api/v1/monitor';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
}

const ids = suite<Ctx>('IDs and versions under concurrency', {} as Ctx);

ids.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
});

ids.after(async (ctx) => {
  await ctx.svc.close();
});

function create(ctx: Ctx, org: OrgFixture, name: string) {
  return client(ctx.svc.url, { apiKey: org.apiKey }).post(BASE, { name, organizationID: org.orgId, standbyDelay: 15 });
}

function assertSequentialIds(found: number[], count: number) {
  assert.is(new Set(found).size, count, `duplicate IDs: ${found.join(', ')}`);
  assert.ok(
    found.every((id) => Number.isSafeInteger(id) && id > 0 && id <= MAX_SAFE_ID),
    found.join(', '),
  );
  const sorted = [...found].sort((x, y) => x - y);
  // Sequential-ish: a collision draws again, so small gaps are allowed, a scattered range is not.
  assert.ok(sorted[count - 1] - sorted[0] < count * 3, `IDs scattered: ${sorted.join(', ')}`);
}

ids('M3 201 x30 concurrent creates yield 30 distinct sequential positive IDs', async (ctx) => {
  const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => create(ctx, ctx.a, `Screen ${i}`)));
  assert.equal(
    replies.map((r) => r.status),
    Array(30).fill(201),
    JSON.stringify(replies.find((r) => r.status !== 201)?.body),
  );
  const found = replies.map((r) => r.body.id as number);
  assertSequentialIds(found, 30);
  const listed = await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).get(`${BASE}?organization=${ctx.a.orgId}`);
  assert.equal(
    listed.body.map((m: { id: number }) => m.id).sort((x: number, y: number) => x - y),
    [...found].sort((x, y) => x - y),
  );
});

ids('M3 201 concurrent creates in two organizations share one ID sequence without duplicates', async (ctx) => {
  const replies = await Promise.all(
    Array.from({ length: 24 }, (_, i) => create(ctx, i % 2 ? ctx.a : ctx.b, `Mixed ${i}`)),
  );
  assert.ok(
    replies.every((r) => r.status === 201),
    JSON.stringify(replies.find((r) => r.status !== 201)?.body),
  );
  assertSequentialIds(
    replies.map((r) => r.body.id),
    24,
  );
  for (const [i, r] of replies.entries()) assert.is(r.body.organizationID, (i % 2 ? ctx.a : ctx.b).orgId);
});

ids(
  'M8 200 x20 concurrent patches on one monitor: each gets its own version, 20 in all; M6 ETag is the last',
  async (ctx) => {
    const created = await create(ctx, ctx.a, 'Busy screen');
    const id = created.body.id as number;
    const c = client(ctx.svc.url, { apiKey: ctx.a.apiKey });
    assert.is(
      (await c.post(`${BASE}/${id}/data/alarming`, { eventId: 3, event: 'Concurrent', positiveResponses: 0 })).status,
      200,
    );
    const before = Number((await c.get(`${BASE}/${id}/data`)).headers.get('etag')!.slice(1, -1));
    assert.is(before, 1);

    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.patch(`${BASE}/${id}/data/alarming`, { positiveResponses: i + 1 })),
    );
    assert.ok(
      replies.every((r) => r.status === 200),
      JSON.stringify(replies.find((r) => r.status !== 200)?.body),
    );
    const versions = replies.map((r) => Number(/version (\d+)/.exec(r.body.message)?.[1]));
    assert.equal(
      [...versions].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => before + i + 1),
    );

    const data = await c.get(`${BASE}/${id}/data`);
    assert.is(data.headers.get('etag'), `"${before + 20}"`);
    // The write that took the last version decides the counter; the event survives every merge.
    const last = versions.indexOf(before + 20);
    assert.is(data.body.alarmData.positiveResponses, last + 1);
    assert.is(data.body.alarmData.event, 'Concurrent');
    assert.is(Object.keys(data.body.incidentLog).length, 21);
  },
);

ids.run();
