// The staff's pages in Chromium (docs/console.md): a person invited by the API key joins on a
// phone-sized page, creates a passkey with Chromium's virtual authenticator (DevTools protocol
// WebAuthn), signs out, and signs in again with the passkey; axe finds no serious or critical problem
// on any of the pages, in German and English.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { addPasskeyDevice, launchChromium, openScreen, WAIT_MS } from './helpers/browser.js';
import { eventually, shownCode } from './helpers/fleet.js';
import { COUNT_INTL } from './helpers/console.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  svc: TestService;
  /** A second process on the same database and Redis: what one changes, the other's pages see. */
  other: TestService;
  org: OrgFixture;
  browser: Browser;
  /** The public URL: localhost is a secure context, as WebAuthn requires. */
  base: string;
  axe: string;
}

const pages = suite<Ctx>('console: joining, passkeys and signing in, in Chromium', {} as Ctx);

// The narrowest phone the console is made for (docs/console.md).
const PHONE = { width: 360, height: 780 };

/** True when nothing sticks out sideways: the page needs no horizontal scrolling. */
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

pages.before(async (ctx) => {
  const redis = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
  ctx.svc = await startTestService(redis);
  ctx.other = await startTestService(redis);
  ctx.base = `http://localhost:${ctx.svc.port}`;
  ctx.org = await createOrg(ctx.svc);
  ctx.browser = await launchChromium();
  ctx.axe = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
});
pages.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc.close();
  await ctx.other.close();
});

async function invite(ctx: Ctx, name: string): Promise<string> {
  const made = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name,
    role: 'member',
  });
  assert.is(made.status, 201);
  return made.body.link;
}

/** An admin of `org`, invited by its API key, who joined on a phone and confirms every dialog. */
async function adminJoined(ctx: Ctx, org: OrgFixture, name: string) {
  const made = await client(ctx.svc.url, { apiKey: org.apiKey }).post('/api/v1/invitations', {
    organizationID: org.orgId,
    name,
    role: 'admin',
  });
  const joined = await phone(ctx, 'de-DE');
  joined.page.on('dialog', (dialog) => void dialog.accept());
  await joined.page.goto(made.body.link);
  await joined.page.getByRole('button', { name: 'Beitreten' }).click();
  await joined.page.getByRole('link', { name: 'Weiter' }).click();
  await joined.page.getByRole('heading', { name: 'Übersicht' }).waitFor({ timeout: WAIT_MS });
  return joined;
}

/** axe's serious and critical violations on the page as it is now. */
async function violations(page: Page, axe: string): Promise<string[]> {
  await page.addScriptTag({ content: axe });
  const found = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<any> } }).axe.run();
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v: { id: string; nodes: Array<{ target: string[] }> }) =>
          `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`,
      );
  });
  return found as string[];
}

async function phone(ctx: Ctx, locale: string) {
  // axe is injected into the page: the test lets it past the page's Content-Security-Policy.
  const context = await ctx.browser.newContext({ viewport: PHONE, locale, deviceScaleFactor: 2, bypassCSP: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await addPasskeyDevice(page);
  return { context, page, errors };
}

pages(
  'a member joins from his link on a phone, makes a passkey, signs out and back in with it (German)',
  async (ctx) => {
    const link = await invite(ctx, 'Alex Berger');
    assert.ok(link.startsWith(`${ctx.base}/join/`), link);
    const { context, page, errors } = await phone(ctx, 'de-DE');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Willkommen' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'join page');
    await page.getByRole('button', { name: 'Beitreten' }).click();
    await page.getByRole('heading', { name: 'Hallo Alex Berger' }).waitFor({ timeout: WAIT_MS });
    assert.is(new URL(page.url()).pathname, '/console', 'the used code left the address bar');

    await page.getByLabel('Gerätename').fill('Handy');
    await page.getByRole('button', { name: 'Passkey für dieses Gerät anlegen' }).click();
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor({ timeout: WAIT_MS });
    await page.getByText('Kein laufender Alarm.').waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'overview, as a member');
    assert.ok(await fits(page), 'the overview fits 360 px');
    await page.getByRole('link', { name: 'Mitglieder', exact: true }).click();
    await page.getByRole('heading', { name: 'Mitglieder', exact: true }).waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'members page, as a member');
    assert.ok(await fits(page), 'the members page fits 360 px');
    await page.getByRole('link', { name: 'Konto' }).click();
    await page.getByRole('heading', { name: 'Alex Berger' }).waitFor({ timeout: WAIT_MS });
    await page.getByText('Handy').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Passkey „Handy“ entfernen' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'account page');
    assert.ok(await fits(page), 'the account page fits 360 px');

    // The session is the person's: the API says who he is and that he has one passkey.
    const session = await page.evaluate(() => fetch('/api/v1/session').then((r) => r.json()));
    assert.is(session.user.name, 'Alex Berger');
    assert.is(session.passkeys, 1);

    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('heading', { name: 'Sie sind abgemeldet.' }).waitFor({ timeout: WAIT_MS });
    assert.is((await page.evaluate(() => fetch('/api/v1/session').then((r) => r.status))) as number, 401);

    await page.getByRole('link', { name: 'Wieder anmelden' }).click();
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'sign-in page');
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor({ timeout: WAIT_MS });
    const again = await page.evaluate(() => fetch('/api/v1/session').then((r) => r.json()));
    assert.is(again.user.id, session.user.id);
    assert.equal(errors, []);
    await context.close();
  },
);

pages('a used link says so in words; the pages speak English when asked, and axe is content there too', async (ctx) => {
  const link = await invite(ctx, 'Kim');
  const used = await client(ctx.svc.url, null).post('/api/v1/join', { code: link.split('/').pop() });
  assert.is(used.status, 201);
  const { context, page, errors } = await phone(ctx, 'en-GB');
  await page.goto(link);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Join' }).click();
  await page.getByRole('alert').waitFor({ timeout: WAIT_MS });
  assert.match((await page.getByRole('alert').textContent()) ?? '', /invalid, expired or used already/);
  assert.equal(await violations(page, ctx.axe), [], 'join page with its error');
  await page.goto(`${ctx.base}/signin?lang=de`);
  await page.getByRole('heading', { name: 'Anmelden' }).waitFor({ timeout: WAIT_MS });
  await page.goto(`${ctx.base}/console`);
  await page.getByRole('heading', { name: 'You are not signed in.' }).waitFor({ timeout: WAIT_MS });
  assert.equal(await violations(page, ctx.axe), [], 'account page, signed out');
  assert.equal(errors, []);
  await context.close();
});

pages(
  'an admin invites with a QR code, sees the new member arrive live, changes his role; a bad roster line creates nothing',
  async (ctx) => {
    const adminLink = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
      organizationID: ctx.org.orgId,
      name: 'Chief',
      role: 'admin',
    });
    const desk = await phone(ctx, 'de-DE');
    await desk.page.setViewportSize({ width: 1280, height: 900 });
    await desk.page.goto(adminLink.body.link);
    await desk.page.getByRole('button', { name: 'Beitreten' }).click();
    await desk.page.getByRole('heading', { name: 'Hallo Chief' }).waitFor({ timeout: WAIT_MS });
    await desk.page.getByRole('link', { name: 'Weiter' }).click();
    await desk.page.getByRole('link', { name: 'Mitglieder', exact: true }).click();
    await desk.page.getByRole('heading', { name: 'Mitglieder', exact: true }).waitFor({ timeout: WAIT_MS });

    // A name of blanks: the problem is shown beside the field, nothing is made.
    await desk.page.getByLabel('Name', { exact: true }).fill('   ');
    await desk.page.getByRole('button', { name: 'Einladung erstellen' }).click();
    await desk.page.locator('#invite-name-problem').waitFor({ timeout: WAIT_MS });
    await desk.page.getByLabel('Name', { exact: true }).fill('Robin Neu');
    await desk.page.getByRole('button', { name: 'Einladung erstellen' }).click();
    await desk.page.getByRole('img', { name: 'QR-Code der Einladung für Robin Neu' }).waitFor({ timeout: WAIT_MS });
    const link = await desk.page.getByRole('textbox', { name: 'Einladung für Robin Neu' }).inputValue();
    assert.equal(await violations(desk.page, ctx.axe), [], 'members page, as an admin, with an invitation');

    // Robin joins on his phone; the admin's list shows him without a reload.
    const robin = await phone(ctx, 'de-DE');
    await robin.page.goto(link);
    await robin.page.getByRole('button', { name: 'Beitreten' }).click();
    await robin.page.getByRole('heading', { name: 'Hallo Robin Neu' }).waitFor({ timeout: WAIT_MS });
    await robin.page.goto(`${ctx.base}/console/members`);
    await robin.page.getByRole('heading', { name: 'Mitglieder', exact: true }).waitFor({ timeout: WAIT_MS });
    const role = desk.page.getByRole('combobox', { name: 'Rolle von Robin Neu' });
    await role.waitFor({ timeout: WAIT_MS });
    await role.selectOption('admin');
    const members = () =>
      client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/organizations/${ctx.org.orgId}/members`);
    const deadline = Date.now() + WAIT_MS;
    let listed = await members();
    while (listed.body.members.find((m: { name: string }) => m.name === 'Robin Neu').role !== 'admin') {
      assert.ok(Date.now() < deadline, 'the role change arrived');
      await new Promise((r) => setTimeout(r, 50));
      listed = await members();
    }
    // The role change closed Robin's socket (his rights changed): his page connects again and still
    // follows the organization — someone who joins now appears on it without a reload.
    const sam = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/invitations', {
      organizationID: ctx.org.orgId,
      name: 'Sam Später',
      role: 'member',
    });
    await client(ctx.svc.url, null).post('/api/v1/join', { code: sam.body.code });
    await robin.page.getByText('Sam Später').waitFor({ timeout: WAIT_MS });
    listed = await members();

    // A roster with a bad line: every problem listed, nobody created.
    const before = listed.body.members.length;
    await desk.page.getByLabel('CSV-Datei wählen').setInputFiles({
      name: 'wache.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,role,mobile\nKim,member,+491701234567\nLee,chief,\n'),
    });
    await desk.page.getByText('Nichts wurde angelegt').waitFor({ timeout: WAIT_MS });
    await desk.page.getByText('line 3: role').waitFor({ timeout: WAIT_MS });
    assert.is((await members()).body.members.length, before);
    assert.equal(desk.errors, []);
    assert.equal(robin.errors, []);
    await desk.context.close();
    await robin.context.close();
  },
);

pages(
  "an admin raises an alarm from the console and sees the member's answer, given on another process, arrive by name; then ends it",
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const device = await client(ctx.svc.url, { pat: org.member.token }).post('/api/v1/app/device', {
      name: 'Pixel',
      os: 'Android 15',
      ownerID: org.member.userId,
      pushToken: 'console-test-token',
      pushTokenDevelopment: false,
      active: true,
    });
    assert.is(device.status, 200, JSON.stringify(device.body));
    const { context, page, errors } = await adminJoined(ctx, org, 'Einsatzleiter');
    await page.getByRole('link', { name: 'Alarme' }).click();
    await page.getByRole('heading', { name: 'Alarm auslösen' }).waitFor({ timeout: WAIT_MS });
    // Without a keyword: said beside the field, nothing raised.
    await page.getByRole('button', { name: 'Alarm auslösen' }).click();
    await page.getByText('Bitte ein Einsatzstichwort eingeben.').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Einsatzstichwort').fill('B3 Wohnungsbrand');
    await page.getByLabel('Adresse').fill('Hauptstraße 40');
    await page.getByLabel('Einheiten').fill('HLF 20, DLK 23');
    await page.getByRole('checkbox', { name: 'SMS' }).uncheck();
    await page.getByRole('checkbox', { name: 'Anruf' }).uncheck();
    assert.equal(await violations(page, ctx.axe), [], 'alarms page with the form');
    await page.getByRole('button', { name: 'Alarm auslösen' }).click();
    await page.getByRole('heading', { name: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
    const alarmId = Number(new URL(page.url()).pathname.split('/').pop());
    // The overview lists the running alarm with its counts.
    await page.getByRole('link', { name: 'Übersicht' }).click();
    await page.getByRole('link', { name: /B3 Wohnungsbrand/ }).waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'overview with a running alarm');
    await page.getByRole('link', { name: /B3 Wohnungsbrand/ }).click();
    await page.getByRole('heading', { name: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
    const raised = await client(ctx.svc.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarmId}`);
    assert.equal([raised.body.units, raised.body.channels], [['HLF 20', 'DLK 23'], ['app']]);
    await page.getByText('Noch keine Rückmeldung.').waitFor({ timeout: WAIT_MS });

    // The member answers from his phone's app, through the other process: the console shows it by
    // name without a reload.
    const answered = await client(ctx.other.url, { pat: org.member.token }).post(
      `/api/v1/app/feedback?organization_id=${org.orgId}`,
      { alarmID: alarmId, deviceID: device.body.id, response: true, answerData: {} },
    );
    assert.is(answered.status, 200, JSON.stringify(answered.body));
    const answers = page.getByRole('list').filter({ hasText: 'member of' });
    await answers.getByText(`member of`).first().waitFor({ timeout: WAIT_MS });
    await page.locator('.answers .badge.yes').waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'the alarm followed, with an answer');
    assert.ok(await fits(page), 'the alarm page fits 360 px');

    await page.getByRole('button', { name: 'Alarm beenden' }).click();
    await page.getByRole('button', { name: 'Alarm beenden' }).waitFor({ state: 'detached', timeout: WAIT_MS });
    const ended = await client(ctx.svc.url, { apiKey: org.apiKey }).get(`/api/v1/alarms/${alarmId}`);
    assert.type(ended.body.endedAt, 'string');
    assert.equal(errors, []);
    await context.close();
  },
);

pages(
  'an admin creates a monitor, pairs a real /display page by the code it shows, sees it online, identifies it and starts a test alarm',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const { context, page, errors } = await adminJoined(ctx, org, 'Gerätewart');
    await page.getByRole('link', { name: 'Monitore' }).click();
    await page.getByRole('heading', { name: 'Monitore und Bildschirme' }).waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Name des Monitors').fill('Fahrzeughalle');
    await page.getByLabel('Adresse der Wache').fill('Hauptstraße 12');
    await page.getByRole('button', { name: 'Monitor anlegen' }).click();
    await page.getByRole('heading', { name: 'Fahrzeughalle' }).waitFor({ timeout: WAIT_MS });
    await page.getByText('Noch kein Bildschirm gekoppelt.').waitFor({ timeout: WAIT_MS });

    // A wrong code: said beside the field.
    await page.getByLabel('Code vom Bildschirm').fill('AAAA-AAAA');
    await page.getByRole('button', { name: 'Koppeln' }).click();
    await page.locator('.field-problem, .problem').first().waitFor({ timeout: WAIT_MS });

    const screen = await openScreen(ctx.browser, `${ctx.svc.url}/display`);
    const code = await shownCode(screen);
    await page.getByLabel('Code vom Bildschirm').fill(code);
    await page.getByLabel('Name des Bildschirms').fill('Halle links');
    await page.getByRole('button', { name: 'Koppeln' }).click();
    await page.getByText('„Halle links“ ist gekoppelt.').waitFor({ timeout: WAIT_MS });
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    // Online as the hub says, without a reload.
    await page.locator('.monitor .badge.yes').waitFor({ timeout: WAIT_MS });
    assert.equal(await violations(page, ctx.axe), [], 'monitors page with a paired screen');
    assert.ok(await fits(page), 'the monitors page fits 360 px');

    await page.getByRole('button', { name: 'Erkennen: Halle links' }).click();
    await page.getByText('1 Bildschirm(e) bestätigt.').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Probealarm auf Fahrzeughalle' }).click();
    await page.getByText(/Probealarm läuft bis/).waitFor({ timeout: WAIT_MS });
    assert.equal(errors, []);
    await screen.context.close();
    await context.close();
  },
);

pages(
  'an admin places the station on the map and keeps its other settings; a monitor made elsewhere appears live; API keys made and revoked',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    const key = client(ctx.svc.url, { apiKey: org.apiKey });
    const made = await key.post('/api/v1/monitor', {
      name: 'Wache Nord',
      organizationID: org.orgId,
      configuration: { address: 'Hauptstraße 12', gong: false },
    });
    const { context, page, errors } = await adminJoined(ctx, org, 'Wehrführer');
    await page.getByRole('link', { name: 'Monitore' }).click();
    await page.getByRole('button', { name: 'Wache Nord bearbeiten' }).click();
    // Typed coordinates move the map there; a tap on the map then picks a place near them.
    await page.getByLabel('Breitengrad').fill('50,7766');
    await page.getByLabel('Längengrad').fill('6.0834');
    const map = page.getByRole('group', { name: 'Karte: Position von Wache Nord wählen' });
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 40, box.y + box.height / 2 - 30);
    const picked = [
      Number(await page.getByLabel('Breitengrad').inputValue()),
      Number(await page.getByLabel('Längengrad').inputValue()),
    ];
    assert.ok(picked[0] > 50.7766 && picked[0] < 50.79 && picked[1] > 6.0834 && picked[1] < 6.1, `picked ${picked}`);
    assert.equal(await violations(page, ctx.axe), [], 'the monitor form with its map');
    assert.ok(await fits(page), 'the form with its map fits 360 px');
    await page.getByLabel('Längengrad').fill('200');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Eine Zahl von −180 bis 180, z. B. 6.0834').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Längengrad').fill(String(picked[1]));
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByRole('button', { name: 'Wache Nord bearbeiten' }).waitFor({ timeout: WAIT_MS });
    const saved = (await key.get(`/api/v1/monitor/${made.body.id}`)).body.configuration;
    assert.equal(saved, { address: 'Hauptstraße 12', gong: false, latitude: picked[0], longitude: picked[1] });

    // Made by the API key elsewhere: listed without a reload.
    await key.post('/api/v1/monitor', { name: 'Gerätehaus Süd', organizationID: org.orgId });
    await page.getByRole('heading', { name: 'Gerätehaus Süd' }).waitFor({ timeout: WAIT_MS });

    await page.getByRole('link', { name: 'API-Schlüssel' }).click();
    await page.getByRole('button', { name: 'Schlüssel erzeugen' }).click();
    await page.getByText('Bitte einen Namen in einer Zeile, höchstens 100 Zeichen.').waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Wofür ist er?').fill('Leitstelle');
    await page.getByRole('button', { name: 'Schlüssel erzeugen' }).click();
    const token = await page.getByLabel('Schlüssel „Leitstelle“').inputValue();
    assert.is(
      (await client(ctx.other.url, { apiKey: token }).get(`/api/v1/monitor?organization=${org.orgId}`)).status,
      200,
    );
    assert.equal(await violations(page, ctx.axe), [], 'the keys page with a new key');
    assert.ok(await fits(page), 'the keys page fits 360 px');
    await page.getByRole('button', { name: '„Leitstelle“ widerrufen' }).click();
    await page.getByText(/widerrufen \d/).waitFor({ timeout: WAIT_MS });
    assert.is(
      (await client(ctx.other.url, { apiKey: token }).get(`/api/v1/monitor?organization=${org.orgId}`)).status,
      401,
    );
    assert.equal(errors, []);
    await context.close();

    // A member has no keys link, and the page says who may.
    const member = await phone(ctx, 'de-DE');
    await member.page.goto(await invite(ctx, 'Kim'));
    await member.page.getByRole('button', { name: 'Beitreten' }).click();
    await member.page.getByRole('link', { name: 'Weiter' }).click();
    await member.page.getByRole('heading', { name: 'Übersicht' }).waitFor({ timeout: WAIT_MS });
    assert.is(await member.page.getByRole('link', { name: 'API-Schlüssel' }).count(), 0);
    await member.page.goto(`${ctx.base}/console/keys`);
    await member.page
      .getByText('Nur die Verwaltung der Organisation sieht und verwaltet ihre API-Schlüssel.')
      .waitFor({ timeout: WAIT_MS });
    await member.context.close();
  },
);

pages(
  'a page load reads the session once, preloaded as the page starts, and each of the overview’s lists once, then once more when its socket connects',
  async (ctx) => {
    const org = await createOrg(ctx.svc);
    // A running alarm: its row shows when it was raised.
    const raised = await client(ctx.svc.url, { apiKey: org.apiKey }).post('/api/v1/alarms', {
      organizationID: org.orgId,
      event: 'B3 Wohnungsbrand',
      channels: ['app'],
    });
    assert.is(raised.status, 201, JSON.stringify(raised.body));
    const joined = await adminJoined(ctx, org, 'Wehrführerin');
    // A page of its own in the signed-in browser, so that nothing the first page asked is counted.
    const page = await joined.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // Chromium warns when a preloaded answer goes unused (a request that does not match it).
    page.on('console', (m) => /preload/i.test(m.text()) && errors.push(m.text()));
    const asked = new Map<string, number>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) asked.set(url.pathname, (asked.get(url.pathname) ?? 0) + 1);
    });
    await page.addInitScript({ content: COUNT_INTL });
    await page.goto(`${ctx.base}/console`);
    await page.locator('.alarm-link').filter({ hasText: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
    assert.match((await page.locator('.alarm-link').textContent()) ?? '', /ausgelöst \d\d\.\d\d\.\d{4}, \d\d:\d\d/);
    await page.getByTestId('availability-counts').waitFor({ timeout: WAIT_MS });
    // Nothing on the way to the overview's data loads the browser's locale data (docs/console.md).
    assert.equal(await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade), []);
    const availability = `/api/v1/organizations/${org.orgId}/availability`;
    // Read as the page starts, and again when the hub's socket connects (what changed in between).
    await eventually(
      async () => asked.get(availability) ?? 0,
      (n) => n >= 2,
      'the availability read again on connecting',
    );
    // Requests are reported in the order they are made: once this one is, any made before it is too.
    await page.evaluate(() => fetch('/api/v1/organizations/0/members').catch(() => undefined));
    await eventually(
      async () => asked.has('/api/v1/organizations/0/members'),
      (seen) => seen,
      'the marker request reported',
    );
    asked.delete('/api/v1/organizations/0/members');
    // The session was asked for by the page's preload link, and the page's own read took that answer:
    // one request, not two.
    assert.is(asked.get('/api/v1/session'), 1, JSON.stringify([...asked]));
    const initiators = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === '/api/v1/session')
        .map((e) => (e as PerformanceResourceTiming).initiatorType),
    );
    assert.equal(initiators, ['link']);
    for (const [path, times] of asked)
      assert.ok(times <= 2, `${path} was requested ${times} times on one page load: ${JSON.stringify([...asked])}`);
    for (const path of [
      availability,
      `/api/v1/organizations/${org.orgId}/members`,
      '/api/v1/alarms',
      '/api/v1/journal',
    ])
      assert.is(asked.get(path), 2, `${path}: ${JSON.stringify([...asked])}`);
    assert.equal(errors, []);
    assert.equal(joined.errors, []);
    await joined.context.close();
  },
);

pages.run();
