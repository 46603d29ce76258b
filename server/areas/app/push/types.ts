// What the push gateways (APNs, FCM, Web Push) have in common.
import { AppError } from '../../../errors.js';
import type { DeviceDoc } from '../models.js';
import { pushUnavailable } from './http2.js';

/** A notification with the confirmation token the app answers with. */
export interface PushMessage {
  title: string;
  body: string;
  confirmToken: string;
  /** The alarm a push announces (docs/alarms.md); absent for a test push. */
  alarmId?: number;
  /** What a web push shows of its alarm (docs/members-app.md "Web Push"); APNs and FCM show title and body. */
  alarm?: {
    event: string;
    message: string;
    address: string;
    organizationName: string;
    /** RFC 3339. */
    startedAt: string;
  };
}

/** `dead`: the gateway says the device token will never work again (the device is set inactive). */
export type PushOutcome = 'sent' | 'dead';

export interface PushGateway {
  send(device: DeviceDoc, message: PushMessage): Promise<PushOutcome>;
}

/** A gateway's refusal other than a dead token: 503 when retrying may help, else 502 push_failed. */
export function gatewayError(gateway: string, status: number, reason: string): AppError {
  if (status === 429 || status >= 500) return pushUnavailable(`${gateway} is unavailable (${status} ${reason})`);
  return new AppError(502, 'push_failed', `${gateway} refused the push: ${status} ${reason}`);
}
