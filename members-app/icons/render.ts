// Renders the app's icons (docs/members-app.md "Installing it") with Chromium from the drawing below,
// once, into the PNGs beside this file, which are committed and served as they are: a bell on the
// fire service's red, rounded for launchers that show icons as they are (192 and 512 px), full-bleed
// with the bell inside the central safe circle for launchers that cut their own shape (maskable), and
// a white bell alone for Android's status bar (badge, which the system tints).
//
//   npx tsx members-app/icons/render.ts
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/helpers/browser.js';

const RED = '#b91c1c';
const dir = path.dirname(fileURLToPath(import.meta.url));

// The bell on a 512-unit grid, centred on (256, 256): body, knob, clapper and two sound arcs each side.
function bell(colour: string, scale: number): string {
  return `<g transform="translate(256 256) scale(${scale}) translate(-256 -256)" fill="${colour}" stroke="${colour}">
    <circle cx="256" cy="112" r="22" stroke="none"/>
    <path stroke="none" d="M256 124c-66 0-112 50-112 120v74l-38 50h300l-38-50v-74c0-70-46-120-112-120z"/>
    <path stroke="none" d="M214 388h84a42 42 0 0 1-84 0z"/>
    <g fill="none" stroke-width="22" stroke-linecap="round">
      <path d="M110 170a170 170 0 0 0-22 96"/><path d="M402 170a170 170 0 0 1 22 96"/>
      <path d="M70 132a230 230 0 0 0-32 134"/><path d="M442 132a230 230 0 0 1 32 134"/>
    </g>
  </g>`;
}

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="100%" height="100%">${body}</svg>`;

const ICONS = [
  {
    file: 'icon-192.png',
    size: 192,
    svg: svg(`<rect width="512" height="512" rx="104" fill="${RED}"/>${bell('#fff', 0.86)}`),
  },
  {
    file: 'icon-512.png',
    size: 512,
    svg: svg(`<rect width="512" height="512" rx="104" fill="${RED}"/>${bell('#fff', 0.86)}`),
  },
  // The safe zone of a maskable icon is the circle of 40 % of its size around the centre.
  {
    file: 'icon-maskable-512.png',
    size: 512,
    svg: svg(`<rect width="512" height="512" fill="${RED}"/>${bell('#fff', 0.62)}`),
  },
  { file: 'badge-96.png', size: 96, svg: svg(bell('#fff', 1)) },
];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${icon.svg}</body></html>`,
    );
    await page.screenshot({ path: path.join(dir, icon.file), omitBackground: true });
    await page.close();
    process.stderr.write(`wrote members-app/icons/${icon.file}\n`);
  }
} finally {
  await browser.close();
}
