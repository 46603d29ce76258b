// The push gateways, one per platform: APNs and FCM as configured (an unconfigured one answers 503
// push_unavailable), and Web Push, which needs no account (docs/members-app.md "Web Push").
import fs from 'node:fs';
import tls from 'node:tls';
import type { PushConfig } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { Platform } from '../models.js';
import type { VapidPair } from '../vapid.js';
import { ApnsGateway } from './apns.js';
import { FcmGateway } from './fcm.js';
import { Http2Pool } from './http2.js';
import type { PushGateway } from './types.js';
import { WebPushClient } from './web-client.js';
import { WebPushGateway } from './webpush.js';

const UNCONFIGURED: Record<Exclude<Platform, 'web'>, string> = {
  ios: 'iOS pushes are not configured on this service (APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC)',
  android: 'Android pushes are not configured on this service (FCM_SERVICE_ACCOUNT_FILE)',
};

/** What Web Push needs besides the configuration: the key pair, the VAPID subject, a push's deadline. */
export interface WebPushParts {
  keys: () => Promise<VapidPair>;
  subject: () => string;
  timeoutMs: number;
}

/** APNs, FCM and Web Push. */
export class PushGateways {
  private readonly pool: Http2Pool;
  private readonly web: WebPushClient;
  private readonly byPlatform: Record<Platform, PushGateway | null>;

  constructor(config: PushConfig, web: WebPushParts) {
    // An extra CA adds to the system's; it never replaces them.
    const ca = config.extraCaFile ? [...tls.rootCertificates, fs.readFileSync(config.extraCaFile, 'utf8')] : undefined;
    this.pool = new Http2Pool(ca);
    this.web = new WebPushClient(ca, web.timeoutMs, { origins: config.web.origins });
    this.byPlatform = {
      ios: config.apns ? new ApnsGateway(config.apns, this.pool) : null,
      android: config.fcm ? new FcmGateway(config.fcm, this.pool) : null,
      web: new WebPushGateway({ ...web, origins: config.web.origins, client: this.web }),
    };
  }

  /** The gateway for a platform, or 503 push_unavailable when it is not configured. */
  for(platform: Platform): PushGateway {
    const gateway = this.byPlatform[platform];
    // No Retry-After: waiting does not configure a gateway.
    if (!gateway) throw new AppError(503, 'push_unavailable', UNCONFIGURED[platform as Exclude<Platform, 'web'>]);
    return gateway;
  }

  /** Closes the gateway connections. */
  close(): void {
    this.pool.close();
    this.web.close();
  }
}
