// The collections of answering without the app (docs/alarms.md "Answering without the app"), beside the
// alarms area's own (models.ts). Every lookup is an exact string-_id read:
//   alarm_answer_links  sha256 of the token (hex): the alarm and member one SMS's answer link answers for
//   alarm_latest        "<0049…>": the latest alarm an SMS or a call went to at that number, and to whom
// Expired links and latest entries older than the reply window leave with the hourly sweep.
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

export interface LatestAlarmDoc {
  _id: string;
  userId: number;
  alarmId: number;
  organizationId: number;
  startedAt: Date;
  /** When a delivery of that alarm was last about to be sent there. */
  at: Date;
}

export interface AnswerModels {
  AnswerLink: Model<AnswerLinkDoc>;
  LatestAlarm: Model<LatestAlarmDoc>;
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
  const latest = new Schema<LatestAlarmDoc>(
    {
      _id: String,
      userId: { type: Number, required: true },
      alarmId: { type: Number, required: true },
      organizationId: { type: Number, required: true },
      startedAt: { type: Date, required: true },
      at: { type: Date, required: true },
    },
    opts,
  );
  latest.index({ startedAt: 1 });
  return {
    AnswerLink: conn.model<AnswerLinkDoc>('AlarmAnswerLink', link, 'alarm_answer_links'),
    LatestAlarm: conn.model<LatestAlarmDoc>('AlarmLatest', latest, 'alarm_latest'),
  };
});
