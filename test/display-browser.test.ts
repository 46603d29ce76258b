// The station display in headless Chromium against the real service: real REST writes, the real hub,
// the page as a kiosk loads it from /display. Every assertion reads the DOM (data-testid elements).
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import {
  launchChromium,
  LANDSCAPE,
  openScreen,
  PORTRAIT,
  recordSeen,
  seenIn,
  WAIT_MS,
  type ScreenPage,
} from './helpers/browser.js';
import { eventually } from './helpers/fleet.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  browser: Browser;
  service: TestService;
  org: OrgFixture;
  api: ReturnType<typeof client>;
  /** Pages opened by the running test; closed after it. */
  screens: ScreenPage[];
  /** Services started by the running test; closed after it (unless the test closed them). */
  services: Set<TestService>;
}

const display = suite<Ctx>('display: the station screen in Chromium, live from the real service');

display.before(async (ctx) => {
  ctx.browser = await launchChromium();
  ctx.service = await startTestService();
  ctx.org = await createOrg(ctx.service);
  ctx.api = client(ctx.service.url, { apiKey: ctx.org.apiKey });
  ctx.screens = [];
  ctx.services = new Set();
});
display.after.each(async (ctx) => {
  await Promise.all(ctx.screens.map((s) => s.close().catch(() => undefined)));
  ctx.screens = [];
  for (const service of ctx.services) await service.close().catch(() => undefined);
  ctx.services.clear();
});
display.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.service?.close();
});

// ---------------------------------------------------------------------------------------------------
// fixtures

const STATION = { address: 'Feuerwache 1, Hauptstraße 1, 52062 Aachen', latitude: 50.7753, longitude: 6.0839 };
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const label = (name: string, color: string | null) => ({ name, color });
const member = (name: string, position: string, l: { name: string; color: string | null }, feedback: 0 | 1 | 2) => ({
  name,
  position,
  label: l,
  feedback,
});

function fireAlarm(extra: Record<string, unknown> = {}) {
  return {
    eventId: 4711,
    event: 'B3 Wohnungsbrand',
    message: 'Rauch aus Fenster 2. OG, zwei Personen auf dem Balkon',
    eventStartDate: ago(120),
    geo: { address: 'Lindenstraße 14, 52062 Aachen', latitude: 50.7766, longitude: 6.0912 },
    positiveResponses: 9,
    negativeResponses: 2,
    awaitingResponses: 4,
    units: [
      {
        name: 'HLF 20',
        feedback: [
          member('Anna Keller', 'Gruppenführerin', label('GF', '#dc2626'), 1),
          member('Tom Berger', 'Maschinist', label('MA', '#3b82f6'), 1),
          member('Max Hoffmann', 'Truppmann', label('AGT', '#f59e0b'), 2),
          member('Jonas Wolf', 'Truppmann', label('Crew', null), 0),
        ],
      },
      { name: 'DLK 23', feedback: [member('Paul Richter', 'Maschinist', label('MA', '#3b82f6'), 1)] },
    ],
    ...extra,
  };
}

async function newMonitor(ctx: Ctx, fields: Record<string, unknown> = {}, org = ctx.org): Promise<number> {
  const api = client(ctx.service.url, { apiKey: org.apiKey });
  const res = await api.post('/api/v1/monitor', {
    name: 'Wache Nord',
    organizationID: org.orgId,
    configuration: STATION,
    ...fields,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as number;
}

/** A data write through REST (M7–M10) on `base`, asserting it was saved. */
async function write(
  base: string,
  apiKey: string,
  method: 'POST' | 'PATCH',
  path: string,
  body: unknown,
): Promise<void> {
  const api = client(base, { apiKey });
  const res = method === 'POST' ? await api.post(path, body) : await api.patch(path, body);
  assert.is(res.status, 200, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The monitor's data version (M6's ETag). */
async function versionOf(ctx: Ctx, id: number): Promise<number> {
  const res = await ctx.api.get(`/api/v1/monitor/${id}/data`);
  assert.is(res.status, 200);
  return Number(JSON.parse(res.headers.get('etag')!));
}

async function open(ctx: Ctx, base: string, monitorId: number, viewport = LANDSCAPE, init = ''): Promise<ScreenPage> {
  const screen = await openScreen(ctx.browser, `${base}/display?monitor=${monitorId}`, viewport, init);
  ctx.screens.push(screen);
  return screen;
}

async function service(ctx: Ctx, env: Record<string, string> = {}): Promise<TestService> {
  const started = await startTestService(env);
  ctx.services.add(started);
  return started;
}

async function stop(ctx: Ctx, running: TestService): Promise<void> {
  ctx.services.delete(running);
  await running.close();
}

/** A snapshot as the hub would push it, of the monitor's current data under another version. */
async function snapshotOf(ctx: Ctx, id: number, version: number): Promise<unknown> {
  const monitor = await ctx.api.get(`/api/v1/monitor/${id}`);
  const data = await ctx.api.get(`/api/v1/monitor/${id}/data`);
  return { monitorId: id, version, monitor: monitor.body, monitorRevision: 0, data: data.body };
}

/**
 * Puts the test between page and hub on the WebSocket: client frames pass unless `intercept` answers
 * them (a string is sent back to the page, null drops the frame), and `push` sends hub events to the page.
 */
async function routeHub(page: Page, intercept: (frame: string) => string | null | undefined) {
  let route: WebSocketRoute | null = null;
  let upgraded = false;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      // Engine.IO's upgrade packet ("5"), or a socket that opened on the WebSocket ("40"): it runs here now.
      if (m === '5' || (typeof m === 'string' && m.startsWith('40'))) upgraded = true;
      const answer = typeof m === 'string' ? intercept(m) : undefined;
      if (answer === undefined) server.send(m);
      else if (answer !== null) ws.send(answer);
    });
    server.onMessage((m) => ws.send(m));
    route = ws;
  });
  // Routing takes effect from the next page load on.
  await page.reload();
  return {
    /** Resolves once the socket runs over the routed WebSocket (the upgrade probe is answered). */
    ready: async () => {
      await eventually(
        async () => upgraded,
        (done) => done,
        'the socket to run over the routed WebSocket',
      );
    },
    push: (event: string, payload: unknown) => route!.send(`42${JSON.stringify([event, payload])}`),
  };
}

/** The ack id and request of a client `monitor:subscribe` frame, or null for any other frame. */
function subscribeFrame(frame: string): { ackId: string; version?: number } | null {
  const match = /^42(\d+)\["monitor:subscribe",(.*)\]$/s.exec(frame);
  return match ? { ackId: match[1], ...(JSON.parse(match[2]) as { version?: number }) } : null;
}

// ---------------------------------------------------------------------------------------------------
// tests

display(
  'sign in with an API key, then an alarm written through REST (M7) shows keyword, message, address, ' +
    'map, counters and unit members',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const screen = await open(ctx, ctx.service.url, id);
    assert.is(
      await screen.count('pairing'),
      1,
      'a new screen shows its pairing code (the token form is one link away)',
    );
    assert.is(await screen.storedToken(), null);
    await screen.signIn(ctx.org.apiKey);
    // Connected: the empty monitor shows standby, no banner, and the token is kept for the next load.
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.count('banner'), 0);
    assert.is(await screen.storedToken(), ctx.org.apiKey);
    assert.ok(screen.page.url().endsWith(`/display?monitor=${id}`));

    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, fireAlarm());
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand');
    assert.is(await screen.text('alarm-message'), 'Rauch aus Fenster 2. OG, zwei Personen auf dem Balkon');
    assert.is(await screen.text('alarm-address'), 'Lindenstraße 14, 52062 Aachen');
    assert.match(await screen.text('alarm-elapsed'), /^\d+:\d\d$/);
    assert.is(await screen.text('counter-positive-value'), '9');
    assert.is(await screen.text('counter-negative-value'), '2');
    assert.is(await screen.text('counter-awaiting-value'), '4');
    assert.is(await screen.count('unit'), 2);
    // Who is coming and who has not answered are listed; declined members are only counted.
    const members = await screen.texts('member');
    assert.is(members.length, 4);
    for (const name of ['Anna Keller', 'Tom Berger', 'Max Hoffmann', 'Paul Richter']) {
      assert.ok(
        members.some((m) => m.includes(name)),
        `${name} missing in ${JSON.stringify(members)}`,
      );
    }
    assert.not.ok(
      members.some((m) => m.includes('Jonas Wolf')),
      'a declined member is counted, not listed',
    );
    assert.equal(await screen.texts('unit-declined'), ['1']);
    assert.equal(await screen.texts('unit-coming'), ['2', '1']);
    // Coming first (by qualification), then awaiting; each row coloured by its label colour.
    const rows = await screen.page
      .locator('[data-testid=unit]')
      .first()
      .locator('[data-testid=member]')
      .evaluateAll((els) =>
        els.map((el) => ({
          text: el.textContent,
          feedback: el.getAttribute('data-feedback'),
          color: (el as HTMLElement).style.getPropertyValue('--label'),
        })),
      );
    assert.equal(
      rows.map((r) => r.feedback),
      ['1', '1', '2'],
    );
    assert.ok(rows[0].text!.includes('Anna Keller') && rows[0].color === 'rgb(220, 38, 38)', JSON.stringify(rows[0]));
    assert.equal(
      await screen.page.locator('[data-testid=unit]').first().locator('[data-testid=qualification]').allTextContents(),
      ['GF1', 'MA1'],
    );
    assert.is(await screen.count('map-alarm'), 1);
    assert.is(await screen.count('map-station'), 1);
    assert.is(await screen.text('map-coords'), '50.77660° N  6.09120° E');
    assert.equal(screen.errors, []);
  },
);

display("sign in with a member's personal access token shows the monitor's current alarm", async (ctx) => {
  const id = await newMonitor(ctx);
  await write(
    ctx.service.url,
    ctx.org.apiKey,
    'POST',
    `/api/v1/monitor/${id}/data/alarming`,
    fireAlarm({ event: 'TH Verkehrsunfall', eventId: 9001 }),
  );
  const screen = await open(ctx, ctx.service.url, id);
  await screen.signIn(ctx.org.member.token);
  await screen.waitForText('alarm-event', 'TH Verkehrsunfall', WAIT_MS);
  assert.is(await screen.text('counter-positive-value'), '9');
  assert.is(await screen.storedToken(), ctx.org.member.token);
  assert.is(await screen.count('banner'), 0);
  assert.equal(screen.errors, []);
});

display('an M8 patch changes the counters on the screen without a reload (3 → 7 coming)', async (ctx) => {
  const id = await newMonitor(ctx);
  await write(
    ctx.service.url,
    ctx.org.apiKey,
    'POST',
    `/api/v1/monitor/${id}/data/alarming`,
    fireAlarm({ positiveResponses: 3, awaitingResponses: 10 }),
  );
  const screen = await open(ctx, ctx.service.url, id);
  await screen.signIn(ctx.org.apiKey);
  await screen.waitForText('counter-positive-value', '3', WAIT_MS);
  await screen.page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await write(ctx.service.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/alarming`, {
    positiveResponses: 7,
    awaitingResponses: 6,
  });
  await screen.waitForText('counter-positive-value', /^7$/);
  assert.is(await screen.text('counter-awaiting-value'), '6');
  assert.is(await screen.text('counter-negative-value'), '2');
  assert.is(await screen.text('alarm-event'), 'B3 Wohnungsbrand');
  assert.ok(
    await screen.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true),
    'the page was reloaded',
  );
  assert.equal(screen.errors, []);
});

display(
  'two alarms with different eventIds show a split screen with two panels, each patched on its own',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const screen = await open(ctx, ctx.service.url, id);
    await screen.signIn(ctx.org.apiKey);
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({ eventId: 101, event: 'B3 Wohnungsbrand', eventStartDate: ago(300) }),
    );
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand');
    assert.is(await screen.count('split'), 0, 'one alarm is not a split screen');
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({
        eventId: 102,
        event: 'RD Notfall Person',
        eventStartDate: ago(30),
        positiveResponses: 1,
        units: [],
        message: undefined,
        geo: { address: 'Seestraße 60, 52066 Aachen', latitude: 50.764, longitude: 6.1001 },
      }),
    );
    await screen.page.getByTestId('split').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.count('split-panel'), 2);
    assert.equal(await screen.texts('alarm-event'), ['B3 Wohnungsbrand', 'RD Notfall Person'], 'oldest event first');
    assert.equal(await screen.texts('alarm-address'), ['Lindenstraße 14, 52062 Aachen', 'Seestraße 60, 52066 Aachen']);
    // Side by side, the panels' rows line up although only one has a message, and every marker's label
    // stays inside its map.
    const tops = await screen.page
      .locator('[data-testid=alarm-panel]')
      .evaluateAll((panels) =>
        panels.map((p) =>
          ['map', 'counters'].map((id) =>
            Math.round(p.querySelector(`[data-testid=${id}]`)!.getBoundingClientRect().top),
          ),
        ),
      );
    assert.equal(tops[0], tops[1], `maps and counters line up: ${JSON.stringify(tops)}`);
    await screen.page.waitForFunction(
      () => {
        const labels = Array.from(document.querySelectorAll('.map-marker__label'));
        return (
          labels.length === 4 &&
          labels.every((label) => {
            const box = label.getBoundingClientRect();
            const map = label.closest('[data-testid=map]')!.getBoundingClientRect();
            return (
              box.width > 0 &&
              box.left >= map.left &&
              box.right <= map.right &&
              box.top >= map.top &&
              box.bottom <= map.bottom
            );
          })
        );
      },
      null,
      { timeout: WAIT_MS },
    );

    // A patch naming the older event changes that panel only.
    await write(ctx.service.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/alarming`, {
      eventId: 101,
      positiveResponses: 11,
    });
    const counters = () =>
      screen.page
        .locator('[data-testid=alarm-panel]')
        .evaluateAll((panels) =>
          panels.map(
            (p) =>
              `${p.getAttribute('data-event-id')}:${p.querySelector('[data-testid=counter-positive-value]')?.textContent}`,
          ),
        );
    await screen.page.waitForFunction(
      () => document.querySelector('[data-event-id="101"] [data-testid=counter-positive-value]')?.textContent === '11',
      null,
      { timeout: WAIT_MS },
    );
    assert.equal(await counters(), ['101:11', '102:1']);
    assert.equal(screen.errors, []);
  },
);

display(
  'after the alarm is cleared the ended alarm stays, and standby appears only after standbyDelay ' +
    '(2 s) with latest alarms and pagers from M9',
  async (ctx) => {
    const id = await newMonitor(ctx, {
      standbyDelay: 2,
      configurationStandby: { title: 'Freiwillige Feuerwehr Aachen-Nord', text: 'Übungsdienst Dienstag 19:00' },
    });
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/meta`, {
      latestAlarms: ['22.11. 03:12  B2 Müllcontainer, Torstraße 5', '21.11. 18:40  TH Baum auf Straße, Seestraße'],
      pagers: { activePager: 23, inactivePager: 4 },
    });
    const { eventId: _none, ...withoutEventId } = fireAlarm();
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, withoutEventId);
    // What the page showed and when is noted in the page: a busy test process may look late.
    const screen = await open(
      ctx,
      ctx.service.url,
      id,
      LANDSCAPE,
      recordSeen(['alarm-ended', 'standby'], ['alarm-event']),
    );
    await screen.signIn(ctx.org.apiKey);
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand', WAIT_MS);
    assert.is(await screen.count('standby'), 0);

    const cleared = Date.now();
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    const { 'alarm-ended': ended, standby: reached } = await seenIn(screen);
    assert.ok(
      ended && reached && ended.at >= cleared && ended.at < reached.at,
      `ENDED after the clear, then standby: ${JSON.stringify({ cleared, ended, reached })}`,
    );
    assert.is(ended.texts['alarm-event'], 'B3 Wohnungsbrand', 'the ended alarm stays on the wall during the delay');
    // The page counts the delay on its estimate of the server's clock, which may be off by half a round trip.
    const after = reached.at - cleared;
    assert.ok(after >= 1_800, `standby after ${after} ms, expected ≥ 2 s`);
    assert.is(await screen.count('alarm-panel'), 0);
    const standby = await screen.text('standby');
    assert.ok(
      standby.includes('Freiwillige Feuerwehr Aachen-Nord') && standby.includes('Übungsdienst Dienstag 19:00'),
      standby,
    );
    assert.match(await screen.text('standby-clock'), /^\d\d:\d\d\d\d$/);
    const latest = await screen.text('standby-latest');
    assert.ok(
      latest.includes('B2 Müllcontainer, Torstraße 5') && latest.includes('TH Baum auf Straße, Seestraße'),
      latest,
    );
    assert.is(await screen.text('pagers-active'), '23');
    assert.is(await screen.text('pagers-inactive'), '4');

    // Meta patches reach the standby view live too.
    await write(ctx.service.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/meta`, {
      pagers: { activePager: 21 },
    });
    await screen.waitForText('pagers-active', /^21$/);
    assert.equal(screen.errors, []);
  },
);

display(
  'the banner shows "Disconnected since HH:MM" while the hub is away and clears after reconnecting, ' +
    'showing the write it missed',
  async (ctx) => {
    const id = await newMonitor(ctx);
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({ positiveResponses: 1 }),
    );
    const first = await service(ctx);
    const second = await service(ctx); // another process on the same database, for the write the screen misses
    const port = first.port;
    const screen = await open(ctx, first.url, id);
    await screen.signIn(ctx.org.apiKey);
    await screen.waitForText('counter-positive-value', /^1$/, WAIT_MS);
    const held = await versionOf(ctx, id);
    assert.equal(
      screen.subscribes.map((s) => s.version),
      [undefined],
      'one subscribe, without a version, at sign-in',
    );

    await stop(ctx, first);
    await screen.waitForText('banner', /^Disconnected since \d\d:\d\d/);
    assert.is(await screen.page.getByTestId('banner').getAttribute('data-kind'), 'disconnected');
    assert.is(await screen.text('counter-positive-value'), '1', 'the last state stays visible under the banner');

    await write(second.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/alarming`, { positiveResponses: 5 });
    assert.is(await versionOf(ctx, id), held + 1);
    assert.is(await screen.text('counter-positive-value'), '1');

    await service(ctx, { PORT: String(port) });
    await screen.page.getByTestId('banner').waitFor({ state: 'detached', timeout: 20_000 });
    await screen.waitForText('counter-positive-value', /^5$/);
    assert.ok(
      screen.subscribes.some((s) => s.version === held),
      `re-subscribe with the held version ${held}: ${JSON.stringify(screen.subscribes)}`,
    );
    assert.is(await screen.text('alarm-event'), 'B3 Wohnungsbrand');
    assert.equal(screen.errors, []);
  },
);

display(
  'a gap in versions (a write on another process, no Redis) makes the screen re-subscribe and show both writes',
  async (ctx) => {
    const id = await newMonitor(ctx);
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({ positiveResponses: 0, negativeResponses: 0 }),
    );
    const a = await service(ctx);
    const b = await service(ctx);
    const screen = await open(ctx, a.url, id);
    await screen.signIn(ctx.org.apiKey);
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand', WAIT_MS);
    await screen.websocket;

    // Hub A also pushes snapshots every 10 s when it notices missed versions; should that land between
    // the two writes, the screen had no gap to see, so the round is repeated.
    for (let round = 1; ; round++) {
      const held = await versionOf(ctx, id);
      const since = screen.received.length;
      // B's hub has no screens and no Redis: screen on A never gets version held + 1.
      await write(b.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/alarming`, {
        positiveResponses: 10 + round,
      });
      // A's hub sends held + 2, which the screen cannot apply.
      await write(a.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/alarming`, {
        negativeResponses: 20 + round,
      });
      await screen.waitForText('counter-negative-value', new RegExp(`^${20 + round}$`));
      await screen.waitForText('counter-positive-value', new RegExp(`^${10 + round}$`));
      const resubscribed = screen.subscribes.some((s) => s.version === held);
      const pushed = screen.received.slice(since).includes('monitor:snapshot');
      if (resubscribed) break;
      assert.ok(
        pushed && round < 3,
        `no re-subscribe with version ${held} after the gap: ${JSON.stringify(screen.subscribes)}, received ` +
          `${JSON.stringify(screen.received.slice(since))}`,
      );
    }
    await screen.page.getByTestId('banner').waitFor({ state: 'detached', timeout: WAIT_MS });
    assert.ok(screen.received.includes('monitor:patch'));
    assert.equal(screen.errors, []);
  },
);

display(
  'a revoked token sends the screen back to sign-in with a clear message and the stored token is cleared',
  async (ctx) => {
    const org = await createOrg(ctx.service);
    const id = await newMonitor(ctx, {}, org);
    const screen = await open(ctx, ctx.service.url, id);
    await screen.signIn(org.apiKey);
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.storedToken(), org.apiKey);

    await ctx.service.identity.revokeToken(org.apiKeyId);
    await screen.waitForText('signin-error', 'This token was revoked or is not valid. Please sign in again.', WAIT_MS);
    assert.is(await screen.count('standby'), 0);
    assert.is(await screen.count('banner'), 0);
    assert.is(await screen.count('signin-token'), 1);
    assert.is(await screen.storedToken(), null);
    assert.ok(screen.page.url().endsWith(`/display?monitor=${id}`), 'the monitor stays in the address');
    assert.equal(screen.errors, []);
  },
);

display('no scrolling at 1920×1080 and 1080×1920 with a big alarm, single and split', async (ctx) => {
  const crew = (unit: number) =>
    Array.from({ length: 12 }, (_, i) =>
      member(
        `Einsatzkraft ${unit}-${i + 1} mit einem ziemlich langen Namen`,
        'Truppmann/Truppfrau',
        label('AGT', '#f59e0b'),
        (i % 3) as 0 | 1 | 2,
      ),
    );
  const big = fireAlarm({
    event: 'B4 Großbrand Industriegebäude mit Menschenleben in Gefahr und Ausbreitung auf Nachbargebäude',
    message: 'Vollbrand einer Lagerhalle, Ausbreitung auf das Bürogebäude droht, mehrere Personen vermisst. '.repeat(5),
    geo: {
      address: 'Gewerbegebiet Eilendorf-Süd, Von-Coels-Straße 200–220, Halle 7, 52080 Aachen',
      latitude: 50.7781,
      longitude: 6.151,
    },
    positiveResponses: 123,
    negativeResponses: 45,
    awaitingResponses: 67,
    units: Array.from({ length: 8 }, (_, u) => ({ name: `HLF 20 · 1/46-${u + 1}`, feedback: crew(u + 1) })),
  });
  const id = await newMonitor(ctx);
  await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, big);
  const screens: Array<[string, ScreenPage]> = [];
  for (const [name, viewport] of [
    ['landscape', LANDSCAPE],
    ['portrait', PORTRAIT],
  ] as const) {
    const screen = await open(ctx, ctx.service.url, id, viewport);
    await screen.signIn(ctx.org.apiKey);
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
    screens.push([name, screen]);
  }
  const check = async (name: string, screen: ScreenPage, view: string) => {
    // No named functions inside evaluate(): tsx would wrap them in a helper the page does not have.
    const m = await screen.page.evaluate(() => {
      const root = document.scrollingElement!;
      const bottoms: Record<string, number> = { counters: 0, 'alarm-panel': 0 };
      for (const id of Object.keys(bottoms)) {
        document
          .querySelectorAll(`[data-testid=${id}]`)
          .forEach((e) => (bottoms[id] = Math.max(bottoms[id], e.getBoundingClientRect().bottom)));
      }
      return {
        scrollHeight: root.scrollHeight,
        scrollWidth: root.scrollWidth,
        innerHeight,
        innerWidth,
        counters: bottoms.counters,
        panel: bottoms['alarm-panel'],
      };
    });
    const where = `${view} ${name}: ${JSON.stringify(m)}`;
    assert.ok(m.scrollHeight <= m.innerHeight, `scrolls vertically, ${where}`);
    assert.ok(m.scrollWidth <= m.innerWidth, `scrolls horizontally, ${where}`);
    assert.ok(
      m.counters > 0 && m.counters <= m.innerHeight && m.panel <= m.innerHeight,
      `counters or panel off screen, ${where}`,
    );
  };
  for (const [name, screen] of screens) await check(name, screen, 'alarm');
  await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, {
    ...big,
    eventId: 4712,
    event: 'TH Person eingeklemmt',
  });
  for (const [name, screen] of screens) {
    await screen.page.getByTestId('split').waitFor({ timeout: WAIT_MS });
    await check(name, screen, 'split');
    assert.equal(screen.errors, []);
  }
});

display('the standby view stays inside the screen in portrait with a long title and long alarm lines', async (ctx) => {
  const id = await newMonitor(ctx, {
    name: 'Freiwillige Feuerwehr der Stadt Aachen · Löschzug Nord · Wache Haaren-Verlautenheide',
    configurationStandby: {
      text: 'Übungsdienst Dienstag 19:30 mit Atemschutz-Belastungsübung und anschließender Gerätepflege',
    },
  });
  await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/meta`, {
    latestAlarms: [
      '20.11. 22:51 B1 Heimrauchmelder ausgelöst, Monheimsallee 80, Eingang über den Hinterhof, Schlüsseldepot',
    ],
    pagers: { activePager: 23, inactivePager: 4 },
  });
  const screen = await open(ctx, ctx.service.url, id, PORTRAIT);
  await screen.signIn(ctx.org.apiKey);
  await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
  const overflow = await screen.page.evaluate(() => {
    let right = 0;
    document
      .querySelectorAll('[data-testid=standby] *')
      .forEach((e) => (right = Math.max(right, e.getBoundingClientRect().right)));
    return { right, innerWidth };
  });
  assert.ok(
    overflow.right <= overflow.innerWidth,
    `standby content ends at ${overflow.right} px on a ${overflow.innerWidth} px screen`,
  );
});

display(
  'with TILE_URL pointing at an unreachable tile server the page still shows the alarm and both ' +
    'map markers, without page errors',
  async (ctx) => {
    const tileUrl = 'http://127.0.0.1:9/{z}/{x}/{y}.png';
    const tiled = await service(ctx, { TILE_URL: tileUrl });
    const id = await newMonitor(ctx);
    await write(tiled.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, fireAlarm());
    const screen = await open(ctx, tiled.url, id);
    assert.is(await screen.page.locator('meta[name="tile-url"]').getAttribute('content'), tileUrl);
    await screen.signIn(ctx.org.apiKey);
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand', WAIT_MS);
    // Every tile is tried, fails, and is hidden (tried again later): the grid, the markers and the coordinates remain.
    await screen.page.waitForFunction(
      () => {
        const tiles = Array.from(document.querySelectorAll<HTMLImageElement>('.map-tile'));
        return (
          tiles.length > 0 &&
          tiles.every((t) => t.dataset.state === 'failed' && getComputedStyle(t).visibility === 'hidden')
        );
      },
      null,
      { timeout: WAIT_MS },
    );
    const map = screen.page.getByTestId('map');
    assert.ok((await map.getAttribute('class'))!.includes('map--tiles-failed'));
    assert.ok(await screen.page.getByTestId('map-alarm').isVisible());
    assert.ok(await screen.page.getByTestId('map-station').isVisible());
    assert.is(await screen.text('map-coords'), '50.77660° N  6.09120° E');
    assert.is(await screen.text('counter-positive-value'), '9');
    assert.ok((await screen.texts('member')).length === 4);
    assert.equal(screen.errors, []);
  },
);

display(
  'an alarm that ran out stays in standby when a later meta patch prunes it or the alarm is cleared; ' +
    'pagers still update',
  async (ctx) => {
    const id = await newMonitor(ctx, { standbyDelay: 2 });
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/meta`, {
      pagers: { activePager: 5, inactivePager: 1 },
    });
    // ENDED lasts 2 s: noted by the page, as a busy test process may look too late.
    const screen = await open(ctx, ctx.service.url, id, LANDSCAPE, recordSeen(['alarm-ended']));
    await screen.signIn(ctx.org.apiKey);
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    // Running for 8 s: long enough to be shown running first, however slow the machine.
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({ eventEndDate: new Date(Date.now() + 8_000).toISOString() }),
    );
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand');
    await eventually(
      () => seenIn(screen),
      (seen) => seen['alarm-ended'] !== undefined,
      'the alarm shown as ended',
    );
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    // From here on any alarm panel, however brief, counts.
    await screen.page.evaluate(() => {
      const w = window as unknown as { sawPanel: boolean };
      w.sawPanel = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid=alarm-panel]')) w.sawPanel = true;
      }).observe(document.getElementById('app')!, { childList: true, subtree: true });
    });
    const sawPanel = () => screen.page.evaluate(() => (window as unknown as { sawPanel: boolean }).sawPanel);

    // The reducer drops the ended event from the list on this write: no change of the alarm.
    await write(ctx.service.url, ctx.org.apiKey, 'PATCH', `/api/v1/monitor/${id}/data/meta`, {
      pagers: { activePager: 9 },
    });
    await screen.waitForText('pagers-active', /^9$/);
    await screen.page.waitForTimeout(800);
    assert.not.ok(await sawPanel(), 'the ended alarm came back after a pagers patch');
    // Clearing the alarm that ended long ago has nothing to show either.
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
    await screen.page.waitForTimeout(800);
    assert.not.ok(await sawPanel(), 'the old ended alarm came back after clearing');
    assert.is(await screen.count('standby'), 1);
    assert.equal(screen.errors, []);
  },
);

display(
  'a view that fails to build shows keyword and address instead, and the real view follows once it builds again',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const screen = await open(ctx, ctx.service.url, id);
    await screen.signIn(ctx.org.apiKey);
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    // The alarm panel draws SVG icons: make that throw, as a bug in a view would.
    await screen.page.evaluate(() => {
      const w = window as unknown as { failSvg: boolean };
      w.failSvg = true;
      const original = document.createElementNS.bind(document);
      document.createElementNS = ((ns: string, tag: string) => {
        if (w.failSvg) throw new Error('injected view failure');
        return original(ns, tag);
      }) as typeof document.createElementNS;
    });
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, fireAlarm());
    await screen.waitForText('fallback-event', 'B3 Wohnungsbrand');
    assert.is(await screen.text('fallback-address'), 'Lindenstraße 14, 52062 Aachen');
    await screen.page.evaluate(() => ((window as unknown as { failSvg: boolean }).failSvg = false));
    await screen.page.getByTestId('alarm-panel').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.text('alarm-event'), 'B3 Wohnungsbrand');
    assert.is(await screen.count('fallback'), 0);
    assert.equal(screen.errors, []);
  },
);

display('the connection banner never covers the alarm keyword, landscape and portrait', async (ctx) => {
  const id = await newMonitor(ctx);
  await write(
    ctx.service.url,
    ctx.org.apiKey,
    'POST',
    `/api/v1/monitor/${id}/data/alarming`,
    fireAlarm({ event: 'B3 Wohnungsbrand mit Menschenleben in Gefahr' }),
  );
  const hub = await service(ctx);
  const screens: ScreenPage[] = [];
  for (const viewport of [LANDSCAPE, PORTRAIT]) {
    const screen = await open(ctx, hub.url, id, viewport);
    await screen.signIn(ctx.org.apiKey);
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
    screens.push(screen);
  }
  await stop(ctx, hub);
  for (const screen of screens) {
    await screen.waitForText('banner', /^Disconnected since/);
    await screen.page.waitForTimeout(300); // the refit after the view moved down
    const rects = await screen.page.evaluate(() =>
      ['banner', 'alarm-event'].map((id) => {
        const r = document.querySelector(`[data-testid=${id}]`)!.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    const [b, k] = rects;
    const overlap = b.left < k.right && k.left < b.right && b.top < k.bottom && k.top < b.bottom;
    assert.not.ok(overlap, `banner ${JSON.stringify(b)} covers keyword ${JSON.stringify(k)}`);
    const scroll = await screen.page.evaluate(() => document.scrollingElement!.scrollHeight <= innerHeight);
    assert.ok(scroll, 'the page scrolls with the banner');
    assert.equal(screen.errors, []);
  }
});

display(
  'while autoplay blocks audio a badge asks for a tap and no gong is queued; a tap unlocks it and the next alarm rings',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const silent = await newMonitor(ctx, { configuration: { ...STATION, gong: false } });
    // Headless Chromium never holds audio back, whatever its --autoplay-policy: this script makes audio
    // stay suspended until a real tap, as a kiosk browser does, and counts oscillators (4 a strike). It is
    // plain JavaScript, not a function: tsx would add a naming helper the page does not have.
    const blockAudio = (page: Page) =>
      page.context().addInitScript({
        content: `
    window.oscillators = 0;
    let tapped = false;
    let unlocked = false;
    addEventListener('pointerdown', (event) => { tapped ||= event.isTrusted; }, true);
    const base = BaseAudioContext.prototype;
    const state = Object.getOwnPropertyDescriptor(base, 'state').get;
    Object.defineProperty(base, 'state', { configurable: true, get() { return unlocked ? state.call(this) : 'suspended'; } });
    const resume = AudioContext.prototype.resume;
    AudioContext.prototype.resume = function () {
      unlocked ||= tapped;
      return unlocked ? resume.call(this) : new Promise(() => {});
    };
    const createOscillator = base.createOscillator;
    base.createOscillator = function () {
      window.oscillators++;
      return createOscillator.call(this);
    };`,
      });
    // The sign-in click is a gesture itself: like a kiosk after a power cut, the page loads again with
    // the stored token and no gesture at all.
    const restart = async (screen: ScreenPage) => {
      await screen.signIn(ctx.org.apiKey);
      await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
      await blockAudio(screen.page);
      await screen.page.reload();
      await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    };
    const screen = await open(ctx, ctx.service.url, id);
    await restart(screen);
    await screen.waitForText('sound-blocked', 'Sound blocked – tap the screen');
    const oscillators = () => screen.page.evaluate(() => (window as unknown as { oscillators: number }).oscillators);
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, fireAlarm());
    await screen.waitForText('alarm-event', 'B3 Wohnungsbrand');
    await screen.page.waitForTimeout(300);
    assert.is(await oscillators(), 0, 'strikes were queued on a suspended context');
    assert.is(await screen.count('sound-blocked'), 1);

    await screen.page.mouse.click(200, 200);
    await screen.page.getByTestId('sound-blocked').waitFor({ state: 'detached', timeout: WAIT_MS });
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({ eventId: 4712, event: 'TH Person eingeklemmt' }),
    );
    await screen.page.getByTestId('split').waitFor({ timeout: WAIT_MS });
    await screen.page.waitForFunction(() => (window as unknown as { oscillators: number }).oscillators === 12, null, {
      timeout: WAIT_MS,
    });
    assert.equal(screen.errors, []);

    // Without the gong there is nothing to unlock: no badge.
    const quiet = await open(ctx, ctx.service.url, silent);
    await restart(quiet);
    await quiet.page.waitForTimeout(1_600);
    assert.is(await quiet.count('sound-blocked'), 0);
    assert.equal(quiet.errors, []);
  },
);

display('a monitor the token cannot see yet is retried every minute while the form is untouched', async (ctx) => {
  const before = await newMonitor(ctx);
  const missing = before + 1; // ids are sequential: the next monitor created gets this one
  const screen = await open(ctx, ctx.service.url, missing);
  await screen.page.clock.install();
  await screen.signIn(ctx.org.apiKey);
  await screen.waitForText('signin-error', `Monitor ${missing} was not found`, WAIT_MS);
  assert.is(await newMonitor(ctx), missing);
  await screen.page.clock.fastForward(59_000);
  assert.is(await screen.count('signin'), 1, 'retried before the minute was up');
  await screen.page.clock.fastForward(2_000);
  await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
  assert.is(await screen.storedToken(), ctx.org.apiKey);

  // Someone typing in the form stops the retries: the form stays for them.
  const other = (await newMonitor(ctx)) + 1;
  const typing = await open(ctx, ctx.service.url, other);
  await typing.page.clock.install();
  await typing.signIn(ctx.org.apiKey);
  await typing.waitForText('signin-error', `Monitor ${other} was not found`, WAIT_MS);
  await typing.page.getByTestId('signin-token').pressSequentially('ahk_');
  assert.is(await newMonitor(ctx), other);
  const subscribes = typing.subscribes.length;
  await typing.page.clock.fastForward(61_000);
  await typing.page.waitForTimeout(1_000);
  assert.is(await typing.count('signin'), 1);
  assert.is(typing.subscribes.length, subscribes, 'retried although someone was typing');
  assert.equal([...screen.errors, ...typing.errors], []);
});

display(
  'a snapshot the hub pushes that closes a gap clears the "Out of date" banner without waiting for an ack',
  async (ctx) => {
    const id = await newMonitor(ctx);
    await write(
      ctx.service.url,
      ctx.org.apiKey,
      'POST',
      `/api/v1/monitor/${id}/data/alarming`,
      fireAlarm({ positiveResponses: 1 }),
    );
    const screen = await open(ctx, ctx.service.url, id);
    let dropResubscribe = false;
    // The resubscribe after the gap is lost on the way: only the pushed snapshot can close the gap.
    const hub = await routeHub(screen.page, (frame) => (dropResubscribe && subscribeFrame(frame) ? null : undefined));
    await screen.signIn(ctx.org.apiKey);
    await screen.waitForText('counter-positive-value', /^1$/, WAIT_MS);
    await hub.ready();
    const held = await versionOf(ctx, id);
    dropResubscribe = true;
    hub.push('monitor:patch', {
      monitorId: id,
      version: held + 2,
      section: 'alarming',
      op: 'patch',
      payload: { positiveResponses: 3 },
      at: new Date().toISOString(),
    });
    await screen.waitForText('banner', /^Out of date since/);
    hub.push('monitor:snapshot', await snapshotOf(ctx, id, held + 2));
    await screen.page.getByTestId('banner').waitFor({ state: 'detached', timeout: WAIT_MS });
    assert.equal(screen.errors, []);
  },
);

display(
  'failing subscribes are retried by one timer: resyncs during the failures do not add more retries',
  async (ctx) => {
    const id = await newMonitor(ctx);
    await write(ctx.service.url, ctx.org.apiKey, 'POST', `/api/v1/monitor/${id}/data/alarming`, fireAlarm());
    const screen = await open(ctx, ctx.service.url, id);
    let failing = false;
    const failed: number[] = [];
    // A hub that answers every subscribe with a passing fault (as while its database is away).
    const hub = await routeHub(screen.page, (frame) => {
      const request = failing ? subscribeFrame(frame) : null;
      if (!request) return undefined;
      failed.push(Date.now());
      return `43${request.ackId}${JSON.stringify([{ error: { error: 'unavailable', message: 'database away' } }])}`;
    });
    await screen.signIn(ctx.org.apiKey);
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
    await hub.ready();
    const held = await versionOf(ctx, id);
    failing = true;
    // Three gaps, each closed by a pushed snapshot: every one asks for a resync, which fails.
    for (let round = 1; round <= 3; round++) {
      const version = held + 2 * round;
      hub.push('monitor:patch', {
        monitorId: id,
        version,
        section: 'alarming',
        op: 'patch',
        payload: { positiveResponses: round },
        at: new Date().toISOString(),
      });
      await screen.page.waitForTimeout(300);
      hub.push('monitor:snapshot', await snapshotOf(ctx, id, version - 1));
      await screen.page.waitForTimeout(300);
    }
    const from = Date.now();
    await screen.page.waitForTimeout(7_000);
    // Retries go on (waited for: a busy page's timers run late), one every 3 s over however long it took
    // (one more for a retry due before `from` and heard after it); each resync adding a timer would be 4×.
    await eventually(
      async () => failed.filter((t) => t >= from).length,
      (n) => n >= 2,
      'two retries',
    );
    const elapsed = Date.now() - from;
    const during = failed.filter((t) => t >= from).length;
    assert.ok(
      during <= Math.floor(elapsed / 3_000) + 2,
      `${during} subscribes in ${elapsed} ms, expected one every 3 s`,
    );
    assert.equal(screen.errors, []);
  },
);

display.run();
