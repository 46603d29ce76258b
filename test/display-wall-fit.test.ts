// The crew reads the keyword, the address and the message on the way to the vehicle: at every screen
// size from 1280 × 720 to 2160 × 3840, alone and split, long German texts are fitted, never cut
// (docs/display.md "Readable from five metres"). Measured in Chromium: the keyword and the address show
// every character (wrapped and smaller, never clipped, never an ellipsis), and the message either shows
// whole or ends in an ellipsis; nothing of the head leaves its panel. FIT_SHOTS_DIR=dir keeps a
// screenshot of each case.
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import * as assert from 'uvu/assert';
import { suite } from './helpers/suite.js';
import {
  closeScreens,
  newMonitor,
  openWall,
  settled,
  setUpWall,
  tearDownWall,
  write,
  ago,
  type WallCtx,
} from './helpers/wall.js';

const wall = suite<WallCtx>('display: long texts fitted at every screen size', {} as WallCtx);
wall.before(setUpWall);
wall.after.each(closeScreens);
wall.after(tearDownWall);

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 3840, height: 2160 },
  { width: 1080, height: 1920 },
  { width: 720, height: 1280 },
  { width: 2160, height: 3840 },
];

const MESSAGE =
  'Brandmeldeanlage ausgelöst, Rauchentwicklung im 2. OG Wohnbereich B, mehrere Bewohner nicht gehfähig, ' +
  'Evakuierung durch Pflegepersonal begonnen. Schlüsselkasten am Haupteingang, Kontakt: Nachtdienst 0241 4711';

const alarms = [
  {
    eventId: 9101,
    event: 'B4 Brand Pflegeheim, Menschenleben in Gefahr',
    message: MESSAGE,
    geo: {
      address: 'Seniorenzentrum St. Elisabeth, Von-Coels-Straße 210–214, Haus B, 52080 Aachen-Eilendorf',
      latitude: 50.7781,
      longitude: 6.151,
    },
  },
  {
    eventId: 9102,
    event: 'TH 2 Verkehrsunfall, eine Person eingeklemmt',
    message: 'PKW gegen Baum, Fahrer eingeklemmt, Rettungsdienst alarmiert',
    geo: {
      address: 'Kreisstraße K 32 zwischen Würselen-Broichweiden und Aachen-Haaren',
      latitude: 50.79,
      longitude: 6.12,
    },
  },
  {
    eventId: 9103,
    event: 'ABC 2 Gefahrstoffaustritt Chemielager',
    message: 'Unbekannte Flüssigkeit tritt aus einem Gebinde aus, zwei Mitarbeiter mit Atemwegsreizungen',
    geo: { address: 'Industriestraße 45–47, Tor 3, 52134 Herzogenrath-Kohlscheid' },
  },
];

interface Measured {
  id: string;
  cut: string[];
}

// Everything of a panel's head that could be cut, measured in the page.
async function measure(page: import('playwright-core').Page): Promise<Measured[]> {
  return page.evaluate(() => {
    const out: Array<{ id: string; cut: string[] }> = [];
    document.querySelectorAll<HTMLElement>('[data-testid=alarm-panel]').forEach((panel) => {
      const cut: string[] = [];
      const box = panel.getBoundingClientRect();
      const inside = (el: Element) => {
        const r = el.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
      };
      const whole = (name: string, el: HTMLElement | null) => {
        if (!el) return cut.push(`${name}: missing`);
        if (el.scrollWidth > el.clientWidth + 1) cut.push(`${name}: ${el.scrollWidth} wide in ${el.clientWidth}`);
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (el.scrollHeight > el.clientHeight + size * 0.3)
          cut.push(`${name}: ${el.scrollHeight} high in ${el.clientHeight}`);
        if (getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
          cut.push(`${name}: ellipsis`);
        if (!inside(el)) cut.push(`${name}: outside its panel`);
      };
      whole('keyword', panel.querySelector<HTMLElement>('[data-testid=alarm-event]'));
      whole('address', panel.querySelector<HTMLElement>('[data-testid=alarm-address] > span'));
      const message = panel.querySelector<HTMLElement>('[data-testid=alarm-message]');
      if (!message) cut.push('message: missing');
      else {
        const style = getComputedStyle(message);
        const clamped = style.webkitLineClamp !== 'none' && Number(style.webkitLineClamp) > 0;
        const overflows = message.scrollHeight > message.clientHeight + parseFloat(style.fontSize) * 0.3;
        if (overflows && !clamped)
          cut.push(`message: cut without an ellipsis (${message.scrollHeight} in ${message.clientHeight})`);
        if (message.clientHeight < parseFloat(style.lineHeight) * 0.9) cut.push('message: not even one line');
        if (!inside(message)) cut.push('message: outside its panel');
      }
      const counters = panel.querySelector('[data-testid=counters]');
      if (!counters || !inside(counters)) cut.push('counters: outside the panel');
      out.push({ id: panel.dataset.eventId ?? '', cut });
    });
    return out;
  });
}

for (const count of [1, 2, 3]) {
  wall(
    `${count === 1 ? 'one alarm' : `${count} alarms split`}: keyword, address and message fitted, none cut`,
    async (ctx) => {
      const id = await newMonitor(ctx, { configuration: { language: 'de' } });
      for (const a of alarms.slice(0, count)) {
        await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {
          ...a,
          eventStartDate: ago(90),
          positiveResponses: 7,
          negativeResponses: 1,
          awaitingResponses: 12,
        });
      }
      const screen = await openWall(ctx, id, SIZES[0]);
      await screen.page
        .getByTestId(count === 1 ? 'alarm-event' : 'split')
        .first()
        .waitFor({ timeout: 60_000 });
      const problems: string[] = [];
      for (const size of SIZES) {
        await screen.page.setViewportSize(size);
        await settled(screen);
        for (const panel of await measure(screen.page))
          for (const cut of panel.cut) problems.push(`${size.width}×${size.height} event ${panel.id}: ${cut}`);
        if (process.env.FIT_SHOTS_DIR) {
          await mkdir(process.env.FIT_SHOTS_DIR, { recursive: true });
          await screen.page.screenshot({
            path: path.join(process.env.FIT_SHOTS_DIR, `fit-${count}-${size.width}x${size.height}.png`),
          });
        }
      }
      assert.equal(problems, []);
      assert.equal(screen.errors, []);
    },
  );
}

wall.run();
