// What the page tells its service worker (docs/members-app.md "Offline"): the language the member reads,
// so that a notification speaks it too. Kept in the Cache API, which both sides reach, beside what the
// worker keeps of the API's answers.

export type Language = 'de' | 'en';

const CACHE = 'alarm-hub-app-settings';
/** Where the service worker keeps the API's answers; emptied when the member signs out. */
export const DATA_CACHE = 'alarm-hub-app-data';
const KEY = '/app/settings.json';

interface Settings {
  lang: Language;
}

/** Remembers the page's language for the worker. */
export async function saveLanguage(lang: Language): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(CACHE);
  await cache.put(
    KEY,
    new Response(JSON.stringify({ lang } satisfies Settings), { headers: { 'Content-Type': 'application/json' } }),
  );
}

/** The language the page last used; else the browser's first of German and English; else German. */
export async function savedLanguage(languages: readonly string[]): Promise<Language> {
  try {
    const kept = await (await caches.open(CACHE)).match(KEY);
    if (kept) {
      const { lang } = (await kept.json()) as Settings;
      if (lang === 'de' || lang === 'en') return lang;
    }
  } catch {
    // Nothing kept (storage cleared or refused): the browser's language decides.
  }
  for (const l of languages) {
    const base = l.toLowerCase().slice(0, 2);
    if (base === 'de' || base === 'en') return base;
  }
  return 'de';
}
