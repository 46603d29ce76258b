// Every text the station display shows, in German and English. The language is the monitor's
// configuration key `language` ("de", "en", or a tag such as "de-AT"), else the browser's language;
// dates and the speech voice follow it. Times are 24-hour in both (as fire services write them).

/** The languages the display speaks. */
export type Language = 'de' | 'en';

// A vehicle's FMS status (IN3) on its unit's tile: the digit's short word.
const FMS_EN: Record<number, string> = {
  1: 'Available (radio)',
  2: 'At station',
  3: 'En route',
  4: 'On scene',
  5: 'Request to talk',
  6: 'Out of service',
  7: 'Patient on board',
  8: 'At hospital',
  9: 'Special',
};
const FMS_DE: Record<number, string> = {
  1: 'Einsatzbereit Funk',
  2: 'Auf Wache',
  3: 'Einsatz übernommen',
  4: 'Am Einsatzort',
  5: 'Sprechwunsch',
  6: 'Nicht einsatzbereit',
  7: 'Patient aufgenommen',
  8: 'Am Transportziel',
  9: 'Sonderstatus',
};

const en = {
  coming: 'coming',
  declined: 'declined',
  awaiting: 'awaiting',
  unknown: 'unknown',
  notComing: 'not coming',
  ended: 'ENDED',
  alarm: 'Alarm',
  phoneAlarm: 'Phone alarm',
  station: 'Station',
  // The heading of a unit without a name: the members listed apart (in no unit the alarm names).
  unit: 'Other members',
  ready: 'Ready',
  latestAlarms: 'Latest alarms',
  pagersActive: 'pagers active',
  pagersInactive: 'pagers inactive',
  membersAvailable: 'available',
  membersUnavailable: 'not available',
  noTiles: 'No map tiles configured',
  tilesFailed: 'Map tiles unavailable',
  outOfService: 'out of service',
  soundBlocked: 'Sound blocked – tap the screen',
  displayError: 'Display error',
  disconnected: (time: string) => `Disconnected since ${time} — reconnecting…`,
  stale: (time: string) => `Out of date since ${time} — resynchronising…`,
  moreAlarms: (n: number) => `+${n} more`,
  moreComing: (n: number) => `+${n} coming`,
  moreAwaiting: (n: number) => `+${n} awaiting`,
  moreUnits: (n: number, coming: number) => `+${n} more ${n === 1 ? 'unit' : 'units'}, ${coming} coming`,
  declinedCount: (n: number) => `${n} declined`,
  /** A vehicle's FMS status 1–9 in a few words (the unit's tile). */
  fmsStatus: (status: number) => FMS_EN[status] ?? '',
  // Sign-in and notices (before a monitor is known: the browser's language).
  signInTitle: 'Station display',
  signInHint:
    'Sign in once with an API key (ahk_…) or a personal access token (ahp_…). This screen keeps you signed in.',
  tokenLabel: 'Token',
  tokenKeep: 'keep the stored token',
  monitorLabel: 'Monitor id',
  monitorExample: 'e.g. 12',
  connect: 'Connect',
  needToken: 'Please enter a token.',
  badToken: 'Tokens start with ahk_ (API key) or ahp_ (personal access token).',
  needMonitor: 'Please enter the monitor id (a number).',
  revoked: 'This token was revoked or is not valid. Please sign in again.',
  notVisible: (id: number, reason: string) => `Monitor ${id} was not found, or this token may not show it (${reason}).`,
  deletedTitle: 'Monitor deleted',
  deletedDetail: (id: number) =>
    `Monitor ${id} was deleted. This screen has nothing to show until it is set to another monitor.`,
  chooseMonitor: 'Choose another monitor',
  signInPair: 'Pair this screen with a code instead',
  // Pairing (before a monitor is known: ?lang= or the browser's language).
  pairTitle: 'Pair this screen',
  pairHint:
    'An admin of your organization enters this code and a name for the screen to show a monitor ' +
    'here (POST /api/v1/monitor/‹id›/screens).',
  pairRequesting: 'Requesting a code…',
  pairLeft: (time: string) => `Valid for ${time}`,
  pairUnreachable: (seconds: number) => `Service not reachable — trying again in ${seconds} s`,
  pairRateLimited: (seconds: number) => `Too many requests — trying again in ${seconds} s`,
  pairUseToken: 'Sign in with a token instead',
  screenRemoved: 'This screen was removed or its monitor is gone. Pair it again.',
  // Remote control and test alarms.
  testKeyword: 'Test alarm',
  /** The message of a test alarm sent without one. */
  testMessage: 'A test of this screen — do not turn out',
  testBanner: 'TEST — not a real alarm',
  identifyScreen: 'Screen',
  showsMonitor: (name: string) => `shows monitor “${name}”`,
  unnamedScreen: (id: number) => `Screen ${id}`,
};

/** The display's texts in one language. */
export type Strings = typeof en;

const de: Strings = {
  coming: 'kommen',
  declined: 'abgesagt',
  awaiting: 'ausstehend',
  unknown: 'unbekannt',
  notComing: 'kommt nicht',
  ended: 'BEENDET',
  alarm: 'Einsatz',
  phoneAlarm: 'Alarm per Telefon',
  station: 'Wache',
  unit: 'Weitere Kräfte',
  ready: 'Bereit',
  latestAlarms: 'Letzte Einsätze',
  pagersActive: 'Melder aktiv',
  pagersInactive: 'Melder inaktiv',
  membersAvailable: 'verfügbar',
  membersUnavailable: 'nicht verfügbar',
  noTiles: 'Keine Kartenkacheln eingerichtet',
  tilesFailed: 'Kartenkacheln nicht erreichbar',
  outOfService: 'außer Betrieb',
  soundBlocked: 'Ton blockiert – Bildschirm antippen',
  displayError: 'Anzeigefehler',
  disconnected: (time) => `Verbindung unterbrochen seit ${time} – wird wiederhergestellt…`,
  stale: (time) => `Nicht aktuell seit ${time} – wird abgeglichen…`,
  moreAlarms: (n) => `+${n} weitere`,
  moreComing: (n) => `+${n} kommen`,
  moreAwaiting: (n) => `+${n} ausstehend`,
  moreUnits: (n, coming) => `+${n} ${n === 1 ? 'weitere Einheit' : 'weitere Einheiten'}, ${coming} kommen`,
  declinedCount: (n) => `${n} abgesagt`,
  fmsStatus: (status) => FMS_DE[status] ?? '',
  signInTitle: 'Wachenanzeige',
  signInHint:
    'Einmalig anmelden, mit einem API-Schlüssel (ahk_…) oder einem persönlichen Zugriffstoken (ahp_…). ' +
    'Die Anmeldung bleibt auf diesem Bildschirm gespeichert.',
  tokenLabel: 'Token',
  tokenKeep: 'gespeichertes Token behalten',
  monitorLabel: 'Monitor-ID',
  monitorExample: 'z. B. 12',
  connect: 'Verbinden',
  needToken: 'Bitte ein Token eingeben.',
  badToken: 'Tokens beginnen mit ahk_ (API-Schlüssel) oder ahp_ (persönliches Zugriffstoken).',
  needMonitor: 'Bitte die Monitor-ID (eine Zahl) eingeben.',
  revoked: 'Dieses Token wurde widerrufen oder ist ungültig. Bitte neu anmelden.',
  notVisible: (id, reason) =>
    `Monitor ${id} wurde nicht gefunden, oder dieses Token darf ihn nicht anzeigen (${reason}).`,
  deletedTitle: 'Monitor gelöscht',
  deletedDetail: (id) =>
    `Monitor ${id} wurde gelöscht. Dieser Bildschirm bleibt leer, bis ihm ein anderer Monitor zugewiesen wird.`,
  chooseMonitor: 'Anderen Monitor wählen',
  signInPair: 'Stattdessen mit einem Code koppeln',
  pairTitle: 'Diesen Bildschirm koppeln',
  pairHint:
    'Ein Admin Ihrer Organisation gibt diesen Code und einen Namen für den Bildschirm ein; danach ' +
    'zeigt der Bildschirm hier seinen Monitor (POST /api/v1/monitor/‹ID›/screens).',
  pairRequesting: 'Code wird angefordert…',
  pairLeft: (time) => `Gültig noch ${time}`,
  pairUnreachable: (seconds) => `Dienst nicht erreichbar – neuer Versuch in ${seconds} s`,
  pairRateLimited: (seconds) => `Zu viele Anfragen – neuer Versuch in ${seconds} s`,
  pairUseToken: 'Stattdessen mit einem Token anmelden',
  screenRemoved: 'Dieser Bildschirm wurde entfernt, oder sein Monitor wurde gelöscht. Bitte neu koppeln.',
  testKeyword: 'Probealarm',
  testMessage: 'Test der Alarmanzeige – nicht ausrücken',
  testBanner: 'PROBEALARM – kein echter Einsatz',
  identifyScreen: 'Bildschirm',
  showsMonitor: (name) => `zeigt Monitor „${name}“`,
  unnamedScreen: (id) => `Bildschirm ${id}`,
};

const TABLES: Record<Language, Strings> = { de, en };
const LOCALES: Record<Language, string> = { de: 'de-DE', en: 'en-GB' };

/** The language for a configured value (any BCP 47 tag), else the browser's, else English. */
export function languageOf(...tags: unknown[]): Language {
  for (const tag of tags) {
    const primary = typeof tag === 'string' ? tag.trim().toLowerCase().split(/[-_]/)[0] : '';
    if (primary === 'de' || primary === 'en') return primary;
  }
  return 'en';
}

/** The texts of a language. */
export function stringsFor(language: Language): Strings {
  return TABLES[language];
}

/**
 * The locale for dates and the speech voice: a tag configured for that language wins ("de-AT" keeps
 * Austrian month names), else the language's usual one.
 */
export function localeFor(language: Language, configured: unknown): string {
  const tag = typeof configured === 'string' ? configured.trim() : '';
  return tag.toLowerCase().startsWith(language) && tag.length > 2 ? tag : LOCALES[language];
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** HH:MM (and the seconds) of a moment in the screen's time zone, 24-hour in every language. */
export function clockText(ms: number): { hm: string; s: string } {
  const d = new Date(ms);
  return { hm: `${pad2(d.getHours())}:${pad2(d.getMinutes())}`, s: pad2(d.getSeconds()) };
}

/** The standby's date line (weekday, day, month, year) in `locale`. */
export function dateText(ms: number, locale: string): string {
  try {
    return new Date(ms).toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  } catch {
    return new Date(ms).toDateString();
  }
}

/** Elapsed time as M:SS or H:MM:SS; negative spans (an event starting in a second) show as 0:00. */
export function elapsedText(fromMs: number, nowMs: number): string {
  const total = Math.max(0, Math.floor((nowMs - fromMs) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad2(minutes)}:${pad2(seconds)}` : `${minutes}:${pad2(seconds)}`;
}
