// The words of the notifications (docs/members-app.md "Notifications"), German and English: the
// service worker shows them in the language the page last used (settings.ts), so they live apart from the
// page's words, which follow the page's own choice (console/src/i18n.ts).
import type { Language } from './settings.js';

const de = {
  coming: 'Komme',
  notComing: 'Komme nicht',
  alarm: 'Alarm',
  answered: (coming: boolean) => `Rückmeldung gesendet: ${coming ? 'Komme' : 'Komme nicht'}`,
  notAnswered: 'Rückmeldung nicht gesendet – tippen Sie hier, um in der App zu antworten.',
  test: 'Probe-Benachrichtigung',
};

const en: typeof de = {
  coming: 'Coming',
  notComing: 'Not coming',
  alarm: 'Alarm',
  answered: (coming: boolean) => `Answer sent: ${coming ? 'coming' : 'not coming'}`,
  notAnswered: 'Answer not sent – tap here to answer in the app.',
  test: 'Test notification',
};

/** The notifications' words in `lang`. */
export function notificationWords(lang: Language): typeof de {
  return lang === 'en' ? en : de;
}
