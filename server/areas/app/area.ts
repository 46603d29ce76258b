// The app area (A1–A11, push/delivered; docs/api.md "The app, sms and call areas"): devices, test pushes
// through APNs and FCM, confirmation tokens, alarm feedback, and the alarm pushes the outbox sends. The
// answers it takes are the alarms area's (AlarmReplies), reached once every area is built.
import * as schemas from '../../../schemas/app.js';
import { defineArea } from '../area.js';
import { AlarmPushes } from './alarm-push.js';
import { PushConfirmations } from './confirmations.js';
import { Devices } from './devices.js';
import { AlarmFeedback } from './feedback.js';
import { appModels } from './models.js';
import { TestPushes } from './push.js';
import { PushGateways } from './push/gateways.js';
import type { AlarmReplies } from './replies.js';
import { appOperations, type AppCommands } from './routes.js';

/** What the app area offers the others. */
export interface AppParts extends AppCommands {
  /** The outbox's sender of the app channel. */
  alarmPushes: AlarmPushes;
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
  build({ db, config, events, need }) {
    const devices = new Devices(db);
    const confirmations = new PushConfirmations(db, config.push.confirmTtlSeconds);
    const gateways = new PushGateways(config.push);
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
    };
  },
  operations: (parts) => appOperations(parts),
});
