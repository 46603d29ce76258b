// Passkeys' operations PK1–PK6 (docs/people.md "Passkeys"): a signed-in person registers and removes
// passkeys; anyone signs in with one.
import {
  Joined,
  PasskeyIdParams,
  PasskeyList,
  PasskeyOptions,
  PasskeyRegisterBody,
  PasskeySignInBody,
  PasskeyView,
} from '../../../schemas/people.js';
import { StatusResult } from '../../../schemas/screens.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { PeopleCommands } from './commands.js';

const ANSWER = 'The passkey answer is missing or in wrong format';

/** The passkeys' operation declarations. */
export function passkeyOperations(people: PeopleCommands): Operation[] {
  return [
    defineOperation({
      label: 'PK1',
      operationId: 'startPasskeyRegistration',
      method: 'post',
      path: '/api/v1/session/passkeys/options',
      summary: 'Options for the browser to create a passkey for the signed-in person',
      description:
        'Only with the session cookie. Hand `options` to the browser (navigator.credentials.create, or ' +
        "SimpleWebAuthn's startRegistration) and send its answer to PK2 with `challengeId` within 5 minutes.",
      response: { status: 200, schema: PasskeyOptions, description: 'The challenge and the options' },
      errors: [400, 409],
      handler: ({ actor }) => people.passkeyOptions(actor),
    }),
    defineOperation({
      label: 'PK2',
      operationId: 'registerPasskey',
      method: 'post',
      path: '/api/v1/session/passkeys',
      summary: "Keep the browser's new passkey",
      description:
        'Only with the session cookie. The answer is verified against the challenge, the public origin and ' +
        'host (PUBLIC_URL); each challenge answers once.',
      body: { schema: PasskeyRegisterBody, message: ANSWER },
      response: { status: 201, schema: PasskeyView, description: 'The passkey' },
      errors: [400, 404, 409, 413, 415],
      handler: ({ actor, body }) => people.registerPasskey(actor, body),
    }),
    defineOperation({
      label: 'PK3',
      operationId: 'listPasskeys',
      method: 'get',
      path: '/api/v1/session/passkeys',
      summary: "The signed-in person's passkeys, newest first",
      description: "A session, or the person's personal access token. An API key is no person: 403.",
      response: { status: 200, schema: PasskeyList, description: 'His passkeys' },
      errors: [403],
      handler: ({ actor }) => people.listPasskeys(actor),
    }),
    defineOperation({
      label: 'PK4',
      operationId: 'removePasskey',
      method: 'delete',
      path: '/api/v1/session/passkeys/:passkeyId',
      summary: 'Remove one of his passkeys (a lost phone)',
      description: "Only with the session cookie; another person's passkey is not found (404).",
      params: { schema: PasskeyIdParams, message: 'passkeyId missing or in wrong format' },
      response: { status: 200, schema: StatusResult, description: 'Removed' },
      errors: [400, 404],
      handler: ({ actor, params }) => people.removePasskey(actor, params.passkeyId),
    }),
    defineOperation({
      label: 'PK5',
      operationId: 'startPasskeySignIn',
      method: 'post',
      path: '/api/v1/passkeys/signin/options',
      summary: 'Options to sign in with a passkey (no credential)',
      description:
        'Hand `options` to the browser (navigator.credentials.get); it offers the passkeys it holds for this ' +
        'service. Limited to 30 per minute and client address.',
      public: true,
      perMinute: 30,
      response: { status: 200, schema: PasskeyOptions, description: 'The challenge and the options' },
      errors: [],
      handler: () => people.signInOptions(),
    }),
    defineOperation({
      label: 'PK6',
      operationId: 'signInWithPasskey',
      method: 'post',
      path: '/api/v1/passkeys/signin',
      summary: 'Sign in with a passkey: sets the session cookie',
      description:
        'An unknown passkey or a wrong signature answers 401; an expired or used challenge 404 `invalid_code`. ' +
        "Limited to 30 per minute and client address; a request from another site's page is refused (403 `csrf`).",
      public: true,
      perMinute: 30,
      body: { schema: PasskeySignInBody, message: ANSWER },
      response: { status: 201, schema: Joined, description: 'Signed in; the answer sets the cookie alarmhub_session' },
      errors: [400, 401, 403, 404, 413, 415],
      handler: ({ ctx, body }) => people.signInWithPasskey(ctx, body),
    }),
  ];
}
