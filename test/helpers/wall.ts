// Fixtures of the wall display's browser tests (test/display-wall-*.test.ts): a service, a browser,
// monitors and alarms written through REST, and what the page shows measured from the page.
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launchChromium, openSignedIn, LANDSCAPE, type ScreenPage } from './browser.js';
import { client } from './http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './service.js';

/** What every wall test holds. */
export interface WallCtx {
  browser: Browser;
  service: TestService;
  org: OrgFixture;
  screens: ScreenPage[];
}

/** Starts browser, service and organization (a suite's `before`). */
export async function setUpWall(ctx: WallCtx): Promise<void> {
  ctx.browser = await launchChromium();
  ctx.service = await startTestService();
  ctx.org = await createOrg(ctx.service);
  ctx.screens = [];
}

/** Closes the pages of the test that ran (a suite's `after.each`). */
export async function closeScreens(ctx: WallCtx): Promise<void> {
  await Promise.all(ctx.screens.map((s) => s.close().catch(() => undefined)));
  ctx.screens = [];
}

/** Closes browser and service (a suite's `after`). */
export async function tearDownWall(ctx: WallCtx): Promise<void> {
  await ctx.browser?.close();
  await ctx.service?.close();
}

export const STATION = { address: 'Feuerwache 1, Hauptstraße 1, 52062 Aachen', latitude: 50.7753, longitude: 6.0839 };
export const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const member = (name: string, label: string, color: string | null, feedback: 0 | 1 | 2) => ({
  name,
  position: 'Truppmann',
  label: { name: label, color },
  feedback,
});

/** The label colours the tests use: hex, named, hsl(), oklch(), translucent, none and an invalid one. */
export const LABEL_COLORS: Array<string | null> = [
  '#dc2626',
  '#3b82f6',
  '#f59e0b',
  '#16a34a',
  '#fde047',
  null,
  'hsl(200 80% 40%)',
  'oklch(70% 0.2 150)',
  'rgba(255, 255, 255, 0.3)',
  'gold',
  'nonsense',
];

/** `units` units of `size` members each: 4 in 6 coming, 1 awaiting, 1 declined; labels cycle through LABEL_COLORS. */
export function crew(units: number, size: number, tag = '') {
  return Array.from({ length: units }, (_, u) => ({
    name: `HLF 20 · 1/46-${u + 1}${tag}`,
    feedback: Array.from({ length: size }, (_, i) => {
      const color = LABEL_COLORS[(u * size + i) % LABEL_COLORS.length];
      return member(
        `Kraft ${u + 1}.${i + 1}${tag}`,
        ['GF', 'MA', 'AGT', 'SAN'][i % 4],
        color,
        ([1, 1, 2, 1, 0, 1] as const)[i % 6],
      );
    }),
  }));
}

/** An alarm with `units` units of `size` members. */
export function alarm(
  eventId: number,
  event: string,
  units: number,
  size: number,
  extra: Record<string, unknown> = {},
) {
  const list = crew(units, size, `/${eventId}`);
  const coming = list.reduce((n, u) => n + u.feedback.filter((m) => m.feedback === 1).length, 0);
  return {
    eventId,
    event,
    message: 'Rauch aus Fenster 2. OG, zwei Personen auf dem Balkon',
    eventStartDate: ago(120),
    geo: { address: 'Lindenstraße 14, 52062 Aachen', latitude: 50.7766, longitude: 6.0912 },
    positiveResponses: coming,
    negativeResponses: units,
    awaitingResponses: units,
    units: list,
    ...extra,
  };
}

/** Creates a monitor of the org with the station configuration and `fields`. */
export async function newMonitor(ctx: WallCtx, fields: Record<string, unknown> = {}): Promise<number> {
  const api = client(ctx.service.url, { apiKey: ctx.org.apiKey });
  const { configuration, ...rest } = fields as { configuration?: Record<string, unknown> };
  const res = await api.post('/api/v1/monitor', {
    name: 'Wache Nord',
    organizationID: ctx.org.orgId,
    configuration: { ...STATION, ...configuration },
    ...rest,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as number;
}

/** A data write through REST (M7–M10), asserting it was saved. */
export async function write(
  ctx: WallCtx,
  method: 'POST' | 'PATCH',
  path: string,
  body: unknown,
  base = ctx.service.url,
): Promise<void> {
  const api = client(base, { apiKey: ctx.org.apiKey });
  const res = method === 'POST' ? await api.post(path, body) : await api.patch(path, body);
  assert.is(res.status, 200, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Opens the monitor's display, signed in, with an optional page script. */
export async function openWall(
  ctx: WallCtx,
  monitorId: number,
  viewport = LANDSCAPE,
  init = '',
  base = ctx.service.url,
  query = '',
): Promise<ScreenPage> {
  const screen = await openSignedIn(
    ctx.browser,
    `${base}/display?monitor=${monitorId}${query}`,
    ctx.org.apiKey,
    viewport,
    init,
  );
  ctx.screens.push(screen);
  return screen;
}

/** Resolves once the page's text fitting and crew fitting have settled (two frames after the last change). */
export async function settled(screen: ScreenPage): Promise<void> {
  await screen.page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await screen.page.waitForTimeout(300);
}
