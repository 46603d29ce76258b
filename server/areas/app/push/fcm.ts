// FCM HTTP v1: an OAuth2 access token from the service account (RFC 7523 JWT bearer grant, the
// assertion signed RS256 with jose) and one POST per message. The token endpoint is the service
// account's token_uri unless FCM_TOKEN_URL overrides it.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import type { PushConfig } from '../../../config.js';
import type { DeviceDoc } from '../models.js';
import type { Http2Pool } from './http2.js';
import { gatewayError, type PushGateway, type PushMessage, type PushOutcome } from './types.js';

type FcmConfig = NonNullable<PushConfig['fcm']>;

interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id: string;
  token_uri?: string;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** Sends notifications to Android devices. */
export class FcmGateway implements PushGateway {
  private readonly account: ServiceAccount;
  private readonly key: KeyObject;
  private readonly tokenUrl: string;
  private access: { token: string; expiresAt: number } | null = null;

  constructor(
    private readonly config: FcmConfig,
    private readonly pool: Http2Pool,
  ) {
    this.account = JSON.parse(fs.readFileSync(config.serviceAccountFile, 'utf8')) as ServiceAccount;
    for (const field of ['client_email', 'private_key', 'project_id'] as const) {
      if (typeof this.account[field] !== 'string')
        throw new Error(`${config.serviceAccountFile} has no ${field}: not a service account key`);
    }
    this.key = createPrivateKey(this.account.private_key);
    this.tokenUrl = config.tokenUrl ?? this.account.token_uri ?? GOOGLE_TOKEN_URL;
  }

  /** Sends one message; UNREGISTERED is `dead`, other refusals throw. A rejected access token is renewed once. */
  async send(device: DeviceDoc, message: PushMessage): Promise<PushOutcome> {
    let reply = await this.post(device, message);
    if (reply.status === 401) {
      this.access = null;
      reply = await this.post(device, message);
    }
    if (reply.status === 200) return 'sent';
    const error = fcmError(reply.body);
    if (error.codes.includes('UNREGISTERED')) return 'dead';
    throw gatewayError('FCM', reply.status, error.codes[0] ?? error.status);
  }

  private async post(device: DeviceDoc, message: PushMessage) {
    const body = {
      message: {
        token: device.pushToken,
        notification: { title: message.title, body: message.body },
        data: {
          confirmToken: message.confirmToken,
          ...(message.alarmId !== undefined ? { alarmId: String(message.alarmId) } : {}),
        },
        android: { priority: 'HIGH' },
      },
    };
    return this.pool.request(
      `${this.config.host}/v1/projects/${encodeURIComponent(this.account.project_id)}/messages:send`,
      {
        ':method': 'POST',
        authorization: `Bearer ${await this.accessToken()}`,
        'content-type': 'application/json',
      },
      JSON.stringify(body),
    );
  }

  // Renewed a minute before it expires.
  private async accessToken(): Promise<string> {
    if (this.access && Date.now() < this.access.expiresAt - 60_000) return this.access.token;
    // Loaded when a push is first signed: jose costs every start (and admin command) its load.
    const { SignJWT } = await import('jose');
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(this.account.private_key_id ? { kid: this.account.private_key_id } : {}),
      })
      .setIssuer(this.account.client_email)
      .setAudience(this.tokenUrl)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(this.key);
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    const reply = await this.pool.request(
      this.tokenUrl,
      { ':method': 'POST', 'content-type': 'application/x-www-form-urlencoded' },
      form.toString(),
    );
    const answer = parse(reply.body) as { access_token?: string; expires_in?: number; error?: string };
    if (reply.status !== 200 || !answer.access_token)
      throw gatewayError('The FCM token endpoint', reply.status, answer.error ?? 'no access_token');
    this.access = { token: answer.access_token, expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000 };
    return this.access.token;
  }
}

function parse(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The status and FCM error codes of an error answer. */
function fcmError(body: string): { status: string; codes: string[] } {
  const error = (parse(body).error ?? {}) as { status?: string; details?: Array<{ errorCode?: string }> };
  return {
    status: error.status ?? 'unknown',
    codes: (error.details ?? []).map((d) => d.errorCode).filter((c): c is string => Boolean(c)),
  };
}
