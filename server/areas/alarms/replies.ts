// Reply SMS and call keys (docs/alarms.md "Answering without the app"): a member reached by SMS or call
// answers from his own number — "J", "Ja", "1", "Komme" or "N", "Nein", "2", "Komme nicht" by SMS (IN1),
// the keys 1 or 2 on the alarm call (IN2). It answers his latest alarm that started within two hours and
// still runs (member-latest.ts), as every other way does. A reply carries no word of 4–8 digits, so it is
// never an alarm PIN; the inbound doors ask here first, and what is no reply goes on to the PINs.
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { roleOf } from '../../identity/lookup.js';
import type { AlarmAnswer } from '../app/replies.js';
import { maskTarget } from './gateways.js';
import { storedNumber, type InboundReplies } from './inbound.js';
import type { LatestAlarms } from './member-latest.js';
import type { AlarmRecords } from './records.js';

/** What the voice gateway reads out after the alarm: how to answer with the keys. */
export const CALL_KEYS = 'Antwort: Taste 1 = Komme, Taste 2 = Komme nicht.';

export interface Reply {
  response: boolean;
  duration: number | null;
}

// Case, spaces and punctuation do not matter; after a yes, travel minutes may follow ("Ja 10", "Komme 5 min").
const REPLY = /^(?:(j|ja|1|komme)(?: (\d{1,3})(?: min| minuten)?)?|(n|nein|2|komme nicht))$/;

/** The answer a reply SMS gives, or null when the text is no reply. */
export function readReply(text: string): Reply | null {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  const match = REPLY.exec(words);
  if (!match) return null;
  if (match[3]) return { response: false, duration: null };
  return { response: true, duration: match[2] ? Number(match[2]) : null };
}

/** The answer keyed on an alarm call: 1 coming, 2 not coming; anything else is no reply. */
export function readKeys(digits: string): Reply | null {
  if (digits === '1') return { response: true, duration: null };
  if (digits === '2') return { response: false, duration: null };
  return null;
}

/** Takes the members' replies for the inbound doors. */
export class MemberReplies implements InboundReplies {
  /** Replies that answered an alarm, and those that found none to answer (exported as metrics). */
  readonly counts = { answered: 0, unmatched: 0 };

  constructor(
    private readonly db: Database,
    private readonly latest: Pick<LatestAlarms, 'ofNumber'>,
    private readonly records: Pick<AlarmRecords, 'find'>,
    private readonly answered: (answer: AlarmAnswer) => Promise<void>,
    private readonly log: Pick<Logger, 'info'>,
  ) {}

  async sms(from: string, text: string): Promise<boolean> {
    const reply = readReply(text);
    if (!reply) return false;
    await this.take('sms', from, reply);
    return true;
  }

  async call(from: string, digits: string): Promise<boolean> {
    const reply = readKeys(digits);
    if (!reply) return false;
    await this.take('call', from, reply);
    return true;
  }

  private async take(via: 'sms' | 'call', from: string, reply: Reply): Promise<void> {
    const number = storedNumber(from);
    const found = number ? await this.latest.ofNumber(number) : null;
    if (found === 'shared') {
      this.counts.unmatched++;
      this.log.info(
        { via, from: maskTarget(number!) },
        'a reply from a number that reached several members: not taken (their answer links work)',
      );
      return;
    }
    const latest = found;
    const alarm = latest ? await this.records.find(latest.alarmId) : null;
    // His alarm still runs and he is still a member of its organization; otherwise the reply changes nothing.
    const open = Boolean(latest && alarm && !alarm.endedAt && alarm.organizationId === latest.organizationId);
    if (!latest || !open || (await roleOf(this.db, latest.organizationId, latest.userId)) === null) {
      this.counts.unmatched++;
      this.log.info({ via, from: number ? maskTarget(number) : null }, 'a reply without a running alarm to answer');
      return;
    }
    try {
      await this.answered({
        organizationId: latest.organizationId,
        alarmId: latest.alarmId,
        userId: latest.userId,
        response: reply.response,
        distance: null,
        duration: reply.duration,
        enteredBy: null,
        whileRunning: true,
      });
    } catch (err) {
      // Ended as it came: as a reply without a running alarm.
      if (!(err instanceof AppError && err.code === 'alarm_ended')) throw err;
      this.counts.unmatched++;
      return;
    }
    this.counts.answered++;
    this.log.info(
      { via, from: maskTarget(number!), alarmId: latest.alarmId, userId: latest.userId },
      'alarm answered by reply',
    );
  }
}
