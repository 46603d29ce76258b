// The journal page (/console/journal, docs/console.md) and the overview's latest journal entries, in
// Chromium: writing during an incident (lock, Enter and Ctrl+Enter, the button, delete with a confirm,
// unlock), the API's refusals in words with the text kept, changes made elsewhere over REST shown live
// through journal:changed and read again after the socket reconnects, an answer older than an alarm's
// event not hiding the alarm (console/src/fresh.ts), a member's page without admin controls,
// categories, breaking a lock, older pages, an alarm's journal, closing it, the export as a file; axe
// in German and English, 360 px.
import { readFile } from 'node:fs/promises';
import * as assert from 'uvu/assert';
import type { Browser, Page, Request, WebSocketRoute } from 'playwright-core';
import { launchChromium, WAIT_MS } from './helpers/browser.js';
import { eventually } from './helpers/fleet.js';
import { axeViolations, DESKTOP, fits, signedIn } from './helpers/console.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  svc: TestService;
  browser: Browser;
}

const journal = suite<Ctx>("console: the journal page and the overview's latest entries, in Chromium", {} as Ctx);

journal.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.browser = await launchChromium();
});
journal.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc?.close();
});

type Api = ReturnType<typeof client>;

/** A fresh organization with the given journal categories; its API key's client and its journal's ID. */
async function setUp(ctx: Ctx, categories = ['Lagemeldung', 'Nachforderung']) {
  const org = await createOrg(ctx.svc);
  const key = client(ctx.svc.url, { apiKey: org.apiKey });
  const made: number[] = [];
  for (const name of categories) {
    const created = await key.post('/api/v1/journal/categories', { organizationId: org.orgId, name, description: '' });
    assert.is(created.status, 201, JSON.stringify(created.body));
    made.push(created.body.id);
  }
  const opened = await key.get(`/api/v1/journal?organization_id=${org.orgId}`);
  assert.is(opened.status, 200, JSON.stringify(opened.body));
  return { org, key, categories: made, journalId: opened.body.id as number };
}

/** Entries written as `as` would: lock, each text, unlock. */
async function write(as: Api, journalId: number, categoryId: number, texts: string[]) {
  assert.is((await as.post(`/api/v1/journal/${journalId}/lock`)).status, 200);
  for (const text of texts) {
    const written = await entry(as, journalId, categoryId, text);
    assert.is(written.status, 201, JSON.stringify(written.body));
  }
  assert.is((await as.post(`/api/v1/journal/${journalId}/unlock`)).status, 200);
}

const read = async (key: Api, query: string) => (await key.get(`/api/v1/journal?${query}&limit=50`)).body;
const entry = (as: Api, journalId: number, categoryId: number, text: string) =>
  as.post(`/api/v1/journal/${journalId}/entries`, { journalId, categoryId, text });
const raise = (key: Api, org: OrgFixture, event: string) =>
  key.post('/api/v1/alarms', { organizationID: org.orgId, event, channels: ['app'] });

/** The person on the journal page, confirming every dialog. */
async function onJournal(ctx: Ctx, org: OrgFixture, opts: Parameters<typeof signedIn>[3], path = '/console/journal') {
  const person = await signedIn(ctx.browser, ctx.svc, org, opts);
  person.page.on('dialog', (dialog) => void dialog.accept());
  await person.page.goto(`${person.base}${path}`);
  return person;
}

/** Waits until `value()` is `n`. */
const until = (value: () => number, n: number, what: string) =>
  eventually(
    async () => value(),
    (v) => v === n,
    what,
  );
const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

const see = (page: Page, text: string | RegExp) => page.getByText(text).first().waitFor({ timeout: WAIT_MS });
const gone = (page: Page, text: string | RegExp) =>
  page.getByText(text).first().waitFor({ state: 'detached', timeout: WAIT_MS });

journal('an admin locks, writes (Ctrl+Enter, the button), deletes, unlocks', async (ctx) => {
  const { org, key } = await setUp(ctx);
  const { page, errors, context, userId } = await onJournal(ctx, org, { role: 'admin', name: 'Anna Keller' });
  await see(page, /^Nicht gesperrt\./);
  await see(page, 'Noch keine Einträge.');
  assert.equal(await axeViolations(page), [], 'the journal, not locked');
  assert.ok(await fits(page), 'the journal fits 360 px');

  await page.getByRole('button', { name: 'Sperren und schreiben' }).click();
  await see(page, /^Sie haben das Tagebuch gesperrt/);
  const text = page.getByLabel('Eintrag', { exact: true });
  await page.waitForFunction(() => document.activeElement?.id === 'journal-text', undefined, { timeout: WAIT_MS });
  // Enter is a new line; Ctrl+Enter saves.
  await text.pressSequentially('Feuer unter Kontrolle');
  await text.press('Enter');
  await text.pressSequentially('Nachlöschen läuft');
  await page.getByLabel('Kategorie', { exact: true }).selectOption({ label: 'Nachforderung' });
  await text.press('Control+Enter');
  await see(page, 'Eintrag Nr. 1 gespeichert.');
  assert.is(await text.inputValue(), '', 'the box is empty for the next entry');
  await page.locator('.journal-entry').filter({ hasText: 'Nachlöschen läuft' }).waitFor({ timeout: WAIT_MS });

  // Without text nothing is sent; the button saves the next one, the category kept.
  await page.getByRole('button', { name: 'Eintrag speichern' }).click();
  await see(page, 'Bitte den Eintrag schreiben.');
  await text.fill('DLK in Stellung');
  await page.getByRole('button', { name: 'Eintrag speichern' }).click();
  await see(page, 'Eintrag Nr. 2 gespeichert.');

  const query = `organization_id=${org.orgId}`;
  let stored = await read(key, query);
  assert.equal(
    stored.entryList.entries.map((e: any) => [e.serialNumber, e.text, e.category.name, e.created.userId]),
    [
      [2, 'DLK in Stellung', 'Nachforderung', userId],
      [1, 'Feuer unter Kontrolle\nNachlöschen läuft', 'Nachforderung', userId],
    ],
  );

  // The holder deletes after a confirmation: the entry stays, struck through, with who and when.
  await page.getByRole('button', { name: 'Eintrag Nr. 1 löschen' }).click();
  await see(page, /gelöscht von Anna Keller/);
  await page.locator('.journal-entry.deleted del', { hasText: 'Nachlöschen läuft' }).waitFor({ timeout: WAIT_MS });
  stored = await read(key, query);
  assert.is(stored.entryList.entries[1].deleted.userId, userId);
  assert.equal(await axeViolations(page), [], 'the journal while writing, with a deleted entry');
  assert.ok(await fits(page), 'the journal while writing fits 360 px');

  await page.getByRole('button', { name: 'Entsperren' }).click();
  await see(page, /^Nicht gesperrt\./);
  assert.is(await page.getByLabel('Eintrag', { exact: true }).count(), 0, 'no text box without the lock');
  assert.is(await page.getByRole('button', { name: /löschen$/ }).count(), 0, 'no delete without the lock');
  assert.is((await read(key, query)).locked, null);
  assert.equal(errors, []);
  await context.close();
});

journal('a refusal is said in words and the text is kept: a lock broken meanwhile, no network', async (ctx) => {
  const { org, key, journalId } = await setUp(ctx);
  const { page, errors, context } = await onJournal(ctx, org, { role: 'member', name: 'Ben Roth' });
  await page.getByRole('button', { name: 'Sperren und schreiben' }).click();
  const text = page.getByLabel('Eintrag', { exact: true });
  await text.fill('Person aus 2. OG gerettet');
  // The lock is broken and taken by the station (the API key) just before the entry reaches the service.
  await page.route(
    '**/api/v1/journal/*/entries',
    async (route) => {
      assert.is((await key.post(`/api/v1/journal/${journalId}/force-unlock`, { reason: 'Tablet' })).status, 200);
      assert.is((await key.post(`/api/v1/journal/${journalId}/lock`)).status, 200);
      await route.continue();
    },
    { times: 1 },
  );
  await page.getByRole('button', { name: 'Eintrag speichern' }).click();
  await see(page, 'Jemand anderes hat das Tagebuch gesperrt: nur diese Person schreibt gerade.');
  await see(page, /^Gesperrt von API-Schlüssel \d+ seit/);
  assert.is(await text.inputValue(), 'Person aus 2. OG gerettet', 'the text is kept');
  await see(page, /Sie haben die Sperre nicht mehr\. Ihr Text bleibt hier/);
  assert.is(await page.getByRole('button', { name: 'Eintrag speichern' }).count(), 0);
  assert.is(await page.getByRole('button', { name: 'Sperren und schreiben' }).count(), 0, 'locked by another');
  assert.equal(await axeViolations(page), [], 'a refused entry');

  // The station unlocks (live); locking again saves the kept text.
  assert.is((await key.post(`/api/v1/journal/${journalId}/unlock`)).status, 200);
  await page.getByRole('button', { name: 'Sperren und schreiben' }).click();
  await page.getByRole('button', { name: 'Eintrag speichern' }).click();
  // Entry 1 is the record of the broken lock.
  await see(page, 'Eintrag Nr. 2 gespeichert.');
  const stored = await read(key, `organization_id=${org.orgId}`);
  assert.is(stored.entryList.entries[0].text, 'Person aus 2. OG gerettet');
  assert.match(stored.entryList.entries[1].text, /broken by API key \d+: Tablet/);

  // No network: said in words, the text stays.
  await page.route('**/api/v1/journal/*/entries', (route) => route.abort(), { times: 1 });
  await text.fill('Zweiter Versuch');
  await page.getByRole('button', { name: 'Eintrag speichern' }).click();
  await see(page, /^Keine Verbindung zum Server\./);
  assert.is(await text.inputValue(), 'Zweiter Versuch');
  assert.equal(errors, []);
  await context.close();
});

journal('a member sees changes made elsewhere live and writes (English)', async (ctx) => {
  const { org, key, journalId, categories } = await setUp(ctx);
  const { page, errors, context, userId } = await onJournal(ctx, org, { role: 'member', locale: 'en-US' });
  await see(page, /^Not locked\./);
  assert.is(await page.getByRole('heading', { name: 'Categories' }).count(), 0, 'no category form');
  assert.is(await page.getByText('For admins').count(), 0, 'no lock break or close');
  assert.equal(await axeViolations(page), [], 'the journal as a member, in English');
  assert.ok(await fits(page), 'fits 360 px');

  // Another member locks, writes, deletes and unlocks over REST: the page follows without a reload.
  const other = client(ctx.svc.url, { pat: org.member.token });
  assert.is((await other.post(`/api/v1/journal/${journalId}/lock`)).status, 200);
  await see(page, /^Locked by member of .+ since .+: only that person writes\.$/);
  assert.is(await page.getByRole('button', { name: 'Lock and write' }).count(), 0);
  const written = await entry(other, journalId, categories[0], 'Wasserversorgung steht');
  await see(page, 'Wasserversorgung steht');
  await see(page, '(1 entry)');
  await other.delete(`/api/v1/journal/${journalId}/entries/${written.body.id}`);
  await see(page, /^deleted by member of /);
  assert.is((await other.post(`/api/v1/journal/${journalId}/unlock`)).status, 200);
  await see(page, /^Not locked\./);

  // Members write entries and lock (docs/api.md "Journal").
  await page.getByRole('button', { name: 'Lock and write' }).click();
  await page.getByLabel('Entry', { exact: true }).fill('Atemschutztrupp 2 zurück');
  await page.getByRole('button', { name: 'Save entry' }).click();
  await see(page, 'Entry no. 2 saved.');
  const stored = await read(key, `organization_id=${org.orgId}`);
  const [latest] = stored.entryList.entries;
  assert.equal([latest.text, latest.created.userId], ['Atemschutztrupp 2 zurück', userId]);
  assert.equal(await axeViolations(page), [], 'the journal while a member writes, in English');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await see(page, /^Not locked\./);
  assert.equal(errors, []);
  await context.close();
});

journal('what the hub could not bring is read again on the next connection', async (ctx) => {
  const { org, key, journalId, categories } = await setUp(ctx);
  const { page, errors, context, base } = await signedIn(ctx.browser, ctx.svc, org, { role: 'member' });
  // The hub's socket runs through a relay that drops every journal:changed: only a read can show a change.
  const relays: WebSocketRoute[] = [];
  let dropped = 0;
  let connected = 0;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (typeof message === 'string' && message.startsWith('42["journal:changed"')) return void dropped++;
      // Socket.IO's CONNECT: the socket is in the organization's room from now on.
      if (typeof message === 'string' && message.startsWith('40')) connected++;
      ws.send(message);
    });
    relays.push(ws);
  });
  // The page reads the journal on loading and again on each connection, the first too (console/src/hub.ts):
  // the write below must come after those reads, or one of them would show it.
  let reads = 0;
  let answered = 0;
  const isRead = (request: Request) => request.method() === 'GET' && /\/api\/v1\/journal\?/.test(request.url());
  page.on('request', (request) => void (isRead(request) && reads++));
  page.on('requestfinished', (request) => void (isRead(request) && answered++));
  page.on('requestfailed', (request) => void (isRead(request) && answered++));
  await page.goto(`${base}/console/journal`);
  await see(page, 'Noch keine Einträge.');
  await until(() => connected, 1, 'the socket in its rooms');
  await until(
    () => (reads >= 2 && answered === reads ? 1 : 0),
    1,
    "the page's reads on loading and on connecting answered",
  );
  await write(key, journalId, categories[0], ['Während der Funkstille']);
  await until(() => dropped, 3, 'the three journal:changed (lock, entry, unlock) the page never got');
  assert.is(await page.getByText('Während der Funkstille').count(), 0);
  // The connection breaks; the socket connects again and the page reads the journal again.
  await relays[relays.length - 1].close();
  await see(page, 'Während der Funkstille');
  assert.ok(connected >= 2, 'a second connection');
  assert.equal(errors, []);
  await context.close();
});

journal("a read that answers after an alarm's event does not hide the alarm", async (ctx) => {
  const { org, key } = await setUp(ctx);
  const { page, errors, context, base } = await signedIn(ctx.browser, ctx.svc, org, { role: 'admin' });
  // The page's reads of the alarms answered before the alarm is raised are handed to the page only after
  // its event was shown: answers older than the event, as a busy network may deliver them.
  const alarms = /\/api\/v1\/alarms\?organization_id=/;
  const held: Array<() => Promise<void>> = [];
  let raising = false;
  const reads = { requested: 0, finished: 0 };
  page.on('request', (request) => void (alarms.test(request.url()) && reads.requested++));
  page.on('requestfinished', (request) => void (alarms.test(request.url()) && reads.finished++));
  await page.route(alarms, async (route) => {
    const answer = await route.fetch();
    if (raising) await route.fulfill({ response: answer });
    else held.push(() => route.fulfill({ response: answer }));
  });
  let connected = 0;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (typeof message === 'string' && message.startsWith('40')) connected++;
      ws.send(message);
    });
  });
  await page.goto(`${base}/console/journal`);
  await eventually(
    async () => connected,
    (n) => n >= 1,
    'the socket in its rooms',
  );
  // The read on opening and at least one on connecting, each answered and held.
  await eventually(
    async () => held.length,
    (n) => n >= 2 && n === reads.requested,
    'every read so far answered and held',
  );
  raising = true;
  const raised = await raise(key, org, 'B2 Kellerbrand');
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  await see(page, 'Ein Alarm läuft: B2 Kellerbrand.');
  for (const release of held) await release();
  // No answer older than the event is used: each is read once more.
  await eventually(
    async () => reads.finished,
    (n) => n > held.length && n === reads.requested,
    'the held reads and one after them finished',
  );
  assert.ok(await page.getByText('Ein Alarm läuft: B2 Kellerbrand.').isVisible(), 'the alarm still shown');
  assert.equal(errors, []);
  await context.close();
});

journal('an admin creates a category, breaks a lock, pages back', async (ctx) => {
  const { org, key, journalId } = await setUp(ctx, []);
  const { page, errors, context } = await onJournal(ctx, org, { role: 'admin', name: 'Carla Wehr' });
  await page.getByRole('button', { name: 'Sperren und schreiben' }).click();
  await see(page, 'Es gibt noch keine Kategorie. Legen Sie unten eine an, dann können Sie schreiben.');
  await page.getByRole('button', { name: 'Kategorie anlegen' }).click();
  await see(page, 'Bitte einen Namen eingeben.');
  await page.getByLabel('Name der Kategorie').fill('Lagemeldung');
  await page.getByRole('button', { name: 'Kategorie anlegen' }).click();
  await see(page, 'Kategorie „Lagemeldung“ angelegt.');
  await page.getByLabel('Kategorie', { exact: true }).waitFor({ timeout: WAIT_MS });
  const listed = (await key.get(`/api/v1/journal/categories?organization_id=${org.orgId}`)).body;
  assert.equal([listed.length, listed[0].name], [1, 'Lagemeldung']);
  await page.getByRole('button', { name: 'Entsperren' }).click();
  await see(page, /^Nicht gesperrt\./);

  // A member's lock whose holder went silent: the admin breaks it, giving a reason.
  const member = client(ctx.svc.url, { pat: org.member.token });
  assert.is((await member.post(`/api/v1/journal/${journalId}/lock`)).status, 200);
  await see(page, /^Gesperrt von member of /);
  await page.getByText('Für die Verwaltung').click();
  await page.getByRole('button', { name: 'Sperre aufheben' }).click();
  await see(page, 'Bitte einen Grund angeben.');
  assert.equal(await axeViolations(page), [], 'breaking a lock');
  await page.getByLabel('Grund').fill('Tablet verloren');
  await page.getByRole('button', { name: 'Sperre aufheben' }).click();
  await see(page, /^Nicht gesperrt\./);
  await see(page, /broken by user \d+: Tablet verloren/);

  // 25 more entries: the page shows the newest 20 and loads the older ones on request.
  await write(key, journalId, listed[0].id, numbered('Meldung', 25));
  await page.reload();
  await see(page, '(26 Einträge)');
  await page.locator('.journal-entry').nth(19).waitFor({ timeout: WAIT_MS });
  assert.is(await page.locator('.journal-entry').count(), 20);
  await page.getByRole('button', { name: 'Ältere Einträge laden' }).click();
  await page.locator('.journal-entry').nth(25).waitFor({ timeout: WAIT_MS });
  assert.is(await page.locator('.journal-entry').count(), 26);
  await gone(page, 'Ältere Einträge laden');
  assert.equal(errors, []);
  await context.close();
});

journal("an alarm's journal: opened, written, exported, closed (desktop)", async (ctx) => {
  const { org, key } = await setUp(ctx);
  const { page, errors, context } = await onJournal(ctx, org, { role: 'admin', name: 'Dora Zug', viewport: DESKTOP });
  await see(page, 'Noch keine Einträge.');
  // The alarm is raised elsewhere: the page offers its journal at once.
  const raised = await raise(key, org, 'B3 Wohnungsbrand');
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  const alarmId = raised.body.id as number;
  await see(page, 'Ein Alarm läuft: B3 Wohnungsbrand.');
  await page.getByRole('button', { name: 'Tagebuch des Alarms B3 Wohnungsbrand öffnen' }).click();
  await page.waitForURL(`**/console/journal/${alarmId}`, { timeout: WAIT_MS });
  assert.is(await page.getByLabel('Welches Tagebuch').inputValue(), String(alarmId));
  await page.getByRole('button', { name: 'Sperren und schreiben' }).click();
  await page.getByLabel('Eintrag', { exact: true }).fill('Erstangriff über den Treppenraum');
  await page.getByRole('button', { name: 'Eintrag speichern' }).click();
  await see(page, 'Eintrag Nr. 1 gespeichert.');
  const event = await read(key, `organization_id=${org.orgId}&event_id=${alarmId}`);
  assert.is(event.entryList.entries[0].text, 'Erstangriff über den Treppenraum');
  const own = await read(key, `organization_id=${org.orgId}`);
  assert.is(own.entryList.totalEntries, 0, 'not in the organization journal');
  assert.equal(await axeViolations(page), [], "an alarm's journal on a desktop");

  // The export: a PDF with the entries' SHA-256 shown, as the service's header names it.
  const pdf = page.waitForEvent('download', { timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Herunterladen' }).click();
  const file = await pdf;
  assert.is(file.suggestedFilename(), `journal-${event.id}.pdf`);
  assert.is((await readFile(await file.path())).subarray(0, 4).toString(), '%PDF');
  await see(page, `journal-${event.id}.pdf ist heruntergeladen.`);
  const header = await key.get(`/api/v1/journal/${event.id}/export?format=csv`);
  await see(page, header.headers.get('journal-entries-sha256')!);
  // A time zone the service does not know: said beside the field, no file.
  await page.getByLabel('Zeitzone der Zeiten').fill('Mars/Olympus');
  await page.getByRole('button', { name: 'Herunterladen' }).click();
  await see(page, 'Diese Zeitzone kennt der Server nicht. Bitte einen Namen wie Europe/Berlin angeben.');
  await page.getByLabel('Zeitzone der Zeiten').fill('Europe/Berlin');
  await page.getByLabel('Format').selectOption('csv');
  const csv = page.waitForEvent('download', { timeout: WAIT_MS });
  await page.getByRole('button', { name: 'Herunterladen' }).click();
  const sheet = await csv;
  assert.is(sheet.suggestedFilename(), `journal-${event.id}.csv`);
  assert.match(await readFile(await sheet.path(), 'utf8'), /Erstangriff über den Treppenraum/);

  // The address names the journal: a reload shows it again. Closing it ends all changes.
  await page.reload();
  await see(page, 'Erstangriff über den Treppenraum');
  await page.getByText('Für die Verwaltung').click();
  await page.getByRole('button', { name: 'Tagebuch abschließen' }).click();
  await see(page, 'Dieses Tagebuch ist abgeschlossen: nichts kann mehr geändert werden.');
  assert.is(await page.getByRole('button', { name: /^(Sperren und schreiben|Entsperren)$/ }).count(), 0);
  assert.is((await read(key, `organization_id=${org.orgId}&event_id=${alarmId}`)).closed, true);
  // Back to the organization's journal by the picker.
  await page.getByLabel('Welches Tagebuch').selectOption('');
  await page.waitForURL('**/console/journal', { timeout: WAIT_MS });
  await see(page, 'Noch keine Einträge.');
  assert.ok(await fits(page));
  assert.equal(errors, []);
  await context.close();
});

journal('the overview shows the latest five journal entries, live, besides its alarms and counts', async (ctx) => {
  const { org, key, journalId, categories } = await setUp(ctx);
  await write(key, journalId, categories[0], numbered('Eintrag', 6));
  const { page, errors, context, base } = await onJournal(ctx, org, { role: 'member', name: 'Emil Brand' }, '/console');
  await page.getByRole('heading', { name: 'Letzte Tagebucheinträge' }).waitFor({ timeout: WAIT_MS });
  await see(page, 'Eintrag 6');
  const shown = await page.locator('.journal-latest .journal-summary').allTextContents();
  assert.equal(shown, numbered('Eintrag', 6).slice(1).reverse(), 'the newest five, newest first');
  // The overview's own parts are still there.
  await see(page, 'Kein laufender Alarm.');
  await see(page, '3 Mitglieder');
  assert.equal(await axeViolations(page), [], 'the overview with journal entries');
  assert.ok(await fits(page), 'the overview fits 360 px');

  // Written and deleted elsewhere: live, the oldest of the five leaves.
  assert.is((await key.post(`/api/v1/journal/${journalId}/lock`)).status, 200);
  const written = await entry(key, journalId, categories[0], 'Eintrag 7');
  await see(page, 'Eintrag 7');
  await gone(page, 'Eintrag 2');
  assert.is(await page.locator('.journal-latest li').count(), 5);
  await key.delete(`/api/v1/journal/${journalId}/entries/${written.body.id}`);
  await see(page, /gelöscht von API-Schlüssel \d+/);
  await page.locator('.journal-latest del').filter({ hasText: 'Eintrag 7' }).waitFor({ timeout: WAIT_MS });
  assert.is((await key.post(`/api/v1/journal/${journalId}/unlock`)).status, 200);
  // A raised alarm still appears live above.
  assert.is((await raise(key, org, 'TH Verkehrsunfall')).status, 201);
  await page.getByRole('link', { name: /TH Verkehrsunfall/ }).waitFor({ timeout: WAIT_MS });

  await page.getByRole('link', { name: 'Zum Tagebuch' }).click();
  await page.waitForURL(`${base}/console/journal`, { timeout: WAIT_MS });
  await see(page, 'Eintrag 6');
  // And in English.
  await page.goto(`${base}/console?lang=en`);
  await page.getByRole('heading', { name: 'Latest journal entries' }).waitFor({ timeout: WAIT_MS });
  await see(page, 'Eintrag 6');
  assert.equal(await axeViolations(page), [], 'the overview with journal entries, in English');
  assert.equal(errors, []);
  await context.close();
});

journal.run();
