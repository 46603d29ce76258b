// German and English (docs/console.md "Languages"): `?lang=de|en`, else the browser's language.

const de = {
  product: 'alarm-hub',
  joinTitle: 'Willkommen',
  joinLead: 'Sie wurden eingeladen. Mit einem Tipp treten Sie bei und sind auf diesem Gerät angemeldet.',
  joinButton: 'Beitreten',
  joining: 'Einen Moment …',
  joinedTitle: (name: string) => `Hallo ${name}`,
  joinedLead: 'Sie sind angemeldet. Legen Sie einen Passkey an, um sich später ohne Link wieder anzumelden.',
  signinTitle: 'Anmelden',
  signinLead: 'Melden Sie sich mit dem Passkey dieses Geräts an (Fingerabdruck, Gesicht oder PIN).',
  signinButton: 'Mit Passkey anmelden',
  signinNoPasskey:
    'Noch kein Passkey? Bitten Sie Ihre Wehrführung um einen Einladungslink, oder öffnen Sie auf einem angemeldeten Gerät „Anmeldelink für ein anderes Gerät“.',
  accountTitle: 'Ihr Zugang',
  organizations: 'Organisationen',
  roleAdmin: 'Verwaltung',
  roleMember: 'Mitglied',
  passkeys: 'Passkeys',
  noPasskeys: 'Noch keine Passkeys. Ohne Passkey melden Sie sich nur mit einem neuen Link wieder an.',
  addPasskey: 'Passkey für dieses Gerät anlegen',
  passkeyName: 'Gerätename',
  passkeyNameHint: 'z. B. „Handy“ oder „Laptop Wache“',
  removePasskey: (name: string) => `Passkey „${name}“ entfernen`,
  created: 'angelegt',
  lastUsed: 'zuletzt benutzt',
  never: 'noch nie',
  linkTitle: 'Anmeldelink für ein anderes Gerät',
  linkLead: 'Öffnen Sie den Link auf dem anderen Gerät. Er gilt 10 Minuten und nur einmal.',
  linkButton: 'Link erzeugen',
  linkValidUntil: (time: string) => `gültig bis ${time}`,
  copy: 'Kopieren',
  copied: 'Kopiert',
  signOut: 'Abmelden',
  signedOut: 'Sie sind abgemeldet.',
  signInAgain: 'Wieder anmelden',
  toAccount: 'Weiter',
  offline: 'Keine Verbindung zum Server. Bitte prüfen Sie das Netz und versuchen Sie es erneut.',
  invalidCode: 'Dieser Link ist ungültig, abgelaufen oder wurde schon benutzt. Bitten Sie um einen neuen.',
  passkeyCancelled: 'Der Passkey-Dialog wurde abgebrochen.',
  passkeyUnsupported: 'Dieser Browser kann keine Passkeys. Nutzen Sie einen aktuellen Browser.',
  rateLimited: 'Zu viele Versuche. Bitte warten Sie eine Minute.',
  notSignedIn: 'Sie sind nicht angemeldet.',
  loading: 'Lädt …',
  language: 'Sprache',
  mainNav: 'Hauptnavigation',
  navMembers: 'Mitglieder',
  navAccount: 'Ihr Zugang',
  organization: 'Organisation',
  noOrganization: 'Sie gehören noch keiner Organisation an.',
  membersTitle: 'Mitglieder',
  membersReadOnly: 'Nur die Verwaltung kann Mitglieder einladen, Rollen ändern und entfernen.',
  inviteTitle: 'Person einladen',
  inviteLead: 'Die Person öffnet den Link oder scannt den QR-Code auf ihrem Handy. Er gilt 7 Tage und nur einmal.',
  name: 'Name',
  role: 'Rolle',
  inviteButton: 'Einladung erstellen',
  inviteReady: (name: string) => `Einladung für ${name}`,
  qrAlt: (name: string) => `QR-Code der Einladung für ${name}`,
  importTitle: 'Mitgliederliste importieren',
  importLead:
    'Eine CSV-Datei mit der Kopfzeile name,role,mobile,phone,units (Einheiten mit ; getrennt). Ist eine Zeile fehlerhaft, wird nichts angelegt.',
  importFile: 'CSV-Datei wählen',
  importDone: (n: number) => `${n} Personen angelegt. Geben Sie jeder ihren Link:`,
  importProblems: 'Nichts wurde angelegt. Bitte korrigieren Sie:',
  units: 'Einheiten',
  lastSeen: 'zuletzt aktiv',
  you: '(Sie)',
  changeRole: (name: string) => `Rolle von ${name}`,
  remove: (name: string) => `${name} entfernen`,
  removeConfirm: (name: string) =>
    `${name} aus der Organisation entfernen? Seine Anmeldungen verlieren den Zugang sofort.`,
  membersCount: (n: number) => (n === 1 ? '1 Mitglied' : `${n} Mitglieder`),
};

type Strings = typeof de;

const en: Strings = {
  product: 'alarm-hub',
  joinTitle: 'Welcome',
  joinLead: 'You have been invited. One tap joins you and signs you in on this device.',
  joinButton: 'Join',
  joining: 'One moment …',
  joinedTitle: (name: string) => `Hello ${name}`,
  joinedLead: 'You are signed in. Create a passkey to sign in again later without a link.',
  signinTitle: 'Sign in',
  signinLead: "Sign in with this device's passkey (fingerprint, face or PIN).",
  signinButton: 'Sign in with a passkey',
  signinNoPasskey:
    'No passkey yet? Ask your station admin for an invitation link, or open "Sign-in link for another device" on a device that is signed in.',
  accountTitle: 'Your account',
  organizations: 'Organizations',
  roleAdmin: 'Admin',
  roleMember: 'Member',
  passkeys: 'Passkeys',
  noPasskeys: 'No passkeys yet. Without one you sign in again only with a new link.',
  addPasskey: 'Create a passkey for this device',
  passkeyName: 'Device name',
  passkeyNameHint: 'e.g. "Phone" or "Station laptop"',
  removePasskey: (name: string) => `Remove passkey "${name}"`,
  created: 'created',
  lastUsed: 'last used',
  never: 'never',
  linkTitle: 'Sign-in link for another device',
  linkLead: 'Open the link on the other device. It is valid for 10 minutes and once.',
  linkButton: 'Make a link',
  linkValidUntil: (time: string) => `valid until ${time}`,
  copy: 'Copy',
  copied: 'Copied',
  signOut: 'Sign out',
  signedOut: 'You are signed out.',
  signInAgain: 'Sign in again',
  toAccount: 'Continue',
  offline: 'No connection to the server. Check the network and try again.',
  invalidCode: 'This link is invalid, expired or used already. Ask for a new one.',
  passkeyCancelled: 'The passkey prompt was cancelled.',
  passkeyUnsupported: 'This browser cannot use passkeys. Use a current browser.',
  rateLimited: 'Too many tries. Please wait a minute.',
  notSignedIn: 'You are not signed in.',
  loading: 'Loading …',
  language: 'Language',
  mainNav: 'Main navigation',
  navMembers: 'Members',
  navAccount: 'Your account',
  organization: 'Organization',
  noOrganization: 'You do not belong to an organization yet.',
  membersTitle: 'Members',
  membersReadOnly: 'Only admins invite members, change roles and remove members.',
  inviteTitle: 'Invite a person',
  inviteLead: 'The person opens the link or scans the QR code on their phone. It is valid for 7 days and once.',
  name: 'Name',
  role: 'Role',
  inviteButton: 'Create invitation',
  inviteReady: (name: string) => `Invitation for ${name}`,
  qrAlt: (name: string) => `QR code of the invitation for ${name}`,
  importTitle: 'Import a member list',
  importLead:
    'A CSV file with the header name,role,mobile,phone,units (units separated by ;). If any line is wrong, nothing is created.',
  importFile: 'Choose a CSV file',
  importDone: (n: number) => `${n} people created. Give each their link:`,
  importProblems: 'Nothing was created. Please correct:',
  units: 'Units',
  lastSeen: 'last active',
  you: '(you)',
  changeRole: (name: string) => `Role of ${name}`,
  remove: (name: string) => `Remove ${name}`,
  removeConfirm: (name: string) => `Remove ${name} from the organization? His sessions lose access at once.`,
  membersCount: (n: number) => (n === 1 ? '1 member' : `${n} members`),
};

/** The page's language: `?lang=`, else the browser's first language we speak, else German. */
export function pickLanguage(search: string, languages: readonly string[]): 'de' | 'en' {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'de' || asked === 'en') return asked;
  for (const l of languages) {
    const base = l.toLowerCase().slice(0, 2);
    if (base === 'de' || base === 'en') return base;
  }
  return 'de';
}

export const lang = pickLanguage(location.search, navigator.languages ?? [navigator.language]);
export const t: Strings = lang === 'de' ? de : en;

/** A time as people read it in the page's language. */
export function formatTime(iso: string): string {
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}
