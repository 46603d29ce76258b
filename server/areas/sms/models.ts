// The sms area's own storage: the text formatter an organization chose (_id is the organization's ID),
// the sms-alarming configurations and the users' mobile numbers (shapes shared with call: channels/models.ts).
import { Schema, type Connection, type Model } from 'mongoose';
import { defineModels } from '../../db/models.js';
import { alarmingSchema, numberSchema, type AlarmingDoc, type NumberDoc } from '../channels/models.js';
import { date, opts, text } from '../channels/schema-types.js';
import type { FormatterName } from '../../../schemas/sms.js';

export interface SmsFormatterDoc {
  _id: string;
  textFormatterName: FormatterName;
  updatedAt: Date;
}

export interface SmsModels {
  SmsFormatter: Model<SmsFormatterDoc>;
  SmsAlarming: Model<AlarmingDoc>;
  Mobile: Model<NumberDoc>;
}

/** The sms area's collections (server/db/models.ts). */
export const smsModels = defineModels((conn: Connection): SmsModels => {
  return {
    SmsFormatter: conn.model<SmsFormatterDoc>(
      'SmsFormatter',
      new Schema<SmsFormatterDoc>({ _id: String, textFormatterName: text, updatedAt: date }, opts),
      'sms_formatters',
    ),
    SmsAlarming: conn.model<AlarmingDoc>('SmsAlarming', alarmingSchema(false), 'sms_alarming'),
    Mobile: conn.model<NumberDoc>('Mobile', numberSchema(), 'sms_mobiles'),
  };
});
