// Water sources on the wall in Chromium (issue 24, docs/display.md "Water sources"): the alarm's map
// marks the nearest sources with their number and distance, one out of service plainly; a hydrant reported broken
// during the incident turns to out of service on the wall, and the split screen marks each event's own.
import * as assert from 'uvu/assert';
import { launchChromium, LANDSCAPE, PORTRAIT, WAIT_MS, type ScreenPage } from './helpers/browser.js';
import { client } from './helpers/http.js';
import { suite } from './helpers/suite.js';
import { closeScreens, openWall, STATION, tearDownWall, type WallCtx } from './helpers/wall.js';
import { createOrg, startTestService } from './helpers/service.js';

const FIELDS = [
  { name: 'Nummer', type: 'text' },
  { name: 'Art', type: 'selection', selectionValues: ['Überflurhydrant', 'Unterflurhydrant', 'Löschteich'] },
  { name: 'Position', type: 'coordinates' },
  { name: 'Betriebsbereit', type: 'boolean' },
];
const FIRE = { latitude: 50.7766, longitude: 6.0912 };
const CRASH = { latitude: 50.7869, longitude: 6.1013 };
const off = (at: { latitude: number; longitude: number }, north: number, east: number) =>
  `${(at.latitude + north / 111_320).toFixed(6)},${(at.longitude + east / (111_320 * Math.cos((at.latitude * Math.PI) / 180))).toFixed(6)}`;

/** The water markers on the page, nearest first: id, in service, label, and the event of their panel. */
const marks = async (screen: ScreenPage) =>
  (
    await screen.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid=map-water]')].map((el) => ({
        id: el.dataset.waterId!,
        inService: el.dataset.inService === 'true',
        label: el.textContent ?? '',
        panel: el.closest('[data-testid=alarm-panel]')?.getAttribute('data-event-id') ?? '',
      })),
    )
  ).sort((a, b) => metres(a.label) - metres(b.label));
const metres = (label: string) => Number(/(\d+) m/.exec(label)?.[1] ?? NaN);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const wall = suite<WallCtx>('display: water sources on the alarm map');
wall.before(async (ctx) => {
  ctx.browser = await launchChromium();
  ctx.service = await startTestService();
  ctx.org = await createOrg(ctx.service);
  ctx.screens = [];
});
wall.after.each(closeScreens);
wall.after(tearDownWall);

wall(
  'the nearest sources with their distances, a broken one marked, a change during the incident ' +
    'shown live, each split cell its own',
  async (ctx) => {
    const api = client(ctx.service.url, { apiKey: ctx.org.apiKey });
    const entity = (
      await api.post('/api/v1/things/entities', { name: 'Hydranten', organizationID: ctx.org.orgId, fields: FIELDS })
    ).body;
    const [nummer, art, position, bereit] = entity.fields.map((f: { id: string }) => f.id);
    const hydrant = async (n: string, kind: string, at: string, ready: string) => {
      const res = await api.post(`/api/v1/things/entities/${entity.id}/records`, {
        values: [
          { fieldID: nummer, value: n },
          { fieldID: art, value: kind },
          { fieldID: position, value: at },
          { fieldID: bereit, value: ready },
        ],
      });
      assert.is(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const h1 = await hydrant('H 1', 'Überflurhydrant', off(FIRE, 60, 20), 'true');
    const h2 = await hydrant('H 2', 'Unterflurhydrant', off(FIRE, -30, -140), 'false');
    await hydrant('H 3', 'Überflurhydrant', off(FIRE, 900, 0), 'true'); // beyond the 300 m
    const h4 = await hydrant('T 4', 'Löschteich', off(CRASH, -100, 50), 'true');
    const monitor = (
      await api.post('/api/v1/monitor', {
        name: 'Halle',
        organizationID: ctx.org.orgId,
        configuration: { ...STATION, language: 'de', waterSources: { entityId: entity.id } },
      })
    ).body.id as number;
    const screens = [await openWall(ctx, monitor, LANDSCAPE), await openWall(ctx, monitor, PORTRAIT)];
    assert.is(
      (
        await api.post(`/api/v1/monitor/${monitor}/data/alarming`, {
          eventId: 1,
          event: 'B3 Wohnungsbrand',
          geo: { address: 'Lindenstraße 14', ...FIRE },
        })
      ).status,
      200,
    );
    for (const screen of screens) {
      const shown = await until(
        () => marks(screen),
        (m) => m.length === 2,
        'two water sources',
      );
      assert.equal(
        shown.map((m) => m.id),
        [h1, h2],
      );
      assert.equal(
        shown.map((m) => m.inService),
        [true, false],
      );
      // The number and the distance; out of service spelled out, or only its ✕ where room is short.
      assert.match(shown[0].label, /^H 1\s*63 m$/);
      assert.match(shown[1].label, /^H 2\s*143 m\s*✕/);
    }
    // Reported broken during the incident: every wall turns it to out of service without a reload.
    assert.is(
      (await api.put(`/api/v1/things/records/${h1}`, { values: [{ fieldID: bereit, value: 'false' }] })).status,
      200,
    );
    for (const screen of screens)
      await until(
        () => marks(screen),
        (m) => m.length === 2 && m.every((x) => !x.inService),
        'H 1 out of service',
      );
    // A second event: the split screen marks each event's sources in its own cell.
    assert.is(
      (
        await api.post(`/api/v1/monitor/${monitor}/data/alarming`, {
          eventId: 2,
          event: 'TH Verkehrsunfall',
          geo: CRASH,
        })
      ).status,
      200,
    );
    for (const screen of screens) {
      const shown = await until(
        () => marks(screen),
        (m) => m.length === 3 && m.some((x) => x.id === h4),
        "the split screen's sources",
      );
      assert.equal(
        shown.filter((m) => m.panel === '2').map((m) => m.id),
        [h4],
      );
      assert.equal(
        shown
          .filter((m) => m.panel === '1')
          .map((m) => m.id)
          .sort(),
        [h1, h2].sort(),
      );
      assert.equal(screen.errors, []);
    }
  },
);

wall('a crowd of sources near the alarm: no label covers another label, a dot or the map edge', async (ctx) => {
  const api = client(ctx.service.url, { apiKey: ctx.org.apiKey });
  const entity = (
    await api.post('/api/v1/things/entities', { name: 'Wasser', organizationID: ctx.org.orgId, fields: FIELDS })
  ).body;
  const [nummer, art, position, bereit] = entity.fields.map((f: { id: string }) => f.id);
  // Eight within 250 m, three out of service, two pairs a few dozen metres apart.
  const spots: Array<[string, number, number, string]> = [
    ['H 101', 60, 25, 'false'],
    ['H 102', 75, 40, 'true'],
    ['H 103', -90, -40, 'false'],
    ['T 104', 200, 120, 'true'],
    ['H 105', 210, 140, 'false'],
    ['H 106', -150, 160, 'true'],
    ['H 107', 30, -220, 'true'],
    ['H 108', -40, 90, 'true'],
  ];
  for (const [n, north, east, ready] of spots)
    await api.post(`/api/v1/things/entities/${entity.id}/records`, {
      values: [
        { fieldID: nummer, value: n },
        { fieldID: art, value: n.startsWith('T') ? 'Löschteich' : 'Überflurhydrant' },
        { fieldID: position, value: off(FIRE, north, east) },
        { fieldID: bereit, value: ready },
      ],
    });
  const monitor = (
    await api.post('/api/v1/monitor', {
      name: 'Halle',
      organizationID: ctx.org.orgId,
      configuration: { ...STATION, language: 'de', waterSources: { entityId: entity.id, max: 8 } },
    })
  ).body.id as number;
  await api.post(`/api/v1/monitor/${monitor}/data/alarming`, {
    eventId: 1,
    event: 'B3 Wohnungsbrand',
    geo: { address: 'Lindenstraße 14', ...FIRE },
  });
  for (const viewport of [LANDSCAPE, PORTRAIT]) {
    const screen = await openWall(ctx, monitor, viewport);
    await until(
      () => marks(screen),
      (m) => m.length === 8,
      'eight water sources',
    );
    await screen.page.waitForTimeout(300);
    const problems = await screen.page.evaluate(() => {
      const found: string[] = [];
      const map = document.querySelector('[data-testid=map]')!.getBoundingClientRect();
      const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).display !== 'none';
      const labels = [...document.querySelectorAll('.map-marker__label')].filter(shown);
      const dots = [...document.querySelectorAll('.map-marker__dot')].filter(shown);
      const hit = (a: DOMRect, b: DOMRect) =>
        a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
      for (const [i, label] of labels.entries()) {
        const box = label.getBoundingClientRect();
        const name = label.textContent;
        if (
          box.left < map.left - 1 ||
          box.right > map.right + 1 ||
          box.top < map.top - 1 ||
          box.bottom > map.bottom + 1
        )
          found.push(`${name}: beyond the map's edge`);
        for (const other of labels.slice(i + 1))
          if (hit(box, other.getBoundingClientRect())) found.push(`${name} over ${other.textContent}`);
        for (const dot of dots)
          if (!label.parentElement!.contains(dot) && hit(box, dot.getBoundingClientRect()))
            found.push(`${name} over a dot`);
      }
      return { found, labelled: labels.length };
    });
    assert.equal(problems.found, [], `${viewport.width}×${viewport.height}`);
    assert.ok(problems.labelled >= 5, `most sources keep a label: ${problems.labelled}`);
    assert.equal(screen.errors, []);
  }
});

wall.run();
