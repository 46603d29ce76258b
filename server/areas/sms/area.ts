// The sms area (S1–S14): alarming configurations, the disable flag, text formatters (GSM-7) and mobile
// numbers, on the channel shapes (server/areas/channels).
import * as schemas from '../../../schemas/sms.js';
import { defineArea } from '../area.js';
import { AlarmingConfigs } from '../channels/alarming.js';
import { ChannelNumbers } from '../channels/numbers.js';
import { SmsFormatters } from './formatter.js';
import { smsModels } from './models.js';
import { smsOperations, type SmsCommands } from './routes.js';

declare module '../area.js' {
  interface AreaParts {
    sms: SmsCommands;
  }
}

export const smsArea = defineArea({
  name: 'sms',
  models: [smsModels],
  modelsFrom: ['channels'],
  schemas: [schemas],
  build({ db, need }) {
    const { Mobile, SmsAlarming } = smsModels(db);
    return {
      alarming: new AlarmingConfigs(db, SmsAlarming, 'sms-alarming'),
      mobiles: new ChannelNumbers(db, Mobile, 'mobile'),
      flags: need('channels').flags,
      formatters: new SmsFormatters(db),
    };
  },
  operations: (parts) => smsOperations(parts),
});
