// Small pieces every page uses: the frame with the language switch, a busy button, an error in words.
import type { ComponentChildren } from 'preact';
import { ApiError } from './api.js';
import { lang, t } from './i18n.js';
import { PasskeyRefused } from './passkey.js';
import { pickOrganization, type Organization, type Session } from './session.js';

/** What went wrong, in the page's language where we know the case, else the API's own message. */
export function explain(err: unknown): string {
  if (err instanceof PasskeyRefused) return err.reason === 'cancelled' ? t.passkeyCancelled : t.passkeyUnsupported;
  if (err instanceof ApiError) {
    const known: Record<string, string> = {
      offline: t.offline,
      invalid_code: t.invalidCode,
      rate_limited: t.rateLimited,
      last_admin: t.errLastAdmin,
      forbidden: t.errForbidden,
      csrf: t.errCsrf,
      unavailable: t.errUnavailable,
      payload_too_large: t.errTooLarge,
      limit_reached: t.errLimit,
      not_found: t.errNotFound,
    };
    if (known[err.code]) return known[err.code];
    if (err.status === 401) return t.notSignedIn;
    if (err.status >= 500) return t.errUnavailable;
    if (err.details.length) return `${t.errInvalid}: ${err.details.map((d) => `${d.path} – ${d.problem}`).join('; ')}`;
    return err.message;
  }
  return String(err);
}

/**
 * The problems of a failed form request by field (the first part of each detail's path), for the
 * fields the form shows; everything else, under `form`, so that nothing is swallowed.
 */
export function fieldProblems(err: unknown, fields: string[]): Record<string, string> {
  const byField: Record<string, string> = {};
  let elsewhere = !(err instanceof ApiError) || err.details.length === 0;
  if (err instanceof ApiError)
    for (const d of err.details) {
      const field = d.path.split('.')[0];
      if (fields.includes(field)) byField[field] ??= d.problem;
      else elsewhere = true;
    }
  if (elsewhere) byField.form = explain(err);
  return byField;
}

/** The same page in the other language. */
function LanguageLink() {
  const other = lang === 'de' ? 'en' : 'de';
  const switchTo = new URL(location.href);
  switchTo.searchParams.set('lang', other);
  return (
    <a
      class="lang"
      href={switchTo.toString()}
      hreflang={other}
      lang={other}
      title={other === 'en' ? 'English' : 'Deutsch'}
    >
      {other.toUpperCase()}
    </a>
  );
}

/** The page's frame: the product's name, the language switch, the content. */
export function Frame({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <div class="frame">
      <header class="bar">
        <span class="brand" aria-hidden="true">
          alarm-hub
        </span>
        <LanguageLink />
      </header>
      <main class="card">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** The signed-in pages. */
export type Page =
  'overview' | 'alarms' | 'monitors' | 'members' | 'channels' | 'inputs' | 'journal' | 'things' | 'keys' | 'account';

/** The signed-in pages' frame: the navigation and, with several organizations, the choice among them. */
export function Shell({
  current,
  title,
  session,
  organization,
  children,
}: {
  current: Page;
  title: string;
  session: Session;
  organization: Organization | null;
  children: ComponentChildren;
}) {
  const link = (page: Page, label: string) => (
    <a
      href={`/console${page === 'overview' ? '' : `/${page}`}${location.search}`}
      aria-current={current === page ? 'page' : undefined}
    >
      {label}
    </a>
  );
  return (
    <div class="frame">
      <header class="bar">
        <span class="brand" aria-hidden="true">
          alarm-hub
        </span>
        <nav class="nav" aria-label={t.mainNav}>
          {link('overview', t.navOverview)}
          {link('alarms', t.navAlarms)}
          {link('monitors', t.navMonitors)}
          {link('members', t.navMembers)}
          {link('channels', t.navChannels)}
          {link('inputs', t.navInputs)}
          {link('journal', t.navJournal)}
          {link('things', t.navThings)}
          {organization?.role === 'admin' && link('keys', t.navKeys)}
          {link('account', t.navAccount)}
        </nav>
        <LanguageLink />
      </header>
      <main class="card wide">
        {session.organizations.length > 1 && organization && (
          <div class="stack org-pick">
            <label for="organization">{t.organization}</label>
            <select
              id="organization"
              value={organization.id}
              onChange={(e) => {
                pickOrganization(Number((e.target as HTMLSelectElement).value));
                location.reload();
              }}
            >
              {session.organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}

/** A message the screen reader announces. */
export function Problem({ text }: { text: string | null }) {
  return text ? (
    <p class="problem" role="alert">
      {text}
    </p>
  ) : null;
}
