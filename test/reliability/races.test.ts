// Races between two service processes (RELIABILITY.md "Races"): guarantees hammered with concurrent
// requests spread over two processes — one in this test's process, one spawned as `npm start` runs it —
// on one database and one Redis, rate limits off. Each race runs in rounds; a violated guarantee fails
// at once.
import { suite } from '../helpers/suite.js';
import * as assert from 'uvu/assert';
import { TEST_KEY } from '../helpers/els-cobra.js';
import { client } from '../helpers/http.js';
import { spawnService, type ServiceProcess } from '../helpers/processes.js';
import { otherDatabase, startTestService, type TestService } from '../helpers/service.js';
import { buildWorld, type World } from '../helpers/world.js';
import { connectScreen } from '../helpers/screen.js';
import { figure } from './figures.js';

const ROUNDS = Number(process.env.RELIABILITY_RACE_ROUNDS || 3);

interface Ctx {
  one: TestService;
  two: ServiceProcess;
  world: World;
}

const races = suite<Ctx>('reliability: races between two processes', {} as Ctx);

races.before(async (ctx) => {
  const db = otherDatabase(`reliability-races-${process.pid}`);
  const env = {
    SECRETS_KEY: TEST_KEY,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `reliability-races-${process.pid}`,
  };
  ctx.one = await startTestService(env, { dbUri: db });
  ctx.two = await spawnService({ ...env, MONGODB_URI: db, RATE_LIMIT_PER_SECOND: '0' });
  ctx.world = await buildWorld(ctx.one, 'RACES');
});
races.after(async (ctx) => {
  // The spawned process first: it could otherwise write into the database after it was dropped.
  await ctx.two?.stop();
  await ctx.one?.db.conn.db!.dropDatabase().catch(() => undefined);
  await ctx.one?.close();
});

/** The API key's client on the test's process for even i, on the spawned one for odd i. */
// A 503 with Retry-After (a busy lock or the organization's write queue on a loaded machine) changed
// nothing and asks to be sent again: the race is decided by what the retries get, as a client's would.
type Reply = Awaited<ReturnType<ReturnType<typeof client>['get']>>;
async function retried(send: () => Promise<Reply>): Promise<Reply> {
  for (let attempt = 0; ; attempt++) {
    const reply = await send();
    const wait = Number(reply.headers.get('retry-after'));
    if (reply.status !== 503 || !Number.isFinite(wait) || attempt === 20) return reply;
    await new Promise((r) => setTimeout(r, Math.max(wait, 0.05) * 1000));
  }
}
const on = (ctx: Ctx, i: number) => {
  const c = client((i % 2 ? ctx.two : ctx.one).url, { apiKey: ctx.world.org.apiKey });
  return {
    get: (path: string) => retried(() => c.get(path)),
    post: (path: string, body?: unknown) => retried(() => c.post(path, body)),
    put: (path: string, body?: unknown) => retried(() => c.put(path, body)),
    patch: (path: string, body?: unknown) => retried(() => c.patch(path, body)),
    delete: (path: string) => retried(() => c.delete(path)),
  };
};

let checked = 0;
const check = (ok: boolean, message: string) => {
  checked++;
  assert.ok(ok, message);
};

races(
  'one gsm number, one alarming configuration: 20 racing creates on two processes, one wins, the rest 409',
  async (ctx) => {
    for (let round = 0; round < ROUNDS; round++) {
      const gsm = `0049172${String(round).padStart(7, '0')}`;
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          on(ctx, i).post('/api/v1/sms/alarming', { gsm, organizationID: ctx.world.org.orgId, pin: `${1000 + i}` }),
        ),
      );
      const won = replies.filter((r) => r.status === 200 || r.status === 201);
      check(
        won.length === 1 && replies.every((r) => r.status === 409 || r === won[0]),
        `round ${round}: ${replies.map((r) => r.status).join(',')}`,
      );
      const listed = (
        await on(ctx, round).get(`/api/v1/sms/alarming?organization_id=${ctx.world.org.orgId}`)
      ).body.filter((c: { gsm: string }) => c.gsm === gsm);
      check(listed.length === 1 && listed[0].id === won[0].body.id, `round ${round}: listed ${JSON.stringify(listed)}`);
    }
  },
);

races(
  'the record limit under racing bulk creates on two processes: never exceeded, every accepted ' +
    'record stored, usage agrees',
  async (ctx) => {
    const w = ctx.world;
    for (let round = 0; round < ROUNDS; round++) {
      const entity = (
        await on(ctx, 0).post('/api/v1/things/entities', {
          name: `RACES Runde ${round}`,
          organizationID: w.org.orgId,
          fields: [{ name: 'Name', type: 'text' }],
        })
      ).body;
      const held = (await on(ctx, 0).get(`/api/v1/things/usage?organization_id=${w.org.orgId}`)).body;
      const used = held.recordCount as number;
      // Room for 25 more; 10 bulks of 5 race for it.
      await ctx.one.identity.setRecordLimit(w.org.orgId, used + 25);
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          on(ctx, i).post(`/api/v1/things/entities/${entity.id}/records/bulk`, {
            records: Array.from({ length: 5 }, (_, j) => ({
              values: [{ fieldID: entity.fields[0].id, value: `r${round}-${i}-${j}` }],
            })),
          }),
        ),
      );
      // A bulk past the limit creates what fits and names the rest in failedEntries.
      check(
        replies.every((r) => r.status === 200),
        `round ${round}: ${replies.map((r) => `${r.status} ${r.status >= 300 ? r.body.error : ''}`).join(',')}`,
      );
      const accepted = replies.reduce((n, r) => n + r.body.createdIDs.length, 0);
      const failed = replies.reduce((n, r) => n + r.body.failedEntries.length, 0);
      const listed = (await on(ctx, 1).get(`/api/v1/things/entities/${entity.id}/records`)).body;
      const stored = listed.total as number;
      const usedAfter = (await on(ctx, 1).get(`/api/v1/things/usage?organization_id=${w.org.orgId}`)).body
        .recordCount as number;
      check(
        stored === 25 && usedAfter === used + stored,
        `round ${round}: stored ${stored}, usage ${used} → ${usedAfter}, limit ${used + 25}`,
      );
      check(
        accepted === stored && accepted + failed === 50,
        `round ${round}: created ${accepted}, failed ${failed}, stored ${stored}`,
      );
    }
  },
);

races(
  'device names, unique per owner without case and surrounding spaces: of 10 racing creates and ' +
    'of 2 racing renames on two processes, one wins, the rest 409',
  async (ctx) => {
    const w = ctx.world;
    const owner = w.org.member.userId;
    const device = (name: string, n: string) => ({
      active: true,
      name,
      os: 'android 14',
      ownerID: owner,
      pushToken: `RACES-${n}-${Date.now()}`,
      pushTokenDevelopment: false,
    });
    const named = async (i: number, name: string) =>
      (await on(ctx, i).get(`/api/v1/app/device?owner_id=${owner}`)).body.filter(
        (d: { name: string }) => d.name.trim().toLowerCase() === name.toLowerCase(),
      );
    for (let round = 0; round < ROUNDS; round++) {
      const name = `RACES Pixel ${round}`;
      const spellings = [name, name.toLowerCase(), ` ${name.toUpperCase()} `, `${name}  `];
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          on(ctx, i).post('/api/v1/app/device', device(spellings[i % spellings.length], `${round}-${i}`)),
        ),
      );
      const won = replies.filter((r) => r.status === 200);
      check(
        won.length === 1 && replies.every((r) => r.status === 409 || r === won[0]),
        `round ${round} creates: ${replies.map((r) => r.status).join(',')}`,
      );
      check((await named(round, name)).length === 1, `round ${round}: ${name} listed once`);
      // Two other devices renamed to one new name at once.
      const [first, second] = await Promise.all(
        [0, 1].map(
          async (i) =>
            (await on(ctx, i).post('/api/v1/app/device', device(`RACES Tablet ${round}.${i}`, `${round}-t${i}`))).body,
        ),
      );
      const target = `RACES Wache ${round}`;
      const renames = await Promise.all(
        [first, second].map((d, i) =>
          on(ctx, i).put(`/api/v1/app/device/${d.id}`, { ...device(target, `${round}-r${i}`), id: d.id }),
        ),
      );
      check(
        renames
          .map((r) => r.status)
          .sort()
          .join(',') === '200,409',
        `round ${round} renames: ${renames.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`).join('; ')}`,
      );
      check((await named(round + 1, target)).length === 1, `round ${round}: ${target} listed once`);
      // The round's devices go: an organization enters at most 10 for a member (docs/api.md).
      const listed = (await on(ctx, round).get(`/api/v1/app/device?owner_id=${owner}`)).body as Array<{
        id: number;
        name: string;
      }>;
      for (const d of listed.filter((x) => /races/i.test(x.name)))
        await on(ctx, round).delete(`/api/v1/app/device/${d.id}`);
    }
  },
);

races(
  'monitor configuration updates (M2) racing on two processes, each changing another field: every ' +
    'change survives, each got its own revision',
  async (ctx) => {
    const w = ctx.world;
    const screen = await connectScreen(ctx.one.url, w.org.apiKey);
    try {
      await screen.subscribe(w.otherMonitor);
      for (let round = 0; round < ROUNDS; round++) {
        const changes: Array<Record<string, unknown>> = [
          { name: `RACES Lehrsaal ${round}` },
          { standbyDelay: 60 + round },
          { configuration: { address: `RACES Hauptstraße ${round}`, gong: round % 2 === 0 } },
          { configurationSplitScreen: { layout: `r${round}` } },
          { configurationStandby: { showCalendar: round % 2 === 1 } },
        ];
        const seen = screen.events.length;
        const replies = await Promise.all(
          changes.map((change, i) => on(ctx, i + round).put('/api/v1/monitor', { id: w.otherMonitor, ...change })),
        );
        check(
          replies.every((r) => r.status === 200),
          `round ${round}: ${replies.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`).join('; ')}`,
        );
        const stored = (await on(ctx, round + 1).get(`/api/v1/monitor/${w.otherMonitor}`)).body;
        for (const change of changes) {
          const [field, value] = Object.entries(change)[0];
          check(
            JSON.stringify(stored[field]) === JSON.stringify(value),
            `round ${round}: ${field} is ${JSON.stringify(stored[field])}, a change set ${JSON.stringify(value)}`,
          );
        }
        // Every process tells the screens of each change with its revision: five changes, five revisions.
        await screen.waitFor(
          () => screen.events.slice(seen).filter((e) => e.name === 'monitor:updated').length >= changes.length,
          30_000,
          'five monitor:updated',
        );
        const revisions = screen.events
          .slice(seen)
          .filter((e) => e.name === 'monitor:updated')
          .map((e) => e.payload.revision as number);
        check(
          new Set(revisions).size === changes.length &&
            Math.max(...revisions) - Math.min(...revisions) === changes.length - 1,
          `round ${round}: revisions ${revisions.join(',')}`,
        );
      }
    } finally {
      screen.close();
    }
  },
);

races(
  'entity updates (T4) racing on two processes, each changing another property: every change survives',
  async (ctx) => {
    const w = ctx.world;
    const entity = (
      await on(ctx, 0).post('/api/v1/things/entities', {
        name: 'RACES Fahrzeuge',
        organizationID: w.org.orgId,
        fields: [{ name: 'Kennzeichen', type: 'text' }],
      })
    ).body;
    for (let round = 0; round < ROUNDS; round++) {
      const changes: Array<Record<string, unknown>> = [
        { name: `RACES Fahrzeuge ${round}` },
        { description: `RACES Fuhrpark, Stand ${round}` },
        { icon: round % 2 ? '🚒' : '🚑' },
        { readOnlyUserIDs: [w.org.member.userId] },
      ];
      const replies = await Promise.all(
        changes.map((change, i) => on(ctx, i + round).put(`/api/v1/things/entities/${entity.id}`, change)),
      );
      check(
        replies.every((r) => r.status === 200),
        `round ${round}: ${replies.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`).join('; ')}`,
      );
      const stored = (await on(ctx, round + 1).get(`/api/v1/things/entities/${entity.id}`)).body;
      for (const change of changes) {
        const [field, value] = Object.entries(change)[0];
        check(
          JSON.stringify(stored[field]) === JSON.stringify(value),
          `round ${round}: ${field} is ${JSON.stringify(stored[field])}, a change set ${JSON.stringify(value)}`,
        );
      }
    }
  },
);

races('one journal per event: 10 racing J6 for a new event on two processes open one journal', async (ctx) => {
  const w = ctx.world;
  for (let round = 0; round < ROUNDS; round++) {
    const eventId = 90_000 + (process.pid % 1000) * 10 + round;
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        on(ctx, i).get(`/api/v1/journal?organization_id=${w.org.orgId}&event_id=${eventId}`),
      ),
    );
    const ids = new Set(replies.map((r) => r.body?.id));
    check(
      replies.every((r) => r.status === 200) && ids.size === 1,
      `round ${round}: ${replies.map((r) => `${r.status} ${r.body?.id}`).join(',')}`,
    );
  }
});

races(
  'alarm data writes racing on two processes: every acknowledged write has its own version, and none is lost',
  async (ctx) => {
    const w = ctx.world;
    const path = `/api/v1/monitor/${w.monitor}/data/alarming`;
    for (let round = 0; round < ROUNDS; round++) {
      const replies = await Promise.all(
        Array.from({ length: 30 }, (_, i) => on(ctx, i).patch(path, { positiveResponses: i })),
      );
      check(
        replies.every((r) => r.status === 200),
        `round ${round}: ${replies.map((r) => r.status).join(',')}`,
      );
      const versions = replies.map((r) => Number(/version (\d+)/.exec(r.body.message)?.[1]));
      check(
        new Set(versions).size === versions.length && versions.every(Number.isFinite),
        `round ${round}: versions ${versions.join(',')}`,
      );
      const max = Math.max(...versions);
      check(
        max - Math.min(...versions) === versions.length - 1,
        `round ${round}: versions not contiguous: ${[...versions].sort((a, b) => a - b).join(',')}`,
      );
      // The stored state is the write of the highest version.
      const data = await on(ctx, round + 1).get(`/api/v1/monitor/${w.monitor}/data`);
      check(
        Number(data.headers.get('etag')?.slice(1, -1)) === max,
        `round ${round}: M6 at ${data.headers.get('etag')}, highest acknowledged ${max}`,
      );
      const last = replies[versions.indexOf(max)];
      check(
        data.body.alarmData?.positiveResponses === replies.indexOf(last),
        `round ${round}: stored positiveResponses ${data.body.alarmData?.positiveResponses}, the last ` +
          `write set ${replies.indexOf(last)}`,
      );
    }
    figure('races: checks of guarantees between two processes (all held, or the test failed)', checked);
  },
);

races.run();
