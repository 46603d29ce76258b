// Takes the screenshots of the members' app in docs/members-app.md, in German on a phone (390×844):
// the start without an alarm, a running alarm with the answers so far and the member's own, and his
// availability, into members-app/screenshots/{start,alarm,availability}-phone.png.
//
//   npx tsx members-app/screenshots.ts
//
// Starts its own database (the launcher's order, in a temporary directory; MONGODB_URI to use another)
// and the real service on localhost; the station's roster comes in through the REST API, its members'
// answers through their devices (A10), and the member whose phone this is answers in the app. The
// times shown are the run's.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { IdentityCommands } from '../server/identity/commands.js';
import { startLocalService } from '../tools/local-service.js';

const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
const PHONE = { width: 390, height: 844 };
const say = (line: string) => process.stderr.write(`[members-app-screenshots] ${line}\n`);

async function shot(page: Page, name: string): Promise<void> {
  const file = path.join(outDir, `${name}.png`);
  // The clock and the blinking caret are the only things that move.
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  say(`wrote ${path.relative(process.cwd(), file)}`);
}

async function main(): Promise<void> {
  await fs.mkdir(outDir, { recursive: true });
  const { service, base, browser, stop } = await startLocalService('app-screenshots', say);
  try {
    const identity = new IdentityCommands(service.db);
    const org = await identity.createOrganization('Freiwillige Feuerwehr Aachen-Nord');
    const key = await identity.createApiKey(org.id, 'Wache');
    const asKey = (method: string, url: string, body?: unknown, type = 'application/json') =>
      fetch(`${base}/api/v1${url}`, {
        method,
        headers: { 'API-TOKEN': key.token, 'Content-Type': type },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, any>>);

    // The roster, each with the phone the station registered for him.
    const roster = await asKey(
      'POST',
      `/organizations/${org.id}/members/import`,
      'name,role,units\nKim Sommer,member,HLF 20\nJonas Wirtz,member,HLF 20\nMara Lindner,admin,ELW 1\n' +
        'Lukas Brand,member,DLK 23\nSophie Hahn,member,HLF 20\nAlex Berger,member,HLF 20\n',
      'text/csv',
    );
    const members = roster.members as Array<{ userId: number; name: string; invitation: { code: string } }>;
    const device: Record<string, number> = {};
    for (const m of members)
      device[m.name] = (
        await asKey('POST', `/app/device?organization_id=${org.id}`, {
          name: 'Handy',
          os: 'Android 15',
          ownerID: m.userId,
          pushToken: `screenshot-${m.userId}`,
          pushTokenDevelopment: false,
          active: true,
        })
      ).id;

    // Alex's phone: joined with his invitation (the session cookie), German, Berlin's time.
    const alex = members.find((m) => m.name === 'Alex Berger')!;
    const context = await browser.newContext({
      viewport: PHONE,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
      deviceScaleFactor: 1,
    });
    const joined = await context.request.post(`${base}/api/v1/join`, {
      data: { code: alex.invitation.code },
      headers: { Origin: base },
    });
    if (!joined.ok()) throw new Error(`joining failed: ${joined.status()} ${await joined.text()}`);
    const page = await context.newPage();

    for (const [name, available] of [
      ['Kim Sommer', true],
      ['Jonas Wirtz', true],
      ['Lukas Brand', false],
    ] as const) {
      const person = members.find((m) => m.name === name)!;
      const pat = await identity.createPersonalToken(person.userId, 'screenshots');
      await fetch(`${base}/api/v1/availability`, {
        method: 'PUT',
        headers: { 'Personal-Access-Token': pat.token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ organizationID: org.id, available }),
      });
    }

    await page.goto(`${base}/app`);
    await page.getByRole('heading', { name: 'Kein laufender Alarm' }).waitFor();
    await page.getByText('verfügbar ·').waitFor();
    await shot(page, 'start-phone');

    const alarm = await asKey('POST', '/alarms', {
      organizationID: org.id,
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG, Person vermisst',
      address: 'Goethestraße 5, 52064 Aachen',
      latitude: 50.77664,
      longitude: 6.08342,
      units: ['HLF 20', 'DLK 23'],
      channels: ['app'],
    });
    for (const [name, response, duration] of [
      ['Kim Sommer', true, 5],
      ['Jonas Wirtz', true, 12],
      ['Sophie Hahn', true, 8],
      ['Lukas Brand', false, null],
    ] as const)
      await asKey('POST', `/app/feedback?organization_id=${org.id}`, {
        alarmID: alarm.id,
        deviceID: device[name],
        response,
        answerData: duration === null ? {} : { duration },
      });
    await page.getByTestId('alarm-event').waitFor();
    await page.getByTestId('coming').getByText('Sophie Hahn').waitFor();
    await page.getByRole('button', { name: 'Komme 10 Min.' }).click();
    await page.getByText('Sie kommen, in 10 Min. da.').waitFor();
    await shot(page, 'alarm-phone');

    await page.getByRole('link', { name: 'Verfügbar' }).click();
    await page.getByRole('button', { name: 'Verfügbar', exact: true }).click();
    await page.getByTestId('my-availability').getByText('Verfügbar').waitFor();
    await page.getByTestId('available-count').getByText('3', { exact: true }).waitFor();
    await shot(page, 'availability-phone');
  } finally {
    await stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
