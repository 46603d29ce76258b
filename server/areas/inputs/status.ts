// What IP1–IP3 show as an input's lastReceivedAt and lastError, kept apart from the input
// (InputStatusDoc in models.ts): each note replaces one whole status document, so two notes at once
// leave one of them, and none ever touches what an admin set.
import { isDuplicateKey } from '../../db/errors.js';
import type { InputDoc, InputModels } from './models.js';

export interface InputStatus {
  lastReceivedAt: Date | null;
  lastError: string | null;
}

/** Notes a document received now (its problem, or null). */
export async function noteReceived(
  models: Pick<InputModels, 'InputStatus'>,
  inputId: string,
  at: Date,
  error: string | null,
): Promise<void> {
  await put(models, `${inputId}:received`, { at });
  await put(models, `${inputId}:error`, { at, error });
}

/** Notes the input's latest problem, or that it has none (a watcher connected). */
export async function noteError(
  models: Pick<InputModels, 'InputStatus'>,
  inputId: string,
  error: string | null,
): Promise<void> {
  await put(models, `${inputId}:error`, { at: new Date(), error });
}

/** The input's status; an input noted only by an earlier version shows what it stored itself. */
export async function statusOf(models: Pick<InputModels, 'InputStatus'>, input: InputDoc): Promise<InputStatus> {
  const [received, error] = await Promise.all([
    models.InputStatus.findById(`${input._id}:received`).lean(),
    models.InputStatus.findById(`${input._id}:error`).lean(),
  ]);
  return {
    lastReceivedAt: received ? received.at : (input.lastReceivedAt ?? null),
    lastError: error ? (error.error ?? null) : (input.lastError ?? null),
  };
}

/** Removes a removed input's status. */
export async function forgetStatus(models: Pick<InputModels, 'InputStatus'>, inputId: string): Promise<void> {
  await models.InputStatus.deleteOne({ _id: `${inputId}:received` });
  await models.InputStatus.deleteOne({ _id: `${inputId}:error` });
}

// The whole document, made when missing: of two first notes at once, one is told the key is taken and
// replaces what the other made.
async function put(
  models: Pick<InputModels, 'InputStatus'>,
  _id: string,
  fields: { at: Date; error?: string | null },
): Promise<void> {
  try {
    await models.InputStatus.replaceOne({ _id }, { _id, ...fields }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await models.InputStatus.replaceOne({ _id }, { _id, ...fields });
  }
}
