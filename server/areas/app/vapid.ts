// The VAPID key pair of Web Push (W1; docs/members-app.md "Web Push"): the one from VAPID_PUBLIC_KEY and
// VAPID_PRIVATE_KEY, or else the installation's own, made by the first process that needs it (W1 or a web
// push) and kept in app_vapid_keys with its private key encrypted like the integration's secrets
// (els-cobra/secrets.ts). Every process on the database must use the same pair, since a browser's
// subscription is bound to the public key it was made with: the first insert of the one _id wins, and
// every other process reads the winner's. So the processes must share the secrets key (SECRETS_KEY).
import { createECDH } from 'node:crypto';
import type { WebPushConfig } from '../../config.js';
import { ConfigError } from '../../config.js';
import type { Database } from '../../db/database.js';
import { madeOnce } from '../../db/made-once.js';
import { AppError, unavailable } from '../../errors.js';
import type { Keyring } from '../els-cobra/secrets.js';
import { appModels, type VapidKeyDoc } from './models.js';

/** A P-256 key pair in base64url: the public key 65 bytes (uncompressed point), the private 32. */
export interface VapidPair {
  publicKey: string;
  privateKey: string;
}

const ID = 'vapid';
/** What the encrypted private key is bound to: it cannot be moved to another field unnoticed. */
const CONTEXT = 'app:vapid:privateKey';

/** The public key of a private key (both base64url). */
function publicOf(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}

/** The key pair, read once per process (and again after a restore of the database). */
export class VapidKeys {
  private pair: { generation: number; value: Promise<VapidPair> } | null = null;

  constructor(
    private readonly db: Database,
    private readonly configured: WebPushConfig['vapid'],
    private readonly keyring: () => Keyring,
  ) {
    if (configured && publicOf(configured.privateKey) !== configured.publicKey)
      throw new ConfigError([
        'VAPID_PUBLIC_KEY must be the public key of VAPID_PRIVATE_KEY: set both from one pair ' +
          '(npx web-push generate-vapid-keys), or unset both for a pair of the installation',
      ]);
  }

  /** The pair; the installation's is made now when there is none yet. */
  get(): Promise<VapidPair> {
    if (this.configured) return Promise.resolve(this.configured);
    const generation = this.db.generation.current;
    if (this.pair?.generation !== generation) {
      const value = this.load();
      // Not kept when it failed: the next caller tries again.
      value.catch(() => {
        if (this.pair?.value === value) this.pair = null;
      });
      this.pair = { generation, value };
    }
    return this.pair.value;
  }

  private async load(): Promise<VapidPair> {
    // The first process to need a pair makes it; every other one reads the winner's.
    const pair = await madeOnce(appModels(this.db).VapidKey, ID, async () => {
      // Loaded only here: web-push costs every start (and admin command) its load.
      const { default: webpush } = await import('web-push');
      const made = webpush.generateVAPIDKeys();
      return {
        publicKey: made.publicKey,
        privateKey: this.keyring().encrypt(made.privateKey, CONTEXT),
        createdAt: new Date(),
      };
    });
    if (!pair) throw unavailable('The Web Push key pair could not be read yet');
    return this.open(pair);
  }

  private open(doc: VapidKeyDoc): VapidPair {
    const privateKey = this.keyring().decrypt(doc.privateKey, CONTEXT);
    if (publicOf(privateKey) !== doc.publicKey)
      throw new AppError(500, 'internal_error', 'The stored Web Push key pair does not match');
    return { publicKey: doc.publicKey, privateKey };
  }
}
