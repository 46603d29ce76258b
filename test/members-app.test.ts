// The members' app (/app, docs/members-app.md) in Chromium: installable (its manifest, icons and
// service worker), this browser registered as the member's web device when he turns notifications on,
// an alarm's push handed to the service worker through the DevTools protocol (as the browser's push
// service would hand it) shown as a notification with both answers and its receipt confirmed, an answer
// chosen on the notification recorded without opening the app, the alarm screen answered and live,
// the app still there offline, the passkey sign-in, axe in German and English, 360 px wide.
//
// The alarm really goes out: the service pushes it, encrypted and signed, to a local push service
// (test/helpers/web-push-fake.ts), which decrypts it with the subscription's keys; that subscription
// is what the page's PushManager hands the app here, since Chromium's own push service (Google's) lies
// outside this machine. What the fake received is what the test then delivers to the worker.
import { gzipSync } from 'node:zlib';
import * as assert from 'uvu/assert';
import type { Browser, CDPSession, Page, Worker } from 'playwright-core';
import { addPasskeyDevice, launchChromium, WAIT_MS } from './helpers/browser.js';
import { axeViolations, COUNT_INTL, fits, PHONE, signedIn, type SignedIn } from './helpers/console.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import { startWebPushFake, type FakeSubscription, type WebPushFake } from './helpers/web-push-fake.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  fake: WebPushFake;
  browser: Browser;
  /** The member's phone, signed in, kept from test to test (its worker, its device, its alarm). */
  phone: SignedIn & { cdp: CDPSession; subscription: FakeSubscription };
  alarmId: number;
}

const app = suite<Ctx>('members app: installable, notifications, a push, offline, in Chromium', {} as Ctx);

/** Polls `check` until it returns something truthy; fails naming `what` after WAIT_MS. */
async function until<T>(what: string, check: () => Promise<T | undefined | null | false>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A page script standing in for the browser's push service: PushManager.subscribe() gives the fake's
 * subscription (its key checked as the service gives it), getSubscription() the one made, as a browser
 * keeps it. Plain JavaScript for the page.
 */
function fakePushManager(subscription: FakeSubscription): string {
  return `{
    const sub = ${subscription.json};
    const STORE = 'test.push-key';
    const make = () => {
      const key = Uint8Array.from(JSON.parse(localStorage.getItem(STORE))).buffer;
      return {
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: key },
        toJSON: () => sub,
        unsubscribe: async () => (localStorage.removeItem(STORE), true),
      };
    };
    PushManager.prototype.subscribe = async function (options) {
      if (!options || options.userVisibleOnly !== true) throw new DOMException('userVisibleOnly', 'NotAllowedError');
      const key = new Uint8Array(options.applicationServerKey);
      if (key.length !== 65 || key[0] !== 4) throw new DOMException('applicationServerKey', 'InvalidAccessError');
      localStorage.setItem(STORE, JSON.stringify([...key]));
      return make();
    };
    PushManager.prototype.getSubscription = async function () {
      return localStorage.getItem(STORE) ? make() : null;
    };
  }`;
}

const apiKey = (ctx: Ctx) => client(ctx.svc.url, { apiKey: ctx.org.apiKey });

/** AL3 of the test's alarm, read with the organization's key. */
async function detail(ctx: Ctx, id = ctx.alarmId) {
  const res = await apiKey(ctx).get(`/api/v1/alarms/${id}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The notifications the app's worker shows now, as the page reads them. */
function notifications(page: Page) {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      requireInteraction: n.requireInteraction,
      actions: ((n as unknown as { actions: Array<{ action: string; title: string }> }).actions ?? []).map((a) => ({
        action: a.action,
        title: a.title,
      })),
      data: n.data,
    })),
  );
}

/** The app's service worker as Playwright reaches it. */
async function worker(ctx: Ctx): Promise<Worker> {
  return until('the service worker', async () =>
    ctx.phone.context.serviceWorkers().find((w) => w.url().endsWith('/app/sw.js')),
  );
}

app.before(async (ctx) => {
  ctx.fake = await startWebPushFake();
  ctx.svc = await startTestService({ WEB_PUSH_ORIGINS: ctx.fake.url });
  ctx.org = await createOrg(ctx.svc, 'Freiwillige Feuerwehr Nord');
  ctx.browser = await launchChromium();
});
app.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.svc?.close();
  await ctx.fake?.close();
});

app(
  'GET /app links a valid manifest (standalone, start_url /app, icons 192, 512 and maskable) and serves the worker for the scope /app',
  async (ctx) => {
    const page = await fetch(`${ctx.svc.url}/app`);
    assert.is(page.status, 200);
    const html = await page.text();
    assert.match(html, '<link rel="manifest" href="/app/manifest.webmanifest" />');
    const res = await fetch(`${ctx.svc.url}/app/manifest.webmanifest`);
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/manifest\+json/);
    const manifest = await res.json();
    assert.is(manifest.start_url, '/app');
    assert.is(manifest.scope, '/app');
    assert.is(manifest.display, 'standalone');
    assert.type(manifest.name, 'string');
    assert.type(manifest.short_name, 'string');
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
    assert.match(html, `<meta name="theme-color" content="${manifest.theme_color}" />`);
    const sizes = (manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>).map(
      (i) => `${i.sizes} ${i.purpose}`,
    );
    assert.equal(sizes, ['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const png = await fetch(`${ctx.svc.url}${icon.src}`);
      assert.is(png.status, 200, icon.src);
      assert.is(png.headers.get('content-type'), 'image/png');
      const bytes = Buffer.from(await png.arrayBuffer());
      assert.is(bytes.subarray(1, 4).toString(), 'PNG', icon.src);
      // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
      assert.is(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, icon.sizes, icon.src);
    }
    const sw = await fetch(`${ctx.svc.url}/app/sw.js`);
    assert.is(sw.status, 200);
    assert.match(sw.headers.get('content-type') ?? '', /^application\/javascript/);
    assert.is(sw.headers.get('service-worker-allowed'), '/app');
    assert.is(sw.headers.get('cache-control'), 'no-cache');

    // The first load stays small: script and stylesheet compressed, against the 200 KB budget.
    const weight = await Promise.all(
      ['/app/app.js', '/app/app.css'].map(
        async (p) => gzipSync(Buffer.from(await (await fetch(ctx.svc.url + p)).arrayBuffer())).length,
      ),
    );
    assert.ok(weight[0] + weight[1] < 200_000, `first load ${weight.join(' + ')} bytes gzip`);
  },
);

app(
  'signed in, /app gets its service worker, which controls the page; Chromium finds the app installable',
  async (ctx) => {
    const subscription = ctx.fake.subscribe();
    const phone = await signedIn(ctx.browser, ctx.svc, ctx.org, {
      role: 'member',
      name: 'Anna Keller',
      locale: 'de-DE',
    });
    await phone.context.addInitScript({ content: fakePushManager(subscription) });
    const cdp = await phone.context.newCDPSession(phone.page);
    ctx.phone = { ...phone, cdp, subscription };
    await phone.page.goto(`${phone.base}/app`);
    const scope = await phone.page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    assert.is(scope, `${phone.base}/app`);
    await phone.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: WAIT_MS });
    const read = (await cdp.send('Page.getAppManifest')) as { url: string; errors: Array<{ message: string }> };
    assert.is(read.url, `${phone.base}/app/manifest.webmanifest`);
    assert.equal(read.errors, []);
    // Chromium's own verdict on installing the app: a browser context of Playwright is an incognito window,
    // where Chromium installs nothing; nothing else may stand in the way (manifest, icons, the worker).
    const verdict = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    assert.equal(
      verdict.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'),
      [],
    );
    await phone.page.getByRole('heading', { name: 'Kein laufender Alarm' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await axeViolations(phone.page), [], 'the start, German');
    assert.ok(await fits(phone.page), 'the start fits 360 px');
  },
);

app('turning notifications on, on a tap, registers this browser as his web device (A2)', async (ctx) => {
  const { page, context, base, userId, subscription } = ctx.phone;
  // Asked only on the tap: nothing was asked on load.
  assert.is(await page.evaluate(() => Notification.permission), 'default');
  await context.grantPermissions(['notifications'], { origin: base });
  await page.getByRole('button', { name: 'Benachrichtigungen einschalten' }).click();
  await page.getByRole('link', { name: 'Mehr' }).click();
  await page.getByTestId('push-on').waitFor({ timeout: WAIT_MS });
  const devices = await apiKey(ctx).get(`/api/v1/app/device?owner_id=${userId}&organization_id=${ctx.org.orgId}`);
  assert.is(devices.status, 200);
  assert.is(devices.body.length, 1);
  assert.match(devices.body[0].os, /^Web Chrome \d+/);
  assert.is(devices.body[0].pushToken, subscription.json);
  assert.is(devices.body[0].active, true);
  assert.equal(await axeViolations(page), [], '"Mehr", German');
  assert.ok(await fits(page), '"Mehr" fits 360 px');
});

app("an alarm's push shows a notification with both answers and confirms its receipt (push/delivered)", async (ctx) => {
  const { page, cdp, base, userId, subscription } = ctx.phone;
  const raised = await apiKey(ctx).post('/api/v1/alarms', {
    organizationID: ctx.org.orgId,
    event: 'B3 Wohnungsbrand',
    message: 'Rauch aus Fenster 2. OG',
    address: 'Goethestraße 5, 52064 Aachen',
    latitude: 50.77664,
    longitude: 6.08342,
    channels: ['app'],
  });
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  ctx.alarmId = raised.body.id;
  const push = await until('the push at the push service', async () =>
    ctx.fake.delivered(subscription.id).find((p) => p.payload?.alarmId === ctx.alarmId),
  );
  assert.is(push.payload.type, 'alarm');

  // The browser's push service hands the push to the worker: the DevTools protocol does it here, to the
  // registration of /app that is live and has an activated worker (one replaced by an update is told too).
  const live = new Map<string, string>();
  const activated = new Set<string>();
  cdp.on(
    'ServiceWorker.workerRegistrationUpdated',
    (event: { registrations: Array<{ scopeURL: string; registrationId: string; isDeleted: boolean }> }) => {
      for (const r of event.registrations) {
        if (r.isDeleted) {
          if (live.get(r.scopeURL) === r.registrationId) live.delete(r.scopeURL);
        } else live.set(r.scopeURL, r.registrationId);
      }
    },
  );
  cdp.on(
    'ServiceWorker.workerVersionUpdated',
    (event: { versions: Array<{ registrationId: string; status: string }> }) => {
      for (const v of event.versions) if (v.status === 'activated') activated.add(v.registrationId);
    },
  );
  await cdp.send('ServiceWorker.enable');
  const registrationId = await until('the activated registration of /app', async () => {
    const id = live.get(`${base}/app`);
    return id && activated.has(id) ? id : null;
  });
  // A push service delivers again what a worker did not take; so does the test, once, when a busy
  // machine's browser let a hand-over go (seen once in a loaded CI run: the worker never got the event).
  // Showing the same alarm again replaces its notification (one tag per alarm), so the count stays one.
  const deliver = () =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId, data: JSON.stringify(push.payload) });
  let handedOver = Date.now();
  await deliver();
  let again = false;
  const [shown] = await until('the notification', async () => {
    const all = await notifications(page);
    if (all.length) return all;
    if (!again && Date.now() - handedOver > 10_000) {
      process.stderr.write('members-app: no notification 10 s after the push; the push is delivered once more\n');
      again = true;
      handedOver = Date.now();
      await deliver();
    }
    return null;
  });
  // A first push that was only late is shown too: the next test must not find it replacing its answer.
  if (again) await new Promise((resolve) => setTimeout(resolve, 3_000));
  assert.is(shown.title, 'B3 Wohnungsbrand');
  assert.match(shown.body, 'Goethestraße 5, 52064 Aachen\nRauch aus Fenster 2. OG');
  assert.is(shown.tag, `alarm-${ctx.alarmId}`);
  assert.is(shown.requireInteraction, true);
  assert.equal(shown.actions, [
    { action: 'yes', title: 'Komme' },
    { action: 'no', title: 'Komme nicht' },
  ]);
  await until('the delivery confirmed on AL3', async () =>
    (await detail(ctx)).deliveries.find(
      (d: { channel: string; recipientUserId: number; status: string }) =>
        d.channel === 'app' && d.recipientUserId === userId && d.status === 'delivered',
    ),
  );
});

app('the notification\'s "Komme" answers with A11 without opening the app', async (ctx) => {
  const { context, page, userId } = ctx.phone;
  const pagesBefore = context.pages().length;
  // The worker's own click handler runs, given the notification it shows and the action chosen. (Dispatched
  // by a script, the event cannot extend its life: the handler's waitUntil refuses, its work goes on.)
  const sw = await worker(ctx);
  await sw.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration };
    const [notification] = await scope.registration.getNotifications();
    const Click = (self as unknown as { NotificationEvent: new (type: string, init: object) => Event })
      .NotificationEvent;
    self.dispatchEvent(new Click('notificationclick', { notification, action: 'yes' }));
  });
  const answer = await until('the answer on AL3', async () =>
    (await detail(ctx)).answers.find((a: { userId: number }) => a.userId === userId),
  );
  assert.is(answer.response, true);
  assert.is(answer.name, 'Anna Keller');
  assert.is(context.pages().length, pagesBefore, 'no window was opened');
  const [after] = await until('the answered notification', async () => {
    const all = await notifications(page);
    return all.length && all[0].title !== 'B3 Wohnungsbrand' ? all : null;
  });
  assert.is(after.title, 'Rückmeldung gesendet: Komme');
  assert.equal(after.actions, []);
});

app('opened, the app shows the alarm, who comes by name, live; "Komme nicht" and minutes answer (A10)', async (ctx) => {
  const { page, base, userId } = ctx.phone;
  await page.goto(`${base}/app`);
  await page.getByTestId('alarm-event').filter({ hasText: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
  await page.getByTestId('coming').filter({ hasText: 'Anna Keller' }).waitFor({ timeout: WAIT_MS });
  await page.getByTestId('map').waitFor({ timeout: WAIT_MS });

  // Another member's answer, entered by the station with his device, appears without a reload.
  const device = await apiKey(ctx).post(`/api/v1/app/device?organization_id=${ctx.org.orgId}`, {
    active: true,
    name: 'Pixel',
    os: 'android 14',
    ownerID: ctx.org.member.userId,
    pushToken: 'fcm-token-of-the-other-member',
    pushTokenDevelopment: false,
  });
  assert.is(device.status, 200, JSON.stringify(device.body));
  const fed = await apiKey(ctx).post(`/api/v1/app/feedback`, {
    alarmID: ctx.alarmId,
    deviceID: device.body.id,
    response: true,
    answerData: { duration: 7 },
  });
  assert.is(fed.status, 200, JSON.stringify(fed.body));
  await page
    .getByTestId('coming')
    .filter({ hasText: `member of Freiwillige Feuerwehr Nord` })
    .waitFor({ timeout: WAIT_MS });
  assert.match((await page.getByTestId('coming').textContent()) ?? '', '7 Min.');

  await page.getByRole('button', { name: 'Komme nicht' }).click();
  await page.getByTestId('my-answer').filter({ hasText: 'Sie kommen nicht.' }).waitFor({ timeout: WAIT_MS });
  assert.is((await detail(ctx)).answers.find((a: { userId: number }) => a.userId === userId).response, false);
  await page.getByRole('button', { name: 'Komme 10 Min.' }).click();
  await page.getByTestId('my-answer').filter({ hasText: 'Sie kommen, in 10 Min. da.' }).waitFor({ timeout: WAIT_MS });
  const mine = (await detail(ctx)).answers.find((a: { userId: number }) => a.userId === userId);
  assert.equal([mine.response, mine.duration], [true, 10]);
  assert.is(await page.getByRole('button', { name: 'Komme 10 Min.' }).getAttribute('aria-pressed'), 'true');

  assert.equal(await axeViolations(page), [], 'the alarm, German');
  assert.ok(await fits(page), 'the alarm fits 360 px');
  assert.equal(ctx.phone.errors, []);
});

app('the running alarm shows from the list at once (AL2); who comes by name follows with AL3', async (ctx) => {
  // A phone of its own without the service worker: Playwright's routes do not see a worker's requests,
  // and this one holds AL3's answer back until the alarm has shown without it.
  const other = await signedIn(ctx.browser, ctx.svc, ctx.org, { role: 'member', serviceWorkers: 'block' });
  let release = () => {};
  try {
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await other.page.route(new RegExp(`/api/v1/alarms/${ctx.alarmId}$`), async (route) => {
      asked++;
      await held;
      await route.continue();
    });
    await other.page.addInitScript({ content: COUNT_INTL });
    await other.page.goto(`${other.base}/app`);
    await other.page.getByTestId('alarm-event').filter({ hasText: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
    assert.ok(asked > 0, 'AL3 was asked for, and has not answered');
    assert.is(await other.page.locator('section[aria-labelledby="who-comes"][aria-busy="true"]').count(), 1);
    assert.is(await other.page.getByTestId('coming').count(), 0, 'nobody is shown as coming before AL3 says who');
    assert.is(await other.page.getByTestId('my-answer').textContent(), 'Lädt …');
    assert.match((await other.page.getByTestId('counts').textContent()) ?? '', 'Kommen');
    release();
    await other.page.getByTestId('coming').filter({ hasText: 'Anna Keller' }).waitFor({ timeout: WAIT_MS });
    await other.page.getByTestId('my-answer').filter({ hasText: 'Noch keine' }).waitFor({ timeout: WAIT_MS });
    // The alarm and its times showed without loading the browser's locale data (docs/members-app.md).
    assert.equal(await other.page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade), []);
    assert.equal(other.errors, []);
  } finally {
    release();
    await other.context.close();
  }
});

app('offline, /app still opens and shows the last alarm and its answers', async (ctx) => {
  const { page, context, base } = ctx.phone;
  await context.setOffline(true);
  try {
    await page.goto(`${base}/app`);
    await page.getByTestId('offline').waitFor({ timeout: WAIT_MS });
    await page.getByTestId('alarm-event').filter({ hasText: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
    await page.getByTestId('coming').filter({ hasText: 'Anna Keller' }).waitFor({ timeout: WAIT_MS });
    await page.goto(`${base}/app/history`);
    await page.getByTestId('alarm-list').filter({ hasText: 'B3 Wohnungsbrand' }).waitFor({ timeout: WAIT_MS });
  } finally {
    await context.setOffline(false);
  }
});

app('availability: one tap says "Verfügbar" (W2), counted (W3); axe and 360 px in German and English', async (ctx) => {
  const { page, base, userId } = ctx.phone;
  await page.goto(`${base}/app/availability`);
  await page.getByRole('button', { name: 'Verfügbar', exact: true }).click();
  await page.getByTestId('my-availability').filter({ hasText: 'Verfügbar' }).waitFor({ timeout: WAIT_MS });
  const counted = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(
    `/api/v1/organizations/${ctx.org.orgId}/availability`,
  );
  assert.is(counted.body.members.find((m: { userId: number }) => m.userId === userId).available, true);
  await page.getByTestId('available-count').getByText('1', { exact: true }).waitFor({ timeout: WAIT_MS });
  assert.equal(await axeViolations(page), [], 'availability, German');
  assert.ok(await fits(page), 'availability fits 360 px');

  for (const path of ['/app', '/app/availability', '/app/history', '/app/more']) {
    await page.goto(`${base}${path}?lang=en`);
    await page.getByRole('navigation', { name: 'App sections' }).waitFor({ timeout: WAIT_MS });
    await page.locator('h1').first().waitFor({ timeout: WAIT_MS });
    assert.is(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await axeViolations(page), [], `${path}, English`);
    assert.ok(await fits(page), `${path} fits 360 px in English`);
  }
  // The choice is kept: the installed app starts at /app without ?lang=.
  await page.goto(`${base}/app`);
  await page.getByRole('navigation', { name: 'App sections' }).waitFor({ timeout: WAIT_MS });
  await page.goto(`${base}/app?lang=de`);
  await page.getByRole('navigation', { name: 'App-Bereiche' }).waitFor({ timeout: WAIT_MS });
});

app('a member joins by his link, goes on to the app, and signs in there again with his passkey', async (ctx) => {
  const invited = await apiKey(ctx).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Ben Schulz',
    role: 'member',
  });
  const context = await ctx.browser.newContext({ viewport: PHONE, locale: 'de-DE', bypassCSP: true });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await addPasskeyDevice(page);
    await page.goto(invited.body.link);
    await page.getByRole('button', { name: 'Beitreten' }).click();
    await page.getByLabel('Gerätename').fill('Handy');
    await page.getByRole('button', { name: 'Passkey für dieses Gerät anlegen' }).click();
    await page.getByRole('heading', { name: 'Übersicht' }).waitFor({ timeout: WAIT_MS });
    await page.goto(invited.body.link.replace(/\/join\/.*/, '/app'));
    await page.getByRole('link', { name: 'Mehr' }).click();
    await page.getByText('Angemeldet als Ben Schulz').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await axeViolations(page), [], 'the sign-in, German');
    assert.ok(await fits(page), 'the sign-in fits 360 px');
    await page.getByRole('button', { name: 'Mit Passkey anmelden' }).click();
    await page.getByRole('navigation', { name: 'App-Bereiche' }).waitFor({ timeout: WAIT_MS });
    await page.getByRole('link', { name: 'Mehr' }).click();
    await page.getByText('Angemeldet als Ben Schulz').waitFor({ timeout: WAIT_MS });
    assert.equal(errors, []);
  } finally {
    await context.close();
  }
});

app('the invitation page leads on to the app: "Zur Alarm-App"', async (ctx) => {
  const invited = await apiKey(ctx).post('/api/v1/invitations', {
    organizationID: ctx.org.orgId,
    name: 'Cem Yilmaz',
    role: 'member',
  });
  const context = await ctx.browser.newContext({ viewport: PHONE, locale: 'de-DE' });
  try {
    const page = await context.newPage();
    await page.goto(invited.body.link);
    await page.getByRole('button', { name: 'Beitreten' }).click();
    await page.getByRole('link', { name: 'Zur Alarm-App' }).click();
    await page.getByRole('navigation', { name: 'App-Bereiche' }).waitFor({ timeout: WAIT_MS });
    assert.is(new URL(page.url()).pathname, '/app');
  } finally {
    await context.close();
  }
});

app.run();
