// How long the wall display works on one patch of a four-way split (rebuild, text and crew fitting),
// in headless Chromium: the page's long tasks (> 50 ms) per patch, and patch-to-screen time.
//
//   npx tsx bench/display-patch.ts [patches=20]
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, LANDSCAPE, TOKEN_STORAGE_KEY } from '../test/helpers/browser.js';
import { alarm } from '../test/helpers/wall.js';
import { benchService } from './setup.js';

const patches = Number(process.argv[2] ?? 20);
const bench = await benchService();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const send = (method: string, body: unknown) =>
  fetch(`${bench.url}/api/v1/monitor/${bench.monitorId}/data/alarming`, {
    method,
    headers: { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
try {
  for (const a of [
    alarm(11, 'B3 Wohnungsbrand', 3, 6),
    alarm(12, 'TH Verkehrsunfall', 2, 6),
    alarm(13, 'RD Reanimation', 1, 6),
    alarm(14, 'B1 Kleinbrand', 4, 4),
  ])
    await send('POST', a);
  const context = await browser.newContext({ viewport: LANDSCAPE });
  await context.addInitScript({
    content: `localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(bench.token)});`,
  });
  const page = await context.newPage();
  await page.goto(`${bench.url}/display?monitor=${bench.monitorId}`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=split-panel]').length === 4);
  await page.waitForTimeout(1_000);
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({
      type: 'longtask',
    });
  });
  const times: number[] = [];
  for (let i = 0; i < patches; i++) {
    const started = Date.now();
    await send('PATCH', { eventId: 12, positiveResponses: 100 + i });
    await page.waitForFunction(
      (v) =>
        document.querySelector('[data-event-id="12"] [data-testid=counter-positive-value]')?.textContent === String(v),
      100 + i,
    );
    times.push(Date.now() - started);
    await page.waitForTimeout(100);
  }
  const long = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(
    `${patches} patches of a four-way split: patch-to-screen median ${median(times)} ms, max ${Math.max(...times)} ms; ` +
      `long tasks ${long.length}, median ${Math.round(median(long))} ms, max ${Math.round(Math.max(0, ...long))} ms`,
  );
} finally {
  await browser.close();
  await bench.close();
}
