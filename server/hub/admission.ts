// Who may open sockets and subscribe, and how often. Limits are kept per credential and client
// address, not per socket: reconnecting does not reset them, and screens of one key at different
// stations do not share a budget. A credential may hold at most `maxSocketsPerToken` sockets here.
import { rateLimited } from '../http/errors.js';
import { RateLimiter } from '../http/rate-limit.js';
import { AppError } from '../http/errors.js';

/** Monitors one socket may follow at once (a split wall shows a few; this bounds a misbehaving client). */
export const MAX_SUBSCRIPTIONS = 50;

export interface AdmissionOptions {
  /** 0 turns the rate limits off (bad handshakes per address, subscriptions per credential and address). */
  rateLimitPerSecond: number;
  /** Sockets one credential may hold on this process; 0 is no cap. */
  maxSocketsPerToken: number;
}

/** The hub's rate limits and socket caps. */
export class Admission {
  private readonly badHandshakes: RateLimiter;
  private readonly subscriptions: RateLimiter;
  private readonly sockets = new Map<number, Set<string>>();

  constructor(private readonly options: AdmissionOptions) {
    const limited = options.rateLimitPerSecond > 0;
    this.badHandshakes = new RateLimiter(limited ? 5 : 0, 20);
    // A wall may follow many monitors at once, then re-subscribes only on gaps and reconnects.
    this.subscriptions = new RateLimiter(limited ? 2 : 0, MAX_SUBSCRIPTIONS + 10);
  }

  /** The connect_error for a refused handshake from `address`: unauthorized, or rate_limited past the budget. */
  refusal(address: string): 'unauthorized' | 'rate_limited' {
    return this.badHandshakes.take(address) ? 'rate_limited' : 'unauthorized';
  }

  /** Counts a socket of a credential in; false (nothing counted) when the credential is at its cap. */
  admit(tokenId: number, socketId: string): boolean {
    const held = this.sockets.get(tokenId) ?? new Set<string>();
    if (this.options.maxSocketsPerToken > 0 && held.size >= this.options.maxSocketsPerToken) return false;
    this.sockets.set(tokenId, held.add(socketId));
    return true;
  }

  /** Counts a socket out. */
  release(tokenId: number, socketId: string): void {
    const held = this.sockets.get(tokenId);
    if (!held) return;
    held.delete(socketId);
    if (held.size === 0) this.sockets.delete(tokenId);
  }

  /** Throws 429 when the credential at this address subscribes too often, 403 past the subscription cap. */
  checkSubscribe(tokenId: number, address: string, followed: number, alreadyFollowed: boolean): void {
    const wait = this.subscriptions.take(`${tokenId}@${address}`);
    if (wait) throw rateLimited(wait);
    if (followed >= MAX_SUBSCRIPTIONS && !alreadyFollowed) {
      throw new AppError(403, 'forbidden', `A screen can follow at most ${MAX_SUBSCRIPTIONS} monitors`);
    }
  }
}
