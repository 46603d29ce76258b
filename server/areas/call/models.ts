// The call area's storage: the call-alarming configurations and the users' phone numbers (shapes
// shared with sms: channels/models.ts).
import type { Connection, Model } from 'mongoose';
import { defineModels } from '../../db/models.js';
import { alarmingSchema, numberSchema, type AlarmingDoc, type NumberDoc } from '../channels/models.js';

export interface CallModels {
  CallAlarming: Model<AlarmingDoc>;
  Phone: Model<NumberDoc>;
}

/** The call area's collections (server/db/models.ts). */
export const callModels = defineModels((conn: Connection): CallModels => ({
  CallAlarming: conn.model<AlarmingDoc>('CallAlarming', alarmingSchema(true), 'call_alarming'),
  Phone: conn.model<NumberDoc>('Phone', numberSchema(), 'call_phones'),
}));
