// Concurrent partial updates in the app, sms and call areas (issue 20, item 3): every acknowledged
// field change survives — S2/C2 alarming configurations, S10/C9 numbers, and a device's replacement
// (A4) racing its deactivation by a dead push token (A5). Requests alternate between two service
// instances on one database (FerretDB here, whose updates are read-modify-write without a lock).
import * as assert from 'uvu/assert';
import { client, type Credential } from './helpers/http.js';
import { channelSuite, key, member, type Ctx } from './helpers/channels.js';
import { startPushFakes } from './helpers/push-fakes.js';
import { startTestService, type TestService } from './helpers/service.js';

const ROUNDS = 5;
const fakes = await startPushFakes();
const s = channelSuite('concurrent partial updates of configurations, numbers and devices', async () => fakes.env);
// A second service instance on the same database: another process's queues and caches.
let other: TestService;
s.before(async () => {
  other = await startTestService(fakes.env);
});
s.after(async () => {
  await other.close();
  await fakes.close();
});

/** A client of the first instance for even `i`, of the second for odd. */
const via = (ctx: Ctx, i: number, auth: Credential) => client((i % 2 ? other : ctx.svc).url, auth);

let n = 0;
const gsm = () => `00491761${String(1_000_000 + ++n)}`;

for (const channel of ['sms', 'call'] as const) {
  const label = channel === 'sms' ? 'S2' : 'C2';
  s(
    `${label}: {id,pin}, {id,gsm}${channel === 'call' ? ' and {id,alarmTemplateID}' : ''} at once ` +
      `keep every change, in ${ROUNDS} rounds`,
    async (ctx) => {
      const path = `/api/v1/${channel}/alarming`;
      const extra = channel === 'call' ? { alarmTemplateID: 1 } : {};
      for (let round = 0; round < ROUNDS; round++) {
        const created = await client(ctx.svc.url, key(ctx.a)).post(path, {
          gsm: gsm(),
          organizationID: ctx.a.orgId,
          pin: '1111',
          ...extra,
        });
        assert.is(created.status, 200, JSON.stringify(created.body));
        const id = created.body.id;
        const changes: Array<Record<string, unknown>> = [{ pin: String(2000 + round) }, { gsm: gsm() }];
        if (channel === 'call') changes.push({ alarmTemplateID: 100 + round });
        const answers = await Promise.all(
          changes.map((change, i) => via(ctx, i + round, key(ctx.a)).put(path, { id, ...change })),
        );
        for (const r of answers) assert.is(r.status, 200, JSON.stringify(r.body));
        const listed = await client(ctx.svc.url, key(ctx.a)).get(`${path}?organization_id=${ctx.a.orgId}`);
        const stored = listed.body.find((c: any) => c.id === id);
        assert.equal(stored, { ...created.body, ...Object.assign({}, ...changes) }, `round ${round}`);
      }
    },
  );
}

for (const { label, resource, byPath } of [
  { label: 'S10', resource: 'sms/mobile', byPath: false },
  { label: 'C9', resource: 'call/phone', byPath: true },
]) {
  s(`${label}: {name}, {active} and {gsm} at once keep every change, in ${ROUNDS} rounds`, async (ctx) => {
    const base = `/api/v1/${resource}`;
    for (let round = 0; round < ROUNDS; round++) {
      const created = await client(ctx.svc.url, member(ctx.a)).post(base, {
        gsm: gsm(),
        name: 'before',
        ownerID: ctx.a.member.userId,
        active: true,
      });
      assert.is(created.status, 200, JSON.stringify(created.body));
      const id = created.body.id;
      const changes = [{ name: `after ${round}` }, { active: false }, { gsm: gsm() }];
      const answers = await Promise.all(
        changes.map((change, i) =>
          via(ctx, i + round, member(ctx.a)).put(byPath ? `${base}/${id}` : base, byPath ? change : { id, ...change }),
        ),
      );
      for (const r of answers) assert.is(r.status, 200, JSON.stringify(r.body));
      const read = await client(ctx.svc.url, member(ctx.a)).get(`/api/v1/${resource.split('/')[0]}/${id}`);
      const stored = Array.isArray(read.body) ? read.body[0] : read.body;
      assert.equal(stored, { ...created.body, ...Object.assign({}, ...changes) }, `round ${round}`);
    }
  });
}

s(`A4 racing the deactivation of a dead push token (A5): a replacement is kept, in ${ROUNDS} rounds`, async (ctx) => {
  const owner = ctx.a.member.userId;
  for (let round = 0; round < ROUNDS; round++) {
    const token = (round + 10).toString(16).padStart(2, '0').repeat(32);
    fakes.apns.dead.add(token);
    const device = {
      name: `Phone ${round}`,
      os: 'iOS 17',
      ownerID: owner,
      pushToken: token,
      pushTokenDevelopment: false,
      active: true,
    };
    const created = await client(ctx.svc.url, member(ctx.a)).post('/api/v1/app/device', device);
    assert.is(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => via(ctx, i, member(ctx.a)).post(`/api/v1/app/device/${id}/test-push`)),
      ...Array.from({ length: 4 }, (_, i) =>
        via(ctx, i, member(ctx.a)).put(`/api/v1/app/device/${id}`, {
          ...device,
          name: `Renamed ${round}.${i}`,
          os: 'iPadOS 18',
        }),
      ),
    ]);
    for (const r of answers) assert.is(r.status, 200, JSON.stringify(r.body));
    const stored = (await client(ctx.svc.url, member(ctx.a)).get(`/api/v1/app/device/${id}`)).body;
    assert.match(stored.name, `Renamed ${round}.`, `round ${round}: ${stored.name}`);
    assert.is(stored.os, 'iPadOS 18', `round ${round}`);
  }
});

s.run();
