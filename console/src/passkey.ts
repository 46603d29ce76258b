// The browser's side of passkeys (docs/people.md "Passkeys"): SimpleWebAuthn's browser helpers turn the
// API's options into navigator.credentials calls and their answers back into JSON for the API.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { api, ApiError } from './api.js';

interface Options {
  challengeId: string;
  options: Record<string, unknown>;
}

/** Thrown when the browser cannot or the person did not (cancelled the prompt). */
export class PasskeyRefused extends Error {
  constructor(readonly reason: 'cancelled' | 'unsupported') {
    super(reason);
  }
}

async function browserStep<T>(step: () => Promise<T>): Promise<T> {
  if (!browserSupportsWebAuthn()) throw new PasskeyRefused('unsupported');
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new PasskeyRefused('cancelled');
  }
}

/** Creates a passkey for the signed-in person on this device (PK1, PK2). */
export async function createPasskey(name: string): Promise<void> {
  const { challengeId, options } = await api<Options>('POST', '/session/passkeys/options');
  const response = await browserStep(() => startRegistration({ optionsJSON: options as never }));
  await api('POST', '/session/passkeys', { challengeId, response, name });
}

/** Signs in with a passkey this device holds (PK5, PK6). */
export async function signInWithPasskey(): Promise<void> {
  const { challengeId, options } = await api<Options>('POST', '/passkeys/signin/options');
  const response = await browserStep(() => startAuthentication({ optionsJSON: options as never }));
  await api('POST', '/passkeys/signin', { challengeId, response });
}
