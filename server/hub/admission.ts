// Who may open sockets and subscribe, and how often. Limits are kept per credential and client
// address, not per socket: reconnecting does not reset them, and screens of one key at different
// stations do not share a budget. A credential may hold at most `maxSocketsPerToken` sockets here.
import { rateLimited } from '../errors.js';
import type { Limiter, Limits } from '../http/limits.js';
import { AppError } from '../errors.js';

/** Monitors one socket may follow at once (a split wall shows a few; this bounds a misbehaving client). */
export const MAX_SUBSCRIPTIONS = 50;

export interface AdmissionOptions {
  /** Where bad handshakes (per address) and subscriptions (per credential and address) are counted. */
  limits: Limits;
  /** Sockets one credential may hold on this process; 0 is no cap. */
  maxSocketsPerToken: number;
}

/** The hub's rate limits and socket caps. */
export class Admission {
  private readonly badHandshakes: Limiter;
  private readonly subscriptions: Limiter;
  private readonly sockets = new Map<number, Set<string>>();

  constructor(private readonly options: AdmissionOptions) {
    this.badHandshakes = options.limits.create('bad-handshakes', 5, 20);
    // A wall may follow many monitors at once, then re-subscribes only on gaps and reconnects.
    this.subscriptions = options.limits.create('subscriptions', 2, MAX_SUBSCRIPTIONS + 10);
  }

  /** The connect_error for a refused handshake from `address`: unauthorized, or rate_limited past the budget. */
  async refusal(address: string): Promise<'unauthorized' | 'rate_limited'> {
    return (await this.badHandshakes.take(address)) ? 'rate_limited' : 'unauthorized';
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
  async checkSubscribe(tokenId: number, address: string, followed: number, alreadyFollowed: boolean): Promise<void> {
    const wait = await this.subscriptions.take(`${tokenId}@${address}`);
    if (wait) throw rateLimited(wait);
    if (followed >= MAX_SUBSCRIPTIONS && !alreadyFollowed) {
      throw new AppError(403, 'forbidden', `A screen can follow at most ${MAX_SUBSCRIPTIONS} monitors`);
    }
  }
}
