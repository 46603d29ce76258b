// The hub checks the credentials of its connected sockets again every TOKEN_RECHECK_MS
// (server/hub/recheck.ts). Reading each socket's token on every pass cost one lookup per paired screen
// (each screen has a token of its own): 200 lookups a second on a process holding 1,000 screens, with
// nothing changed. So every change that can take rights away from a credential — a revocation, a
// membership change — also writes a new random mark, after its own write. A pass reads the mark first,
// then checks only the sockets whose credential was read under another mark (docs/hub.md, "The hub").
import { randomUUID } from 'node:crypto';
import type { Connected } from '../db/models.js';
import { identityModels } from './models.js';

const LATEST = 'latest';

/** The mark before any change was recorded (an empty collection). */
export const NO_CHANGES = 'none';

/** Records a change that may take rights away from a credential: call it after that change's write. */
export async function credentialsChanged(db: Connected): Promise<void> {
  await identityModels(db).CredentialChange.updateOne(
    { _id: LATEST },
    { $set: { mark: randomUUID(), at: new Date() } },
    { upsert: true },
  );
}

/** The latest change's mark (one exact lookup). */
export async function credentialChangeMark(db: Connected): Promise<string> {
  const latest = await identityModels(db).CredentialChange.findById(LATEST, { mark: 1 }).lean();
  return latest?.mark ?? NO_CHANGES;
}
