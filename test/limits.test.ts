// Hard-to-break: inputs and loads that must end in a clear 4xx or 503, never a 500, and never lose data.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { MAX_EVENTS } from '../common/monitor-data.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
}

const limits = suite<Ctx>('limits', {} as Ctx);

limits.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.org = await createOrg(ctx.svc);
});
limits.after(async (ctx) => {
  await ctx.svc.close();
});

const api = (ctx: Ctx) => client(ctx.svc.url, { apiKey: ctx.org.apiKey });
const monitor = async (ctx: Ctx) =>
  (await api(ctx).post('/api/v1/monitor', { name: 'Wache', organizationID: ctx.org.orgId })).body.id as number;

limits(
  '400 invalid_body for a body nested deeper than 32 levels (an open map would otherwise overflow the stack)',
  async (ctx) => {
    const id = await monitor(ctx);
    // Sent as text: JSON.stringify itself cannot build it.
    const deep = '{"d":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const res = await api(ctx).post(`/api/v1/monitor/${id}/data/meta`, `{"tables":${deep}}`);
    assert.is(res.status, 400);
    assert.is(res.body.error, 'invalid_body');
    const created = await api(ctx).post(
      '/api/v1/monitor',
      `{"name":"Deep","organizationID":${ctx.org.orgId},"configuration":{"x":${deep}}}`,
    );
    assert.is(created.status, 400);
    let ok: unknown = 1;
    for (let i = 0; i < 25; i++) ok = { d: ok };
    assert.is((await api(ctx).post(`/api/v1/monitor/${id}/data/meta`, { tables: ok })).status, 200);
  },
);

limits(
  `alarmDataList keeps the newest ${MAX_EVENTS} events however many alarms without an end date are set`,
  async (ctx) => {
    const id = await monitor(ctx);
    for (let i = 1; i <= MAX_EVENTS + 6; i++) {
      const start = new Date(Date.UTC(2026, 10, 22, 8, i)).toISOString();
      const res = await api(ctx).post(`/api/v1/monitor/${id}/data/alarming`, {
        eventId: 1000 + i,
        event: `Einsatz ${i}`,
        eventStartDate: start,
        message: 'x'.repeat(9_000),
      });
      assert.is(res.status, 200);
    }
    const data = (await api(ctx).get(`/api/v1/monitor/${id}/data`)).body;
    const ids = Object.keys(data.alarmDataList)
      .map(Number)
      .sort((a, b) => a - b);
    assert.is(ids.length, MAX_EVENTS);
    assert.is(ids[0], 1007);
    assert.is(ids.at(-1), 1000 + MAX_EVENTS + 6);
    assert.is(data.alarmData.eventId, 1000 + MAX_EVENTS + 6);
  },
);

limits(
  'a flood of concurrent writes to one monitor is answered 200 or 503 with Retry-After, never ' +
    '500, and no write is lost',
  async (ctx) => {
    const id = await monitor(ctx);
    assert.is(
      (await api(ctx).post(`/api/v1/monitor/${id}/data/alarming`, { event: 'B3', awaitingResponses: 0 })).status,
      200,
    );
    const replies = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        api(ctx).patch(`/api/v1/monitor/${id}/data/alarming`, { awaitingResponses: i }),
      ),
    );
    const statuses = new Set(replies.map((r) => r.status));
    assert.ok(
      [...statuses].every((s) => s === 200 || s === 503),
      [...statuses].join(','),
    );
    for (const r of replies.filter((r) => r.status === 503)) assert.ok(r.headers.get('retry-after'));
    const saved = replies.filter((r) => r.status === 200).length;
    const etag = (await api(ctx).get(`/api/v1/monitor/${id}/data`)).headers.get('etag');
    assert.is(etag, `"${saved + 1}"`, 'every answered write is exactly one version');
  },
);

limits.run();
