// The language the member chose in the app, kept (docs/members-app.md "Languages"): the console's rule
// picks `?lang=`, else the browser's language (console/src/i18n.ts), but an installed app always starts
// at /app, without ?lang=. So a choice made once (?lang=en) is remembered here and put back into the
// address before the words are chosen: main.tsx imports this module first.
const KEY = 'alarm-hub.app.lang';

const url = new URL(location.href);
const asked = url.searchParams.get('lang');
try {
  if (asked === 'de' || asked === 'en') localStorage.setItem(KEY, asked);
  else {
    const kept = localStorage.getItem(KEY);
    if (kept === 'de' || kept === 'en') {
      url.searchParams.set('lang', kept);
      history.replaceState(history.state, '', url);
    }
  }
} catch {
  // No storage (a private window that refuses it): the browser's language decides, as in the console.
}
