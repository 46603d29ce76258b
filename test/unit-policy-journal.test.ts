// The journal's and the integration's permission rules (server/identity/policy.ts), without a database.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import type { Actor } from '../server/identity/actor.js';
import { canKeepJournal, canReadIntegrationSecrets, canSuperviseJournal } from '../server/identity/policy.js';

const ORG = 41;
const OTHER = 42;
const apiKey: Actor = { kind: 'apikey', tokenId: 9, credential: 'k', organizationId: ORG };
const user = (roles: Array<[number, 'admin' | 'member']>): Actor => ({
  kind: 'user',
  tokenId: 3,
  credential: 'p',
  userId: 8,
  roles: new Map(roles),
});

const policy = suite('journal and integration policy');

policy('members and the API key keep the journal (read, lock, write entries); outsiders do not', () => {
  assert.ok(canKeepJournal(user([[ORG, 'member']]), ORG));
  assert.ok(canKeepJournal(user([[ORG, 'admin']]), ORG));
  assert.ok(canKeepJournal(apiKey, ORG));
  assert.not.ok(canKeepJournal(user([[OTHER, 'admin']]), ORG));
  assert.not.ok(canKeepJournal(apiKey, OTHER));
  assert.not.ok(canKeepJournal(user([]), ORG));
});

policy('only admins and the API key close journals and break locks', () => {
  assert.ok(canSuperviseJournal(user([[ORG, 'admin']]), ORG));
  assert.ok(canSuperviseJournal(apiKey, ORG));
  assert.not.ok(canSuperviseJournal(user([[ORG, 'member']]), ORG));
  assert.not.ok(
    canSuperviseJournal(
      user([
        [ORG, 'member'],
        [OTHER, 'admin'],
      ]),
      ORG,
    ),
  );
  assert.not.ok(canSuperviseJournal(apiKey, OTHER));
});

policy('integration secrets are read by admins and the API key of the organization, not by members', () => {
  assert.ok(canReadIntegrationSecrets(user([[ORG, 'admin']]), ORG));
  assert.ok(canReadIntegrationSecrets(apiKey, ORG));
  assert.not.ok(canReadIntegrationSecrets(user([[ORG, 'member']]), ORG));
  assert.not.ok(canReadIntegrationSecrets(user([[OTHER, 'admin']]), ORG));
});

policy.run();
