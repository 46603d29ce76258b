// Storage of the shapes the app, sms and call areas share. Every model has a string _id, so a lookup
// by ID is the one query FerretDB answers from an index; listings by organization or owner filter on
// a field (indexed on MongoDB) over small documents.
import { Schema, type Connection, type Model } from 'mongoose';
import { date, flag, int, opts, rev, text } from './schema-types.js';

/** The ways of alarming that share these shapes. */
export type Channel = 'app' | 'sms' | 'call';

/** A disable flag: _id "<channel>:<organizationId>". */
export interface ChannelFlagDoc {
  _id: string;
  isDisabled: boolean;
  updatedAt: Date;
}

/** An sms- or call-alarming configuration: _id is the ID as text. */
export interface AlarmingDoc {
  _id: string;
  organizationID: number;
  gsm: string;
  pin: string;
  /** Call only. */
  alarmTemplateID?: number;
  /** Revision (server/db/revisions.ts); absent until the first update. */
  rev?: number;
  createdAt: Date;
}

/** A user's mobile (sms) or phone (call) number: _id is the ID as text. */
export interface NumberDoc {
  _id: string;
  ownerID: number;
  name: string;
  gsm: string;
  active: boolean;
  /** Revision (server/db/revisions.ts); absent until the first update. */
  rev?: number;
  createdAt: Date;
}

/** The IDs of one owner's devices, mobile or phone numbers: _id "<noun>:<ownerId>". */
export interface OwnerIndexDoc {
  _id: string;
  ids: string[];
}

export interface ChannelModels {
  OwnerIndex: Model<OwnerIndexDoc>;
  ChannelFlag: Model<ChannelFlagDoc>;
  SmsAlarming: Model<AlarmingDoc>;
  CallAlarming: Model<AlarmingDoc>;
  Mobile: Model<NumberDoc>;
  Phone: Model<NumberDoc>;
}

function alarmingSchema(withTemplate: boolean): Schema<AlarmingDoc> {
  const schema = new Schema<AlarmingDoc>({
    _id: String, organizationID: int, gsm: text, pin: text, ...(withTemplate ? { alarmTemplateID: int } : {}), rev, createdAt: date,
  }, opts);
  // One number per organization and channel: two configurations for one caller would be ambiguous.
  // The unique index holds on both engines, also when two creates or updates race.
  schema.index({ organizationID: 1, gsm: 1 }, { unique: true });
  return schema;
}

function numberSchema(): Schema<NumberDoc> {
  const schema = new Schema<NumberDoc>({
    _id: String, ownerID: int, name: { type: String, default: '' }, gsm: text, active: flag, rev, createdAt: date,
  }, opts);
  schema.index({ ownerID: 1 });
  return schema;
}

/** Registers the shared channel models on a connection. */
export function channelModels(conn: Connection): ChannelModels {
  return {
    OwnerIndex: conn.model<OwnerIndexDoc>('OwnerIndex', new Schema<OwnerIndexDoc>({ _id: String, ids: { type: [String], default: [] } }, opts), 'owner_index'),
    ChannelFlag: conn.model<ChannelFlagDoc>('ChannelFlag', new Schema<ChannelFlagDoc>({ _id: String, isDisabled: flag, updatedAt: date }, opts), 'channel_flags'),
    SmsAlarming: conn.model<AlarmingDoc>('SmsAlarming', alarmingSchema(false), 'sms_alarming'),
    CallAlarming: conn.model<AlarmingDoc>('CallAlarming', alarmingSchema(true), 'call_alarming'),
    Mobile: conn.model<NumberDoc>('Mobile', numberSchema(), 'sms_mobiles'),
    Phone: conn.model<NumberDoc>('Phone', numberSchema(), 'call_phones'),
  };
}
