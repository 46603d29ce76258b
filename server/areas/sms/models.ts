// The sms area's own storage: the text formatter an organization chose (_id is the organization's ID).
import { Schema, type Connection, type Model } from 'mongoose';
import { date, opts, text } from '../channels/schema-types.js';
import type { FormatterName } from '../../../schemas/sms.js';

export interface SmsFormatterDoc {
  _id: string;
  textFormatterName: FormatterName;
  updatedAt: Date;
}

export interface SmsModels {
  SmsFormatter: Model<SmsFormatterDoc>;
}

/** Registers the sms models on a connection. */
export function smsModels(conn: Connection): SmsModels {
  return {
    SmsFormatter: conn.model<SmsFormatterDoc>('SmsFormatter', new Schema<SmsFormatterDoc>(
      { _id: String, textFormatterName: text, updatedAt: date },
      opts,
    ), 'sms_formatters'),
  };
}
