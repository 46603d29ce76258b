// Answer links (AN1, AN2; docs/alarms.md "Answering without the app"): every alarm SMS ends with
// <PUBLIC_URL>/a/<token>, a page that shows the alarm and takes the member's answer without signing in.
// A token is 128 random bits (22 base64url characters, so the link fits one SMS segment beside the alarm)
// answering for one member on one alarm, stored only as its SHA-256 — the _id, so every use is one exact
// read. It works while the alarm runs (an hour after its end it still shows it, taking no answer), at
// most a day, and only while he is a member. Unknown, expired and foreign tokens answer the same 404.
import { randomBytes } from 'node:crypto';
import type { AN2Input, AnswerLinkViewOut } from '../../../schemas/answer-links.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { namesOf, organizationName, roleOf } from '../../identity/lookup.js';
import { hashToken } from '../../identity/tokens.js';
import type { AlarmAnswer } from '../app/replies.js';
import { answerModels, type AnswerLinkDoc, type AnswerModels } from './answer-models.js';
import { ENDED } from './answers.js';
import type { AlarmDoc } from './models.js';
import type { AlarmRecords } from './records.js';
import { WriteBatch } from '../../db/write-batch.js';

/** A link answers for at most this long after its SMS was written. */
export const LINK_TTL_MS = 24 * 3_600_000;
/** After the alarm ended its page still shows it (and his answer) this long. */
export const SHOWN_AFTER_END_MS = 3_600_000;

/** Unknown, expired or no longer his: alike, so nothing tells a guesser which. */
export const invalidLink = () =>
  new AppError(
    404,
    'invalid_code',
    'This answer link is unknown or no longer valid: it works while the alarm runs, and shows it for an hour after',
  );

/** Issues answer links and takes the answers given through them. */
export class AnswerLinks {
  private readonly models: AnswerModels;
  // The links of SMS written in the same moment are stored together (write-batch.ts).
  private readonly inserts: WriteBatch<AnswerLinkDoc>;

  constructor(
    private readonly db: Database,
    private readonly records: Pick<AlarmRecords, 'find' | 'models'>,
    /** Records an answer as every other way does (AlarmAnswers.answered): his latest counts. */
    private readonly answered: (answer: AlarmAnswer) => Promise<void>,
    /** The service's public URL, without a trailing slash. */
    private readonly base: () => string,
  ) {
    this.models = answerModels(db);
    this.inserts = new WriteBatch(async (docs) => {
      await this.models.AnswerLink.insertMany(docs, { ordered: false, lean: true });
    });
  }

  /** A new link answering the alarm for the member (one per SMS written). */
  async issue(alarm: Pick<AlarmDoc, 'id' | 'organizationId'>, userId: number): Promise<string> {
    const token = randomBytes(16).toString('base64url');
    const now = new Date();
    await this.inserts.add({
      _id: hashToken(token),
      alarmId: alarm.id,
      organizationId: alarm.organizationId,
      userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_TTL_MS),
    });
    return `${this.base()}/a/${token}`;
  }

  /** AN1: the alarm the link answers, and his answer so far. */
  async view(token: string): Promise<AnswerLinkViewOut> {
    const { link, alarm } = await this.open(token);
    return this.present(link, alarm);
  }

  /** AN2: his answer, recorded as any other (his latest counts); 409 once the alarm ended. */
  async answer(token: string, body: AN2Input): Promise<AnswerLinkViewOut> {
    const { link, alarm } = await this.open(token);
    if (alarm.endedAt) throw ENDED();
    await this.answered({
      organizationId: link.organizationId,
      alarmId: link.alarmId,
      userId: link.userId,
      response: body.response,
      distance: null,
      // Travel minutes belong to coming; with "not coming" they mean nothing.
      duration: body.response ? (body.duration ?? null) : null,
      enteredBy: null,
      whileRunning: true,
    });
    return this.present(link, alarm);
  }

  /** Removes the links past their time (the hourly sweep); how many went. */
  async sweep(now = Date.now()): Promise<number> {
    return (await this.models.AnswerLink.deleteMany({ expiresAt: { $lt: new Date(now) } })).deletedCount;
  }

  private async open(token: string): Promise<{ link: AnswerLinkDoc; alarm: AlarmDoc }> {
    const link = await this.models.AnswerLink.findById(hashToken(token)).lean();
    const now = Date.now();
    if (!link || link.expiresAt.getTime() <= now) throw invalidLink();
    const [alarm, role] = await Promise.all([
      this.records.find(link.alarmId),
      roleOf(this.db, link.organizationId, link.userId),
    ]);
    // The alarm gone or long over, or he left the organization: the link is spent.
    if (!alarm || alarm.organizationId !== link.organizationId || role === null) throw invalidLink();
    if (alarm.endedAt && alarm.endedAt.getTime() + SHOWN_AFTER_END_MS <= now) throw invalidLink();
    return { link, alarm };
  }

  private async present(link: AnswerLinkDoc, alarm: AlarmDoc): Promise<AnswerLinkViewOut> {
    const answers = await this.records.models.answers.of(link.organizationId);
    const [organization, names, answer] = await Promise.all([
      organizationName(this.db, link.organizationId),
      namesOf(this.db, [link.userId]),
      answers.findById(`${link.alarmId}:${link.userId}`).lean(),
    ]);
    return {
      event: alarm.event,
      message: alarm.message,
      address: alarm.address,
      startedAt: alarm.startedAt.toISOString(),
      endedAt: alarm.endedAt?.toISOString() ?? null,
      organizationName: organization ?? '',
      name: names.get(link.userId) ?? '',
      answer: answer ? { response: answer.response, duration: answer.duration, at: answer.at.toISOString() } : null,
    };
  }
}
