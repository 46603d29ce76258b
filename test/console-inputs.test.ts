// The alarm inputs' pages (/console/inputs, docs/console.md) in Chromium: an admin creates a
// document input through the form with the example profile (an expression that does not compile said at
// its field first), a pager input with its code and vehicle rows (a bad code said at its row); tries a
// pasted Leitstelle fax and sees the alarm it would raise with each field, a dropped file that raises
// nothing and why; a document sent by IP4 with the API key appears live with its outcome and a link to its
// alarm, an ignored one with its reason; a member reads without any control that would write; axe finds
// nothing serious in German and English, and nothing sticks out at 360 px.
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { EXAMPLE_PROFILE } from '../console/src/pages/inputs-model.js';
import { launchChromium, WAIT_MS } from './helpers/browser.js';
import { axeViolations, DESKTOP, fits, PHONE, signedIn } from './helpers/console.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  browser: Browser;
  /** The document input the admin created in the first test. */
  inputId: number;
}

const inputs = suite<Ctx>('console: alarm inputs, trying them, received documents', {} as Ctx);

inputs.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.org = await createOrg(ctx.svc);
  ctx.browser = await launchChromium();
});
inputs.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc?.close();
});

const api = (ctx: Ctx) => client(ctx.svc.url, { apiKey: ctx.org.apiKey });

/** A Leitstelle's alarm fax with the whole address on one line, as some send it. */
const FAX = [
  'ILS Aachen – Alarmfax',
  'Einsatznummer: 4711-2026',
  'Stichwort: B3 Wohnungsbrand',
  'Einsatzort: Goethestraße 5, 52064 Aachen',
  'Koordinaten: 50,7766, 6,0834',
  'Einsatzmittel: HLF20, DLK 23',
  'Bemerkung: Rauch aus Fenster 2. OG',
].join('\n');

async function noViolations(page: Page, where: string): Promise<void> {
  assert.equal(await axeViolations(page), [], `axe on ${where}`);
}

/** IP4: a document sent as its raw body with the organization's API key, as a fax machine's script does. */
async function sendDocument(ctx: Ctx, text: string): Promise<string> {
  const res = await fetch(`${ctx.svc.url}/api/v1/inputs/${ctx.inputId}/documents`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'API-TOKEN': ctx.org.apiKey },
    body: text,
  });
  const body = (await res.json()) as { documentId: string };
  assert.is(res.status, 202, JSON.stringify(body));
  return body.documentId;
}

/** The problem shown beside the input labelled `label` (its aria-describedby). */
async function problemAt(page: Page, label: string | RegExp): Promise<string> {
  const input = page.getByLabel(label, { exact: typeof label === 'string' }).first();
  await page.waitForFunction(
    (el) => el?.getAttribute('aria-invalid') === 'true',
    await input.elementHandle({ timeout: WAIT_MS }),
    { timeout: WAIT_MS },
  );
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-problem'));
  assert.is(ids.length, 1, `one problem tied to ${label}`);
  return (await page.locator(`#${ids[0]}`).textContent()) ?? '';
}

inputs(
  'an admin creates a document input with the example profile; a bad expression is said at its field',
  async (ctx) => {
    const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', viewport: DESKTOP });
    const { page } = admin;
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${admin.base}/console`);
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Eingänge' }).click();
    await page.getByRole('heading', { name: 'Neuer Eingang' }).waitFor({ timeout: WAIT_MS });
    await page.getByText('Noch keine Eingänge.').waitFor({ timeout: WAIT_MS });
    await noViolations(page, 'the empty list with the form (de)');

    await page.getByLabel('Name des Eingangs').fill('Alarmfax Leitstelle');
    await page.getByLabel('Art', { exact: true }).selectOption('document');
    // An expression that does not compile: the API's 400 (profile.fields.event) is said beside its field.
    await page.getByLabel(/^Stichwort \(Pflicht\)/).fill('^Stichwort: (.+');
    await page.getByRole('button', { name: 'Eingang anlegen' }).click();
    assert.match(await problemAt(page, /^Stichwort \(Pflicht\)/), /^Kein gültiger regulärer Ausdruck/);
    // The example replaces it (after a confirmation, as a field was filled).
    await page.getByRole('button', { name: 'Beispiel einsetzen' }).click();
    assert.is(await page.getByLabel(/^Stichwort \(Pflicht\)/).inputValue(), EXAMPLE_PROFILE.event);
    assert.is(await page.getByLabel(/^Fahrzeuge/).inputValue(), EXAMPLE_PROFILE.units);
    // Only SMS and the app, not calls.
    await page.getByRole('group', { name: 'Alarmierungswege' }).getByLabel('Anruf').uncheck();
    await page.getByRole('button', { name: 'Eingang anlegen' }).click();
    await page.getByRole('status').getByText('„Alarmfax Leitstelle“ ist angelegt.').waitFor({ timeout: WAIT_MS });
    const link = page.getByRole('link', { name: 'Alarmfax Leitstelle' });
    await link.waitFor({ timeout: WAIT_MS });
    await page.getByText('Dokument (Fax, Scan) · noch nichts empfangen').waitFor({ timeout: WAIT_MS });

    const listed = await api(ctx).get(`/api/v1/inputs?organization_id=${ctx.org.orgId}`);
    assert.is(listed.status, 200);
    const [made] = listed.body;
    assert.equal(
      [made.name, made.kind, made.settings, made.active, made.channels, made.monitorIds],
      ['Alarmfax Leitstelle', 'document', {}, true, ['app', 'sms'], null],
    );
    assert.equal(made.profile, { fields: EXAMPLE_PROFILE });
    ctx.inputId = made.id;
    assert.ok(await fits(page), 'the list fits');
    assert.equal(admin.errors, []);
    await admin.context.close();
  },
);

inputs('a pager input: codes and vehicles as rows, a bad code said at its row', async (ctx) => {
  const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', viewport: PHONE });
  const { page } = admin;
  await page.goto(`${admin.base}/console/inputs`);
  await page.getByRole('button', { name: 'Neuer Eingang' }).click();
  await page.getByLabel('Name des Eingangs').fill('Funkmeldeempfänger');
  await page.getByLabel('Art', { exact: true }).selectOption('pager');
  await page.getByRole('button', { name: 'Code hinzufügen' }).click();
  await page.getByLabel('Art von Code 1').selectOption('zvei');
  await page.getByLabel('Code 1', { exact: true }).fill('123');
  await page.getByLabel('Stichwort von Code 1').fill('F3 Brand');
  await page.getByRole('button', { name: 'Fahrzeug hinzufügen' }).click();
  await page.getByLabel('FMS-Kennung von Fahrzeug 1').fill('6B1A2301');
  await page.getByLabel('Name von Fahrzeug 1').fill('HLF 20');
  await page.getByRole('button', { name: 'Eingang anlegen' }).click();
  assert.match(await problemAt(page, 'Code 1'), /ZVEI-Schleife \(5 Ziffern\)/);
  await page.getByLabel('Code 1', { exact: true }).fill('12345');
  await page.getByRole('button', { name: 'Code hinzufügen' }).click();
  await page.getByLabel('Code 2', { exact: true }).fill('1234567');
  await page.getByLabel('Sub-RIC von Code 2').selectOption('a');
  await page.getByLabel('Stichwort von Code 2').fill('Vollalarm');
  assert.ok(await fits(page), 'the pager form fits 360 px');
  await noViolations(page, 'the pager form with a refused code (de)');
  await page.getByRole('button', { name: 'Eingang anlegen' }).click();
  await page.getByRole('status').getByText('„Funkmeldeempfänger“ ist angelegt.').waitFor({ timeout: WAIT_MS });
  const listed = await api(ctx).get(`/api/v1/inputs?organization_id=${ctx.org.orgId}`);
  const pager = listed.body.find((i: { kind: string }) => i.kind === 'pager');
  assert.equal(pager.settings, {
    codes: [
      { zvei: '12345', event: 'F3 Brand' },
      { ric: '1234567', subric: 'a', event: 'Vollalarm' },
    ],
    vehicles: [{ fms: '6B1A2301', name: 'HLF 20' }],
  });
  assert.is(pager.profile, null);
  assert.equal(admin.errors, []);
  await admin.context.close();
});

inputs(
  'trying a pasted fax shows the alarm it would raise; a dropped file that raises nothing says why; documents sent arrive live',
  async (ctx) => {
    const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', viewport: PHONE });
    const { page } = admin;
    await page.goto(`${admin.base}/console/inputs`);
    await page.getByRole('link', { name: 'Alarmfax Leitstelle' }).click();
    await page.getByRole('heading', { name: 'Alarmfax Leitstelle', level: 1 }).waitFor({ timeout: WAIT_MS });
    await page.getByText('Noch keine Dokumente empfangen.').waitFor({ timeout: WAIT_MS });

    await page.getByLabel('Text des Dokuments').fill(FAX);
    await page.getByRole('button', { name: 'Text ausprobieren' }).click();
    const would = page.getByTestId('would-raise');
    await would.waitFor({ timeout: WAIT_MS });
    const shown = (await would.innerText()).replace(/\s+/g, ' ');
    for (const part of [
      'B3 Wohnungsbrand',
      'Goethestraße 5, 52064 Aachen',
      '50.7766, 6.0834',
      'HLF20, DLK 23',
      '4711-2026',
      'Rauch aus Fenster 2. OG',
    ])
      assert.ok(shown.includes(part), `${part} in "${shown}"`);
    // Each field's value; the street and town this fax does not give apart are marked as not found.
    const field = (name: string) => page.locator(`[data-testid=try-result] [data-field=${name}] dd`);
    assert.is(await field('keyword').innerText(), 'B3');
    assert.is(await field('street').innerText(), 'nicht gefunden');
    assert.is(await field('city').innerText(), 'nicht gefunden');
    await page.getByText('Gelesener Text').click();
    await page.locator('[data-testid=try-result] pre').getByText('ILS Aachen – Alarmfax').waitFor({ timeout: WAIT_MS });
    assert.ok(await fits(page), 'the try result fits 360 px');
    await noViolations(page, 'an input with a try result (de)');

    // A file dropped on the zone: an e-mail with no keyword raises nothing, and the page says why.
    const dropped = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      const mail =
        'From: ils@example.org\r\nSubject: Probe\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nProbealarm ohne Stichwort\r\n';
      data.items.add(new File([mail], 'probe.eml', { type: '' }));
      return data;
    });
    await page.locator('.inputs-drop').dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByRole('heading', { name: 'Ergebnis für „probe.eml“' }).waitFor({ timeout: WAIT_MS });
    assert.match(await page.getByTestId('would-not').innerText(), /Kein Alarm: Das Profil hat kein Stichwort gefunden/);
    // The file picker: a file the service does not read is refused before it is sent.
    await page.locator('.inputs-drop input[type=file]').setInputFiles({
      name: 'fax.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.from('PK'),
    });
    await page
      .getByRole('alert')
      .getByText(/Diese Datei liest der Dienst nicht/)
      .waitFor({ timeout: WAIT_MS });
    assert.is((await api(ctx).get(`/api/v1/inputs/${ctx.inputId}/documents`)).body.length, 0, 'a try notes nothing');

    // A document sent by IP4: its alarm's hub event brings it to the page, with its outcome and alarm.
    await sendDocument(ctx, FAX);
    const entries = page.getByTestId('input-document');
    await entries.first().getByText('Alarm ausgelöst').waitFor({ timeout: WAIT_MS });
    const [raised] = (await api(ctx).get(`/api/v1/inputs/${ctx.inputId}/documents`)).body;
    assert.is(raised.outcome, 'raised');
    const toAlarm = entries.first().getByRole('link', { name: `Alarm ${raised.alarmId} öffnen` });
    assert.is(await toAlarm.getAttribute('href'), `/console/alarms/${raised.alarmId}`);
    await page.getByText('zuletzt empfangen gerade eben').waitFor({ timeout: WAIT_MS });
    // One that raises nothing sends no hub event: "Neu lesen" shows it, the newest first, with its reason.
    await sendDocument(ctx, 'Testfax der Leitstelle, bitte ignorieren');
    await page.getByRole('button', { name: 'Neu lesen' }).click();
    await entries.first().getByText('ignoriert').waitFor({ timeout: WAIT_MS });
    assert.is(await entries.count(), 2);
    await entries
      .first()
      .getByText(/Das Profil hat kein Stichwort gefunden/)
      .waitFor({ timeout: WAIT_MS });
    await entries.first().getByText('Text anzeigen').click();
    await entries.first().getByText('Testfax der Leitstelle, bitte ignorieren').waitFor({ timeout: WAIT_MS });
    assert.ok(await fits(page), 'the received documents fit 360 px');
    await noViolations(page, 'an input with its documents (de)');

    // The alarm is the fax's, with its source.
    const alarm = await api(ctx).get(`/api/v1/alarms/${raised.alarmId}`);
    assert.equal([alarm.body.event, alarm.body.address], ['B3 Wohnungsbrand', 'Goethestraße 5, 52064 Aachen']);
    assert.equal(admin.errors, []);
    await admin.context.close();
  },
);

inputs('in English, the list and an input read as the page; an edit keeps the profile', async (ctx) => {
  const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', locale: 'en-GB', viewport: PHONE });
  const { page } = admin;
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${admin.base}/console/inputs`);
  await page.getByText(/^Document \(fax, scan\) · last received/).waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'New input' }).click();
  await page.getByRole('heading', { name: 'New input' }).waitFor({ timeout: WAIT_MS });
  await page.getByLabel('Kind', { exact: true }).selectOption('imap');
  await page.getByLabel('Allowed senders (one per line)').waitFor({ timeout: WAIT_MS });
  assert.ok(await fits(page), 'the list with the mailbox form fits 360 px');
  await noViolations(page, 'the list with the mailbox form (en)');

  await page.getByRole('link', { name: 'Alarmfax Leitstelle' }).click();
  await page.getByRole('heading', { name: 'Try it' }).waitFor({ timeout: WAIT_MS });
  await page.getByTestId('input-document').getByText('alarm raised').waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Name of the input').fill('Dispatch fax');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'Dispatch fax', level: 1 }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('status').getByText('Saved.').waitFor({ timeout: WAIT_MS });
  const stored = await api(ctx).get(`/api/v1/inputs/${ctx.inputId}`);
  assert.equal(
    [stored.body.name, stored.body.profile, stored.body.channels],
    ['Dispatch fax', { fields: EXAMPLE_PROFILE }, ['app', 'sms']],
  );
  assert.ok(await fits(page), 'the input fits 360 px');
  await noViolations(page, 'an input with its documents (en)');
  assert.equal(admin.errors, []);
  await admin.context.close();
});

inputs('a member reads the inputs and their documents without any control that writes', async (ctx) => {
  const member = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'member', viewport: PHONE });
  const { page } = member;
  await page.goto(`${member.base}/console/inputs`);
  await page.getByRole('link', { name: 'Dispatch fax' }).waitFor({ timeout: WAIT_MS });
  await page.getByText('Nur die Verwaltung legt Eingänge an und ändert sie.').waitFor({ timeout: WAIT_MS });
  assert.is(await page.getByRole('button', { name: 'Neuer Eingang' }).count(), 0);
  await page.getByRole('link', { name: 'Dispatch fax' }).click();
  await page.getByTestId('input-document').first().waitFor({ timeout: WAIT_MS });
  assert.is(await page.getByRole('button', { name: 'Bearbeiten' }).count(), 0);
  assert.is(await page.getByRole('button', { name: 'Eingang löschen' }).count(), 0);
  assert.is(await page.getByLabel('Text des Dokuments').count(), 0);
  await noViolations(page, "a member's view of an input (de)");
  assert.equal(member.errors, []);
  await member.context.close();
});

inputs('an admin deletes an input after confirming; the list no longer has it', async (ctx) => {
  const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', viewport: DESKTOP });
  const { page } = admin;
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${admin.base}/console/inputs`);
  await page.getByRole('link', { name: 'Funkmeldeempfänger' }).click();
  await page.getByRole('button', { name: 'Eingang löschen' }).click();
  await page.getByRole('button', { name: 'Neuer Eingang' }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('link', { name: 'Dispatch fax' }).waitFor({ timeout: WAIT_MS });
  assert.is(await page.getByRole('link', { name: 'Funkmeldeempfänger' }).count(), 0);
  assert.equal(admin.errors, []);
  await admin.context.close();
});

inputs.run();
