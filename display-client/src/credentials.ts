// The screen signs in once: the token lives in localStorage, the monitor id in the page address.
import type { AuthScheme } from '../../server/hub/protocol.js';

const TOKEN_KEY = 'alarm-hub.display.token';
// Kiosk browsers sometimes disable storage; the token then lasts until the page reloads.
let memoryToken: string | null = null;

/** The handshake scheme for a token by its prefix (ahk_ = API key, ahp_ = personal access token). */
export function schemeFor(token: string): AuthScheme | null {
  if (token.startsWith('ahk_')) return 'api-token';
  if (token.startsWith('ahp_')) return 'personal-access-token';
  return null;
}

/** The stored token, or null when the screen has not signed in. */
export function loadToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? memoryToken;
  } catch {
    return memoryToken;
  }
}

/** Keeps the token for the next page load. */
export function saveToken(token: string): void {
  memoryToken = token;
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // storage unavailable: memoryToken still serves this page
  }
}

/** Forgets the token, e.g. after the hub said it was revoked. */
export function clearToken(): void {
  memoryToken = null;
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored, nothing to clear
  }
}

/** Parses a monitor id: a positive safe integer, as the service assigns them. */
export function parseMonitorId(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,16}$/.test(text.trim())) return null;
  const id = Number(text.trim());
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The monitor id from `?monitor=<id>` of the page address. */
export function monitorIdFromUrl(): number | null {
  return parseMonitorId(new URLSearchParams(location.search).get('monitor'));
}

/** Writes the monitor id into the address so a reload (or a bookmark) keeps showing that monitor. */
export function rememberMonitorId(id: number): void {
  const url = new URL(location.href);
  url.searchParams.set('monitor', String(id));
  history.replaceState(null, '', url);
}
