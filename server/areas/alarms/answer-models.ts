// The collections of answering without the app (docs/alarms.md "Answering without the app"), beside the
// alarms area's own (models.ts). Every lookup is an exact string-_id read:
//   alarm_answer_links  sha256 of the token (hex): the alarm and member one SMS's answer link answers for
//                       (links issued before 2026-12-02; later ones are signed, not stored)
//   alarm_link_keys     "answer-links": the key the answer links are signed with (never in a backup)
//   alarm_numbers       "<0049…>@w<week>": the organizations whose alarm SMS or calls went to that number
//                       that week
//   alarm_reached       "<0049…>@<alarmId>": that alarm's SMS or call went to the number, and to whom
//   alarm_recent        "<orgId>": the organization's recent alarms that went to numbers
// (member-latest.ts). Expired links, notes and lists older than twice the reply window and the weeks
// of numbers before the last leave with the hourly sweep.
import { Schema, type Model } from 'mongoose';
import { defineModels } from '../../db/models.js';

export interface AnswerLinkDoc {
  _id: string;
  alarmId: number;
  organizationId: number;
  userId: number;
  createdAt: Date;
  /** The latest the link answers, whatever the alarm does (it also ends an hour after the alarm). */
  expiresAt: Date;
}

/** The database's key of the answer links (one document, `answer-links`; never in a backup). */
export interface LinkKeyDoc {
  _id: string;
  /** 32 random bytes, base64. */
  key: string;
  createdAt: Date;
}

export interface ReachedNumberDoc {
  /** "<number>@w<week>": the week's entry (weeks counted from the epoch). */
  _id: string;
  organizationIds: number[];
  week: number;
}

export interface ReachedDoc {
  _id: string;
  alarmId: number;
  organizationId: number;
  /** The member the alarm's first note there named. */
  userId: number;
  /** The alarm went to another member at the same number too: a reply from it is nobody's. */
  shared?: boolean;
  startedAt: Date;
}

export interface RecentAlarmsDoc {
  _id: string;
  alarms: Array<{ id: number; startedAt: Date }>;
  /** The latest startedAt listed (for the sweep). */
  latestAt: Date;
}

export interface AnswerModels {
  AnswerLink: Model<AnswerLinkDoc>;
  LinkKey: Model<LinkKeyDoc>;
  ReachedNumber: Model<ReachedNumberDoc>;
  Reached: Model<ReachedDoc>;
  RecentAlarms: Model<RecentAlarmsDoc>;
}

const opts = { versionKey: false } as const;

export const answerModels = defineModels<AnswerModels>((conn) => {
  const link = new Schema<AnswerLinkDoc>(
    {
      _id: String,
      alarmId: { type: Number, required: true },
      organizationId: { type: Number, required: true },
      userId: { type: Number, required: true },
      createdAt: { type: Date, required: true },
      expiresAt: { type: Date, required: true },
    },
    opts,
  );
  // For the sweep on MongoDB (FerretDB has no TTL indexes: docs/storage.md).
  link.index({ expiresAt: 1 });
  const linkKey = new Schema<LinkKeyDoc>(
    { _id: String, key: { type: String, required: true }, createdAt: { type: Date, required: true } },
    opts,
  );
  const number = new Schema<ReachedNumberDoc>(
    { _id: String, organizationIds: { type: [Number], required: true }, week: { type: Number, required: true } },
    opts,
  );
  number.index({ week: 1 });
  const reached = new Schema<ReachedDoc>(
    {
      _id: String,
      alarmId: { type: Number, required: true },
      organizationId: { type: Number, required: true },
      userId: { type: Number, required: true },
      shared: { type: Boolean, default: undefined },
      startedAt: { type: Date, required: true },
    },
    opts,
  );
  reached.index({ startedAt: 1 });
  const recent = new Schema<RecentAlarmsDoc>(
    {
      _id: String,
      alarms: { type: [new Schema({ id: Number, startedAt: Date }, { _id: false })], required: true },
      latestAt: { type: Date, required: true },
    },
    opts,
  );
  recent.index({ latestAt: 1 });
  return {
    AnswerLink: conn.model<AnswerLinkDoc>('AlarmAnswerLink', link, 'alarm_answer_links'),
    LinkKey: conn.model<LinkKeyDoc>('AlarmLinkKey', linkKey, 'alarm_link_keys'),
    ReachedNumber: conn.model<ReachedNumberDoc>('AlarmReachedNumber', number, 'alarm_numbers'),
    Reached: conn.model<ReachedDoc>('AlarmReached', reached, 'alarm_reached'),
    RecentAlarms: conn.model<RecentAlarmsDoc>('AlarmRecent', recent, 'alarm_recent'),
  };
});
