// An alarm's push to one device (docs/alarms.md "Delivered"): the outbox's sender for the app channel.
// The push carries an A11 token tied to the alarm; a token the push service calls dead sets the device
// inactive. A failed try says whether retrying can help (DeliveryError's `final`). A web push carries the
// alarm itself (docs/members-app.md "Web Push"), with its organization's name, read once per alarm.
import type { Database } from '../../db/database.js';
import { Recent } from '../../db/recent.js';
import { AppError } from '../../errors.js';
import { organizationName } from '../../identity/lookup.js';
import { DeliveryError } from '../alarms/outbox.js';
import type { PushConfirmations } from './confirmations.js';
import type { Devices } from './devices.js';
import { appModels, type DeviceDoc } from './models.js';
import type { PushGateways } from './push/gateways.js';
import type { PushMessage } from './push/types.js';

/** How long a device read to build deliveries stands for its first push, and how many are kept. */
const FRESH_MS = 10_000;
const FRESH_MAX = 20_000;

/** What a push shows of its alarm. */
export interface PushedAlarm {
  id: number;
  organizationId: number;
  event: string;
  message: string;
  address: string;
  startedAt: Date;
}

/** Sends alarms to devices through their push gateways. */
export class AlarmPushes {
  // The organization's name as the alarm's pushes show it, per alarm (its hundreds of pushes read it once).
  private readonly names: Recent<number, Promise<string>>;

  // Devices as an alarm's deliveries were built from them a moment ago, each for its first push only.
  private readonly fresh = new Map<string, { device: DeviceDoc; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly devices: Pick<Devices, 'deactivate'>,
    private readonly confirmations: Pick<PushConfirmations, 'issue' | 'discard'>,
    private readonly gateways: Pick<PushGateways, 'for'>,
  ) {
    this.names = new Recent(100, db.generation);
  }

  /**
   * Resolves once the device's push gateway took the push; throws DeliveryError otherwise. Once `signal`
   * aborted (the try's limit passed), no push leaves: the retry sends it.
   */
  async send(deviceId: string, alarm: PushedAlarm, signal?: AbortSignal): Promise<void> {
    const device = this.recent(deviceId) ?? (await appModels(this.db).Device.findById(deviceId).lean());
    if (!device?.active) throw new DeliveryError('the device was removed or set inactive', true);
    let gateway;
    try {
      gateway = this.gateways.for(device.platform);
    } catch (err) {
      throw new DeliveryError((err as Error).message, true);
    }
    // Read before the token is issued: a failed read is retried like any try (it throws no DeliveryError).
    const shown = device.platform === 'web' ? await this.shown(alarm) : undefined;
    const confirmToken = await this.confirmations.issue(device, alarm.organizationId, alarm.id);
    if (signal?.aborted) {
      await this.confirmations.discard(confirmToken);
      throw new DeliveryError('the try ran out of time before it was sent');
    }
    let outcome;
    try {
      outcome = await gateway.send(device, {
        title: alarm.event,
        body: alarm.message || alarm.address || alarm.event,
        confirmToken,
        alarmId: alarm.id,
        ...(shown ? { alarm: shown } : {}),
      });
    } catch (err) {
      await this.confirmations.discard(confirmToken);
      // 503: the gateway may take it later; any other refusal will not change.
      throw new DeliveryError((err as Error).message, !(err instanceof AppError && err.status === 503));
    }
    if (outcome === 'dead') {
      await this.confirmations.discard(confirmToken);
      if (!(await this.devices.deactivate(device)))
        // The app registered a new token since the device was read: the retry sends to that one.
        throw new DeliveryError('the push gateway says the device token is no longer valid; the device has a new one');
      throw new DeliveryError('the push gateway says the device token is no longer valid (device set inactive)', true);
    }
  }

  /**
   * Devices just read to build an alarm's deliveries (docs/alarms.md "Delivered"): their first push, within
   * FRESH_MS, takes them as read then instead of reading each again; a retry reads it.
   */
  remember(devices: DeviceDoc[]): void {
    const now = Date.now();
    if (this.fresh.size + devices.length > FRESH_MAX)
      for (const [id, { until }] of this.fresh) if (until <= now) this.fresh.delete(id);
    for (const device of devices)
      if (this.fresh.size < FRESH_MAX) this.fresh.set(device._id, { device, until: now + FRESH_MS });
  }

  private recent(deviceId: string): DeviceDoc | undefined {
    const kept = this.fresh.get(deviceId);
    this.fresh.delete(deviceId);
    return kept && kept.until > Date.now() ? kept.device : undefined;
  }

  // What a web push shows of the alarm.
  private async shown(alarm: PushedAlarm): Promise<NonNullable<PushMessage['alarm']>> {
    return {
      event: alarm.event,
      message: alarm.message,
      address: alarm.address,
      organizationName: await this.organizationName(alarm),
      startedAt: alarm.startedAt.toISOString(),
    };
  }

  private organizationName(alarm: PushedAlarm): Promise<string> {
    let name = this.names.get(alarm.id);
    if (!name) {
      name = organizationName(this.db, alarm.organizationId).then((found) => found ?? '');
      // A failed read is not kept: the next push reads again (this one's try fails and is retried).
      name.catch(() => this.names.delete(alarm.id));
      this.names.set(alarm.id, name);
    }
    return name;
  }
}
