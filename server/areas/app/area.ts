// The app area (A1–A11, push/delivered, W1; docs/api.md "The app, sms and call areas"): devices, test
// pushes through APNs, FCM and Web Push (docs/members-app.md "Web Push"), confirmation tokens, alarm
// feedback, and the alarm pushes the outbox sends. The answers it takes are the alarms area's
// (AlarmReplies), reached once every area is built.
import * as schemas from '../../../schemas/app.js';
import { defineArea } from '../area.js';
import { openKeyring, type Keyring } from '../els-cobra/secrets.js';
import { AlarmPushes } from './alarm-push.js';
import { PushConfirmations } from './confirmations.js';
import { Devices } from './devices.js';
import { AlarmFeedback } from './feedback.js';
import { appModels } from './models.js';
import { TestPushes } from './push.js';
import { PushGateways } from './push/gateways.js';
import type { AlarmReplies } from './replies.js';
import { appOperations, type AppCommands } from './routes.js';
import { VapidKeys } from './vapid.js';

/** What the app area offers the others. */
export interface AppParts extends AppCommands {
  /** The outbox's sender of the app channel. */
  alarmPushes: AlarmPushes;
  /** Their connections, closed when the service stops. */
  gateways: PushGateways;
}

declare module '../area.js' {
  interface AreaParts {
    app: AppParts;
  }
}

export const appArea = defineArea({
  name: 'app',
  models: [appModels],
  schemas: [schemas],
  build({ db, config, events, publicUrl, need }) {
    const devices = new Devices(db, config.push.web.origins);
    const confirmations = new PushConfirmations(db, config.push.confirmTtlSeconds);
    // The secrets key is opened on first use, as the integration's: a service that never makes a pair needs none.
    let keyring: Keyring | undefined;
    const vapid = new VapidKeys(db, config.push.web.vapid, () => (keyring ??= openKeyring(config).keyring));
    const gateways = new PushGateways(config.push, {
      keys: () => vapid.get(),
      // A push service wants a way to reach the operator: an https page or a mail address (RFC 8292 §2.1).
      subject: () =>
        config.push.web.subject ?? (publicUrl.secure ? publicUrl.origin : `mailto:alarm-hub@${publicUrl.hostname}`),
      // A push waits as long as the outbox lets a try take (docs/alarms.md "Delivered").
      timeoutMs: config.alarms.gatewayTimeoutMs,
    });
    // The alarms area is built after this one (it sends through our devices): asked when an answer comes.
    const replies: AlarmReplies = {
      answered: (answer) => need('alarms').answers.answered(answer),
      delivered: (alarmId, deviceId) => need('alarms').answers.delivered(alarmId, deviceId),
    };
    return {
      devices,
      confirmations,
      flags: need('channels').flags,
      pushes: new TestPushes(devices, gateways, confirmations),
      feedback: new AlarmFeedback(db, devices, events, replies),
      replies,
      alarmPushes: new AlarmPushes(db, devices, confirmations, gateways),
      vapid,
      gateways,
    };
  },
  operations: (parts) => appOperations(parts),
  // After the alarms area (built later, closed earlier) finished its pushes in flight.
  async close({ gateways }) {
    gateways.close();
  },
});
