// Token format and hashing. 32 random bytes; a prefix tells the scheme apart and lets secret scanners find leaks.
import { createHash, randomBytes } from 'node:crypto';
import type { TokenKind } from './models.js';

const PREFIX: Record<TokenKind, string> = { apikey: 'ahk_', pat: 'ahp_', screen: 'ahs_' };

/** A new random token of the given kind, as shown once to its owner. */
export function generateToken(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

/** The stored form of a token. SHA-256 suffices: tokens carry 256 random bits, so nothing is there to brute-force. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
