// Vehicle statuses on the wall (docs/hub.md "Vehicle statuses on the wall", docs/display.md "Vehicle
// statuses"): what the pager door IN3 hears of a vehicle's FMS status is stored per organization, so a
// wall asking `vehicles:watch` for its monitor gets the statuses heard before it connected, then each
// new one live; another organization's monitor is refused and its walls hear nothing. In Chromium, the
// status shows on the tile of the unit named like the vehicle.
import * as assert from 'uvu/assert';
import { launchChromium, WAIT_MS } from './helpers/browser.js';
import { client, request } from './helpers/http.js';
import { connectScreen, type Screen } from './helpers/screen.js';
import { createOrg, startTestService, type OrgFixture } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import {
  alarm,
  closeScreens,
  newMonitor,
  openWall,
  settled,
  tearDownWall,
  write,
  type WallCtx,
} from './helpers/wall.js';

const GATEWAY = 'pager-gateway-secret';

interface Ctx extends WallCtx {
  other: OrgFixture;
}

const s = suite<Ctx>('vehicle statuses: stored, watched by walls, shown on the unit tiles', {} as Ctx);

s.before(async (ctx) => {
  ctx.browser = await launchChromium();
  ctx.service = await startTestService({ INBOUND_GATEWAY_TOKEN: GATEWAY });
  ctx.org = await createOrg(ctx.service);
  ctx.other = await createOrg(ctx.service);
  ctx.screens = [];
});
s.after.each(closeScreens);
s.after(tearDownWall);

/** A pager input of the organization that knows these vehicles (IP1). */
async function pagerInput(ctx: Ctx, org: OrgFixture, vehicles: Array<{ fms: string; name: string }>) {
  const res = await client(ctx.service.url, { apiKey: org.apiKey }).post('/api/v1/inputs', {
    organizationID: org.orgId,
    name: 'Funkmeldeempfänger',
    kind: 'pager',
    settings: { codes: [], vehicles },
    active: true,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
}

/** IN3: a vehicle's FMS status as the radio decoder posts it. */
async function fms(ctx: Ctx, code: string, status: string) {
  const res = await request(ctx.service.url, 'POST', '/api/v1/inbound/pager', {
    body: { type: 'fms', fms: code, status },
    headers: { 'Gateway-Token': GATEWAY },
  });
  assert.is(res.status, 202, JSON.stringify(res.body));
}

const watch = (screen: Screen, monitorId: unknown) =>
  screen.socket.timeout(WAIT_MS).emitWithAck('vehicles:watch', { monitorId });
const statuses = (answer: any) =>
  answer.data.vehicles.map((v: { fms: string; name: string; status: number }) => [v.fms, v.name, v.status]);

s('a wall gets the stored statuses, then each new one; two at once keep both; a stranger is refused', async (ctx) => {
  await pagerInput(ctx, ctx.org, [
    { fms: '7345A111', name: 'HLF 20' },
    { fms: '73450222', name: 'RTW 1' },
    { fms: '7345b333', name: 'DLK 23' },
  ]);
  const monitorId = await newMonitor(ctx);
  const otherMonitor = await newMonitor({ ...ctx, org: ctx.other });
  // Heard before any wall connected.
  await fms(ctx, '73450222', '2');
  await fms(ctx, '99999999', '3'); // no vehicle of any input: nothing stored
  const wall = await connectScreen(ctx.service.url, ctx.org.apiKey);
  const stranger = await connectScreen(ctx.service.url, ctx.other.apiKey);
  try {
    const first = await watch(wall, monitorId);
    assert.is(first.data.organizationId, ctx.org.orgId);
    assert.equal(statuses(first), [['73450222', 'RTW 1', 2]]);
    assert.ok(!Number.isNaN(Date.parse(first.data.vehicles[0].at)));
    assert.equal(statuses(await watch(stranger, otherMonitor)), [], "the other organization's own: none");

    // Live, to the wall that asked; not to another organization's wall.
    await fms(ctx, '7345a111', '3');
    await wall.waitFor(() => wall.events.some((e) => e.name === 'vehicle:status'), WAIT_MS, 'vehicle:status');
    const heard = wall.events.filter((e) => e.name === 'vehicle:status').map((e) => e.payload);
    assert.equal(
      heard.map((e) => [e.organizationId, e.fms, e.name, e.status]),
      [[ctx.org.orgId, '7345A111', 'HLF 20', 3]],
    );

    // Two vehicles at once: neither overwrites the other.
    await Promise.all([fms(ctx, '7345A111', '4'), fms(ctx, '7345B333', '1')]);
    await wall.waitFor(
      () => wall.events.filter((e) => e.name === 'vehicle:status').length === 3,
      WAIT_MS,
      'both statuses',
    );
    assert.equal(statuses(await watch(wall, monitorId)), [
      ['73450222', 'RTW 1', 2],
      ['7345A111', 'HLF 20', 4],
      ['7345B333', 'DLK 23', 1],
    ]);

    // A wall that connects later sees the same.
    const later = await connectScreen(ctx.service.url, ctx.org.apiKey);
    try {
      assert.equal(statuses(await watch(later, monitorId)).length, 3);
    } finally {
      later.close();
    }

    // Another organization's monitor is refused, both ways; a malformed request too.
    assert.ok(['not_found', 'forbidden'].includes((await watch(stranger, monitorId)).error.error));
    assert.ok(['not_found', 'forbidden'].includes((await watch(wall, otherMonitor)).error.error));
    assert.is((await watch(wall, 0)).error.error, 'invalid_body');
    assert.is((await watch(wall, 'x')).error.error, 'invalid_body');
    assert.not.ok(
      stranger.events.some((e) => e.name === 'vehicle:status'),
      "another organization's wall hears none of them",
    );
  } finally {
    wall.close();
    stranger.close();
  }
});

s('the wall shows a status on the tile of the unit named like the vehicle, live and stored', async (ctx) => {
  const org = await createOrg(ctx.service);
  const wallCtx = { ...ctx, org };
  await pagerInput(ctx, org, [
    { fms: '7345C111', name: 'HLF 20' },
    { fms: '7345C222', name: 'RTW1' },
  ]);
  // Heard before the wall started: on its first answer. "RTW1" is the unit "rtw 1" (case, spaces).
  await fms(ctx, '7345C222', '8');
  const id = await newMonitor(wallCtx, { configuration: { language: 'de' } });
  const data = alarm(71, 'B3 Wohnungsbrand', 3, 3);
  const units = data.units.map((u, i) => ({ ...u, name: ['HLF 20', 'DLK 23/12', 'rtw 1'][i] }));
  await write(wallCtx, 'POST', `/api/v1/monitor/${id}/data/alarming`, { ...data, units });
  const screen = await openWall(wallCtx, id);
  await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
  const tile = (name: string) => screen.page.locator('[data-testid=unit]', { hasText: name });
  await tile('rtw 1').locator('[data-testid=unit-fms]').waitFor({ timeout: WAIT_MS });
  assert.is((await tile('rtw 1').getByTestId('unit-fms').textContent())?.trim(), 'S8Am Transportziel');

  await fms(ctx, '7345C111', '3');
  const badge = tile('HLF 20').getByTestId('unit-fms');
  await badge.waitFor({ timeout: WAIT_MS });
  assert.is(await badge.getAttribute('data-status'), '3');
  assert.is(await badge.locator('.fms__word').textContent(), 'Einsatz übernommen');
  assert.is(await tile('DLK 23/12').getByTestId('unit-fms').count(), 0, 'a unit with no vehicle shows none');

  // Readable and inside its tile: at least the small text size, the tile's layout kept.
  await settled(screen);
  const measured = await screen.page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-testid=unit][data-fms="3"]')!;
    const b = el.querySelector<HTMLElement>('[data-testid=unit-fms]')!;
    const [tile, box] = [el.getBoundingClientRect(), b.getBoundingClientRect()];
    const name = el.querySelector<HTMLElement>('.unit__name')!;
    return {
      fontPx: parseFloat(getComputedStyle(b).fontSize),
      minPx: (Math.min(innerWidth, innerHeight) * 1.9) / 100,
      inside: box.left >= tile.left - 0.5 && box.right <= tile.right + 0.5 && box.bottom <= tile.bottom + 0.5,
      nameCut: name.scrollWidth > name.clientWidth + 1,
      background: getComputedStyle(b).backgroundColor,
    };
  });
  assert.ok(measured.fontPx >= measured.minPx - 0.5, JSON.stringify(measured));
  assert.ok(measured.inside, JSON.stringify(measured));
  assert.not.ok(measured.nameCut, 'the name "HLF 20" is not cut by the badge');
  assert.is(measured.background, 'rgb(250, 204, 21)', 'status 3 is amber');

  // A new status replaces the old one on the tile.
  await fms(ctx, '7345C111', '4');
  await screen.page.waitForFunction(
    () => document.querySelector('[data-testid=unit][data-fms="4"] [data-testid=unit-fms]') !== null,
    null,
    { timeout: WAIT_MS },
  );
  await fms(ctx, '7345C111', '3');
  await screen.page.waitForFunction(
    () => document.querySelector('[data-testid=unit][data-fms="3"] [data-testid=unit-fms]') !== null,
    null,
    { timeout: WAIT_MS },
  );
  await settled(screen);
  await screen.page.screenshot({ path: '/tmp/fms-wall.png' });
  assert.equal(screen.errors, []);
});

s.run();
