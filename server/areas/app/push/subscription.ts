// A web device's push subscription (docs/members-app.md "Web Push"): the JSON of the browser's
// PushSubscription, checked when a device is written (A2, A4) and again before every push, since
// WEB_PUSH_ORIGINS may have changed since. The service posts to the endpoint a member gave it, so only
// the origins of the known push services and those the operator listed are taken: no member can make
// it call an address of his choosing (a host inside the station's network, say).
import { ECDH } from 'node:crypto';

/** A subscription as web-push takes it. */
export interface WebSubscription {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** The push services of the browsers: Firefox, Chrome and its kin, Safari, Edge. */
const KNOWN_ORIGINS = new Set(['https://updates.push.services.mozilla.com', 'https://fcm.googleapis.com']);
/** Push services reached under many host names (Apple's web.push.apple.com, Windows' <region>.notify.windows.com). */
const KNOWN_DOMAINS = ['.push.apple.com', '.notify.windows.com'];
const FIELDS = new Set(['endpoint', 'expirationTime', 'keys']);
const MAX_ENDPOINT = 2048;

/** Why an endpoint may not be pushed to (null: it may): an https URL at a known push service or a listed origin. */
export function endpointProblem(endpoint: string, origins: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'has an endpoint that is not a URL';
  }
  if (url.username || url.password) return 'has an endpoint with user information';
  if (origins.includes(url.origin)) return null;
  if (url.protocol !== 'https:') return `has an endpoint that is not https (${url.origin})`;
  const known =
    KNOWN_ORIGINS.has(url.origin) ||
    (url.port === '' &&
      KNOWN_DOMAINS.some(
        (domain) => url.hostname.endsWith(domain) && /^[a-z0-9-]+$/.test(url.hostname.slice(0, -domain.length)),
      ));
  if (known) return null;
  return (
    `has an endpoint at ${url.origin}, which is neither a known push service (Mozilla, Google, Apple, ` +
    'Microsoft) nor listed in WEB_PUSH_ORIGINS'
  );
}

// Browsers write the keys in base64url without padding; padding is taken all the same.
function keyBytes(text: unknown): Buffer | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(text) || text.length > 200) return null;
  return Buffer.from(text.replace(/=+$/, ''), 'base64url');
}

// The client's public key must be a point on P-256, or encrypting to it fails at every push.
function onCurve(point: Buffer): boolean {
  try {
    ECDH.convertKey(point, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/** The subscription a web device's pushToken holds, or why it is none (a sentence after "pushToken …"). */
export function parseSubscription(
  text: string,
  origins: readonly string[],
): { subscription: WebSubscription } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'must be the JSON of the browser\'s PushSubscription: {"endpoint", "keys": {"p256dh", "auth"}}' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'must be the JSON object of a PushSubscription' };
  const sub = value as Record<string, unknown>;
  const extra = Object.keys(sub).filter((field) => !FIELDS.has(field));
  if (extra.length) return { problem: `has fields a PushSubscription does not have: ${extra.slice(0, 5).join(', ')}` };
  if (typeof sub.endpoint !== 'string' || sub.endpoint.length === 0 || sub.endpoint.length > MAX_ENDPOINT)
    return { problem: `must have an endpoint, a URL of at most ${MAX_ENDPOINT} characters` };
  const why = endpointProblem(sub.endpoint, origins);
  if (why) return { problem: why };
  if (sub.expirationTime !== undefined && sub.expirationTime !== null && typeof sub.expirationTime !== 'number')
    return { problem: 'has an expirationTime that is neither null nor a number' };
  const keys = sub.keys as Record<string, unknown> | undefined;
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys))
    return { problem: 'must have keys {"p256dh", "auth"}' };
  const p256dh = keyBytes(keys.p256dh);
  if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04 || !onCurve(p256dh))
    return { problem: 'must have keys.p256dh, a P-256 public key of 65 bytes (uncompressed point) in base64url' };
  const auth = keyBytes(keys.auth);
  if (!auth || auth.length !== 16) return { problem: 'must have keys.auth, 16 bytes in base64url' };
  return {
    subscription: {
      endpoint: sub.endpoint,
      keys: { p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}
