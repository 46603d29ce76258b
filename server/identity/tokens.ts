// Token format and hashing. 32 random bytes; a prefix tells the scheme apart and lets secret scanners find leaks.
import crypto, { createHash, randomBytes } from 'node:crypto';
import type { TokenKind } from './models.js';

const PREFIX: Record<TokenKind, string> = { apikey: 'ahk_', pat: 'ahp_', screen: 'ahs_', session: 'ahc_' };

/** A new random token of the given kind, as shown once to its owner. */
export function generateToken(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

/** A code handed to a person (an invitation, a sign-in link): 192 random bits, short enough for a QR code. */
export function generateCode(): string {
  return randomBytes(24).toString('base64url');
}

// Every authenticated request hashes its token: the one-shot form (Node 20.12 and later) is several
// times cheaper than a Hash object; both give the same digest.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** The stored form of a token. SHA-256 suffices: tokens carry 256 random bits, so nothing is there to brute-force. */
export function hashToken(token: string): string {
  return oneShot ? oneShot('sha256', token, 'hex') : createHash('sha256').update(token).digest('hex');
}
