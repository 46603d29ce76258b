// The channels page (/console/channels, docs/console.md) in Chromium, on a service that limits requests
// as production does: an admin switches SMS alarming off and on, keeps SMS and call PINs (a bad number,
// a bad PIN and a number that already has a PIN each said beside its field; the alarm template a call
// needs made right there), picks the form of the alarm SMS, and keeps a member's numbers (a number the
// member entered himself refused in words); sixty members' numbers all arrive; a person who joins
// elsewhere appears live; a member sees it all read-only with only his own numbers; axe finds nothing
// serious in German and English, and nothing sticks out at 360 px.
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, WAIT_MS } from './helpers/browser.js';
import { axeViolations, DESKTOP, fits, PHONE, signedIn } from './helpers/console.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  browser: Browser;
}

const channels = suite<Ctx>('console: channels, PINs, the SMS text and the members’ numbers', {} as Ctx);

channels.before(async (ctx) => {
  // The production rate (50 a second): the members' list must keep below it.
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '50' });
  ctx.org = await createOrg(ctx.svc);
  ctx.browser = await launchChromium();
});
channels.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc?.close();
});

const api = (ctx: Ctx) => client(ctx.svc.url, { apiKey: ctx.org.apiKey });
const q = (ctx: Ctx) => `organization_id=${ctx.org.orgId}`;

async function noViolations(page: Page, where: string): Promise<void> {
  assert.equal(await axeViolations(page), [], `axe on ${where}`);
}

/** An admin on the channels page, every dialog confirmed. */
async function adminOn(ctx: Ctx, opts: { viewport?: typeof PHONE; locale?: string } = {}) {
  const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', name: 'Wehrführer Weber', ...opts });
  admin.page.on('dialog', (dialog) => void dialog.accept());
  await admin.page.goto(`${admin.base}/console/channels`);
  return admin;
}

/** The problem shown beside the input labelled `label` (its aria-describedby). */
async function problemAt(page: Page, label: string): Promise<string> {
  const input = page.getByLabel(label, { exact: true });
  await page.waitForFunction(
    (el) => el?.getAttribute('aria-invalid') === 'true',
    await input.elementHandle({ timeout: WAIT_MS }),
    { timeout: WAIT_MS },
  );
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-problem'));
  assert.is(ids.length, 1, `one problem tied to ${label}`);
  return (await page.locator(`#${ids[0]}`).textContent()) ?? '';
}

channels('an admin switches SMS alarming off and on, and the API says the same', async (ctx) => {
  const { page, context, errors } = await adminOn(ctx);
  await page.getByRole('heading', { name: 'Kanäle: App, SMS und Anruf' }).waitFor({ timeout: WAIT_MS });
  const sms = page.getByRole('switch', { name: 'SMS-Alarmierung' });
  await sms.waitFor({ timeout: WAIT_MS });
  assert.ok(await sms.isChecked());
  await sms.click();
  await page.getByText('SMS-Alarmierung ist aus: Mitglieder bekommen keine SMS.').waitFor({ timeout: WAIT_MS });
  assert.equal((await api(ctx).get(`/api/v1/sms/disabled?${q(ctx)}`)).body, [{ isDisabled: true }]);
  assert.ok(!(await sms.isChecked()));
  await noViolations(page, 'the channels page with SMS off (de, phone)');
  await sms.click();
  await page.getByText('SMS-Alarmierung ist an:').waitFor({ timeout: WAIT_MS });
  assert.equal((await api(ctx).get(`/api/v1/sms/disabled?${q(ctx)}`)).body, [{ isDisabled: false }]);
  assert.ok(await page.getByRole('switch', { name: 'App-Alarmierung' }).isChecked());
  assert.ok(await page.getByRole('switch', { name: 'Anruf-Alarmierung' }).isChecked());
  assert.ok(await fits(page), 'the channels page fits 360 px');
  assert.equal(errors, []);
  await context.close();
});

channels(
  'SMS PINs: bad input said at its field, a number with a PIN already refused, changed, removed',
  async (ctx) => {
    const { page, context, errors } = await adminOn(ctx, { viewport: DESKTOP });
    const number = 'Nummer, von der die SMS kommt';
    await page.getByText('Noch keine SMS-PIN.').waitFor({ timeout: WAIT_MS });
    await page.getByLabel(number, { exact: true }).fill('0176 1234');
    await page.getByLabel('PIN im SMS-Text', { exact: true }).fill('12');
    await page.getByRole('button', { name: 'SMS-PIN anlegen' }).click();
    assert.match(await problemAt(page, number), 'Bitte die Nummer international eingeben');
    assert.is(await problemAt(page, 'PIN im SMS-Text'), 'Die PIN besteht aus 4 bis 8 Ziffern.');

    await page.getByLabel(number, { exact: true }).fill('+49 176 1234 5678');
    await page.getByLabel('PIN im SMS-Text', { exact: true }).fill('4711');
    await page.getByRole('button', { name: 'SMS-PIN anlegen' }).click();
    await page.getByText('PIN 4711').waitFor({ timeout: WAIT_MS });
    await page.getByText('+4917612345678').waitFor({ timeout: WAIT_MS });
    let stored = (await api(ctx).get(`/api/v1/sms/alarming?${q(ctx)}`)).body;
    assert.equal(
      stored.map((c: { gsm: string; pin: string }) => [c.gsm, c.pin]),
      [['004917612345678', '4711']],
    );

    // The same number again: one number has one PIN configuration in an organization (409).
    await page.getByLabel(number, { exact: true }).fill('004917612345678');
    await page.getByLabel('PIN im SMS-Text', { exact: true }).fill('9999');
    await page.getByRole('button', { name: 'SMS-PIN anlegen' }).click();
    assert.match(await problemAt(page, number), 'Für diese Nummer gibt es in dieser Organisation schon eine SMS-PIN');
    await noViolations(page, 'the SMS PIN form with its problems (de, desktop)');

    await page.getByRole('button', { name: 'SMS-PIN von +4917612345678 ändern' }).click();
    await page.locator(`#sms-pin-${stored[0].id}-pin`).fill('2580');
    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await page.getByText('PIN 2580').waitFor({ timeout: WAIT_MS });
    stored = (await api(ctx).get(`/api/v1/sms/alarming?${q(ctx)}`)).body;
    assert.is(stored[0].pin, '2580');

    await page.getByRole('button', { name: 'SMS-PIN von +4917612345678 entfernen' }).click();
    await page.getByText('Noch keine SMS-PIN.').waitFor({ timeout: WAIT_MS });
    assert.equal((await api(ctx).get(`/api/v1/sms/alarming?${q(ctx)}`)).body, []);
    assert.equal(errors, []);
    await context.close();
  },
);

channels('a call PIN: the alarm template it needs is made right there, then picked', async (ctx) => {
  const { page, context, errors } = await adminOn(ctx);
  await page.getByText('Eine Anruf-PIN braucht eine Alarmvorlage').waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Vorlage anlegen' }).click();
  assert.is(await problemAt(page, 'Name der Vorlage'), 'Bitte ausfüllen.');
  await page.getByLabel('Name der Vorlage').fill('Vollalarm');
  await page.getByLabel('Stichwort des Alarms').fill('Vollalarm Feuerwehr');
  await page.getByRole('button', { name: 'Vorlage anlegen' }).click();
  await page.getByText('Vorlage „Vollalarm“ angelegt.').waitFor({ timeout: WAIT_MS });
  const templates = (await api(ctx).get(`/api/v1/alarm-templates?${q(ctx)}`)).body;
  assert.is(templates.length, 1);
  const select = page.locator('#call-pin-new-template');
  await select.waitFor({ timeout: WAIT_MS });
  assert.is(await select.inputValue(), String(templates[0].id), 'the new template is picked');

  await page.getByLabel('Nummer, von der angerufen wird', { exact: true }).fill('+49 6181 904711');
  await page.getByLabel('PIN, die der Anrufer eintippt', { exact: true }).fill('112233');
  await page.getByRole('button', { name: 'Anruf-PIN anlegen' }).click();
  await page.getByText('Vorlage: Vollalarm – Vollalarm Feuerwehr').waitFor({ timeout: WAIT_MS });
  const configs = (await api(ctx).get(`/api/v1/call/alarming?${q(ctx)}`)).body;
  assert.equal(
    configs.map((c: { gsm: string; pin: string; alarmTemplateID: number }) => [c.gsm, c.pin, c.alarmTemplateID]),
    [['00496181904711', '112233', templates[0].id]],
  );
  await noViolations(page, 'the call PINs with a template (de, phone)');
  assert.ok(await fits(page), 'the call PIN form fits 360 px');
  assert.equal(errors, []);
  await context.close();
});

channels('the alarm SMS: an admin picks the short form and saves it', async (ctx) => {
  const { page, context, errors } = await adminOn(ctx, { viewport: DESKTOP });
  const compact = page.getByRole('radio', { name: 'Kurz' });
  await compact.waitFor({ timeout: WAIT_MS });
  assert.ok(await page.getByRole('radio', { name: 'Standard' }).isChecked());
  await compact.check();
  await page.getByRole('button', { name: 'SMS-Text speichern' }).click();
  await page.getByText('Gespeichert: Alarm-SMS kommen jetzt im Format „Kurz“.').waitFor({ timeout: WAIT_MS });
  const formatter = await api(ctx).get(`/api/v1/sms/formatter?organization=${ctx.org.orgId}`);
  assert.is(formatter.body.textFormatterName, 'compact');
  assert.equal(errors, []);
  await context.close();
});

channels('a member’s numbers: his own refused in words, one added and switched off by the admin', async (ctx) => {
  const member = ctx.org.member;
  const own = client(ctx.svc.url, { pat: member.token });
  // He entered this mobile himself (no organization): only he changes it.
  const mine = await own.post('/api/v1/sms/mobile', { gsm: '+4915112345678', ownerID: member.userId, name: 'privat' });
  assert.is(mine.status, 200, JSON.stringify(mine.body));
  const device = await own.post('/api/v1/app/device', {
    active: true,
    name: 'Pixel 8',
    os: 'android 14',
    ownerID: member.userId,
    pushToken: 'eHcE2x1QTzW4p9Lk0vYq:APA91bGq7XlKc3VdY0f6rTn8Pm2SjAe5Lw',
    pushTokenDevelopment: false,
  });
  assert.is(device.status, 200, JSON.stringify(device.body));

  const { page, context, errors } = await adminOn(ctx, { viewport: DESKTOP });
  const row = page.getByRole('row', { name: new RegExp(`^member of Org`) });
  await row.getByText('+4915112345678').waitFor({ timeout: WAIT_MS });
  await row.getByText('Pixel 8').waitFor({ timeout: WAIT_MS });
  await row.getByRole('button', { name: /^Geräte und Nummern von member of Org/ }).click();

  await page.getByRole('button', { name: '+4915112345678 (privat) ausschalten' }).click();
  await page.getByText('Diese Nummer hat das Mitglied selbst eingetragen').waitFor({ timeout: WAIT_MS });

  const newMobile = 'Neue Handynummer';
  await page.getByLabel(newMobile, { exact: true }).fill('0900 1234567');
  await page.getByRole('button', { name: 'Handynummer hinzufügen' }).click();
  assert.match(await problemAt(page, newMobile), 'international');
  await page.getByLabel(newMobile, { exact: true }).fill('+49 900 1234567');
  await page.getByRole('button', { name: 'Handynummer hinzufügen' }).click();
  assert.match(await problemAt(page, newMobile), 'Sonder- oder Servicenummer');
  await page.getByLabel(newMobile, { exact: true }).fill('+49 171 7654321');
  await page.getByLabel('Bezeichnung (freiwillig)').first().fill('Dienst');
  await page.getByRole('button', { name: 'Handynummer hinzufügen' }).click();
  await page.getByText('+491717654321 hinzugefügt.').waitFor({ timeout: WAIT_MS });
  await row.getByText('+491717654321').waitFor({ timeout: WAIT_MS });
  await noViolations(page, "a member's numbers opened by an admin (de, desktop)");

  await page.getByRole('button', { name: '+491717654321 (Dienst) ausschalten' }).click();
  await page.getByRole('button', { name: '+491717654321 (Dienst) einschalten' }).waitFor({ timeout: WAIT_MS });
  const mobiles = (await api(ctx).get(`/api/v1/sms/mobile?owner_id=${member.userId}&${q(ctx)}`)).body;
  assert.equal(
    mobiles.map((m: { gsm: string; active: boolean; name: string }) => [m.gsm, m.active, m.name]),
    [
      ['004915112345678', true, 'privat'],
      ['00491717654321', false, 'Dienst'],
    ],
  );
  assert.equal(errors, []);
  await context.close();
});

channels(
  'sixty members: every row arrives below the rate limit, the search finds one, joining is live',
  async (ctx) => {
    const members = Array.from({ length: 60 }, (_, i) => ({
      name: `Kamerad ${String(i + 1).padStart(2, '0')}`,
      ...(i % 2 === 0 && { mobile: `+49151${String(20000000 + i)}` }),
      ...(i % 3 === 0 && { phone: `+4930${String(3000000 + i)}` }),
    }));
    const imported = await api(ctx).post(`/api/v1/organizations/${ctx.org.orgId}/members/import`, { members });
    assert.is(imported.status, 201, JSON.stringify(imported.body));

    const { page, context, errors } = await adminOn(ctx);
    // Every row read (the summary replaces "Lädt … n von m"), none refused for its rate.
    await page.getByText(/\d+ mit App · \d+ mit SMS · \d+ mit Anruf/).waitFor({ timeout: WAIT_MS });
    assert.is(await page.locator('.channels-people .field-problem').count(), 0, 'no row failed');
    assert.ok((await page.locator('.channels-people tbody tr').count()) >= 63);
    await page.getByLabel('Mitglied suchen').fill('Kamerad 07');
    await page.waitForFunction(() => document.querySelectorAll('.channels-people tbody tr').length === 1, null, {
      timeout: WAIT_MS,
    });
    await page
      .getByRole('row', { name: /^Kamerad 07/ })
      .getByText('+49303000006')
      .waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Mitglied suchen').fill('');
    await page.getByLabel('Nur Mitglieder, die kein Weg erreicht').check();
    await page.getByRole('row', { name: /^Kamerad 02/ }).waitFor({ timeout: WAIT_MS });
    assert.is(await page.getByRole('row', { name: /^Kamerad 01/ }).count(), 0, 'Kamerad 01 has a mobile');
    await page.getByLabel('Nur Mitglieder, die kein Weg erreicht').uncheck();
    assert.ok(await fits(page), 'sixty members fit 360 px');

    // Someone joins elsewhere: the hub says the members changed, and his row appears without a reload.
    const invited = await api(ctx).post('/api/v1/invitations', {
      organizationID: ctx.org.orgId,
      name: 'Neu Dazugekommen',
      role: 'member',
    });
    // As his own browser would: from the service's public origin.
    const origin = `http://localhost:${ctx.svc.port}`;
    const joined = await fetch(`${origin}/api/v1/join`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ code: invited.body.code }),
    });
    assert.is(joined.status, 201);
    await page
      .getByRole('row', { name: /^Neu Dazugekommen/ })
      .getByText('keine')
      .first()
      .waitFor({ timeout: WAIT_MS });
    assert.equal(errors, []);
    await context.close();
  },
);

channels('a member sees the settings read-only and only his own numbers', async (ctx) => {
  const member = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'member', name: 'Mitglied Meyer' });
  const added = await api(ctx).post(`/api/v1/sms/mobile?${q(ctx)}`, { gsm: '+4915199887766', ownerID: member.userId });
  assert.is(added.status, 200, JSON.stringify(added.body));
  const { page } = member;
  await page.goto(`${member.base}/console/channels`);
  await page.getByRole('heading', { name: 'Ihre Geräte und Nummern' }).waitFor({ timeout: WAIT_MS });
  await page.getByText('+4915199887766').waitFor({ timeout: WAIT_MS });
  await page.getByText('SMS-Alarmierung ist an:').waitFor({ timeout: WAIT_MS });
  await page.getByText('Vorlage: Vollalarm – Vollalarm Feuerwehr').waitFor({ timeout: WAIT_MS });
  await page.getByTestId('formatter-now').getByText('„Kurz“').waitFor({ timeout: WAIT_MS });
  assert.is(await page.getByRole('switch').count(), 0, 'no switches');
  assert.is(await page.getByRole('textbox').count(), 0, 'no fields');
  assert.is(await page.getByRole('radio').count(), 0, 'no choices');
  assert.is(await page.locator('main button').count(), 0, 'no buttons');
  assert.is(await page.locator('.channels-people tbody tr').count(), 1, 'his own row only');
  await noViolations(page, 'the channels page of a member (de, phone)');
  assert.ok(await fits(page), 'a member’s channels page fits 360 px');
  assert.equal(member.errors, []);
  await member.context.close();
});

channels('in English: the admin’s page with a member’s numbers opened', async (ctx) => {
  const { page, context, errors } = await adminOn(ctx, { locale: 'en-GB' });
  await page.getByRole('heading', { name: 'Channels: app, SMS and calls' }).waitFor({ timeout: WAIT_MS });
  await page.getByText(/\d+ with the app · \d+ with SMS/).waitFor({ timeout: WAIT_MS });
  await page.getByRole('switch', { name: 'SMS alarms' }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: /^Devices and numbers of member of Org/ }).click();
  await page.getByRole('heading', { name: 'Mobile numbers for SMS' }).waitFor({ timeout: WAIT_MS });
  await noViolations(page, 'the channels page with numbers opened (en, phone)');
  assert.ok(await fits(page), 'the opened numbers fit 360 px');
  assert.equal(errors, []);
  await context.close();
});

channels.run();
