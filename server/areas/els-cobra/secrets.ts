// Integration secrets (privateKey, password) at rest: AES-256-GCM with a random 96-bit IV per value,
// authenticated together with where the value belongs (organization, resource, field), so a stored
// ciphertext cannot be moved to another organization or field unnoticed. Each value names the key it
// was written under: the current key (SECRETS_KEY, or the key file under DATA_DIR) encrypts, and the
// previous keys (SECRETS_PREVIOUS_KEYS) still decrypt what they wrote, so the key can be rotated.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';

/** One encrypted value as stored. */
export interface EncryptedSecret {
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

const KEY_BYTES = 32;

/** The 32 key bytes of a base64 or hex text, or null when it is neither. */
export function parseKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === KEY_BYTES ? bytes : null;
}

/** A key's public name: the first 16 hex digits of its SHA-256 (the key cannot be derived from it). */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('alarm-hub secrets key').update(key).digest('hex').slice(0, 16);
}

/** The current key and the previous ones, by key id. */
export class Keyring {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.keyId = keyIdOf(current);
    for (const key of [current, ...previous]) this.keys.set(keyIdOf(key), key);
  }

  /** Encrypts `plain` under the current key, bound to `context`. */
  encrypt(plain: string, context: string): EncryptedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, iv);
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return {
      keyId: this.keyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  /** Decrypts a stored value; a 500 when its key is unknown here or it was tampered with. */
  decrypt(secret: EncryptedSecret, context: string): string {
    const key = this.keys.get(secret.keyId);
    if (!key)
      throw new AppError(
        500,
        'internal_error',
        `A stored secret was written under key ${secret.keyId}, which this service does not have (SECRETS_PREVIOUS_KEYS)`,
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(secret.iv, 'base64'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(secret.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(secret.data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new AppError(500, 'internal_error', 'A stored secret failed its integrity check');
    }
  }
}

/** Where the key came from, for the start-up line. */
export interface KeyringSource {
  keyring: Keyring;
  source: string;
}

/**
 * The keyring of a configuration: SECRETS_KEY, or else the key file (created with mode 0600 when it
 * is missing). Two processes creating it at once end with the same key: the file appears whole, by
 * a hard link that only one of them can make.
 */
export function openKeyring(
  config: Pick<Config, 'secretsKey' | 'secretsPreviousKeys' | 'secretsKeyFile'>,
  options: { create: false },
): KeyringSource | null;
export function openKeyring(
  config: Pick<Config, 'secretsKey' | 'secretsPreviousKeys' | 'secretsKeyFile'>,
  options?: { create?: true },
): KeyringSource;
// The keyring from SECRETS_KEY or the key file; the file is made when missing unless `create` is false (then null).
export function openKeyring(
  config: Pick<Config, 'secretsKey' | 'secretsPreviousKeys' | 'secretsKeyFile'>,
  { create = true }: { create?: boolean } = {},
): KeyringSource | null {
  const previous = config.secretsPreviousKeys.map((k) => parseKey(k)!);
  if (config.secretsKey) return { keyring: new Keyring(parseKey(config.secretsKey)!, previous), source: 'SECRETS_KEY' };
  const file = config.secretsKeyFile;
  let created = false;
  if (!create && !fs.existsSync(file)) return null;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(temporary, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(temporary, file);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  if (fs.statSync(file).mode & 0o077)
    throw new Error(`the secrets key file ${file} is readable by others: chmod 600 it`);
  const key = parseKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`the secrets key file ${file} does not hold a base64 or hex key of 32 bytes`);
  return {
    keyring: new Keyring(key, previous),
    source: `key file ${file}${created ? ', created now with mode 0600' : ''}`,
  };
}
