// The screen signs in once: the token lives in localStorage, the monitor id in the page address. A
// paired screen also keeps what its pairing told it (its screen id, name and monitor).
import type { AuthScheme } from '../../common/hub-protocol.js';

const TOKEN_KEY = 'alarm-hub.display.token';
const SCREEN_KEY = 'alarm-hub.display.screen';
// Kiosk browsers sometimes disable storage; the values then last until the page reloads.
const memory = new Map<string, string>();

/** What a paired screen knows about itself (from F2). */
export interface PairedScreen {
  screenId: number;
  monitorId: number;
  name: string;
}

/**
 * The handshake scheme for a token by its prefix (ahk_ = API key, ahp_ = personal access token, ahs_ = screen token).
 */
export function schemeFor(token: string): AuthScheme | null {
  if (token.startsWith('ahk_')) return 'api-token';
  if (token.startsWith('ahp_')) return 'personal-access-token';
  if (token.startsWith('ahs_')) return 'screen-token';
  return null;
}

function load(key: string): string | null {
  try {
    return localStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

function save(key: string, value: string | null): void {
  if (value === null) memory.delete(key);
  else memory.set(key, value);
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the in-memory copy still serves this page
  }
}

/** The stored token, or null when the screen has not signed in. */
export function loadToken(): string | null {
  return load(TOKEN_KEY);
}

/** Keeps the token for the next page load. */
export function saveToken(token: string): void {
  save(TOKEN_KEY, token);
}

/** Forgets the token and the pairing, e.g. after the hub said the token was revoked. */
export function clearToken(): void {
  save(TOKEN_KEY, null);
  save(SCREEN_KEY, null);
}

/** Keeps a paired screen's token and identity. */
export function savePairing(token: string, screen: PairedScreen): void {
  save(TOKEN_KEY, token);
  save(SCREEN_KEY, JSON.stringify(screen));
}

/** The stored pairing, or null (none, or unreadable). */
export function loadPairing(): PairedScreen | null {
  try {
    const value = JSON.parse(load(SCREEN_KEY) ?? 'null') as Partial<PairedScreen> | null;
    const ok =
      value &&
      Number.isSafeInteger(value.screenId) &&
      Number.isSafeInteger(value.monitorId) &&
      typeof value.name === 'string';
    return ok ? { screenId: value.screenId!, monitorId: value.monitorId!, name: value.name! } : null;
  } catch {
    return null;
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
