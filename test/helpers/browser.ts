// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for the display client's
// browser tests and the screenshots of docs/display.md: one browser per file, a fresh context per test.
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page, type WebSocket } from 'playwright-core';

/** Debian's chromium; `.ci/run` installs it. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the display keeps its token (display-client/src/credentials.ts). */
export const TOKEN_STORAGE_KEY = 'alarm-hub.display.token';

/**
 * How long the helpers wait for a page to show something by default: long, as it costs nothing when
 * the page is quick and a busy machine (or Chromium's first start) may take many seconds.
 */
export const WAIT_MS = 60_000;

export const LANDSCAPE = { width: 1920, height: 1080 };
export const PORTRAIT = { width: 1080, height: 1920 };

/** Launches Chromium; throws (never skips) with a clear message when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    const message =
      `Chromium is missing at ${CHROMIUM_PATH}: the display browser tests need Debian's chromium ` +
      '(apt-get install chromium; `bash .ci/run` installs it). They fail rather than skip.';
    // uvu swallows errors thrown in a suite's `before` (it only counts the tests as failed), so say it here.
    process.stdout.write(`\n✘ ${message}\n`);
    throw new Error(message);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A `monitor:subscribe` request the page sent to the hub. */
export interface SentSubscribe {
  monitorId: number;
  version?: number;
  at: number;
}

/** One browser context with one page on the display, recording errors and the hub traffic it sends. */
export interface ScreenPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page (`pageerror`). */
  errors: string[];
  /** Every `monitor:subscribe` the page sent, over WebSocket or HTTP long-polling. */
  subscribes: SentSubscribe[];
  /** Names of the hub events received over the WebSocket, in order. */
  received: string[];
  /** Resolves once the Socket.IO connection runs over a WebSocket. */
  websocket: Promise<WebSocket>;
  /** textContent of the first element with this data-testid ('' when there is none). */
  text(testId: string): Promise<string>;
  /** textContent of every element with this data-testid. */
  texts(testId: string): Promise<string[]>;
  /** How many elements carry this data-testid now. */
  count(testId: string): Promise<number>;
  /**
   * Polls until the first element with this data-testid contains (or matches) `expected`; resolves with the text that
   * did.
   */
  waitForText(testId: string, expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits for the sign-in form (following the pairing screen's token link), types the token and submits it. */
  signIn(token: string): Promise<void>;
  /** The token the page keeps in localStorage. */
  storedToken(): Promise<string | null>;
  close(): Promise<void>;
}

// Socket.IO EVENT packets: engine.io "4" (message) + socket.io "2" (event) + optional ack id + JSON array.
function eventsIn(payload: string): Array<{ name: string; args: unknown[] }> {
  const found: Array<{ name: string; args: unknown[] }> = [];
  // Long-polling joins several packets with the record separator 0x1e.
  for (const packet of payload.split('\x1e')) {
    const match = /^42\d*(\[.*)$/s.exec(packet);
    if (!match) continue;
    try {
      const [name, ...args] = JSON.parse(match[1]) as [string, ...unknown[]];
      if (typeof name === 'string') found.push({ name, args });
    } catch {
      // not JSON: not an event
    }
  }
  return found;
}

/** Opens a fresh context (viewport as given) with one page at `url`; `init` is a script run before the page's own. */
export async function openScreen(browser: Browser, url: string, viewport = LANDSCAPE, init = ''): Promise<ScreenPage> {
  const context = await browser.newContext({ viewport });
  // tsx names the functions a test hands to evaluate() with a helper __name; the page gets a stand-in.
  await context.addInitScript({ content: `globalThis.__name = (fn) => fn;\n${init}` });
  const page = await context.newPage();
  const errors: string[] = [];
  const subscribes: SentSubscribe[] = [];
  const received: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const recordSent = (payload: string) => {
    for (const event of eventsIn(payload)) {
      if (event.name !== 'monitor:subscribe') continue;
      const request = event.args[0] as { monitorId: number; version?: number };
      subscribes.push({ ...request, at: Date.now() });
    }
  };
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/socket.io/')) recordSent(request.postData() ?? '');
  });
  const websocket = new Promise<WebSocket>((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framesent', (frame) => typeof frame.payload === 'string' && recordSent(frame.payload));
      ws.on('framereceived', (frame) => {
        if (typeof frame.payload === 'string') for (const event of eventsIn(frame.payload)) received.push(event.name);
      });
      resolve(ws);
    });
  });
  await page.goto(url);

  const selector = (testId: string) => `[data-testid="${testId}"]`;
  const screen: ScreenPage = {
    context,
    page,
    errors,
    subscribes,
    received,
    websocket,
    // Read at once, never with a timeout: on a busy machine a timed read came back '' while the element
    // was there ('' only when there is none, or the page is navigating).
    text: (testId) =>
      page.evaluate((sel) => document.querySelector(sel)?.textContent ?? '', selector(testId)).catch(() => ''),
    texts: (testId) => page.locator(selector(testId)).allTextContents(),
    count: (testId) => page.locator(selector(testId)).count(),
    async waitForText(testId, expected, timeoutMs = WAIT_MS) {
      const pattern = typeof expected === 'string' ? null : { source: expected.source, flags: expected.flags };
      try {
        const handle = await page.waitForFunction(
          ({ sel, text, re }) => {
            const value = document.querySelector(sel)?.textContent ?? null;
            if (value === null) return false;
            // The text that matched, read in the same moment (it may change before a second read).
            return (re ? new RegExp(re.source, re.flags).test(value) : value.includes(text)) ? { value } : false;
          },
          { sel: selector(testId), text: typeof expected === 'string' ? expected : '', re: pattern },
          { timeout: timeoutMs, polling: 50 },
        );
        return ((await handle.jsonValue()) as { value: string }).value;
      } catch {
        const now =
          (await page.locator(selector(testId)).count()) > 0
            ? JSON.stringify(await screen.text(testId))
            : 'no such element';
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for [data-testid=${testId}] to show ${String(expected)}; ` +
            `it shows ${now}`,
        );
      }
    },
    async signIn(token) {
      await page
        .locator(`${selector('signin')}, ${selector('pairing')}`)
        .first()
        .waitFor({ timeout: WAIT_MS });
      // A screen without a credential shows its pairing code; the token form is one link away.
      if ((await page.locator(selector('pairing-use-token')).count()) > 0)
        await page.locator(selector('pairing-use-token')).click();
      await page.locator(selector('signin')).waitFor({ timeout: WAIT_MS });
      await page.locator(selector('signin-token')).fill(token);
      await page.locator(selector('signin-submit')).click();
    },
    storedToken: () => page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY),
    close: () => context.close(),
  };
  return screen;
}

/**
 * Opens a fresh context on `url` with `token` already stored, as a kiosk after its first sign-in; `init` runs before
 * the page's scripts.
 */
export async function openSignedIn(
  browser: Browser,
  url: string,
  token: string,
  viewport = LANDSCAPE,
  init = '',
): Promise<ScreenPage> {
  return openScreen(
    browser,
    url,
    viewport,
    `localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(token)});\n${init}`,
  );
}

/**
 * A page script that moves the kiosk's clock (Date) by `ms`, as a drifted kiosk: plain JavaScript, not
 * a function, so that tsx adds no helper the page does not have.
 */
export function kioskClockOff(ms: number): string {
  return `{
    const RealDate = Date;
    const off = ${ms};
    class KioskDate extends RealDate {
      constructor(...args) { if (args.length === 0) super(RealDate.now() + off); else super(...args); }
      static now() { return RealDate.now() + off; }
    }
    globalThis.Date = KioskDate;
  }`;
}

/** When an element first appeared (real time, ms, on this machine's clock) and what `texts` showed then. */
export interface Seen {
  at: number;
  texts: Record<string, string | null>;
}

/**
 * A page script noting, in the page itself, when an element with each of `testIds` first appeared and
 * the texts of `texts` at that moment: a view that lasts a second is caught however late a busy test
 * process looks (read them with `seenIn`). Plain JavaScript for the page.
 */
export function recordSeen(testIds: string[], texts: string[] = []): string {
  return `{
    const seen = (window.__seen = {});
    const text = (id) => document.querySelector('[data-testid="' + id + '"]')?.textContent ?? null;
    new MutationObserver(() => {
      for (const id of ${JSON.stringify(testIds)}) {
        if (id in seen || !document.querySelector('[data-testid="' + id + '"]')) continue;
        seen[id] = { at: performance.timeOrigin + performance.now(), texts: Object.fromEntries(${JSON.stringify(texts)}.map((t) => [t, text(t)])) };
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }`;
}

/** What `recordSeen` noted so far. */
export function seenIn(screen: ScreenPage): Promise<Record<string, Seen | undefined>> {
  return screen.page.evaluate(() => (window as unknown as { __seen: Record<string, Seen> }).__seen);
}

/**
 * Gives the page's browser a passkey device (Chromium's virtual authenticator, DevTools protocol
 * WebAuthn): a platform authenticator that holds resident keys and verifies its user, as a phone's does.
 */
export async function addPasskeyDevice(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
