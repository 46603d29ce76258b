// The service's start page (GET /): where a person who opened the service's address in a browser goes
// next — the station display, the API documentation — in German or English by the browser's language.
// A client that asks for JSON gets the same links as JSON.
import Router from '@koa/router';
import type { Context } from 'koa';

const PAGES = {
  de: {
    lang: 'de',
    title: 'alarm-hub',
    lead: 'Alarmierung und Stationsanzeige der Feuerwehr.',
    links: [
      ['/console', 'Verwaltung', 'Für die Wehrführung: Mitglieder, Alarme, Monitore, Kanäle, Tagebuch, Objekte.'],
      ['/app', 'Alarm-App', 'Für Mitglieder: der Alarm auf dem Handy, eine Antwort mit einem Tipp.'],
      ['/display', 'Stationsanzeige', 'Die Seite für den Bildschirm in der Wache: koppeln oder anmelden.'],
      ['/docs', 'API-Dokumentation', 'Jede Operation der REST-Schnittstelle zum Ausprobieren.'],
      ['/openapi.json', 'OpenAPI-Beschreibung', 'Für Integrationen und Code-Generatoren.'],
    ],
    health: 'Betriebszustand',
  },
  en: {
    lang: 'en',
    title: 'alarm-hub',
    lead: 'Alarm delivery and station displays for fire and rescue services.',
    links: [
      ['/console', 'Console', 'For the station admins: members, alarms, monitors, channels, journal, things.'],
      ['/app', 'Alarm app', 'For members: the alarm on the phone, one tap to answer.'],
      ['/display', 'Station display', "The page for the station's screen: pair it or sign in."],
      ['/docs', 'API documentation', 'Every operation of the REST API, to try out.'],
      ['/openapi.json', 'OpenAPI document', 'For integrations and code generators.'],
    ],
    health: 'Health',
  },
} as const;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function page(p: (typeof PAGES)[keyof typeof PAGES]): string {
  const items = p.links
    .map(([href, name, what]) => `<li><a href="${href}">${escape(name)}</a><span>${escape(what)}</span></li>`)
    .join('');
  return `<!doctype html>
<html lang="${p.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title}</title>
<style>
body{margin:0;font:18px/1.5 system-ui,sans-serif;background:#07090c;color:#f5f7fa}
main{max-width:40rem;margin:0 auto;padding:3rem 1.25rem}
h1{margin:0 0 .25rem;font-size:2rem}
p{color:#c3cbd6;margin:0 0 2rem}
ul{list-style:none;margin:0;padding:0}
li{margin:0 0 1rem;padding:1rem 1.25rem;border-radius:.75rem;background:#12161c}
a{display:block;color:#fff;font-weight:700;font-size:1.2rem;text-decoration:none}
a:hover,a:focus{text-decoration:underline}
span{color:#a3adbb}
footer a{display:inline;font-size:1rem;font-weight:400;color:#a3adbb}
</style>
</head>
<body>
<main>
<h1>${p.title}</h1>
<p>${escape(p.lead)}</p>
<ul>${items}</ul>
<footer><a href="/readyz">${escape(p.health)}</a></footer>
</main>
</body>
</html>
`;
}

/** GET /: the start page, or its links as JSON for a client that asks for JSON. */
export function homeRoutes(): Router {
  const router = new Router();
  router.get('/', (ctx: Context) => {
    const language = ctx.acceptsLanguages('de', 'en') === 'de' ? 'de' : 'en';
    ctx.set('Vary', 'Accept, Accept-Language');
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = { links: PAGES[language].links.map(([href, name]) => ({ href, name })) };
      return;
    }
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
    );
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(PAGES[language]);
  });
  return router;
}
