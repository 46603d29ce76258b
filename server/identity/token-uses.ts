// When each credential was last used (TokenUse in models.ts): written apart from the token, so that a
// token is written only when it is revoked.
import type { Connected } from '../db/models.js';
import { identityModels, type Token } from './models.js';

/** Records that the credential (a token's _id) was presented at `at`; a later record is kept. */
export async function recordUse(db: Connected, credential: string, at: Date): Promise<void> {
  await identityModels(db).TokenUse.updateOne({ _id: credential }, { $max: { at } }, { upsert: true });
}

/** When the credential was last presented, or null. */
export async function lastUseOf(db: Connected, token: Pick<Token, '_id' | 'lastUsedAt'>): Promise<Date | null> {
  const use = await identityModels(db).TokenUse.findById(token._id, { at: 1 }).lean();
  return later(token.lastUsedAt, use?.at);
}

/** The tokens, each with when it was last presented (null: never). */
export async function withLastUse<T extends Pick<Token, '_id' | 'lastUsedAt'>>(
  db: Connected,
  tokens: T[],
): Promise<Array<T & { lastUsedAt: Date | null }>> {
  // One command for the list (on the embedded engine a scan of the uses, as the tokens' own was).
  const uses = tokens.length
    ? await identityModels(db)
        .TokenUse.find({ _id: { $in: tokens.map((t) => t._id) } })
        .lean()
    : [];
  const at = new Map(uses.map((u) => [u._id, u.at]));
  return tokens.map((t) => ({ ...t, lastUsedAt: later(t.lastUsedAt, at.get(t._id)) }));
}

/** Removes the use of a token that was deleted. */
export async function forgetUse(db: Connected, credential: string): Promise<void> {
  await identityModels(db).TokenUse.deleteOne({ _id: credential });
}

function later(a: Date | null | undefined, b: Date | null | undefined): Date | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a.getTime() >= b.getTime() ? a : b;
}
