// A dense German alarm on the wall, in Chromium at 1920×1080 and 1080×1920: capitals with diacritics
// keep their dots (every fitted text's glyph ink lies inside the box that clips it, measured with the
// page's own fonts), and long names are not cut while the units box has room to spare; they are cut
// only once the space is truly used. WALL_SHOTS_DIR=<dir> saves a screenshot of each view there.
import path from 'node:path';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { LANDSCAPE, PORTRAIT, type ScreenPage, WAIT_MS } from './helpers/browser.js';
import {
  ago,
  closeScreens,
  newMonitor,
  openWall,
  settled,
  setUpWall,
  tearDownWall,
  write,
  type WallCtx,
} from './helpers/wall.js';

const german = suite<WallCtx>('display wall: German diacritics and long names');
german.before(setUpWall);
german.after.each(closeScreens);
german.after(tearDownWall);

const VIEWS = [
  ['landscape', LANDSCAPE],
  ['portrait', PORTRAIT],
] as const;

const NAMES = [
  ['Dr. Maximilian Schwarzenberger', 'Gruppenführer', 'GF', '#dc2626'],
  ['Sven Hoffmann-Lüdenscheid', 'Atemschutzgeräteträger', 'AGT', '#f59e0b'],
  ['Annegret Müller-Öztürk', 'Maschinistin', 'MA', '#3b82f6'],
  ['Jörg Überländer-Schäfer', 'Truppführer', 'TF', '#16a34a'],
  ['Ökonomierat Björn Äßmann', 'Sanitäter', 'SAN', null],
  ['Gruppenführerin Elisabeth Weißenböck', 'Gruppenführerin', 'GF', '#dc2626'],
] as const;

/** Three units of long German names, `size` members each (all coming but one awaiting per unit). */
function denseGermanAlarm(eventId: number, size = 6) {
  const units = [
    'HLF 20 Löschzug Nord-Überörtlich',
    'DLK 23/12 Drehleiter Fahrzeughalle Süd',
    'RTW Rettungswagen Ölberg-Ärztedienst',
  ].map((name, u) => ({
    name,
    feedback: Array.from({ length: size }, (_, i) => {
      const [who, position, label, color] = NAMES[(u + i) % NAMES.length];
      return {
        name: size > NAMES.length ? `${who} ${i + 1}` : who,
        position,
        label: { name: label, color },
        feedback: i === size - 1 ? 2 : 1,
      };
    }),
  }));
  return {
    eventId,
    event: 'TH ÖLSPUR ÜBERÖRTLICH',
    message: 'Ölspur über 2 km, Überörtliche Hilfe angefordert',
    eventStartDate: ago(90),
    geo: { address: 'Äußere Überlinger Straße 14, 52062 Aachen', latitude: 50.7766, longitude: 6.0912 },
    positiveResponses: units.length * (size - 1),
    negativeResponses: 0,
    awaitingResponses: units.length,
    units,
  };
}

/** Every fitted text whose glyph ink reaches outside the box that clips it (px beyond, per side). */
function inkOutside(screen: ScreenPage): Promise<Array<{ text: string; top: number; bottom: number }>> {
  return screen.page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const out: Array<{ text: string; top: number; bottom: number }> = [];
    document.querySelectorAll<HTMLElement>('[data-fit]').forEach((el) => {
      if (el.getClientRects().length === 0) return;
      const style = getComputedStyle(el);
      const text =
        style.textTransform === 'uppercase' ? (el.textContent ?? '').toLocaleUpperCase('de') : (el.textContent ?? '');
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const m = canvas.measureText(text);
      const lineHeight = parseFloat(style.lineHeight);
      const halfLeading = (lineHeight - (m.fontBoundingBoxAscent + m.fontBoundingBoxDescent)) / 2;
      const box = el.getBoundingClientRect();
      const firstLine = box.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
      const lastLine = box.bottom - parseFloat(style.borderBottomWidth) - parseFloat(style.paddingBottom);
      // The ink's top on the first line and its bottom on the last, against the padding box (the clip).
      const inkTop = firstLine + halfLeading + m.fontBoundingBoxAscent - m.actualBoundingBoxAscent;
      const inkBottom = lastLine - halfLeading - m.fontBoundingBoxDescent + m.actualBoundingBoxDescent;
      const clipTop = box.top + parseFloat(style.borderTopWidth);
      const clipBottom = box.bottom - parseFloat(style.borderBottomWidth);
      out.push({ text, top: Math.max(0, clipTop - inkTop), bottom: Math.max(0, inkBottom - clipBottom) });
    });
    return out;
  });
}

/**
 * Names cut with an ellipsis, and how much of the units box is left empty (px of width × height not covered by units).
 */
function truncation(screen: ScreenPage) {
  return screen.page.evaluate(() => {
    const cut = Array.from(document.querySelectorAll<HTMLElement>('.member__name, .unit__name, .member__position'))
      .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent ?? '');
    const box = document.querySelector('[data-testid=units]')!.getBoundingClientRect();
    const units = Array.from(document.querySelectorAll('[data-testid=unit]')).map((u) => u.getBoundingClientRect());
    const covered = units.reduce((n, r) => n + r.width * r.height, 0);
    return {
      cut,
      free: Math.round((1 - covered / (box.width * box.height)) * 1000) / 1000,
      listed: document.querySelectorAll('[data-testid=member]').length,
      crewFirst: document.querySelector('.panel--crew-first') !== null,
    };
  });
}

async function shot(screen: ScreenPage, name: string): Promise<void> {
  if (process.env.WALL_SHOTS_DIR)
    await screen.page.screenshot({ path: path.join(process.env.WALL_SHOTS_DIR, `${name}.png`) });
}

for (const [where, viewport] of VIEWS) {
  german(`${where}: the dots of Ö, Ü and Ä stay whole in every fitted text, the alarm and a split`, async (ctx) => {
    const id = await newMonitor(ctx);
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, denseGermanAlarm(4720));
    const screen = await openWall(ctx, id, viewport);
    await screen.page.getByTestId('alarm-event').first().waitFor({ timeout: WAIT_MS });
    await settled(screen);
    await shot(screen, `german-dense-${where}`);
    const alone = await inkOutside(screen);
    assert.ok(
      alone.some((e) => e.text.includes('ÖLSPUR')),
      JSON.stringify(alone),
    );
    for (const e of alone)
      assert.ok(
        e.top <= 0.5 && e.bottom <= 0.5,
        `${where}: "${e.text}" is cut by ${e.top.toFixed(1)} px at the top, ${e.bottom.toFixed(1)} px at the bottom`,
      );

    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {
      ...denseGermanAlarm(4730, 3),
      event: 'F1 FLÄCHENBRAND ÜBER ÄCKERN',
    });
    await screen.page.waitForFunction(
      () => document.querySelectorAll('[data-testid=alarm-event]').length === 2,
      undefined,
      { timeout: WAIT_MS },
    );
    await settled(screen);
    await shot(screen, `german-split-${where}`);
    const split = await inkOutside(screen);
    assert.is(split.filter((e) => /ÖLSPUR|FLÄCHENBRAND/.test(e.text)).length, 2, JSON.stringify(split));
    for (const e of split)
      assert.ok(
        e.top <= 0.5 && e.bottom <= 0.5,
        `${where} split: "${e.text}" is cut by ${e.top.toFixed(1)} px at the top, ${e.bottom.toFixed(1)} ` +
          `px at the bottom`,
      );
  });

  german(
    `${where}: three units of long German names are not cut while the units box has room; a crew that fills it is`,
    async (ctx) => {
      const id = await newMonitor(ctx);
      // Four members a unit: the box has the room for every name whole.
      await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, denseGermanAlarm(4740, 4));
      const screen = await openWall(ctx, id, viewport);
      await screen.page.getByTestId('alarm-event').first().waitFor({ timeout: WAIT_MS });
      await settled(screen);
      await shot(screen, `german-names-${where}`);
      const roomy = await truncation(screen);
      assert.is(roomy.listed, 12, `every member is listed: ${JSON.stringify(roomy)}`);
      assert.equal(
        roomy.cut,
        [],
        `${where}: cut beside ${(roomy.free * 100).toFixed(0)} % of the units box left empty: ${roomy.cut.join(' | ')}`,
      );

      // Six and then twenty a unit (the same alarm, updated): names may be cut now, but only once the units use the box
      // (and the panel has given the crew the larger share of its body).
      for (const size of [6, 20]) {
        await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, denseGermanAlarm(4740, size));
        await screen.page.waitForFunction(
          (coming) => document.querySelector('[data-testid=counter-positive-value]')?.textContent === coming,
          String(3 * (size - 1)),
          { timeout: WAIT_MS },
        );
        await settled(screen);
        await shot(screen, `german-${size}-${where}`);
        const full = await truncation(screen);
        if (full.cut.length === 0) continue;
        assert.ok(
          full.free < 0.2 && full.crewFirst,
          `${where}, ${size} a unit: ${full.cut.length} names cut while ${(full.free * 100).toFixed(0)} ` +
            `% of the units box is empty (crew first: ${full.crewFirst})`,
        );
      }
    },
  );
}

german.run();
