// Takes the screenshots of the staff's pages in docs/console.md, in German: the invitation page, the
// account after joining with its passkey and a sign-in link (phone, 390×844), the passkey sign-in
// (desktop, 1280×800), an admin's members page with a fresh invitation's QR code and who can come, an
// alarm followed with two answers and the overview with it running (desktop and phone), the monitors
// with a paired screen that has not connected yet and a monitor's station on the map (phone), the
// channels, the journal during the alarm, a thing of hydrants on its map, the API keys and the alarm inputs
// (the list, a new one with the example profile, one input tried with a fax and its received documents;
// desktop and phone), into console/screenshots/{page}-{size}.png.
//
//   npx tsx tools/console-screenshots.ts
//
// Starts its own database (the launcher's order, in a temporary directory; MONGODB_URI to use another)
// and the real service on localhost (a secure context, as passkeys need), invites a member through the
// REST API, and walks the pages in headless Chromium with its virtual authenticator. The dates shown
// are the run's (the server stamps them).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { IdentityCommands } from '../server/identity/commands.js';
import { startLocalService } from './local-service.js';
import { addPasskeyDevice } from '../test/helpers/browser.js';
import { EXAMPLE_FAX, EXAMPLE_PROFILE } from '../console/src/pages/inputs-model.js';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../console/screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const say = (line: string) => process.stderr.write(`[console-screenshots] ${line}\n`);

async function open(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const page = await context.newPage();
  await addPasskeyDevice(page);
  return page;
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  say(`wrote ${path.relative(process.cwd(), file)}`);
}

async function main(): Promise<void> {
  const { service, base, browser, stop } = await startLocalService('console-screenshots', say);
  try {
    const identity = new IdentityCommands(service.db);
    const org = await identity.createOrganization('Freiwillige Feuerwehr Aachen-Nord');
    const key = await identity.createApiKey(org.id, 'Wache');
    const made = await fetch(`${base}/api/v1/invitations`, {
      method: 'POST',
      headers: { 'API-TOKEN': key.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ organizationID: org.id, name: 'Alex Berger', role: 'admin' }),
    }).then((r) => r.json() as Promise<{ link: string }>);

    const phone = await open(browser, PHONE);
    await phone.goto(made.link);
    await phone.getByRole('heading', { name: 'Willkommen' }).waitFor();
    await shot(phone, 'join-phone');
    await phone.getByRole('button', { name: 'Beitreten' }).click();
    await phone.getByLabel('Gerätename').fill('Handy');
    await phone.getByRole('button', { name: 'Passkey für dieses Gerät anlegen' }).click();
    await phone.getByRole('heading', { name: 'Übersicht' }).waitFor();
    await phone.goto(`${base}/console/account`);
    await phone.getByText('Handy').waitFor();
    await phone.getByRole('button', { name: 'Link erzeugen' }).click();
    await phone.getByText('gültig bis').waitFor();
    await shot(phone, 'account-phone', true);

    const desktop = await open(browser, DESKTOP);
    await desktop.goto(`${base}/signin`);
    await desktop.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await shot(desktop, 'signin-desktop');

    // The station's roster, imported by the API key, and the admin (Alex, signed in above) inviting one more.
    const imported = await fetch(`${base}/api/v1/organizations/${org.id}/members/import`, {
      method: 'POST',
      headers: { 'API-TOKEN': key.token, 'Content-Type': 'text/csv' },
      body:
        'name,role,mobile,units\nKim Sommer,member,+491701234567,HLF 20\nJonas Wirtz,member,,HLF 20;DLK 23\n' +
        'Mara Lindner,admin,+491709876543,ELW 1\n',
    }).then((r) => r.json() as Promise<{ members: Array<{ userId: number; name: string }> }>);
    const asKey = (method: string, url: string, body?: unknown) =>
      fetch(`${base}/api/v1${url}`, {
        method,
        headers: { 'API-TOKEN': key.token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => {
        // A refused fixture would leave its part out of the pictures unseen.
        if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
        return r.json() as Promise<Record<string, any>>;
      });
    // An alarm with two answers, entered through the members' phones (devices the station registered).
    const devices = [];
    for (const m of imported.members)
      devices.push(
        await asKey('POST', `/app/device?organization_id=${org.id}`, {
          name: 'Handy',
          os: 'Android 15',
          ownerID: m.userId,
          pushToken: `screenshot-${m.userId}`,
          pushTokenDevelopment: false,
          active: true,
        }),
      );
    const alarm = await asKey('POST', '/alarms', {
      organizationID: org.id,
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG, Person vermisst',
      address: 'Hauptstraße 40, 52068 Aachen',
      units: ['HLF 20', 'DLK 23'],
      channels: ['app'],
    });
    for (const [i, response] of [
      [0, true],
      [1, false],
    ] as const)
      await asKey('POST', `/app/feedback?organization_id=${org.id}`, {
        alarmID: alarm.id,
        deviceID: devices[i].id,
        response,
        answerData: {},
      });
    // Who can come, said by the members themselves (their personal tokens).
    const say = async (userId: number, body: Record<string, unknown>) => {
      const pat = await identity.createPersonalToken(userId, 'Handy');
      await fetch(`${base}/api/v1/availability`, {
        method: 'PUT',
        headers: { 'Personal-Access-Token': pat.token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ organizationID: org.id, ...body }),
      });
    };
    await say(imported.members[0].userId, { available: true });
    await say(imported.members[1].userId, {
      available: false,
      until: new Date(Date.now() + 10 * 3_600_000).toISOString(),
      note: 'Nachtschicht',
    });
    // The alarm's journal, written during the incident by the API key (the dispatch centre's link).
    const journal = await asKey('GET', `/journal?organization_id=${org.id}&event_id=${alarm.id}`);
    const category = await asKey('POST', '/journal/categories', {
      organizationId: org.id,
      name: 'Lage',
      description: 'Lagemeldungen',
    });
    await asKey('POST', `/journal/${journal.id}/lock`);
    for (const text of [
      'Eintreffen HLF 20, Erkundung: Rauch aus Fenster 2. OG, eine Person vermisst.',
      'Angriffstrupp unter PA zur Menschenrettung über Treppenraum vor.',
      'DLK 23 in Stellung an der Gebäudevorderseite.',
    ])
      await asKey('POST', `/journal/${journal.id}/entries`, { journalId: journal.id, categoryId: category.id, text });
    await asKey('POST', `/journal/${journal.id}/unlock`);
    // The organization's journal gets the same lines, for the overview's latest entries.
    const orgJournal = await asKey('GET', `/journal?organization_id=${org.id}`);
    await asKey('POST', `/journal/${orgJournal.id}/lock`);
    await asKey('POST', `/journal/${orgJournal.id}/entries`, {
      journalId: orgJournal.id,
      categoryId: category.id,
      text: 'Einsatz B3 Wohnungsbrand Hauptstraße 40: HLF 20 und DLK 23 ausgerückt.',
    });
    await asKey('POST', `/journal/${orgJournal.id}/unlock`);

    for (const [page, size] of [
      [phone, 'phone'],
      [await open(browser, DESKTOP), 'desktop'],
    ] as const) {
      if (size === 'desktop') {
        // The desktop signs in with a one-time link from the phone.
        const link = await phone.evaluate(() =>
          fetch('/api/v1/session/link', { method: 'POST' }).then((r) => r.json() as Promise<{ link: string }>),
        );
        await page.goto(link.link);
        await page.getByRole('button', { name: 'Beitreten' }).click();
        await page.getByRole('link', { name: 'Weiter' }).click();
        await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
        await page.goto(`${base}/console/members`);
      } else {
        await page.goto(`${base}/console/members`);
      }
      await page.getByRole('heading', { name: 'Mitglieder', exact: true }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Robin Neu');
      await page.getByRole('button', { name: 'Einladung erstellen' }).click();
      await page.getByRole('img', { name: 'QR-Code der Einladung für Robin Neu' }).waitFor();
      await shot(page, `members-${size}`, true);
      await page.goto(`${base}/console/alarms/${alarm.id}`);
      await page.locator('.answers .badge.no').waitFor();
      await shot(page, `alarm-${size}`, true);
      await page.goto(`${base}/console`);
      await page.getByRole('link', { name: /B3 Wohnungsbrand/ }).waitFor();
      await page
        .getByText(/Mitglieder$/)
        .last()
        .waitFor();
      await shot(page, `overview-${size}`, true);
      await page.goto(`${base}/console/journal/${alarm.id}`);
      await page.getByText('DLK 23 in Stellung').waitFor();
      await shot(page, `journal-${size}`, true);
      await page.goto(`${base}/console/channels`);
      await page.getByText('Kim Sommer').first().waitFor();
      await shot(page, `channels-${size}`, true);
    }

    // A thing of hydrants with three of them on its map.
    const hydrants = await asKey('POST', '/things/entities', {
      organizationID: org.id,
      name: 'Hydranten',
      icon: '💧',
      fields: [
        { name: 'Name', type: 'text' },
        { name: 'Art', type: 'text' },
        { name: 'Lage', type: 'coordinates' },
      ],
    });
    const [nameField, kindField, placeField] = hydrants.fields.map((f: { id: string }) => f.id);
    for (const [name, kind, lat, lon] of [
      ['H 12', 'Überflurhydrant DN 100', 50.7761, 6.0832],
      ['H 13', 'Unterflurhydrant DN 80', 50.7769, 6.0851],
      ['Z 2', 'Zisterne 48 m³', 50.7752, 6.0818],
    ] as const)
      await asKey('POST', `/things/entities/${hydrants.id}/records`, {
        values: [
          { fieldID: nameField, value: name },
          { fieldID: kindField, value: kind },
          { fieldID: placeField, value: `${lat},${lon}` },
        ],
      });
    for (const [page, size] of [
      [phone, 'phone'],
      [await open(browser, DESKTOP), 'desktop'],
    ] as const) {
      if (size === 'desktop') {
        const link = await phone.evaluate(() =>
          fetch('/api/v1/session/link', { method: 'POST' }).then((r) => r.json() as Promise<{ link: string }>),
        );
        await page.goto(link.link);
        await page.getByRole('button', { name: 'Beitreten' }).click();
        await page.getByRole('link', { name: 'Weiter' }).click();
        await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
      }
      await page.goto(`${base}/console/things/${hydrants.id}`);
      await page.getByRole('cell', { name: 'H 13', exact: true }).waitFor();
      await shot(page, `things-${size}`, true);
      await page.goto(`${base}/console/keys`);
      await page.getByLabel('Wofür ist er?').fill('Leitstelle');
      await page.getByRole('button', { name: 'Schlüssel erzeugen' }).click();
      await page.getByRole('status').waitFor();
      await shot(page, `keys-${size}`, true);
    }

    // The alarm inputs: the Leitstelle's fax with the example profile, which received an alarm fax and a
    // test fax, and a mailbox whose server refuses the connection (its last error in red).
    const faxInput = await asKey('POST', '/inputs', {
      organizationID: org.id,
      name: 'Alarmfax Leitstelle',
      kind: 'document',
      settings: {},
      profile: { fields: EXAMPLE_PROFILE },
      channels: ['app', 'sms'],
      active: true,
    });
    await asKey('POST', '/inputs', {
      organizationID: org.id,
      name: 'Alarm-E-Mail ILS',
      kind: 'imap',
      settings: {
        host: '127.0.0.1',
        // An allowed port (INPUT_IMAP_PORTS) where nothing listens here.
        port: 143,
        tls: false,
        user: 'alarm',
        password: 'geheim',
        allowedSenders: ['@ils-aachen.de'],
      },
      profile: { fields: EXAMPLE_PROFILE },
      active: true,
    });
    await asKey('POST', '/inputs', {
      organizationID: org.id,
      name: 'Funkmeldeempfänger',
      kind: 'pager',
      settings: {
        codes: [{ ric: '1234567', subric: 'a', event: 'Vollalarm' }],
        vehicles: [{ fms: '6B1A2301', name: 'HLF 20' }],
      },
      active: false,
    });
    for (const text of [
      EXAMPLE_FAX.replace('B3 Wohnungsbrand', 'TH1 Baum auf Straße'),
      'Testfax der ILS Aachen – bitte nicht beachten',
    ])
      await fetch(`${base}/api/v1/inputs/${faxInput.id}/documents`, {
        method: 'POST',
        headers: { 'API-TOKEN': key.token, 'Content-Type': 'text/plain; charset=utf-8' },
        body: text,
      });
    // The mailbox's watcher tries its server within seconds; the list shows what it met.
    for (let tries = 0; tries < 60; tries++) {
      const listed = (await asKey('GET', `/inputs?organization_id=${org.id}`)) as unknown as Array<{
        lastError: string | null;
      }>;
      if (listed.some((i) => i.lastError)) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const [page, size] of [
      [phone, 'phone'],
      [await open(browser, DESKTOP), 'desktop'],
    ] as const) {
      if (size === 'desktop') {
        const link = await phone.evaluate(() =>
          fetch('/api/v1/session/link', { method: 'POST' }).then((r) => r.json() as Promise<{ link: string }>),
        );
        await page.goto(link.link);
        await page.getByRole('button', { name: 'Beitreten' }).click();
        await page.getByRole('link', { name: 'Weiter' }).click();
        await page.getByRole('heading', { name: 'Übersicht' }).waitFor();
      }
      await page.goto(`${base}/console/inputs`);
      await page.getByRole('link', { name: 'Alarmfax Leitstelle' }).waitFor();
      await shot(page, `inputs-${size}`, true);
      await page.getByRole('button', { name: 'Neuer Eingang' }).click();
      await page.getByLabel('Name des Eingangs').fill('Alarmfax Nachbarleitstelle');
      await page.getByRole('button', { name: 'Beispiel einsetzen' }).click();
      await shot(page, `inputs-new-${size}`, true);
      await page.goto(`${base}/console/inputs/${faxInput.id}`);
      await page.getByTestId('input-document').first().waitFor();
      await page.getByRole('button', { name: 'Beispielfax einfügen' }).click();
      await page.getByRole('button', { name: 'Text ausprobieren' }).click();
      await page.getByTestId('would-raise').waitFor();
      await shot(page, `input-${size}`, true);
    }

    // A monitor with a screen paired by its code (F1, F3) that has not shown anything yet.
    const monitor = await asKey('POST', '/monitor', {
      name: 'Fahrzeughalle',
      organizationID: org.id,
      configuration: { address: 'Hauptstraße 40, 52068 Aachen' },
    });
    const pairing = await fetch(`${base}/api/v1/screens/pairing`, { method: 'POST' }).then(
      (r) => r.json() as Promise<{ code: string }>,
    );
    await asKey('POST', `/monitor/${monitor.id}/screens`, { code: pairing.code, name: 'Halle links' });
    await phone.goto(`${base}/console/monitors`);
    await phone.getByText('Halle links').waitFor();
    await shot(phone, 'monitors-phone', true);
    await phone.getByRole('button', { name: 'Fahrzeughalle bearbeiten' }).click();
    await phone.getByLabel('Breitengrad').fill('50.7766');
    await phone.getByLabel('Längengrad').fill('6.0834');
    await phone.getByRole('group', { name: /^Karte: Position von Fahrzeughalle/ }).scrollIntoViewIfNeeded();
    await shot(phone, 'monitor-place-phone');
  } finally {
    await stop();
  }
}

await main();
