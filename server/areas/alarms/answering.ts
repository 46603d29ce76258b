// Answering without the app (docs/alarms.md "Answering without the app"), put together for the alarms
// area: the answer links of the alarm SMS (answer-links.ts), the members' latest alarms that their reply
// SMS and call keys answer (member-latest.ts, replies.ts), what the senders do before each try, the
// hourly sweep and the metrics. Every answer goes the one way every answer goes (AlarmAnswers.answered).
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { Metrics } from '../../metrics.js';
import type { Scheduler } from '../../scheduler.js';
import type { AlarmAnswer } from '../app/replies.js';
import { AnswerLinks } from './answer-links.js';
import { LatestAlarms } from './member-latest.js';
import type { AlarmDoc, DeliveryItem } from './models.js';
import type { Sender } from './outbox.js';
import type { AlarmRecords } from './records.js';
import { MemberReplies } from './replies.js';

export const SWEEP_MS = 3_600_000;

/** Resolves when the signal aborts. */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export interface AnsweringParts {
  db: Database;
  records: Pick<AlarmRecords, 'find' | 'models'>;
  /** The alarm a delivery is for, as the senders read it (kept per alarm). */
  alarmOf(alarmId: number): Promise<AlarmDoc>;
  /** Records an answer (AlarmAnswers.answered; built after the senders, so asked when an answer comes). */
  answered(answer: AlarmAnswer): Promise<void>;
  /** The service's public URL, without a trailing slash. */
  base(): string;
  log: Pick<Logger, 'info' | 'warn'>;
  scheduler: Pick<Scheduler, 'every'>;
  metrics: Pick<Metrics, 'counter'>;
}

/** The answer links, the latest alarms and the replies, and their hooks into the senders. */
export class MemberAnswering {
  readonly links: AnswerLinks;
  readonly latest: LatestAlarms;
  readonly replies: MemberReplies;
  private readonly log: Pick<Logger, 'info' | 'warn'>;
  private readonly alarmOf: (alarmId: number) => Promise<AlarmDoc>;

  constructor(parts: AnsweringParts) {
    const { db, records, log } = parts;
    this.log = log;
    this.alarmOf = parts.alarmOf;
    this.links = new AnswerLinks(db, records, parts.answered, parts.base);
    this.latest = new LatestAlarms(db);
    this.replies = new MemberReplies(db, this.latest, records, parts.answered, log);
    parts.scheduler.every('alarm-answer-sweep', SWEEP_MS, async () => {
      const removed = { links: await this.links.sweep(), latest: await this.latest.sweep() };
      if (removed.links + removed.latest > 0) log.info(removed, 'alarms: expired answer links and replies removed');
    });
    parts.metrics.counter(
      'alarmhub_alarm_replies_answered_total',
      'Reply SMS and call keys on this process that answered a member’s running alarm (docs/alarms.md)',
      () => this.replies.counts.answered,
    );
    parts.metrics.counter(
      'alarmhub_alarm_replies_unmatched_total',
      'Reply SMS and call keys on this process that found no running alarm of a member at that number',
      () => this.replies.counts.unmatched,
    );
  }

  /**
   * The SMS or call sender, noting beside each try that the alarm went to its number (what a reply from
   * there answers: member-latest.ts). Beside, not before: the note never delays an alarm, and it is stored long
   * before a reply can come. A note that fails is logged: the alarm goes out all the same.
   */
  recorded(sender: Sender): Sender {
    return async (item, alarmId, signal) => {
      const noted = this.alarmOf(alarmId)
        .then((alarm) => this.latest.sending(item, alarm))
        .catch((err) =>
          this.log.warn({ err, alarmId, delivery: item.id }, 'the latest alarm at a number could not be noted'),
        );
      try {
        await sender(item, alarmId, signal);
      } finally {
        // Waited for while the try has time (a reply can rely on it then), never past: a stalled note
        // must not turn a sent SMS into a failed try that is sent again.
        await Promise.race([noted, stopped(signal)]);
      }
    };
  }

  /** The answer link an SMS of the alarm ends with; none when its key could not be read (the SMS goes without). */
  async linkFor(item: Pick<DeliveryItem, 'id' | 'recipientUserId'>, alarmId: number): Promise<string | undefined> {
    const alarm = await this.alarmOf(alarmId);
    try {
      return await this.links.issue(alarm, item.recipientUserId);
    } catch (err) {
      this.log.warn({ err, alarmId, delivery: item.id }, 'no answer link for an alarm SMS: it goes without');
      return undefined;
    }
  }
}
