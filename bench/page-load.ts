// The staff console and the members' app loaded cold in Chromium with its CPU slowed down 4× (as a
// mid-range phone's): the largest contentful paint (LCP) of `/console` (the overview) and of `/app` with
// an alarm running, and the bytes the first load transfers (uncompressed: the service leaves compression
// to a reverse proxy), and the page's files gzip -9 compressed as a proxy would send them. Each page is loaded `runs` times
// with an empty cache in a session of its own, signed in by an invitation code (POST /api/v1/join).
//
//   npx tsx bench/page-load.ts [runs=5]
//
// Starts its own database (the launcher's order, in a temporary directory; MONGODB_URI to use another)
// and the service on localhost.
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { IdentityCommands } from '../server/identity/commands.js';
import { startLocalService } from '../tools/local-service.js';

const runs = Number(process.argv[2] ?? 5);
const THROTTLE = 4;
const say = (line: string) => process.stderr.write(`[page-load] ${line}\n`);

const { service, base, browser, stop } = await startLocalService('page-load', say);
const identity = new IdentityCommands(service.db);
const org = await identity.createOrganization('Freiwillige Feuerwehr Aachen-Nord');
const key = await identity.createApiKey(org.id, 'Wache');
const asKey = async (method: string, url: string, body: unknown, type = 'application/json') => {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'API-TOKEN': key.token, 'Content-Type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, any>>;
};

// A station of 30 members with an alarm running: what both pages show first.
const rows = Array.from({ length: 30 }, (_, i) => `Mitglied ${i + 1},${i === 0 ? 'admin' : 'member'},HLF 20`);
const roster = await asKey(
  'POST',
  `/organizations/${org.id}/members/import`,
  `name,role,units\n${rows.join('\n')}\n`,
  'text/csv',
);
const members = roster.members as Array<{ userId: number; invitation: { code: string } }>;
await asKey('POST', '/monitor', { name: 'Wache 1', organizationID: org.id });
await asKey('POST', '/alarms', {
  organizationID: org.id,
  event: 'B3 Wohnungsbrand',
  message: 'Rauch aus Fenster 2. OG, Person vermisst',
  address: 'Goethestraße 5, 52064 Aachen',
  latitude: 50.77664,
  longitude: 6.08342,
  units: ['HLF 20'],
  channels: ['app'],
});

// Invitations are used once: each load signs in a member of its own (the first, the admin, for the console).
let nextMember = 1;
async function signedIn(viewport: { width: number; height: number }, member: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const joined = await context.request.post(`${base}/api/v1/join`, {
    data: { code: members[member].invitation.code },
    headers: { Origin: base },
  });
  if (!joined.ok()) throw new Error(`joining failed: ${joined.status()} ${await joined.text()}`);
  return context;
}

interface Load {
  lcp: number;
  /** When the page's data first showed (its `shown` element), after the navigation began. */
  shown: number;
  bytes: number;
  /** The same files gzip -9 compressed, as a reverse proxy sends them. */
  gzip: number;
}
async function load(context: BrowserContext, url: string, shown: string): Promise<Load> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  // Nothing of Playwright's own runs in the page while it loads: its locators and evaluate() inject a
  // script of their own (350–450 ms of the main thread at 4× throttling, measured in a trace), which
  // would be counted as the page's. The page notes its largest paint and when `shown` first appears;
  // the benchmark asks for both through the DevTools protocol alone.
  // A script's text, not a function: tsx would wrap the function's inner functions in a helper the page
  // does not have.
  await page.addInitScript({
    content: `(() => {
      window.lcp = 0;
      window.shown = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.lcp = entry.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
      const observer = new MutationObserver(() => {
        if (window.shown || !document.querySelector(${JSON.stringify(shown)})) return;
        window.shown = performance.now();
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    })();`,
  });
  const inPage = async <T>(expression: string): Promise<T> =>
    (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })).result.value as T;
  await page.goto(url, { waitUntil: 'load' });
  for (const started = Date.now(); !(await inPage<number>('window.shown'));) {
    if (Date.now() - started > 30_000) {
      await page.close();
      throw new Error(`${url}: ${shown} not shown within 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Later paints of larger elements replace the entry: give the page a moment to settle.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const result = JSON.parse(
    await inPage<string>(`JSON.stringify((() => {
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
      return {
        lcp: window.lcp,
        shown: window.shown,
        bytes: entries.reduce((sum, e) => sum + e.transferSize, 0),
        // What was transferred, the API's answers and the hub's polling aside.
        urls: entries.filter((e) => e.transferSize > 0 && !e.name.includes("/api/") && !e.name.includes("/socket.io/")).map((e) => e.name),
      };
    })())`),
  ) as { lcp: number; shown: number; bytes: number; urls: string[] };
  let gzip = 0;
  for (const url of result.urls)
    gzip += gzipSync(Buffer.from(await (await context.request.get(url)).body()), { level: 9 }).length;
  await page.close();
  return { lcp: result.lcp, shown: result.shown, bytes: result.bytes, gzip };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const report = (name: string, loads: Load[]) =>
  console.log(
    `${name.padEnd(9)} LCP median ${median(loads.map((l) => l.lcp)).toFixed(0)} ms ` +
      `(runs ${loads.map((l) => l.lcp.toFixed(0)).join(', ')}), data shown median ` +
      `${median(loads.map((l) => l.shown)).toFixed(0)} ms, first load ${median(loads.map((l) => l.bytes))} B ` +
      `transferred, its page, scripts and styles ${median(loads.map((l) => l.gzip))} B gzip`,
  );

try {
  const admin = await signedIn({ width: 1280, height: 800 }, 0);
  const consoleLoads: Load[] = [];
  // Once before the measured loads: the service's own first reads are not the page's.
  await load(admin, `${base}/console`, '.alarm-link');
  for (let i = 0; i < runs; i++) consoleLoads.push(await load(admin, `${base}/console`, '.alarm-link'));
  const appLoads: Load[] = [];
  for (let i = 0; i < runs; i++) {
    const phone = await signedIn({ width: 390, height: 844 }, nextMember++);
    appLoads.push(await load(phone, `${base}/app`, '[data-testid="alarm-event"]'));
    await phone.close();
  }
  console.log(`Chromium, CPU slowed ${THROTTLE}×, empty cache, ${os.cpus().length} cores (${os.cpus()[0].model}):`);
  report('/console', consoleLoads);
  report('/app', appLoads);
} finally {
  await stop();
}
