// Alarm data writes are bounded per organization (docs/operating.md, "Alarm data writes"): while one organization
// holds all its places and fills its queue, another organization's alarm is written at once, and the
// first one's excess is answered 503 with Retry-After. Held requests are ones whose body is still
// coming: a place is taken before the body is read.
import http from 'node:http';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client, request } from './helpers/http.js';
import { WAIT_MS } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
}

const gate = suite<Ctx>('alarm data writes: a bound per organization', {} as Ctx);

gate.before(async (ctx) => {
  ctx.svc = await startTestService({
    DATA_WRITES_PER_ORGANIZATION: '2',
    DATA_WRITE_QUEUE_PER_ORGANIZATION: '3',
    DATA_WRITE_WAIT_MS: '60000',
  });
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
});
gate.after(async (ctx) => {
  await ctx.svc.close();
});

/** A write whose body stops halfway until `finish` is called; `answer` is its response. */
function heldWrite(url: string, apiKey: string, monitorId: number) {
  const body = Buffer.from(JSON.stringify({ event: 'B: Flut', message: 'x'.repeat(10_000) }));
  const req = http.request(`${url}/api/v1/monitor/${monitorId}/data/alarming`, {
    method: 'POST',
    headers: { 'API-TOKEN': apiKey, 'Content-Type': 'application/json', 'Content-Length': body.length },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, 100));
  return { answer, finish: () => req.end(body.subarray(100)) };
}

async function gauge(ctx: Ctx, name: string): Promise<number> {
  const text = String((await request(ctx.svc.url, 'GET', '/metrics')).body);
  const found = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return found ? Number(found[1]) : NaN;
}

async function until(ctx: Ctx, name: string, value: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while ((await gauge(ctx, name)) !== value) {
    assert.ok(Date.now() < deadline, `${name} never reached ${value} (it is ${await gauge(ctx, name)})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

gate(
  "B holds its places and fills its queue: A's alarm is written at once, B's excess gets 503, " +
    'every held write completes',
  async (ctx) => {
    const monitor = async (org: OrgFixture) =>
      (
        await client(ctx.svc.url, { apiKey: org.apiKey }).post('/api/v1/monitor', {
          name: 'Wache',
          organizationID: org.orgId,
        })
      ).body.id as number;
    const [mineA, mineB] = [await monitor(ctx.a), await monitor(ctx.b)];
    const held = [heldWrite(ctx.svc.url, ctx.b.apiKey, mineB), heldWrite(ctx.svc.url, ctx.b.apiKey, mineB)];
    await until(ctx, 'alarmhub_data_writes_in_flight', 2);
    held.push(
      heldWrite(ctx.svc.url, ctx.b.apiKey, mineB),
      heldWrite(ctx.svc.url, ctx.b.apiKey, mineB),
      heldWrite(ctx.svc.url, ctx.b.apiKey, mineB),
    );
    await until(ctx, 'alarmhub_data_writes_waiting', 3);

    // B's next write finds its queue full.
    const refused = await client(ctx.svc.url, { apiKey: ctx.b.apiKey }).post(`/api/v1/monitor/${mineB}/data/alarming`, {
      event: 'B: noch eine',
    });
    expectError(refused, 503, 'unavailable');
    assert.is(refused.headers.get('retry-after'), '1');
    // A's alarm does not wait behind any of B's.
    const alarm = await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post(`/api/v1/monitor/${mineA}/data/alarming`, {
      eventId: 1,
      event: 'A: Brand',
    });
    assert.is(alarm.status, 200, JSON.stringify(alarm.body));
    assert.is(await gauge(ctx, 'alarmhub_data_writes_waiting'), 3, "B's writes are still waiting: A's went past them");

    for (const write of held) write.finish();
    const answers = await Promise.all(held.map((w) => w.answer));
    assert.equal(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200],
      JSON.stringify(answers),
    );
    await until(ctx, 'alarmhub_data_writes_in_flight', 0);
    assert.is(await gauge(ctx, 'alarmhub_data_writes_waiting'), 0);
    assert.ok((await gauge(ctx, 'alarmhub_data_writes_refused_total')) >= 1);
  },
);

gate("another organization's key is refused (404) before it could take a place or be read", async (ctx) => {
  const mineA = (
    await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post('/api/v1/monitor', {
      name: 'Wache',
      organizationID: ctx.a.orgId,
    })
  ).body.id as number;
  const foreign = heldWrite(ctx.svc.url, ctx.b.apiKey, mineA);
  const answer = await foreign.answer;
  assert.is(answer.status, 404, 'answered without its body');
  foreign.finish();
  assert.is(await gauge(ctx, 'alarmhub_data_writes_in_flight'), 0);
});

gate.run();
