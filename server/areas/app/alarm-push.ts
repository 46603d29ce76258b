// An alarm's push to one device (docs/alarms.md "Delivered"): the outbox's sender for the app channel.
// The push carries an A11 token tied to the alarm; a token the push service calls dead sets the device
// inactive. A failed try says whether retrying can help (DeliveryError's `final`).
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { DeliveryError } from '../alarms/outbox.js';
import type { PushConfirmations } from './confirmations.js';
import type { Devices } from './devices.js';
import { appModels } from './models.js';
import type { PushGateways } from './push/gateways.js';

/** What a push shows of its alarm. */
export interface PushedAlarm {
  id: number;
  organizationId: number;
  event: string;
  message: string;
  address: string;
}

/** Sends alarms to devices through their push gateways. */
export class AlarmPushes {
  constructor(
    private readonly db: Database,
    private readonly devices: Pick<Devices, 'deactivate'>,
    private readonly confirmations: Pick<PushConfirmations, 'issue' | 'discard'>,
    private readonly gateways: Pick<PushGateways, 'for'>,
  ) {}

  /** Resolves once the device's push gateway took the push; throws DeliveryError otherwise. */
  async send(deviceId: string, alarm: PushedAlarm): Promise<void> {
    const device = await appModels(this.db).Device.findById(deviceId).lean();
    if (!device?.active) throw new DeliveryError('the device was removed or set inactive', true);
    let gateway;
    try {
      gateway = this.gateways.for(device.platform);
    } catch (err) {
      throw new DeliveryError((err as Error).message, true);
    }
    const confirmToken = await this.confirmations.issue(device, alarm.organizationId, alarm.id);
    let outcome;
    try {
      outcome = await gateway.send(device, {
        title: alarm.event,
        body: alarm.message || alarm.address || alarm.event,
        confirmToken,
        alarmId: alarm.id,
      });
    } catch (err) {
      await this.confirmations.discard(confirmToken);
      // 503: the gateway may take it later; any other refusal will not change.
      throw new DeliveryError((err as Error).message, !(err instanceof AppError && err.status === 503));
    }
    if (outcome === 'dead') {
      await this.confirmations.discard(confirmToken);
      await this.devices.deactivate(device);
      throw new DeliveryError('the push gateway says the device token is no longer valid (device set inactive)', true);
    }
  }
}
