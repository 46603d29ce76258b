// Takes the screenshots of the station display in docs/display.md: the pairing screen, the German standby, the
// identify overlay, a test alarm, the dense alarm (3 units × 6 members) and the four-way split, both with
// the water sources near each alarm (one hydrant out of service), landscape
// (1920×1080) and portrait (1080×1920), into display-client/screenshots/{view}-{orientation}.png, and the
// long alarm alone and split at 1280×720, 1920×1080 and 1080×1920 ({view}-{width}x{height}.png). The
// monitor's language is German; both screens are paired the way a station does it (code, then F3).
//
//   npx tsx tools/screenshots.ts
//
// Starts its own database (the launcher's order, in a temporary directory; MONGODB_URI to use another)
// and the real service, writes the demo data through the REST API and lets the real hub deliver it to
// headless Chromium (/usr/bin/chromium). The page's clock is fixed (Date and performance.now; timers keep
// running) and the server time in the hub's subscribe answers is rewritten to the same moment, so
// clocks, dates and elapsed times come out the same on every run; the pairing code shown is a fixed one
// (the real one pairs) and a test alarm's end is rewritten to ten minutes after that moment. TILE_URL is passed to the
// service: leave it unset for the no-tiles map of the committed screenshots, or set it to show real tiles.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../server/config.js';
import { launchDatabase } from '../server/db/launcher.js';
import { IdentityCommands } from '../server/identity/commands.js';
import { startService } from '../server/service.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, LANDSCAPE, PORTRAIT } from '../test/helpers/browser.js';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../display-client/screenshots');
/** The moment every screenshot shows: Sunday 22 November 2026, 14:02:37 in Aachen. */
const NOW = Date.parse('2026-11-22T14:02:37+01:00');
const TIMEZONE = 'Europe/Berlin';
const say = (line: string) => process.stderr.write(`[screenshots] ${line}\n`);

// ---------------------------------------------------------------------------------------------------
// demo data: a volunteer fire brigade in Aachen

const at = (secondsBefore: number) => new Date(NOW - secondsBefore * 1000).toISOString();
const L = {
  gf: { name: 'GF', color: '#dc2626' },
  ma: { name: 'MA', color: '#3b82f6' },
  agt: { name: 'AGT', color: '#f59e0b' },
  san: { name: 'SAN', color: '#16a34a' },
  crew: { name: 'Trupp', color: null },
};
type Label = (typeof L)[keyof typeof L];
const m = (name: string, position: string, label: Label, feedback: 0 | 1 | 2) => ({ name, position, label, feedback });

const station = {
  address: 'Feuerwache Nord, Hauptstraße 1, 52066 Aachen',
  latitude: 50.7823,
  longitude: 6.0968,
  gong: true,
  speech: false,
};

const fire = {
  eventId: 4711,
  event: 'B3 Wohnungsbrand – Menschenleben in Gefahr',
  message: 'Rauch aus Fenster 2. OG, zwei Personen auf dem Balkon. Zweiter Zug nachalarmiert.',
  eventStartDate: at(263),
  geo: { address: 'Lindenstraße 14, 52062 Aachen', latitude: 50.7766, longitude: 6.0912 },
  positiveResponses: 12,
  negativeResponses: 3,
  awaitingResponses: 3,
  units: [
    {
      name: 'HLF 20 · 1/46-1',
      feedback: [
        m('Anna Keller', 'Gruppenführerin', L.gf, 1),
        m('Tom Berger', 'Maschinist', L.ma, 1),
        m('Lena Vogt', 'Angriffstrupp', L.agt, 1),
        m('Mia Schulz', 'Wassertrupp', L.san, 1),
        m('Max Hoffmann', 'Angriffstrupp', L.agt, 2),
        m('Jonas Wolf', 'Schlauchtrupp', L.crew, 0),
      ],
    },
    {
      name: 'DLK 23 · 1/33-1',
      feedback: [
        m('Paul Richter', 'Maschinist', L.ma, 1),
        m('Ben Krüger', 'Korb', L.agt, 1),
        m('Sara Neumann', 'Trupp', L.crew, 2),
        m('Emil Sauer', 'Korb', L.agt, 1),
        m('Greta Winkler', 'Trupp', L.crew, 0),
        m('Hannes Beck', 'Trupp', L.san, 1),
      ],
    },
    {
      name: 'ELW 1 · 1/11-1',
      feedback: [
        m('Eva Brandt', 'Einsatzleiterin', L.gf, 1),
        m('Finn Lange', 'Funk', L.crew, 2),
        m('Nora Frank', 'Funk', L.crew, 0),
        m('Luca Seidel', 'Führungsassistent', L.ma, 1),
        m('Ida Koch', 'Fahrerin', L.ma, 1),
        m('Oskar Lenz', 'Funk', L.san, 1),
      ],
    },
  ],
};

// The long alarm: a keyword of four words, a 200-character message and a long address, which
// the wall fits instead of cutting (docs/display.md "Readable from five metres").
const nursingHome = {
  eventId: 4730,
  event: 'B4 Brand Pflegeheim, Menschenleben in Gefahr',
  message:
    'Brandmeldeanlage ausgelöst, Rauchentwicklung im 2. OG Wohnbereich B, mehrere Bewohner nicht ' +
    'gehfähig, Evakuierung begonnen. Schlüsselkasten am Haupteingang, Kontakt: Nachtdienst 0241 4711',
  eventStartDate: at(95),
  geo: {
    address: 'Seniorenzentrum St. Elisabeth, Von-Coels-Straße 210–214, Haus B, 52080 Aachen-Eilendorf',
    latitude: 50.7781,
    longitude: 6.151,
  },
  positiveResponses: 8,
  negativeResponses: 1,
  awaitingResponses: 5,
  units: [
    {
      name: 'ELW 1',
      feedback: [m('Anna Keller', 'Zugführerin', L.gf, 1), m('Paul Richter', 'Führungsassistent', L.ma, 2)],
    },
    {
      name: 'HLF 20/1',
      feedback: [
        m('Tom Berger', 'Maschinist', L.ma, 1),
        m('Lena Vogt', 'Angriffstrupp', L.agt, 1),
        m('Mia Schulz', 'Wassertrupp', L.san, 1),
        m('Max Hoffmann', 'Angriffstrupp', L.agt, 2),
        m('Jonas Wolf', 'Schlauchtrupp', L.crew, 0),
      ],
    },
    { name: 'DLK 23', feedback: [m('Sven Busch', 'Maschinist', L.ma, 1), m('Eva Brandt', 'Korbführerin', L.crew, 1)] },
  ],
};

const trapped = {
  eventId: 4731,
  event: 'TH 2 Verkehrsunfall, eine Person eingeklemmt',
  message: 'PKW gegen Baum, Fahrer eingeklemmt, Rettungsdienst alarmiert',
  eventStartDate: at(40),
  geo: {
    address: 'Kreisstraße K 32 zwischen Würselen-Broichweiden und Aachen-Haaren',
    latitude: 50.79,
    longitude: 6.12,
  },
  positiveResponses: 3,
  negativeResponses: 0,
  awaitingResponses: 4,
  units: [
    { name: 'HLF 20/2', feedback: [m('Jan Peters', 'Maschinist', L.ma, 1), m('Uwe Sommer', 'Trupp', L.crew, 2)] },
  ],
};

const crash = {
  eventId: 4712,
  event: 'TH Verkehrsunfall – Person eingeklemmt',
  message: 'PKW gegen Straßenbahn, eine Person eingeklemmt.',
  eventStartDate: at(95),
  geo: { address: 'Jülicher Straße 120, 52070 Aachen', latitude: 50.7869, longitude: 6.1013 },
  positiveResponses: 5,
  negativeResponses: 1,
  awaitingResponses: 3,
  units: [
    {
      name: 'HLF 20 · 2/46-1',
      feedback: [
        m('Kai Roth', 'Gruppenführer', L.gf, 1),
        m('Tim Haas', 'Maschinist', L.ma, 1),
        m('Ole Jung', 'Angriffstrupp', L.crew, 2),
        m('Pia Busch', 'Wassertrupp', L.agt, 0),
      ],
    },
    { name: 'RW · 2/52-1', feedback: [m('Jan Peters', 'Maschinist', L.ma, 1), m('Uwe Sommer', 'Trupp', L.crew, 2)] },
  ],
};

const medical = {
  eventId: 4713,
  event: 'RD Reanimation',
  message: 'Bewusstlose Person, Laienreanimation läuft. First Responder angefordert.',
  eventStartDate: at(31),
  geo: { address: 'Ludwigsallee 59, 52062 Aachen', latitude: 50.7828, longitude: 6.0889 },
  positiveResponses: 2,
  negativeResponses: 0,
  awaitingResponses: 1,
  units: [
    {
      name: 'HLF 10 · 3/44-1',
      feedback: [
        m('Lars Otto', 'Gruppenführer', L.gf, 1),
        m('Eric Maier', 'Maschinist', L.ma, 1),
        m('Tina Paul', 'Sanitäterin', L.san, 2),
      ],
    },
  ],
};

const flood = {
  eventId: 4714,
  event: 'TH Wasserschaden',
  message: 'Wasser dringt in Keller ein, Stromverteilung gefährdet.',
  eventStartDate: at(12),
  geo: { address: 'Roermonder Straße 31, 52072 Aachen', latitude: 50.7897, longitude: 6.0724 },
  positiveResponses: 1,
  negativeResponses: 1,
  awaitingResponses: 4,
  units: [
    {
      name: 'LF 10 · 4/42-1',
      feedback: [
        m('Rita Horn', 'Gruppenführerin', L.gf, 1),
        m('Alex Stein', 'Maschinist', L.ma, 2),
        m('Kim Vogel', 'Trupp', L.crew, 2),
        m('Sven Graf', 'Trupp', L.agt, 0),
      ],
    },
  ],
};

/** A point `north` and `east` metres from a position. */
const off = (at: { latitude: number; longitude: number }, north: number, east: number) =>
  `${(at.latitude + north / 111_320).toFixed(6)},${(at.longitude + east / (111_320 * Math.cos((at.latitude * Math.PI) / 180))).toFixed(6)}`;

/** The brigade's water sources (a things entity): number, kind, position, status. */
const waterSources: Array<[string, string, string, string]> = [
  ['H 112', 'Überflurhydrant', off(fire.geo, 60, 20), 'in Betrieb'],
  ['H 113', 'Unterflurhydrant', off(fire.geo, -30, -140), 'außer Betrieb'],
  ['Z 4', 'Löschwasserbehälter', off(fire.geo, -170, 120), 'in Betrieb'],
  ['H 115', 'Unterflurhydrant', off(fire.geo, 40, 230), 'in Betrieb'],
  ['H 201', 'Überflurhydrant', off(crash.geo, 90, -40), 'in Betrieb'],
  ['H 202', 'Unterflurhydrant', off(crash.geo, -120, 150), 'in Betrieb'],
  ['H 301', 'Unterflurhydrant', off(medical.geo, 70, 90), 'in Betrieb'],
  ['T 2', 'Löschteich', off(flood.geo, -180, -60), 'in Betrieb'],
  ['H 401', 'Überflurhydrant', off(flood.geo, 50, 110), 'außer Betrieb'],
];

const meta = {
  latestAlarms: [
    '22.11. 03:12  B2 Müllcontainerbrand, Talstraße 5',
    '21.11. 18:40  TH Baum auf Fahrbahn, Soerser Weg',
    '21.11. 09:05  RD Tragehilfe, Amyastraße 3',
    '20.11. 22:51  B1 Heimrauchmelder, Monheimsallee 80',
    '19.11. 14:17  TH Türöffnung, Krefelder Straße 9',
  ],
  pagers: { activePager: 23, inactivePager: 4 },
};

// ---------------------------------------------------------------------------------------------------

/**
 * The display runs on the server's time (the hub's subscribe answer): the page's monotonic clock stands
 * still and every answer names NOW, so the page's server clock reads NOW throughout.
 */
async function fixServerTime(page: Page): Promise<void> {
  const fix = (text: string) =>
    text
      .replace(/"serverTime":\d+/g, `"serverTime":${NOW}`)
      .replace(/"endsAt":"[^"]*"/g, `"endsAt":"${new Date(NOW + 600_000).toISOString()}"`);
  await page.addInitScript({ content: 'Object.defineProperty(performance, "now", { value: () => 0 });' });
  // Socket.IO answers over HTTP long-polling until it upgrades to the WebSocket: both are rewritten.
  await page.route(/\/socket\.io\//, async (route) => {
    const response = await route.fetch({ timeout: 60_000 });
    await route.fulfill({ response, body: fix(await response.text()) });
  });
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => ws.send(typeof message === 'string' ? fix(message) : message));
  });
}

/** The code the pairing screenshots show, and how long it is still valid there (9:41). */
const SHOWN_CODE = 'ACDEFHJK';
const VALID_FOR_MS = 581_000;

/**
 * The pairing screen reads the server's time from the Date headers of its requests: they name NOW. F1's
 * answer shows SHOWN_CODE; `real` receives the code the service drew, which is the one that pairs.
 */
async function fixPairing(page: Page, real: (code: string) => void): Promise<void> {
  const date = new Date(NOW).toUTCString();
  await page.route(/\/api\/v1\/screens\/pairing|\/display(\?|$)/, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers(), date };
    if (route.request().method() !== 'POST') return route.fulfill({ response, headers });
    const started = await response.json();
    real(started.code);
    // The page takes a Date header as the start of its second (+0.5 s): the time left comes out whole.
    const body = { ...started, code: SHOWN_CODE, expiresAt: new Date(NOW + 500 + VALID_FOR_MS).toISOString() };
    await route.fulfill({ response, headers, body: JSON.stringify(body) });
  });
}

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-screenshots-'));
  const database = await launchDatabase({ uri: process.env.MONGODB_URI, dataDir, say });
  const service = await startService(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', TILE_URL: process.env.TILE_URL ?? '' }),
    database.uri,
    pino({ level: 'silent' }),
  );
  const base = `http://127.0.0.1:${service.port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const identity = new IdentityCommands(service.db);
    const org = await identity.createOrganization('Freiwillige Feuerwehr Aachen');
    const { token } = await identity.createApiKey(org.id, 'Admin tool');
    const rest = async (method: string, route: string, body: unknown) => {
      const res = await fetch(base + route, {
        method,
        headers: { 'API-TOKEN': token, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const hydrants = await rest('POST', '/api/v1/things/entities', {
      name: 'Wasserentnahmestellen',
      organizationID: org.id,
      fields: [
        { name: 'Nummer', type: 'text' },
        {
          name: 'Art',
          type: 'selection',
          selectionValues: ['Überflurhydrant', 'Unterflurhydrant', 'Löschwasserbehälter', 'Löschteich'],
        },
        { name: 'Position', type: 'coordinates' },
        { name: 'Status', type: 'selection', selectionValues: ['in Betrieb', 'außer Betrieb'] },
      ],
    });
    const fieldIds: string[] = hydrants.fields.map((f: { id: string }) => f.id);
    await rest('POST', `/api/v1/things/entities/${hydrants.id}/records/bulk`, {
      records: waterSources.map((values) => ({ values: values.map((value, i) => ({ fieldID: fieldIds[i], value })) })),
    });
    const monitor = await rest('POST', '/api/v1/monitor', {
      name: 'Wache Nord',
      organizationID: org.id,
      configuration: { ...station, language: 'de', waterSources: { entityId: hydrants.id, radiusMeters: 300, max: 8 } },
      configurationStandby: { title: 'Freiwillige Feuerwehr Aachen · Wache Nord', text: 'Übungsdienst Dienstag 19:30' },
      configurationSplitScreen: {},
      standbyDelay: 0,
    });
    const data = (section: 'alarming' | 'meta', body: unknown) =>
      rest('POST', `/api/v1/monitor/${monitor.id}/data/${section}`, body);
    await data('meta', meta);

    // Both orientations watch the same monitor at the same time, as two wall screens would. They start
    // unpaired, in the station's language (?lang=de).
    const screens: Array<{ orientation: string; page: Page; name: string; code: string }> = [];
    for (const [orientation, viewport, name] of [
      ['landscape', LANDSCAPE, 'Fahrzeughalle links'],
      ['portrait', PORTRAIT, 'Umkleide Flur'],
    ] as const) {
      const context = await browser.newContext({ viewport, timezoneId: TIMEZONE, locale: 'en-GB' });
      const page = await context.newPage();
      page.on('pageerror', (error) => say(`page error (${orientation}): ${error.message}`));
      await page.clock.setFixedTime(NOW);
      await fixServerTime(page);
      const screen = { orientation, page, name, code: '' };
      await fixPairing(page, (code) => (screen.code = code));
      await page.goto(`${base}/display?lang=de`);
      screens.push(screen);
    }

    const shoot = async (view: string, ready: (page: Page) => Promise<unknown>) => {
      for (const { orientation, page } of screens) {
        await ready(page);
        // Let text fitting and the map's first layout settle.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        await page.waitForTimeout(300);
        const file = path.join(outDir, `${view}-${orientation}.png`);
        // Animations (the alarm marker's pulse) are stopped at their start so that runs give identical pictures.
        await page.evaluate(() =>
          document.getAnimations().forEach((a) => {
            a.pause();
            a.currentTime = 0;
          }),
        );
        await page.screenshot({ path: file, animations: 'disabled' });
        say(`wrote ${path.relative(process.cwd(), file)}`);
      }
    };

    await shoot('pairing', (page) => page.getByTestId('pairing-left').filter({ hasText: '9:41' }).waitFor());
    for (const screen of screens)
      await rest('POST', `/api/v1/monitor/${monitor.id}/screens`, { code: screen.code, name: screen.name });
    await shoot('standby', (page) => page.getByTestId('standby-latest').waitFor());
    await rest('POST', `/api/v1/monitor/${monitor.id}/screens/commands`, { command: 'identify' });
    await shoot('identify', (page) => page.getByTestId('identify').waitFor());
    await Promise.all(
      screens.map(({ page }) => page.getByTestId('identify').waitFor({ state: 'detached', timeout: 15_000 })),
    );
    await rest('POST', `/api/v1/monitor/${monitor.id}/test-alarm`, {
      message: 'Probe der Alarmierung – bitte nicht ausrücken',
      durationSeconds: 600,
    });
    await shoot('test-alarm', (page) => page.getByTestId('test-banner').waitFor());
    // The real alarm replaces the test alarm at once.
    await data('alarming', fire);
    await shoot('alarm', (page) =>
      page.waitForFunction(() => document.querySelectorAll('[data-testid=map-water]').length === 4),
    );
    await data('alarming', crash);
    await data('alarming', medical);
    await data('alarming', flood);
    await shoot('split', (page) =>
      page.waitForFunction(
        () =>
          document.querySelectorAll('[data-testid=split-panel]').length === 4 &&
          document.querySelectorAll('[data-testid=map-water]').length === 9,
      ),
    );
    // The long alarm alone and split with a second, in German, at three screen sizes (one page resized).
    await data('alarming', {});
    await data('alarming', nursingHome);
    const [wide] = screens;
    const long = async (view: string, ready: () => Promise<unknown>) => {
      for (const size of [
        { width: 1280, height: 720 },
        { width: 1920, height: 1080 },
        { width: 1080, height: 1920 },
      ]) {
        await wide.page.setViewportSize(size);
        await ready();
        await wide.page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        await wide.page.waitForTimeout(300);
        const file = path.join(outDir, `${view}-${size.width}x${size.height}.png`);
        await wide.page.evaluate(() =>
          document.getAnimations().forEach((a) => {
            a.pause();
            a.currentTime = 0;
          }),
        );
        await wide.page.screenshot({ path: file, animations: 'disabled' });
        say(`wrote ${path.relative(process.cwd(), file)}`);
      }
    };
    await long('long', () => wide.page.getByTestId('alarm-event').filter({ hasText: 'Pflegeheim' }).waitFor());
    await data('alarming', trapped);
    await long('long-split', () => wide.page.getByTestId('split').waitFor());
  } finally {
    // A long-poll may still be in a route handler: closing must not fail it.
    for (const context of browser.contexts())
      for (const page of context.pages()) await page.unrouteAll({ behavior: 'ignoreErrors' });
    await browser.close();
    await service.close();
    await database.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
