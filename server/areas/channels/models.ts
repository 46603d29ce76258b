// The channels area's own storage (disable flags, owner indexes) and the shapes the app, sms and call
// areas share: each of those declares its collections with these schemas in its own models.ts. Every
// model has a string _id, so a lookup by ID is the one query FerretDB answers from an index; listings
// by organization or owner filter on a field (indexed on MongoDB) over small documents.
import { Schema, type Connection, type Model } from 'mongoose';
import { defineModels } from '../../db/models.js';
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
  /** The organization whose admin or key entered it; null (or absent: older ones): the owner himself (channels/owned.ts). */
  organizationID?: number | null;
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

/** What every owner-scoped document (device, mobile, phone) has (owned.ts). */
export interface OwnedDoc {
  _id: string;
  ownerID: number;
  /** The organization that entered it; null or absent: the owner himself. */
  organizationID?: number | null;
  active: boolean;
  rev?: number;
}

/** The kinds of owner-scoped resource, by their noun. */
export type TargetKind = 'device' | 'mobile' | 'phone';

/** An owner's resources of each kind as stored when its last write ended; a kind absent: not copied yet. */
export type Copies = Partial<Record<TargetKind, OwnedDoc[]>>;

/** One owner's copies of his resources (targets.ts): _id the owner's ID as text. */
export interface OwnerTargetsDoc {
  _id: string;
  /** The copies as Extended JSON (types such as dates kept). */
  copies: string;
  /** Writes begun and not yet copied. */
  changing: Array<{ kind: TargetKind; token: string; at: Date }>;
  /** The restore mark the copies were read under (server/db/restores.ts); null or absent: never restored. */
  mark?: string | null;
}

export interface ChannelModels {
  OwnerIndex: Model<OwnerIndexDoc>;
  OwnerTargets: Model<OwnerTargetsDoc>;
  ChannelFlag: Model<ChannelFlagDoc>;
}

/** An sms- or call-alarming configuration's schema (call's has an alarm template). */
export function alarmingSchema(withTemplate: boolean): Schema<AlarmingDoc> {
  const schema = new Schema<AlarmingDoc>(
    {
      _id: String,
      organizationID: int,
      gsm: text,
      pin: text,
      ...(withTemplate ? { alarmTemplateID: int } : {}),
      rev,
      createdAt: date,
    },
    opts,
  );
  // One number per organization and channel: two configurations for one caller would be ambiguous.
  // The unique index holds on both engines, also when two creates or updates race.
  schema.index({ organizationID: 1, gsm: 1 }, { unique: true });
  return schema;
}

/** A mobile's or phone's schema. */
export function numberSchema(): Schema<NumberDoc> {
  const schema = new Schema<NumberDoc>(
    {
      _id: String,
      ownerID: int,
      organizationID: { type: Number, default: null },
      name: { type: String, default: '' },
      gsm: text,
      active: flag,
      rev,
      createdAt: date,
    },
    opts,
  );
  schema.index({ ownerID: 1 });
  return schema;
}

/** The channels area's collections (server/db/models.ts). */
export const channelModels = defineModels((conn: Connection): ChannelModels => {
  return {
    OwnerIndex: conn.model<OwnerIndexDoc>(
      'OwnerIndex',
      new Schema<OwnerIndexDoc>({ _id: String, ids: { type: [String], default: [] } }, opts),
      'owner_index',
    ),
    OwnerTargets: conn.model<OwnerTargetsDoc>(
      'OwnerTargets',
      new Schema<OwnerTargetsDoc>(
        {
          _id: String,
          copies: { type: String, default: '{}' },
          changing: { type: [{ _id: false, kind: String, token: String, at: Date }], default: [] },
          mark: { type: String, default: null },
        },
        opts,
      ),
      'owner_targets',
    ),
    ChannelFlag: conn.model<ChannelFlagDoc>(
      'ChannelFlag',
      new Schema<ChannelFlagDoc>({ _id: String, isDisabled: flag, updatedAt: date }, opts),
      'channel_flags',
    ),
  };
});
