// Web Push (RFC 8030) to web devices (docs/members-app.md "Web Push"): the payload encrypted aes128gcm
// (RFC 8291) and the VAPID header (RFC 8292) made by the `web-push` package, sent by our own client
// (web-client.ts: keep-alive per push service, a deadline, a bounded answer). The VAPID JWT is signed
// once per push service and hour, not per push: signing costs more than encrypting.
import { AppError } from '../../../errors.js';
import type { DeviceDoc } from '../models.js';
import type { VapidPair } from '../vapid.js';
import { pushUnavailable } from './http2.js';
import { parseSubscription } from './subscription.js';
import { gatewayError, type PushGateway, type PushMessage, type PushOutcome } from './types.js';
import { WebPushUnreachable, type WebPushClient } from './web-client.js';

/** How long a push service keeps an undelivered alarm: one that arrives later is of no use at the station. */
export const WEB_PUSH_TTL_SECONDS = 300;
/** The most an encrypted push carries (RFC 8291 §4: 4096 bytes, less the 86-byte header, tag and delimiter). */
const PAYLOAD_LIMIT = 4096 - 86 - 16 - 1;
const JWT_LIFE_S = 12 * 3600;
const JWT_RENEW_MS = 3600_000;
/** The longest wait a push service's Retry-After may ask of A5's caller. */
const MAX_RETRY_AFTER_S = 3600;

export interface WebPushOptions {
  keys: () => Promise<VapidPair>;
  /** The VAPID subject (`sub`): a mailto: or https: URL. */
  subject: () => string;
  /** Origins allowed besides the known push services (WEB_PUSH_ORIGINS). */
  origins: readonly string[];
  client: WebPushClient;
}

/** The decrypted payload the app's service worker reads (docs/members-app.md "Web Push"). */
export function webPayload(message: PushMessage): Record<string, unknown> {
  const answerToken = message.confirmToken;
  if (!message.alarm || message.alarmId === undefined)
    return { type: 'test', title: message.title, body: message.body, answerToken };
  const { event, message: text, address, organizationName, startedAt } = message.alarm;
  return {
    type: 'alarm',
    alarmId: message.alarmId,
    event,
    message: text,
    address,
    organizationName,
    startedAt,
    answerToken,
  };
}

// An alarm's long message is cut (then its address, then its event) so that the push fits.
function fitted(payload: Record<string, unknown>): string {
  let text = JSON.stringify(payload);
  for (const field of ['message', 'address', 'event', 'body', 'organizationName']) {
    while (Buffer.byteLength(text) > PAYLOAD_LIMIT && typeof payload[field] === 'string' && payload[field] !== '') {
      const value = payload[field] as string;
      // The bytes the field may keep, less the ellipsis (3 bytes); JSON's escapes only make the cut longer.
      const keep = Buffer.byteLength(value) - (Buffer.byteLength(text) - PAYLOAD_LIMIT) - 3;
      payload[field] = keep > 0 ? `${leading(value, keep)}…` : '';
      text = JSON.stringify(payload);
    }
  }
  return text;
}

// The longest start of `value` of at most `bytes` UTF-8 bytes, never splitting a character.
function leading(value: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of value) {
    used += Buffer.byteLength(char);
    if (used > bytes) break;
    end += char.length;
  }
  return value.slice(0, end);
}

// The key pair could not be read (the database, the secrets key): a push that may work later.
function unsigned(err: unknown): never {
  if (err instanceof AppError) throw err;
  throw pushUnavailable(`The VAPID key pair could not be read (${(err as Error).message})`);
}

// A Retry-After in seconds (a date is taken as "later"), bounded.
function retryAfter(value: string | string[] | undefined): string {
  const seconds = Number(Array.isArray(value) ? value[0] : value);
  return String(Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, MAX_RETRY_AFTER_S) : 30);
}

// What a push service says, for AL3's lastError and A5's message: one line, bounded.
const reasonOf = (body: string) => body.replace(/\s+/g, ' ').trim().slice(0, 200) || 'no reason given';

/** Sends web pushes. */
export class WebPushGateway implements PushGateway {
  private readonly jwts = new Map<string, { authorization: string; at: number }>();

  constructor(private readonly options: WebPushOptions) {}

  /** Sends one push; 404 and 410 are `dead`; 429, 5xx and no answer throw 503 (retry), 3xx and other refusals 502. */
  async send(device: DeviceDoc, message: PushMessage): Promise<PushOutcome> {
    // Checked again: WEB_PUSH_ORIGINS may have lost the subscription's origin since it was stored.
    const parsed = parseSubscription(device.pushToken, this.options.origins);
    if ('problem' in parsed)
      throw new AppError(502, 'push_failed', `The web device's subscription cannot be used: it ${parsed.problem}`);
    const { subscription } = parsed;
    const origin = new URL(subscription.endpoint).origin;
    // Loaded when a push is first sent: web-push costs every start (and admin command) its load.
    const { default: webpush } = await import('web-push');
    const details = webpush.generateRequestDetails(subscription, fitted(webPayload(message)), {
      TTL: WEB_PUSH_TTL_SECONDS,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
      ...(message.alarmId !== undefined ? { topic: String(message.alarmId) } : {}),
      // No vapidDetails: the Authorization header below is the signed one, kept for an hour.
      headers: { Authorization: await this.authorization(webpush, origin).catch(unsigned) },
    });
    let reply;
    try {
      reply = await this.options.client.post(details.endpoint, details.headers, details.body);
    } catch (err) {
      if (err instanceof WebPushUnreachable) throw pushUnavailable(err.message);
      throw err;
    }
    if (reply.status >= 200 && reply.status < 300) return 'sent';
    if (reply.status === 404 || reply.status === 410) return 'dead';
    // A redirect is not followed (its Location could name any address): that push fails, like a refusal.
    if (reply.status >= 300 && reply.status < 400)
      throw new AppError(
        502,
        'push_failed',
        `The push service ${origin} answered ${reply.status}, a redirect, which is not followed`,
      );
    const why = reasonOf(reply.body);
    if (reply.status === 429)
      throw new AppError(503, 'push_unavailable', `The push service ${origin} is busy (429 ${why})`, undefined, {
        'Retry-After': retryAfter(reply.headers['retry-after']),
      });
    throw gatewayError(`The push service ${origin}`, reply.status, why);
  }

  private async authorization(webpush: typeof import('web-push'), audience: string): Promise<string> {
    const keys = await this.options.keys();
    const subject = this.options.subject();
    const key = `${audience} ${subject} ${keys.publicKey}`;
    const kept = this.jwts.get(key);
    if (kept && Date.now() - kept.at < JWT_RENEW_MS) return kept.authorization;
    const expiration = Math.floor(Date.now() / 1000) + JWT_LIFE_S;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      subject,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
      expiration,
    );
    if (this.jwts.size > 100) this.jwts.clear();
    this.jwts.set(key, { authorization: Authorization, at: Date.now() });
    return Authorization;
  }
}
