// What the SMS and call gateways cost an organization (docs/alarms.md "Quotas"): every organization
// shares the installation's gateway, so each may send at most SMS_QUOTA_PER_DAY SMS and
// CALL_QUOTA_PER_DAY calls in any 24 hours (a token bucket per organization, in Redis when there is
// one, kept with rate limits off). A delivery beyond it fails with the quota as its reason, is never
// retried, and is counted; a try the gateway did not take gives its unit back.
import type { Limiter, Limits } from '../../http/limits.js';
import { DeliveryError, type Sender } from './outbox.js';

type Metered = 'sms' | 'call';

const DAY_SECONDS = 86_400;
const NAMES: Record<Metered, { noun: string; variable: string }> = {
  sms: { noun: 'SMS', variable: 'SMS_QUOTA_PER_DAY' },
  call: { noun: 'calls', variable: 'CALL_QUOTA_PER_DAY' },
};

/** Per channel: tries handed to the gateway that it took, and deliveries refused by the quota. */
export type QuotaCounts = Record<Metered, { sent: number; overQuota: number }>;

export class GatewayQuotas {
  readonly counts: QuotaCounts = { sms: { sent: 0, overQuota: 0 }, call: { sent: 0, overQuota: 0 } };
  private readonly buckets: Record<Metered, Limiter | null>;

  constructor(
    limits: Limits,
    private readonly perDay: Record<Metered, number>,
  ) {
    const bucket = (channel: Metered) =>
      perDay[channel] > 0
        ? limits.create(`${channel}-quota`, perDay[channel] / DAY_SECONDS, perDay[channel], true)
        : null;
    this.buckets = { sms: bucket('sms'), call: bucket('call') };
  }

  /** `send`, counted and held to the quota of the alarm's organization. */
  metered(channel: Metered, send: Sender, organizationOf: (alarmId: number) => Promise<number>): Sender {
    return async (item, alarmId, signal) => {
      const bucket = this.buckets[channel];
      const organization = bucket ? String(await organizationOf(alarmId)) : '';
      if (bucket && (await bucket.take(organization)) > 0) {
        this.counts[channel].overQuota++;
        const { noun, variable } = NAMES[channel];
        throw new DeliveryError(
          `the organization's quota of ${this.perDay[channel]} ${noun} in 24 hours is spent (${variable})`,
          true,
        );
      }
      try {
        await send(item, alarmId, signal);
      } catch (err) {
        // Refused or not reached: nothing was sent, the retry spends it again.
        if (bucket) await bucket.give(organization, 1);
        throw err;
      }
      this.counts[channel].sent++;
    };
  }
}
