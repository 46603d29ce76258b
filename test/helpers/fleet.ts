// Fixtures of the screen fleet's browser tests (test/display-fleet-*.test.ts): a page paired the way a
// station does it (the page shows a code, an admin sends it with F3), what the page stored, and a
// kiosk agent's socket beside it.
import * as assert from 'uvu/assert';
import { io, type Socket } from 'socket.io-client';
import { openScreen, LANDSCAPE, WAIT_MS, type ScreenPage } from './browser.js';
import { client } from './http.js';
import type { WallCtx } from './wall.js';

/** Where a paired page keeps its screen id, name and monitor (display-client/src/credentials.ts). */
export const PAIRING_STORAGE_KEY = 'alarm-hub.display.screen';

/** A page that was paired through its own pairing screen. */
export interface PairedPage {
  screen: ScreenPage;
  screenId: number;
  /** The code as the page showed it. */
  code: string;
}

/** Waits for the pairing code the page shows (grouped, e.g. ACDE-FHJK) and returns it. */
export async function shownCode(screen: ScreenPage, timeoutMs = WAIT_MS): Promise<string> {
  // The code as matched, not read again afterwards: a second read could come before or after a change.
  return screen.waitForText('pairing-code', /^[A-Z0-9]{4}-[A-Z0-9]{4}$/, timeoutMs);
}

/**
 * F3 as an admin's tool sends it, with the code typed as the screen shows it; asserts 201 and returns the screen's id.
 */
export async function pairCode(ctx: WallCtx, monitorId: number, code: string, name: string): Promise<number> {
  const res = await client(ctx.service.url, { apiKey: ctx.org.apiKey }).post(`/api/v1/monitor/${monitorId}/screens`, {
    code,
    name,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as number;
}

/**
 * Opens /display without a credential (`query` e.g. "?lang=de"), pairs it with the monitor as `name`, and waits for the
 * live screen.
 */
export async function openPaired(
  ctx: WallCtx,
  monitorId: number,
  name: string,
  query = '',
  viewport = LANDSCAPE,
  init = '',
): Promise<PairedPage> {
  const screen = await openScreen(ctx.browser, `${ctx.service.url}/display${query}`, viewport, init);
  ctx.screens.push(screen);
  const code = await shownCode(screen);
  const screenId = await pairCode(ctx, monitorId, code, name);
  await screen.page.locator('[data-testid=standby], [data-testid=alarm-panel]').first().waitFor({ timeout: WAIT_MS });
  return { screen, screenId, code };
}

/** What the page stored about its pairing. */
export async function storedPairing(
  screen: ScreenPage,
): Promise<{ screenId: number; monitorId: number; name: string } | null> {
  return JSON.parse((await screen.page.evaluate((key) => localStorage.getItem(key), PAIRING_STORAGE_KEY)) ?? 'null');
}

/** A page script recording every `alarmhub:power` DOM event in `window.powerEvents` (plain JavaScript for the page). */
export const RECORD_POWER =
  "window.powerEvents = []; addEventListener('alarmhub:power', (e) => window.powerEvents.push(e.detail.state));";

/** The `alarmhub:power` states the page dispatched so far. */
export function powerEvents(screen: ScreenPage): Promise<string[]> {
  return screen.page.evaluate(() => (window as unknown as { powerEvents: string[] }).powerEvents);
}

/** A kiosk agent beside a screen: connects with the screen token and records `screen:power`. */
export async function kioskAgent(url: string, token: string): Promise<{ socket: Socket; states: string[] }> {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token, scheme: 'screen-token', role: 'agent' },
    transports: ['websocket'],
    reconnection: false,
  });
  const states: string[] = [];
  socket.on('screen:power', (event: { state: string }) => states.push(event.state));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, states };
}

/** Polls `read` until `done` holds for its value; the last value goes into the failure message. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
