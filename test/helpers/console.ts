// What the console's browser tests share: a signed-in person's browser context (joined through the
// API, as the join page does, so the context holds his session cookie), and axe's findings on a page.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as assert from 'uvu/assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { client } from './http.js';
import type { OrgFixture, TestService } from './service.js';

// The narrowest phone the console is made for (docs/console.md), and a desktop.
export const PHONE = { width: 360, height: 780 };
export const DESKTOP = { width: 1280, height: 900 };

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors: a test expects none. */
  errors: string[];
  userId: number;
  /** The base URL the cookie belongs to (localhost: a secure context). */
  base: string;
}

/**
 * A person invited into `org` by its API key with `role`, joined in a fresh browser context: its
 * `page` is signed in (the session cookie set by P2) and has not loaded anything yet.
 */
export async function signedIn(
  browser: Browser,
  svc: TestService,
  org: OrgFixture,
  opts: {
    role?: 'admin' | 'member';
    name?: string;
    locale?: string;
    viewport?: { width: number; height: number };
    /** 'block': no service worker, so that the page's routes see every request the page makes. */
    serviceWorkers?: 'allow' | 'block';
  } = {},
): Promise<SignedIn> {
  const base = `http://localhost:${svc.port}`;
  const invited = await client(svc.url, { apiKey: org.apiKey }).post('/api/v1/invitations', {
    organizationID: org.orgId,
    name: opts.name ?? `Person ${Math.random().toString(36).slice(2, 8)}`,
    role: opts.role ?? 'admin',
  });
  assert.is(invited.status, 201, JSON.stringify(invited.body));
  // axe is injected into pages: the tests let it past the page's Content-Security-Policy.
  const context = await browser.newContext({
    viewport: opts.viewport ?? PHONE,
    locale: opts.locale ?? 'de-DE',
    deviceScaleFactor: 1,
    bypassCSP: true,
    serviceWorkers: opts.serviceWorkers ?? 'allow',
  });
  const joined = await context.request.post(`${base}/api/v1/join`, {
    data: { code: invited.body.code },
    headers: { Origin: base },
  });
  assert.is(joined.status(), 201, await joined.text());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const body = (await joined.json()) as { user: { id: number } };
  return { context, page, errors, userId: body.user.id, base };
}

let axeSource: Promise<string> | null = null;

/** axe's serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: await axeSource });
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

/** True when nothing sticks out sideways: the page needs no horizontal scrolling. */
export const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/**
 * A script for page.addInitScript: counts the Intl objects the page makes, and its numbers and dates
 * written with toLocale…String (window.intlMade). The first
 * one loads the browser's locale data, which the pages keep off their way to the first data shown
 * (docs/console.md "Loading"). Text, not a function: tsx would wrap a function's inner functions in a
 * helper the page does not have.
 */
export const COUNT_INTL = `{
  window.intlMade = [];
  for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'Collator', 'RelativeTimeFormat', 'ListFormat']) {
    const made = Intl[name];
    if (!made) continue;
    const counted = (target, args, make) => (window.intlMade.push(name), make(target, args));
    Intl[name] = new Proxy(made, {
      construct: (target, args) => counted(target, args, Reflect.construct),
      apply: (target, self, args) => counted(target, args, (t, a) => Reflect.apply(t, self, a)),
    });
  }
  const zones = Intl.supportedValuesOf;
  if (zones) Intl.supportedValuesOf = (key) => (window.intlMade.push('supportedValuesOf'), zones(key));
  for (const [type, names] of [
    [Number, ['toLocaleString']],
    [Date, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
  ])
    for (const name of names) {
      const own = type.prototype[name];
      type.prototype[name] = function (...args) {
        window.intlMade.push(type.name + '.' + name);
        return own.apply(this, args);
      };
    }
}`;
