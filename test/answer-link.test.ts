// The answer page /a/<token> in Chromium (docs/alarms.md "Answering without the app"): a member opens
// the link of his alarm SMS on a 360 px phone without signing in, picks his travel minutes, taps
// "Komme" and reads his answer said back; AL3 shows it by name; he changes it; German and English pass
// axe; an unknown link and an ended alarm say so in words.
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, WAIT_MS } from './helpers/browser.js';
import { axeViolations, fits, PHONE } from './helpers/console.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  svc: TestService;
  sms: FakeGateway;
  org: OrgFixture;
  browser: Browser;
}

const s = suite<Ctx>('the answer page /a/<token> in Chromium', {} as Ctx);
const LINK = /\n(http:\/\/localhost:\d+\/a\/[A-Za-z0-9_-]+)$/;

s.before(async (ctx) => {
  ctx.sms = await startGateway();
  ctx.svc = await startTestService({ SMS_GATEWAY_URL: ctx.sms.url, ALARM_OUTBOX_SWEEP_MS: '200' });
  ctx.org = await createOrg(ctx.svc, 'FF Seitenstadt');
  const res = await client(ctx.svc.url, { pat: ctx.org.member.token }).post('/api/v1/sms/mobile', {
    gsm: '004917630000001',
    ownerID: ctx.org.member.userId,
    active: true,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  ctx.browser = await launchChromium();
});
s.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc.close();
  await ctx.sms.close();
});

/** Raises an alarm and returns the answer link its SMS to the member ends with. */
async function alarmLink(ctx: Ctx, body: Record<string, unknown>): Promise<{ alarmId: number; link: string }> {
  const raised = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/alarms', {
    organizationID: ctx.org.orgId,
    channels: ['sms'],
    ...body,
  });
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  const alarmId = raised.body.id as number;
  const sent = await eventually(
    async () => ctx.sms.requests.find((r) => r.body.alarmId === alarmId),
    Boolean,
    `the SMS of alarm ${alarmId}`,
  );
  const link = LINK.exec(sent!.body.text);
  assert.ok(link, sent!.body.text);
  return { alarmId, link: link[1] };
}

/** A phone's browser that never signed in (axe is let past the page's policy). */
async function phone(ctx: Ctx, locale: string): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await ctx.browser.newContext({ viewport: PHONE, locale, deviceScaleFactor: 1, bypassCSP: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, errors, close: () => context.close() };
}

const answersOf = async (ctx: Ctx, alarmId: number) =>
  (await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/alarms/${alarmId}`)).body.answers as Array<{
    name: string;
    response: boolean;
    duration: number | null;
  }>;

s(
  'German at 360 px: the alarm, 10 minutes and "Komme", said back; AL3 shows it by name; changed to "Komme nicht"',
  async (ctx) => {
    const { alarmId, link } = await alarmLink(ctx, {
      event: 'B3 Wohnungsbrand',
      message: 'Rauch aus Fenster 2. OG, Person vermisst',
      address: 'Hauptstraße 40, 12345 Musterstadt',
    });
    const { page, errors, close } = await phone(ctx, 'de-DE');
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
      await page.getByText('Hauptstraße 40, 12345 Musterstadt').waitFor({ timeout: WAIT_MS });
      await page.getByText('Antwort für member of FF Seitenstadt').waitFor({ timeout: WAIT_MS });
      assert.equal(await axeViolations(page), []);
      assert.ok(await fits(page), 'no horizontal scrolling at 360 px');
      await page.getByRole('radio', { name: '10' }).check();
      await page.getByRole('button', { name: 'Komme', exact: true }).click();
      await page.getByRole('status').getByText('Danke – Ihre Antwort: Komme, 10 Minuten').waitFor({ timeout: WAIT_MS });
      const [answer] = await answersOf(ctx, alarmId);
      assert.equal([answer.name, answer.response, answer.duration], ['member of FF Seitenstadt', true, 10]);
      await page.getByRole('button', { name: 'Komme nicht' }).click();
      await page.getByRole('status').getByText('Danke – Ihre Antwort: Komme nicht').waitFor({ timeout: WAIT_MS });
      const answers = await answersOf(ctx, alarmId);
      assert.equal(
        answers.map((a) => [a.response, a.duration]),
        [[false, null]],
      );
      // Opened again later, it shows his answer so far.
      await page.reload();
      await page.getByRole('status').getByText('Ihre Antwort: Komme nicht').waitFor({ timeout: WAIT_MS });
      assert.equal(await axeViolations(page), []);
      assert.equal(errors, []);
    } finally {
      await close();
    }
  },
);

s('English (?lang=en): typed minutes, a bad number named beside its field, axe clean', async (ctx) => {
  const { alarmId, link } = await alarmLink(ctx, { event: 'TH1 Ölspur', address: 'B 51' });
  const { page, errors, close } = await phone(ctx, 'de-DE');
  try {
    await page.goto(`${link}?lang=en`);
    await page.getByRole('button', { name: 'Not coming' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await axeViolations(page), []);
    assert.ok(await fits(page));
    const other = page.getByLabel('Other number of minutes');
    await other.fill('2000');
    await page.getByRole('button', { name: 'Coming', exact: true }).click();
    await page.getByText('Please a whole number from 0 to 1440.').waitFor({ timeout: WAIT_MS });
    assert.is(await other.getAttribute('aria-invalid'), 'true');
    assert.is((await answersOf(ctx, alarmId)).length, 0);
    await other.fill('7');
    await page.getByRole('button', { name: 'Coming', exact: true }).click();
    await page
      .getByRole('status')
      .getByText('Thank you – your answer: Coming, 7 minutes')
      .waitFor({ timeout: WAIT_MS });
    assert.equal(
      (await answersOf(ctx, alarmId)).map((a) => [a.response, a.duration]),
      [[true, 7]],
    );
    assert.equal(await axeViolations(page), []);
    assert.equal(errors, []);
  } finally {
    await close();
  }
});

s('an unknown link and an ended alarm say so in words; no buttons after the end', async (ctx) => {
  const { alarmId, link } = await alarmLink(ctx, { event: 'F2 Kleinbrand' });
  assert.is((await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post(`/api/v1/alarms/${alarmId}/end`)).status, 200);
  const { page, errors, close } = await phone(ctx, 'de-DE');
  try {
    await page.goto(link);
    await page
      .getByText('Dieser Einsatz ist beendet. Eine Antwort ist nicht mehr nötig.')
      .waitFor({ timeout: WAIT_MS });
    assert.is(await page.getByRole('button', { name: 'Komme', exact: true }).count(), 0);
    assert.equal(await axeViolations(page), []);
    await page.goto(`${new URL(link).origin}/a/${'Q'.repeat(22)}`);
    await page.getByRole('heading', { name: 'Link ungültig' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await axeViolations(page), []);
    await page.goto(`${new URL(link).origin}/a/${'Q'.repeat(22)}?lang=en`);
    await page.getByRole('heading', { name: 'Link not valid' }).waitFor({ timeout: WAIT_MS });
    assert.equal(errors, []);
  } finally {
    await close();
  }
});

s.run();
