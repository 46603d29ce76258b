// APNs with token-based auth: an ES256 provider JWT (signed with jose) over HTTP/2, the sandbox host
// for development tokens. Apple wants the JWT renewed between 20 and 60 minutes; we renew at 40.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import type { PushConfig } from '../../../config.js';
import type { DeviceDoc } from '../models.js';
import type { Http2Pool } from './http2.js';
import { gatewayError, type PushGateway, type PushMessage, type PushOutcome } from './types.js';

type ApnsConfig = NonNullable<PushConfig['apns']>;

const RENEW_AFTER_MS = 40 * 60_000;
/** Reasons that mean the token will never work again. */
const DEAD = new Set(['BadDeviceToken', 'Unregistered', 'DeviceTokenNotForTopic']);

/** Sends alert pushes to iOS and iPadOS devices. */
export class ApnsGateway implements PushGateway {
  private readonly key: KeyObject;
  private jwt: { token: string; at: number } | null = null;

  constructor(
    private readonly config: ApnsConfig,
    private readonly pool: Http2Pool,
  ) {
    // Read at start, so a missing or unreadable key fails the start and not the first push.
    this.key = createPrivateKey(fs.readFileSync(config.keyFile, 'utf8'));
  }

  /** Sends one alert; 410 or a dead-token reason is `dead`, other refusals throw. */
  async send(device: DeviceDoc, message: PushMessage): Promise<PushOutcome> {
    let reply = await this.post(device, message);
    if (reply.status === 403 && reason(reply.body) === 'ExpiredProviderToken') {
      this.jwt = null;
      reply = await this.post(device, message);
    }
    if (reply.status === 200) return 'sent';
    const why = reason(reply.body);
    if (reply.status === 410 || DEAD.has(why)) return 'dead';
    throw gatewayError('APNs', reply.status, why);
  }

  private async post(device: DeviceDoc, message: PushMessage) {
    const host = device.pushTokenDevelopment ? this.config.sandboxHost : this.config.host;
    const payload = {
      aps: { alert: { title: message.title, body: message.body }, sound: 'default' },
      confirmToken: message.confirmToken,
      ...(message.alarmId !== undefined ? { alarmId: message.alarmId } : {}),
    };
    return this.pool.request(
      `${host}/3/device/${device.pushToken}`,
      {
        ':method': 'POST',
        authorization: `bearer ${await this.providerToken()}`,
        'apns-topic': this.config.topic,
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'content-type': 'application/json',
      },
      JSON.stringify(payload),
    );
  }

  private async providerToken(): Promise<string> {
    if (!this.jwt || Date.now() - this.jwt.at > RENEW_AFTER_MS) {
      // Loaded when a push is first signed: jose costs every start (and admin command) its load.
      const { SignJWT } = await import('jose');
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: this.config.keyId })
        .setIssuer(this.config.teamId)
        .setIssuedAt()
        .sign(this.key);
      this.jwt = { token, at: Date.now() };
    }
    return this.jwt.token;
  }
}

function reason(body: string): string {
  try {
    return String((JSON.parse(body) as { reason?: string }).reason ?? 'unknown');
  } catch {
    return 'unknown';
  }
}
