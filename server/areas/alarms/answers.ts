// The members' answers to an alarm (docs/alarms.md "Answered"): A10 and A11 from the app report them
// here (AlarmReplies, server/areas/app/replies.ts); a user's latest answer counts, and the wall and the
// organization's room follow at once. A push's receipt marks its delivery delivered.
import { conflict } from '../../errors.js';
import { setById } from '../channels/upsert.js';
import type { AlarmAnswer, AlarmReplies } from '../app/replies.js';
import type { AlarmOutbox } from './outbox.js';
import type { AlarmRecords } from './records.js';
import type { AlarmWall } from './wall.js';

/** An answer that is taken only while the alarm runs, come after its end. */
export const ENDED = () => conflict('alarm_ended', 'The alarm has ended: no answer is taken any more');

/** Takes in answers and receipts of the alarms' pushes. */
export class AlarmAnswers implements AlarmReplies {
  constructor(
    private readonly records: AlarmRecords,
    private readonly wall: AlarmWall,
    private readonly outbox: Pick<AlarmOutbox, 'markDelivered' | 'skipAnswered'>,
  ) {}

  async answered(answer: AlarmAnswer): Promise<void> {
    const doc = await this.records.find(answer.alarmId);
    if (!doc || doc.organizationId !== answer.organizationId) return;
    // Read again here, just before the write: an alarm ended since its caller looked is not answered.
    if (answer.whileRunning && doc.endedAt) throw ENDED();
    const { alarmId, organizationId, userId, response, distance, duration } = answer;
    const enteredBy = answer.enteredBy ?? null;
    await setById(await this.records.models.answers.of(organizationId), `${alarmId}:${userId}`, {
      alarmId,
      organizationId,
      userId,
      response,
      distance,
      duration,
      enteredBy,
      at: new Date(),
    });
    // Stored: the answer counts, and his SMS and calls held for his push's receipt are not sent
    // (docs/alarms.md "Escalation"). The wall and the room follow (a burst of answers shares the rewrites).
    await this.outbox.skipAnswered(doc, userId);
    if (!doc.endedAt) this.wall.rewriteSoon(doc);
    else this.wall.changed(alarmId);
  }

  async delivered(alarmId: number, deviceId: number): Promise<void> {
    await this.outbox.markDelivered(alarmId, deviceId);
  }
}
