// The things page (/console/things, docs/console.md) in Chromium: an admin creates a thing with a position
// field in the form, adds a record whose position he picks on the map and one whose position he types,
// sees both in the table and on the map, and a value the API refuses named at its field; a member the
// thing grants reading sees it without any control that would write; axe finds nothing serious in
// German and English, and nothing sticks out at 360 px.
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
  /** The thing the admin created in the first test. */
  entityId: string;
}

const things = suite<Ctx>('console: things and their records, on a map', {} as Ctx);

things.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.org = await createOrg(ctx.svc);
  ctx.browser = await launchChromium();
});
things.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc?.close();
});

const api = (ctx: Ctx) => client(ctx.svc.url, { apiKey: ctx.org.apiKey });

/** Polls `check` until it holds (the page answers at its own pace). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + WAIT_MS;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function noViolations(page: Page, where: string): Promise<void> {
  assert.equal(await axeViolations(page), [], `axe on ${where}`);
}

things('an admin creates a thing with a position field and a member allowed to read it', async (ctx) => {
  const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', viewport: DESKTOP });
  const { page } = admin;
  await page.goto(`${admin.base}/console/things`);
  await page.getByRole('heading', { name: 'Objekt anlegen' }).waitFor({ timeout: WAIT_MS });
  await page.getByText('Noch keine Objekte.').waitFor({ timeout: WAIT_MS });
  await noViolations(page, 'the empty list with the form (de)');

  await page.getByLabel('Name des Objekts').fill('Hydranten');
  await page.getByLabel('Name von Feld 1').fill('Nummer');
  await page.getByRole('button', { name: 'Feld hinzufügen' }).click();
  await page.getByLabel('Name von Feld 2').fill('Lage');
  await page.getByLabel('Typ von Feld 2').selectOption('coordinates');
  await page.getByRole('button', { name: 'Feld hinzufügen' }).click();
  await page.getByLabel('Name von Feld 3').fill('Leistung');
  await page.getByLabel('Typ von Feld 3').selectOption('number');
  await page.getByRole('button', { name: 'Feld hinzufügen' }).click();
  await page.getByLabel('Name von Feld 4').fill('Art');
  await page.getByLabel('Typ von Feld 4').selectOption('selection');
  await page.getByLabel('Auswahlwerte von Feld 4 (einer pro Zeile)').fill('Überflur\nUnterflur');
  // Access: the members of the organization by name, each with none, read, or read and write.
  await page.getByText('Zugriff für Mitglieder').click();
  await page.getByLabel(`member of`).selectOption('read');
  await page.getByRole('button', { name: 'Anlegen', exact: true }).click();
  await page.getByRole('status').getByText('„Hydranten“ ist angelegt.').waitFor({ timeout: WAIT_MS });
  await page.getByRole('link', { name: /Hydranten/ }).waitFor({ timeout: WAIT_MS });

  const listed = await api(ctx).get(`/api/v1/things/entities?organization_id=${ctx.org.orgId}`);
  assert.is(listed.status, 200);
  const entity = listed.body.entities[0];
  assert.is(entity.name, 'Hydranten');
  assert.equal(
    entity.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`),
    ['Nummer:text', 'Lage:coordinates', 'Leistung:number', 'Art:selection'],
  );
  assert.equal(entity.fields[3].selectionValues, ['Überflur', 'Unterflur']);
  assert.equal(entity.readOnlyUserIDs, [ctx.org.member.userId]);
  ctx.entityId = entity.id;
  assert.equal(admin.errors, []);
  await admin.context.close();
});

things(
  'records: a position picked on the map, one typed, both listed and on the map; a bad value at its field',
  async (ctx) => {
    const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', viewport: PHONE });
    const { page } = admin;
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${admin.base}/console/things`);
    await page.getByRole('link', { name: /Hydranten/ }).click();
    await page.getByRole('heading', { name: 'Hydranten' }).waitFor({ timeout: WAIT_MS });
    await page.getByText('Noch keine Datensätze.').waitFor({ timeout: WAIT_MS });

    // The first: its position picked by a tap in the middle of the map (the whole country, nothing placed yet).
    await page.getByRole('button', { name: 'Datensatz anlegen' }).click();
    const form = page.locator('.thing-open');
    await form.getByRole('textbox', { name: /^Nummer/ }).fill('H 1');
    const pickMap = form.getByRole('group', { name: 'Lage: Ort auf der Karte wählen' });
    const box = (await pickMap.boundingBox())!;
    await pickMap.click({ position: { x: box.width / 2, y: box.height / 2 } });
    const position = form.getByRole('textbox', { name: /^Lage/ });
    await until(async () => (await position.inputValue()) !== '', 'the picked position in its field');
    const [lat, lon] = (await position.inputValue()).split(',').map(Number);
    assert.ok(Math.abs(lat - 51.1657) < 0.2 && Math.abs(lon - 10.4515) < 0.2, `picked ${lat}, ${lon}`);
    await form.locator('[data-testid=map-marker].map-marker-pick').waitFor({ state: 'attached', timeout: WAIT_MS });
    await form.getByRole('textbox', { name: /^Leistung/ }).fill('1200');
    await form.getByLabel(/^Art/).selectOption('Überflur');
    await noViolations(page, 'the record form with its map (de)');
    assert.ok(await fits(page), 'the record form fits 360 px');
    await form.getByRole('button', { name: 'Anlegen' }).click();
    await page.getByRole('status').getByText('Der Datensatz ist angelegt.').waitFor({ timeout: WAIT_MS });

    // The second: its position typed, with a number the API refuses, named at its field.
    await page.getByRole('button', { name: 'Datensatz anlegen' }).click();
    await form.getByRole('textbox', { name: /^Nummer/ }).fill('H 2');
    await form.getByRole('textbox', { name: /^Lage/ }).fill('50.1334, 8.9179');
    const power = form.getByRole('textbox', { name: /^Leistung/ });
    await power.fill('sehr viel');
    await form.getByRole('button', { name: 'Anlegen' }).click();
    const problem = form.getByTestId('field-problem');
    await problem.waitFor({ timeout: WAIT_MS });
    assert.match((await problem.textContent()) ?? '', /Bitte eine Zahl eingeben/);
    assert.is(await power.getAttribute('aria-invalid'), 'true');
    assert.is(await power.getAttribute('aria-describedby'), await problem.getAttribute('id'));
    await power.fill('800,5');
    await form.getByRole('button', { name: 'Anlegen' }).click();
    await page.getByRole('status').getByText('Der Datensatz ist angelegt.').waitFor({ timeout: WAIT_MS });

    // Both in the table and on the map, which lists its places for screen readers too.
    const table = page.getByRole('region', { name: 'Datensätze von Hydranten' });
    await table.getByRole('cell', { name: 'H 2', exact: true }).waitFor({ timeout: WAIT_MS });
    await table.getByRole('cell', { name: 'H 1', exact: true }).waitFor({ timeout: WAIT_MS });
    await table.getByRole('cell', { name: '800,5', exact: true }).waitFor({ timeout: WAIT_MS });
    const map = page.getByRole('group', { name: 'Hydranten auf der Karte' });
    await until(async () => (await map.getByTestId('map-marker').count()) === 2, 'two markers on the map');
    await page.getByText('2 Orte auf der Karte').click();
    await page.getByRole('button', { name: 'H 2 öffnen', exact: true }).waitFor({ timeout: WAIT_MS });
    // A marker opens its record.
    await map.locator('[data-testid=map-marker][title="H 2"] .map-marker-dot').click();
    await page.getByRole('heading', { name: 'Datensatz bearbeiten: H 2' }).waitFor({ timeout: WAIT_MS });
    assert.is(await form.getByRole('textbox', { name: /^Lage/ }).inputValue(), '50.1334,8.9179');
    assert.ok(await fits(page), 'the page fits 360 px');
    await noViolations(page, 'the thing with records, map and an open record (de)');

    const records = await api(ctx).get(`/api/v1/things/entities/${ctx.entityId}/records`);
    assert.is(records.body.total, 2);
    // Changed elsewhere (the API key): the page follows the hub's things:changed, without a reload.
    const renamed = await api(ctx).put(`/api/v1/things/entities/${ctx.entityId}`, { description: 'Nordstadt' });
    assert.is(renamed.status, 200, JSON.stringify(renamed.body));
    await page.getByText('Nordstadt').first().waitFor({ timeout: WAIT_MS });
    assert.equal(admin.errors, []);
    await admin.context.close();
  },
);

things('in English, the list and a thing read as the page', async (ctx) => {
  const admin = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'admin', locale: 'en-GB', viewport: PHONE });
  const { page } = admin;
  await page.goto(`${admin.base}/console/things`);
  await page.getByRole('heading', { name: 'Create a thing' }).waitFor({ timeout: WAIT_MS });
  await page.getByText('2 records').waitFor({ timeout: WAIT_MS });
  assert.ok(await fits(page), 'the list fits 360 px');
  await noViolations(page, 'the list (en)');
  await page.goto(`${admin.base}/console/things/${ctx.entityId}`);
  await page.getByRole('button', { name: 'Open record H 1' }).click();
  await page.getByRole('heading', { name: 'Edit the record: H 1' }).waitFor({ timeout: WAIT_MS });
  // The pick map: a drag moves it and picks nothing; with the keyboard, an arrow moves it east and Enter
  // picks its centre.
  const position = page.getByRole('textbox', { name: /^Lage/ });
  const before = await position.inputValue();
  const pickMap = page.getByRole('group', { name: 'Lage: pick the place on the map' });
  const box = (await pickMap.boundingBox())!;
  await page.mouse.move(box.x + 100, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + 160, box.y + 120, { steps: 5 });
  await page.mouse.up();
  assert.is(await position.inputValue(), before, 'a drag picks nothing');
  await pickMap.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await until(async () => (await position.inputValue()) !== before, 'the centre picked by Enter');
  const [beforeLon, afterLon] = [before, await position.inputValue()].map((p) => Number(p.split(',')[1]));
  assert.ok(afterLon > beforeLon, `east of the drag's view: ${afterLon} > ${beforeLon}`);
  await page.getByRole('button', { name: 'Cancel' }).first().click();
  await page.getByRole('button', { name: 'Open record H 1' }).click();
  await page.getByRole('heading', { name: 'Edit the record: H 1' }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Edit the thing' }).click();
  await page.getByLabel('Name of field 2').waitFor({ timeout: WAIT_MS });
  assert.ok(await fits(page), 'the thing with both forms fits 360 px');
  await noViolations(page, 'a thing with its record and its own form open (en)');
  assert.equal(admin.errors, []);
  await admin.context.close();
});

things('a member the thing grants reading sees it read-only; one it does not grant sees nothing', async (ctx) => {
  const reader = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'member', name: 'Robin Reader' });
  const other = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'member', name: 'Olli Other' });
  const granted = await api(ctx).put(`/api/v1/things/entities/${ctx.entityId}`, {
    readOnlyUserIDs: [ctx.org.member.userId, reader.userId],
  });
  assert.is(granted.status, 200, JSON.stringify(granted.body));

  const { page } = reader;
  await page.goto(`${reader.base}/console/things`);
  await page.getByRole('link', { name: /Hydranten/ }).waitFor({ timeout: WAIT_MS });
  await page.getByText('Nur die Verwaltung legt Objekte an und ändert ihre Felder.').waitFor();
  assert.is(await page.getByRole('heading', { name: 'Objekt anlegen' }).count(), 0);
  await page.getByRole('link', { name: /Hydranten/ }).click();
  await page
    .getByText('Sie dürfen die Datensätze dieses Objekts lesen, aber nicht ändern.')
    .waitFor({ timeout: WAIT_MS });
  await page.getByText('Robin Reader').waitFor({ timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Datensatz H 1 öffnen' }).click();
  await page.getByRole('heading', { name: 'Datensatz: H 1' }).waitFor({ timeout: WAIT_MS });
  await page.getByRole('definition').getByText('1.200').waitFor({ timeout: WAIT_MS });
  for (const name of ['Datensatz anlegen', 'Speichern', 'Datensatz löschen', 'Objekt bearbeiten'])
    assert.is(await page.getByRole('button', { name }).count(), 0, `no ${name} for a reader`);
  assert.is(await page.locator('main input:not([type=search]), main textarea').count(), 0, 'no inputs but search');
  assert.ok(await fits(page), 'the read-only view fits 360 px');
  await noViolations(page, "a reader's view of a record (de)");

  await other.page.goto(`${other.base}/console/things`);
  await other.page.getByText('Noch keine Objekte.').waitFor({ timeout: WAIT_MS });
  await other.page.goto(`${other.base}/console/things/${ctx.entityId}`);
  await other.page
    .getByText('Dieses Objekt gibt es nicht (mehr), oder Sie dürfen es nicht sehen.')
    .waitFor({ timeout: WAIT_MS });
  assert.equal(reader.errors, []);
  assert.equal(other.errors, []);
  await reader.context.close();
  await other.context.close();
});

things.run();
