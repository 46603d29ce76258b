// Water sources near the alarm (issue 24, docs/display.md "Water sources"): the grid index's maths,
// `water:nearby` and `water:changed` over the real wire on two processes, what a screen may and may
// not read, and a search among 50,000 records that reads only its cells.
import { randomUUID } from 'node:crypto';
import * as assert from 'uvu/assert';
import { cellOf, cellsAround, distanceMeters } from '../server/areas/things/positions.js';
import { thingsModels } from '../server/areas/things/models.js';
import { client, request } from './helpers/http.js';
import { connectScreen, WAIT_MS, type Screen } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

// ---------------------------------------------------------------- the grid
const grid = suite('water sources: the grid');

grid('cellsAround holds the cell of every point within the radius, also across the antimeridian and far north', () => {
  const centres = [
    [50.7753, 6.0839],
    [-33.86, 151.2],
    [0.0001, -0.0001],
    [64.15, -21.94],
    [52.0, 179.999],
    [-41.3, -179.9995],
  ];
  for (const [lat, lon] of centres) {
    for (const radius of [50, 300, 2000]) {
      const cells = new Set(cellsAround(lat, lon, radius));
      for (let i = 0; i < 400; i++) {
        const bearing = (i / 400) * 2 * Math.PI;
        const d = radius * (0.2 + (0.8 * ((i * 7919) % 400)) / 400);
        const dLat = (d * Math.cos(bearing)) / 111_320;
        const dLon = (d * Math.sin(bearing)) / (111_320 * Math.cos((lat * Math.PI) / 180));
        let pLon = lon + dLon;
        if (pLon >= 180) pLon -= 360;
        if (pLon < -180) pLon += 360;
        const p = { latitude: lat + dLat, longitude: pLon };
        if (distanceMeters({ latitude: lat, longitude: lon }, p) > radius) continue;
        assert.ok(
          cells.has(cellOf(p.latitude, p.longitude)),
          `${lat},${lon} r=${radius}: ${p.latitude},${p.longitude} in ${cellOf(p.latitude, p.longitude)}`,
        );
      }
      assert.ok(cells.size <= 60, `few cells (${cells.size})`);
    }
  }
});

grid('the search box measures degrees as distanceMeters does, and longitude 180 is -180', () => {
  // 299.9 m due north of a point just below a cell edge: inside a 300 m circle, so its cell is searched.
  const at = { latitude: 50.007304, longitude: 6.5 };
  const north = { latitude: at.latitude + 299.9 / ((6_371_008.8 * Math.PI) / 180), longitude: 6.5 };
  assert.ok(distanceMeters(at, north) <= 300);
  assert.ok(cellsAround(at.latitude, at.longitude, 300).includes(cellOf(north.latitude, north.longitude)));
  assert.is(cellOf(10, 180), cellOf(10, -180));
  assert.ok(cellsAround(10, 179.9995, 300).includes(cellOf(10, 180)));
  // Far north the box stops widening: a bounded number of cells.
  assert.ok(cellsAround(89.9, 0, 2000).length < 400);
});

grid('distanceMeters agrees with known distances', () => {
  // Aachen Dom → Aachen Hauptbahnhof, about 1.1 km; one degree of latitude, about 111 km.
  const d = distanceMeters({ latitude: 50.7747, longitude: 6.0839 }, { latitude: 50.7677, longitude: 6.0912 });
  assert.ok(Math.abs(d - 920) < 30, String(d));
  assert.ok(Math.abs(distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 }) - 111_195) < 10);
});

grid.run();

// ---------------------------------------------------------------- over the wire
interface Ctx {
  a: TestService;
  b: TestService;
  org: OrgFixture;
  other: OrgFixture;
  entityId: string;
  field: Record<string, string>;
  monitorId: number;
  screenToken: string;
  open: Screen[];
}

const ALARM = { latitude: 50.7753, longitude: 6.0839 };
/** A point `north` and `east` metres from the alarm. */
const near = (north: number, east: number) =>
  `${(ALARM.latitude + north / 111_320).toFixed(6)},${(ALARM.longitude + east / (111_320 * Math.cos((ALARM.latitude * Math.PI) / 180))).toFixed(6)}`;
const FIELDS = [
  { name: 'Nummer', type: 'text' },
  {
    name: 'Art',
    type: 'selection',
    selectionValues: ['Überflurhydrant', 'Unterflurhydrant', 'Löschwasserbehälter', 'Löschteich'],
  },
  { name: 'Position', type: 'coordinates' },
  { name: 'Status', type: 'selection', selectionValues: ['in Betrieb', 'außer Betrieb'] },
  { name: 'Bemerkung', type: 'text' },
];

const wire = suite<Ctx>('water sources: water:nearby and water:changed on two processes', {} as Ctx);

wire.before(async (ctx) => {
  const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', RATE_LIMIT_PER_SECOND: '0' };
  ctx.a = await startTestService(env);
  ctx.b = await startTestService(env);
  ctx.org = await createOrg(ctx.a);
  ctx.other = await createOrg(ctx.a);
  ctx.open = [];
  const entity = await api(ctx).post('/api/v1/things/entities', {
    name: 'Wasserentnahmestellen',
    organizationID: ctx.org.orgId,
    fields: FIELDS,
  });
  assert.is(entity.status, 201, JSON.stringify(entity.body));
  ctx.entityId = entity.body.id;
  ctx.field = Object.fromEntries(entity.body.fields.map((f: { name: string; id: string }) => [f.name, f.id]));
  const monitor = await api(ctx).post('/api/v1/monitor', {
    name: 'Wache 1',
    organizationID: ctx.org.orgId,
    configuration: { waterSources: { entityId: ctx.entityId, radiusMeters: 300, max: 3 } },
  });
  ctx.monitorId = monitor.body.id;
  ctx.screenToken = await pair(ctx, 'Fahrzeughalle');
  assert.is(
    (
      await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/data/alarming`, {
        eventId: 91,
        event: 'B3 Wohnungsbrand',
        geo: { address: 'Markt 1', ...ALARM },
      })
    ).status,
    200,
  );
});
wire.after.each((ctx) => {
  for (const s of ctx.open) s.close();
  ctx.open = [];
});
wire.after(async (ctx) => {
  await ctx.a.close();
  await ctx.b.close();
});

const api = (ctx: Ctx, org: OrgFixture = ctx.org) => client(ctx.a.url, { apiKey: org.apiKey });

async function pair(ctx: Ctx, name: string): Promise<string> {
  const started = (await request(ctx.a.url, 'POST', '/api/v1/screens/pairing')).body;
  assert.is(
    (await api(ctx).post(`/api/v1/monitor/${ctx.monitorId}/screens`, { code: started.code, name })).status,
    201,
  );
  return (
    await request(ctx.a.url, 'GET', `/api/v1/screens/pairing/${started.pairingId}`, {
      headers: { 'Pairing-Secret': started.pollSecret },
    })
  ).body.token;
}

async function hydrant(
  ctx: Ctx,
  values: Record<string, string>,
  entityId = ctx.entityId,
  org = ctx.org,
): Promise<string> {
  const res = await api(ctx, org).post(`/api/v1/things/entities/${entityId}/records`, {
    values: Object.entries(values).map(([name, value]) => ({ fieldID: ctx.field[name] ?? name, value })),
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

async function screenOn(ctx: Ctx, url: string, token = ctx.screenToken, scheme = 'screen-token'): Promise<Screen> {
  const screen = await connectScreen(url, token, scheme);
  ctx.open.push(screen);
  return screen;
}

const nearby = (screen: Screen, request: Record<string, unknown>) =>
  screen.socket.timeout(WAIT_MS).emitWithAck('water:nearby', request);

wire('a screen gets the nearest sources within the radius, nearest first, with only what a crew needs', async (ctx) => {
  const h1 = await hydrant(ctx, {
    Nummer: 'H 12',
    Art: 'Überflurhydrant',
    Position: near(80, 0),
    Status: 'in Betrieb',
    Bemerkung: 'Schlüssel bei Hausmeister',
  });
  const h2 = await hydrant(ctx, {
    Nummer: 'H 13',
    Art: 'Unterflurhydrant',
    Position: near(0, -150),
    Status: 'außer Betrieb',
  });
  const h3 = await hydrant(ctx, { Nummer: 'Z 2', Art: 'Löschwasserbehälter', Position: near(-200, 120) });
  await hydrant(ctx, { Nummer: 'H 99', Art: 'Überflurhydrant', Position: near(250, 250) }); // 354 m: beyond the radius
  await hydrant(ctx, { Nummer: 'H 14', Art: 'Überflurhydrant', Position: near(280, 0) }); // fourth nearest: beyond max 3
  // Another entity of the organization, and another organization, at the very spot: never shown.
  const otherEntity = (
    await api(ctx).post('/api/v1/things/entities', {
      name: 'Parkplätze',
      organizationID: ctx.org.orgId,
      fields: FIELDS,
    })
  ).body;
  await api(ctx).post(`/api/v1/things/entities/${otherEntity.id}/records`, {
    values: [{ fieldID: otherEntity.fields[2].id, value: near(1, 1) }],
  });

  const screen = await screenOn(ctx, ctx.b.url);
  const answer = await nearby(screen, { monitorId: ctx.monitorId, ...ALARM });
  assert.ok('data' in answer, JSON.stringify(answer));
  const { sources, entityId, radiusMeters, cells } = answer.data;
  assert.is(entityId, ctx.entityId);
  assert.is(radiusMeters, 300);
  assert.ok(cells.length >= 1 && cells.length <= 9);
  assert.equal(
    sources.map((s: { id: string }) => s.id),
    [h1, h2, h3],
  );
  assert.equal(Object.keys(sources[0]).sort(), [
    'distanceMeters',
    'id',
    'inService',
    'kind',
    'latitude',
    'longitude',
    'name',
    'status',
  ]);
  assert.equal(
    sources.map((s: { distanceMeters: number }) => s.distanceMeters),
    [80, 150, 233],
  );
  assert.equal(
    sources.map((s: { inService: boolean }) => s.inService),
    [true, false, true],
  );
  assert.equal(
    sources.map((s: { name: string; kind: string }) => `${s.name}/${s.kind}`),
    ['H 12/Überflurhydrant', 'H 13/Unterflurhydrant', 'Z 2/Löschwasserbehälter'],
  );
  assert.not.ok(JSON.stringify(answer).includes('Hausmeister'), 'other fields stay in the service');
});

wire(
  "only where an alarm of the monitor stands, only the monitor's own organization, and bad requests are refused",
  async (ctx) => {
    const screen = await screenOn(ctx, ctx.a.url);
    const refused = async (req: Record<string, unknown>, code: string) => {
      const answer = await nearby(screen, req);
      assert.ok('error' in answer, JSON.stringify(answer));
      assert.is(answer.error.error, code, JSON.stringify(answer));
    };
    await refused(
      { monitorId: ctx.monitorId, latitude: ALARM.latitude + 0.01, longitude: ALARM.longitude },
      'forbidden',
    );
    await refused({ monitorId: ctx.monitorId, latitude: 'x', longitude: 1 }, 'invalid_body');
    await refused({ monitorId: ctx.monitorId, latitude: 91, longitude: 1 }, 'invalid_body');
    await refused({ monitorId: ctx.monitorId, ...ALARM, $where: 1 }, 'invalid_body');
    // Another organization's monitor, with an alarm at the same spot: not this screen's.
    const foreign = (
      await api(ctx, ctx.other).post('/api/v1/monitor', {
        name: 'Fremd',
        organizationID: ctx.other.orgId,
        configuration: { waterSources: { entityId: ctx.entityId } },
      })
    ).body.id;
    await api(ctx, ctx.other).post(`/api/v1/monitor/${foreign}/data/alarming`, { event: 'Brand', geo: ALARM });
    await refused({ monitorId: foreign, ...ALARM }, 'not_found');
    // That organization's own key may read its monitor, but the entity it names is not its own.
    const otherKey = await screenOn(ctx, ctx.a.url, ctx.other.apiKey, 'api-token');
    const answer = await nearby(otherKey, { monitorId: foreign, ...ALARM });
    assert.ok('error' in answer && answer.error.error === 'not_found', JSON.stringify(answer));
    // A monitor without the setting.
    const plain = (await api(ctx).post('/api/v1/monitor', { name: 'Ohne', organizationID: ctx.org.orgId })).body.id;
    await api(ctx).post(`/api/v1/monitor/${plain}/data/alarming`, { event: 'Brand', geo: ALARM });
    const member = await screenOn(ctx, ctx.a.url, ctx.org.apiKey, 'api-token');
    const unconfigured = await nearby(member, { monitorId: plain, ...ALARM });
    assert.ok('error' in unconfigured && unconfigured.error.error === 'not_configured', JSON.stringify(unconfigured));
  },
);

wire(
  'a member sees the water sources only when the entity grants him its records; a screen of the monitor always',
  async (ctx) => {
    const hub = await screenOn(ctx, ctx.a.url, ctx.org.member.token, 'personal-access-token');
    const refused = await nearby(hub, { monitorId: ctx.monitorId, ...ALARM });
    assert.ok('error' in refused && refused.error.error === 'forbidden', JSON.stringify(refused));
    const granted = await api(ctx).put(`/api/v1/things/entities/${ctx.entityId}`, {
      readOnlyUserIDs: [ctx.org.member.userId],
    });
    assert.is(granted.status, 200, JSON.stringify(granted.body));
    const answer = await nearby(hub, { monitorId: ctx.monitorId, ...ALARM });
    assert.ok('data' in answer, JSON.stringify(answer));
    const revoked = await api(ctx).put(`/api/v1/things/entities/${ctx.entityId}`, { readOnlyUserIDs: [] });
    assert.is(revoked.status, 200, JSON.stringify(revoked.body));
    const again = await nearby(hub, { monitorId: ctx.monitorId, ...ALARM });
    assert.ok('error' in again && again.error.error === 'forbidden', JSON.stringify(again));
  },
);

wire("a screen token opens none of the things area's REST operations", async (ctx) => {
  const headers = { 'Screen-Token': ctx.screenToken };
  const record = await hydrant(ctx, { Nummer: 'H 70', Position: near(10, 10) });
  for (const path of [
    `/api/v1/things/entities/${ctx.entityId}/records`,
    `/api/v1/things/entities/${ctx.entityId}`,
    `/api/v1/things/records/${record}`,
    `/api/v1/things/entities?organization_id=${ctx.org.orgId}`,
  ]) {
    const res = await request(ctx.a.url, 'GET', path, { headers });
    assert.ok(res.status === 401 || res.status === 403, `${path}: ${res.status}`);
    assert.not.ok(JSON.stringify(res.body).includes('H 70'));
  }
});

wire(
  'a record change reaches the screens whose cells it touched, on the other process: out of service, ' +
    'new, moved away, deleted',
  async (ctx) => {
    const screen = await screenOn(ctx, ctx.b.url);
    const ask = async () => {
      const answer = await nearby(screen, { monitorId: ctx.monitorId, ...ALARM });
      assert.ok('data' in answer, JSON.stringify(answer));
      return answer.data as {
        cells: string[];
        sources: Array<{ id: string; inService: boolean; distanceMeters: number }>;
      };
    };
    const first = await ask();
    const changes = () => screen.events.filter((e) => e.name === 'water:changed').map((e) => e.payload);
    const nearest = first.sources[0];
    assert.ok(nearest.inService);

    // Reported broken during the incident (T9 on process A).
    let seen = changes().length;
    assert.is(
      (
        await api(ctx).put(`/api/v1/things/records/${nearest.id}`, {
          values: [{ fieldID: ctx.field.Status, value: 'außer Betrieb' }],
        })
      ).status,
      200,
    );
    await screen.waitFor(() => changes().length > seen, WAIT_MS, 'water:changed after T9');
    const event = changes().at(-1);
    assert.is(event.entityId, ctx.entityId);
    assert.ok(event.cells.some((c: string) => first.cells.includes(c)));
    assert.is((await ask()).sources.find((s) => s.id === nearest.id)?.inService, false);

    // A new one closer than all (T7 bulk).
    seen = changes().length;
    const bulk = await api(ctx).post(`/api/v1/things/entities/${ctx.entityId}/records/bulk`, {
      records: [
        {
          values: [
            { fieldID: ctx.field.Nummer, value: 'H 1' },
            { fieldID: ctx.field.Position, value: near(5, 0) },
          ],
        },
      ],
    });
    assert.is(bulk.status, 200, JSON.stringify(bulk.body));
    const created = bulk.body.createdIDs[0];
    await screen.waitFor(() => changes().length > seen, WAIT_MS, 'water:changed after T7');
    assert.is((await ask()).sources[0].id, created);

    // Moved 2 km away: the change names its old cell too, and it is no longer listed.
    seen = changes().length;
    assert.is(
      (
        await api(ctx).put(`/api/v1/things/records/${created}`, {
          values: [{ fieldID: ctx.field.Position, value: near(2000, 0) }],
        })
      ).status,
      200,
    );
    await screen.waitFor(() => changes().length > seen, WAIT_MS, 'water:changed after the move');
    assert.ok(
      changes()
        .at(-1)
        .cells.some((c: string) => first.cells.includes(c)),
    );
    assert.not.ok((await ask()).sources.some((s) => s.id === created));

    // Moved back, then deleted.
    assert.is(
      (
        await api(ctx).put(`/api/v1/things/records/${created}`, {
          values: [{ fieldID: ctx.field.Position, value: near(5, 0) }],
        })
      ).status,
      200,
    );
    assert.is((await ask()).sources[0].id, created);
    seen = changes().length;
    assert.is(
      (await api(ctx).post(`/api/v1/things/entities/${ctx.entityId}/records/bulk`, { deleteIDs: [created] })).status,
      200,
    );
    await screen.waitFor(() => changes().length > seen, WAIT_MS, 'water:changed after the delete');
    assert.not.ok((await ask()).sources.some((s) => s.id === created));
  },
);

wire(
  'concurrent creates in one cell on two processes are all indexed; a cleared position is announced ' +
    'and gone; a move leaves no entry behind',
  async (ctx) => {
    const monitorId = (
      await api(ctx).post('/api/v1/monitor', {
        name: 'Wache 2',
        organizationID: ctx.org.orgId,
        configuration: { waterSources: { entityId: ctx.entityId, radiusMeters: 150, max: 20 } },
      })
    ).body.id;
    const spot = { latitude: 50.7901, longitude: 6.1201 };
    assert.is(
      (await api(ctx).post(`/api/v1/monitor/${monitorId}/data/alarming`, { eventId: 92, event: 'Brand', geo: spot }))
        .status,
      200,
    );
    const at = (north: number) => `${(spot.latitude + north / 111_195).toFixed(6)},${spot.longitude}`;
    // 20 at once, half through each process: FerretDB's $addToSet alone would lose some of them.
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await client(i % 2 ? ctx.b.url : ctx.a.url, { apiKey: ctx.org.apiKey }).post(
          `/api/v1/things/entities/${ctx.entityId}/records`,
          {
            values: [
              { fieldID: ctx.field.Nummer, value: `P ${i}` },
              { fieldID: ctx.field.Position, value: at(i * 5) },
            ],
          },
        );
        assert.is(res.status, 201, JSON.stringify(res.body));
        return res.body.id as string;
      }),
    );
    const screen = await screenOn(ctx, ctx.a.url, ctx.org.apiKey, 'api-token');
    const ask = async () => {
      const answer = await nearby(screen, { monitorId, ...spot });
      assert.ok('data' in answer, JSON.stringify(answer));
      return answer.data as { cells: string[]; sources: Array<{ id: string }> };
    };
    assert.equal((await ask()).sources.map((s) => s.id).sort(), [...ids].sort());

    // Cleared: the screens hear of it and it is no longer listed.
    const changes = () => screen.events.filter((e) => e.name === 'water:changed').length;
    const seen = changes();
    assert.is(
      (await api(ctx).put(`/api/v1/things/records/${ids[0]}`, { values: [{ fieldID: ctx.field.Position, value: '' }] }))
        .status,
      200,
    );
    await screen.waitFor(() => changes() > seen, WAIT_MS, 'water:changed after clearing a position');
    assert.not.ok((await ask()).sources.some((s) => s.id === ids[0]));

    // Moved within the circle and away: the cells hold only its current place.
    const cellDocs = () =>
      thingsModels(ctx.a.db)
        .ThingPositionIndex.find({ _id: { $regex: `^${ctx.entityId}:` } })
        .lean();
    assert.is(
      (
        await api(ctx).put(`/api/v1/things/records/${ids[1]}`, {
          values: [{ fieldID: ctx.field.Position, value: at(120) }],
        })
      ).status,
      200,
    );
    assert.is(
      (
        await api(ctx).put(`/api/v1/things/records/${ids[1]}`, {
          values: [{ fieldID: ctx.field.Position, value: at(3000) }],
        })
      ).status,
      200,
    );
    const entries = (await cellDocs()).flatMap((d) => d.ids).filter((e) => e.startsWith(`${ids[1]}@`));
    assert.equal(entries, [`${ids[1]}@${at(3000).split(',').map(Number).join(',')}`]);
    assert.not.ok((await ask()).sources.some((s) => s.id === ids[1]));
  },
);

wire(
  'among 50,000 records of the entity, a search reads only its cells by _id and finds exactly ' +
    'the records a full scan finds',
  async (ctx) => {
    // A county's water sources, written straight into the organization's collection as records from
    // before the index: the first search adds them (one scan), every later one reads by _id only.
    const org = await createOrg(ctx.a);
    const entity = (
      await api(ctx, org).post('/api/v1/things/entities', {
        name: 'Hydranten Kreis',
        organizationID: org.orgId,
        fields: FIELDS,
      })
    ).body;
    const [nummer, , position, status] = entity.fields.map((f: { id: string }) => f.id);
    const centre = { latitude: 50.9, longitude: 6.7 };
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const points: Array<{ id: string; latitude: number; longitude: number; out: boolean }> = [];
    const records = await thingsModels(ctx.a.db).records.of(org.orgId);
    const now = new Date();
    for (let batch = 0; batch < 10; batch++) {
      const docs = [];
      for (let i = 0; i < 5_000; i++) {
        const n = batch * 5_000 + i;
        // Most spread over the county (about 55 × 35 km), one in fifty within a kilometre of the centre.
        const spread = n % 50 === 0 ? 0.01 : 0.25;
        const p = {
          id: randomUUID(),
          latitude: +(centre.latitude + (random() - 0.5) * spread).toFixed(6),
          longitude: +(centre.longitude + (random() - 0.5) * spread * 2).toFixed(6),
          out: n % 7 === 0,
        };
        points.push(p);
        const values = {
          [nummer]: { i: randomUUID(), v: `H ${n}` },
          [position]: { i: randomUUID(), v: `${p.latitude},${p.longitude}` },
          ...(p.out ? { [status]: { i: randomUUID(), v: 'außer Betrieb' } } : {}),
        };
        docs.push({
          _id: p.id,
          organizationID: org.orgId,
          entityID: entity.id,
          slot: n + 1,
          values: JSON.stringify(values),
          createdAt: now,
          seq: n,
          updatedAt: now,
        });
      }
      await records.insertMany(docs, { ordered: false, lean: true });
    }
    const monitorId = (
      await api(ctx, org).post('/api/v1/monitor', {
        name: 'Kreis',
        organizationID: org.orgId,
        configuration: { waterSources: { entityId: entity.id, radiusMeters: 500, max: 20 } },
      })
    ).body.id;
    const alarms = [centre, { latitude: 50.95, longitude: 6.62 }, points[12_345]];
    for (const [i, at] of alarms.entries()) {
      await client(ctx.a.url, { apiKey: org.apiKey }).post(`/api/v1/monitor/${monitorId}/data/alarming`, {
        eventId: 500 + i,
        event: `Brand ${i}`,
        geo: { latitude: at.latitude, longitude: at.longitude },
      });
    }
    const screen = await screenOn(ctx, ctx.a.url, org.apiKey, 'api-token');
    const expected = (at: { latitude: number; longitude: number }) =>
      points
        .map((p) => ({ id: p.id, d: distanceMeters(at, p), out: p.out }))
        .filter((p) => p.d <= 500)
        .sort((x, y) => x.d - y.d || x.id.localeCompare(y.id))
        .slice(0, 20);
    // The first search adds the old records to the index.
    const built = await nearby(screen, { monitorId, ...alarms[0] });
    assert.ok('data' in built, JSON.stringify(built));

    const queries: string[] = [];
    ctx.a.db.conn.set('debug', (collection: string, method: string, filter: unknown) => {
      if (/^insert/.test(method) || fromPeriodicJob(collection, filter)) return;
      queries.push(`${collection}.${method} ${JSON.stringify(filter)}`);
    });
    const answers = [];
    try {
      for (const at of alarms)
        answers.push(await nearby(screen, { monitorId, latitude: at.latitude, longitude: at.longitude }));
    } finally {
      ctx.a.db.conn.set('debug', false);
    }
    for (const [i, at] of alarms.entries()) {
      const answer = answers[i];
      assert.ok('data' in answer, JSON.stringify(answer));
      const want = expected(at);
      assert.ok(want.length > 0, 'the fixture puts sources near every alarm');
      assert.equal(
        answer.data.sources.map((s: { id: string }) => s.id),
        want.map((p) => p.id),
        `alarm ${i}`,
      );
      assert.equal(
        answer.data.sources.map((s: { inService: boolean }) => s.inService),
        want.map((p) => !p.out),
      );
    }
    assert.ok(queries.length > 0);
    const scans = queries.filter((q) => !/^\S+ \{"_id":"[^"]+"\}$/.test(q));
    assert.equal(scans, [], 'every query of a search is {_id: <string>}');
    // A handful of documents per search, not the entity's 50,000.
    assert.ok(queries.length < 40 * alarms.length, `${queries.length} queries for ${alarms.length} searches`);
  },
);

/**
 * The service's periodic jobs (docs/operating.md) run while a search is measured; their queries are
 * not the search's: the heartbeat, the outbox sweep, the screen-health sweep (screens last seen before
 * a moment) and the pairing sweep (pairings expired by a moment).
 */
function fromPeriodicJob(collection: string, filter: unknown): boolean {
  if (collection === 'hub_processes' || collection === 'alarm_outbox') return true;
  const keys = filter && typeof filter === 'object' ? Object.keys(filter) : [];
  if (collection === 'screens') return keys.includes('lastSeen');
  return keys.length === 1 && keys[0] === 'expiresAt';
}

wire.run();
