// The call area (C1–C12): alarming configurations with an alarm template, the disable flag and phone
// numbers, on the channel shapes (server/areas/channels).
import * as schemas from '../../../schemas/call.js';
import { defineArea } from '../area.js';
import { AlarmingConfigs } from '../channels/alarming.js';
import { ChannelNumbers } from '../channels/numbers.js';
import { callModels } from './models.js';
import { callOperations, type CallCommands } from './routes.js';

declare module '../area.js' {
  interface AreaParts {
    call: CallCommands;
  }
}

export const callArea = defineArea({
  name: 'call',
  models: [callModels],
  modelsFrom: ['channels'],
  schemas: [schemas],
  build({ db, need }) {
    const { Phone, CallAlarming } = callModels(db);
    return {
      alarming: new AlarmingConfigs(db, CallAlarming, 'call-alarming'),
      phones: new ChannelNumbers(db, Phone, 'phone'),
      flags: need('channels').flags,
    };
  },
  operations: (parts) => callOperations(parts),
});
