// A5: a test push to one device, through the gateway its platform names, carrying a confirmation token.
import type { Actor } from '../../identity/actor.js';
import type { PushConfirmations } from './confirmations.js';
import type { Devices } from './devices.js';
import type { PushGateways } from './push/gateways.js';

export interface TestPushResult {
  status: 'sent' | 'device_deactivated';
  confirmToken: string | null;
  deviceActive: boolean;
}

const TEST_MESSAGE = { title: 'Test alarm', body: 'Test push from alarm-hub: your device receives alarms.' };

/** Sends test pushes. */
export class TestPushes {
  constructor(
    private readonly devices: Devices,
    private readonly gateways: PushGateways,
    private readonly confirmations: PushConfirmations,
  ) {}

  /** Sends one; a dead token sets the device inactive and is said in the result, never a pretend success. */
  async send(actor: Actor, deviceId: number, organizationId: number | undefined): Promise<TestPushResult> {
    const device = await this.devices.owned.reachable(actor, deviceId, organizationId);
    const gateway = this.gateways.for(device.platform);
    const acting = organizationId ?? (actor.kind === 'apikey' ? actor.organizationId : null);
    const confirmToken = await this.confirmations.issue(device, acting);
    let outcome;
    try {
      outcome = await gateway.send(device, { ...TEST_MESSAGE, confirmToken });
    } catch (err) {
      await this.confirmations.discard(confirmToken);
      throw err;
    }
    if (outcome === 'sent') return { status: 'sent', confirmToken, deviceActive: device.active };
    await this.confirmations.discard(confirmToken);
    await this.devices.deactivate(device);
    return { status: 'device_deactivated', confirmToken: null, deviceActive: false };
  }
}
