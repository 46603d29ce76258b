// An organization's API keys (K1–K3, docs/people.md "API keys"): listed by its admins and keys, created
// and revoked by an admin in person. A key is the station's integration; a key that could mint or
// revoke keys would let a leaked one keep itself alive or lock the station out.
import { ApiKey, ApiKeyBody, ApiKeyCreated, ApiKeyList, ApiKeyParams } from '../../../schemas/people.js';
import type { Database } from '../../db/database.js';
import { forbidden } from '../../errors.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { CredentialEvents } from '../../hub/events.js';
import type { Actor } from '../../identity/actor.js';
import { IdentityCommands } from '../../identity/commands.js';
import { canConfigure } from '../../identity/policy.js';

/** The API keys' commands. */
export class ApiKeys {
  private readonly identity: IdentityCommands;

  constructor(
    private readonly db: Database,
    private readonly events: CredentialEvents,
  ) {
    this.identity = new IdentityCommands(db);
  }

  /** K1: the organization's keys, revoked ones too (they say when), oldest first. */
  async list(actor: Actor, organizationId: number) {
    if (!canConfigure(actor, organizationId))
      throw forbidden(`Only admins of organization ${organizationId} see its API keys`);
    return { apiKeys: await this.identity.apiKeysOf(organizationId) };
  }

  /** K2: a new key, its token shown once. */
  async create(actor: Actor, organizationId: number, name: string) {
    this.inPerson(actor, organizationId);
    const made = await this.identity.createApiKey(organizationId, name.trim());
    const { key } = await this.identity.apiKeyOf(organizationId, made.id);
    return { ...key, token: made.token };
  }

  /** K3: revokes a key on every process at once; its sockets close. Revoking twice answers the same. */
  async revoke(actor: Actor, organizationId: number, keyId: number) {
    this.inPerson(actor, organizationId);
    const { hash } = await this.identity.apiKeyOf(organizationId, keyId);
    await this.identity.revokeToken(keyId);
    await this.events.credentialRevoked(hash);
    return (await this.identity.apiKeyOf(organizationId, keyId)).key;
  }

  private inPerson(actor: Actor, organizationId: number) {
    if (actor.kind !== 'user')
      throw forbidden('API keys are created and revoked by an admin in person (the console or the admin command)');
    if (!canConfigure(actor, organizationId))
      throw forbidden(`Only admins of organization ${organizationId} manage its API keys`);
  }
}

const params = { schema: ApiKeyParams, message: 'organizationId or keyId missing or in wrong format' };

/** The API keys' operation declarations. */
export function apiKeyOperations(keys: ApiKeys): Operation[] {
  return [
    defineOperation({
      label: 'K1',
      operationId: 'listApiKeys',
      method: 'get',
      path: '/api/v1/organizations/:organizationId/api-keys',
      summary: "The organization's API keys: names, when made and last used, revoked ones with when",
      description: 'Admins of the organization and its API keys. The tokens themselves are never shown again.',
      params,
      response: { status: 200, schema: ApiKeyList, description: 'The keys, oldest first' },
      errors: [400, 403],
      handler: ({ actor, params }) => keys.list(actor, params.organizationId),
    }),
    defineOperation({
      label: 'K2',
      operationId: 'createApiKey',
      method: 'post',
      path: '/api/v1/organizations/:organizationId/api-keys',
      summary: 'A new API key for an integration; its token is shown once, in this answer',
      description:
        'An admin of the organization in person (a session or his personal access token); an API key ' +
        'cannot make keys (403).',
      params,
      body: { schema: ApiKeyBody, message: 'name missing or not one line of at most 100 characters' },
      response: { status: 201, schema: ApiKeyCreated, description: 'The key with its token' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => keys.create(actor, params.organizationId, body.name),
    }),
    defineOperation({
      label: 'K3',
      operationId: 'revokeApiKey',
      method: 'delete',
      path: '/api/v1/organizations/:organizationId/api-keys/:keyId',
      summary: 'Revoke an API key: refused at once on every process, its sockets closed',
      description:
        'An admin of the organization in person; an API key cannot revoke keys (403). Revoking again answers ' +
        "the same. Another organization's key is not found (404).",
      params,
      response: { status: 200, schema: ApiKey, description: 'The key, with revokedAt' },
      errors: [400, 403, 404],
      handler: ({ actor, params }) => keys.revoke(actor, params.organizationId, params.keyId!),
    }),
  ];
}
