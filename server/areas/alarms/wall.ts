// An alarm on its monitors (docs/alarms.md "Shown"): written as their alarming data when it is raised,
// rewritten as deliveries and answers change (the counters and the members by name), ended by AL4.
// Rewrites of one alarm run one at a time per process and take every answer stored so far, so a burst
// of answers shares them; each is followed by alarm:updated to the organization's room.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { JsonObject } from '../../../common/monitor-data.js';
import { withClaimLock } from '../../db/claim-lock.js';
import type { Database } from '../../db/database.js';
import type { OrganizationEvents } from '../../hub/events.js';
import { Recent } from '../../db/recent.js';
import { crewOf } from '../../identity/lookup.js';
import type { MonitorCommands } from '../monitor/commands.js';
import type { AlarmDoc, AnswerDoc, DeliveryItem } from './models.js';
import { geoOf, notified, type AlarmPresenter } from './presenter.js';
import type { AlarmRecords } from './records.js';

/** Members listed on the wall per alarm (the monitor data's limit of a unit's feedback list). */
const WALL_MEMBERS = 500;
/** Rewrites tried again after a failure (the lock busy under a burst), so the last answer is not lost. */
const RETRIES = 3;

/** A member as the wall names him. */
type Crew = { name: string; units: string[] };

/** Shows alarms on their monitors and keeps their counters and members current there. */
export class AlarmWall {
  private readonly rewrites = new Map<number, { again: boolean }>();
  // The rewrite loops running, for stop() to wait for; none starts once stopping.
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  // Per alarm, the names and units of its alerted members as first read on this process: a wall is
  // rewritten at every checkpoint of the deliveries and with every answer, hundreds of members each time.
  private readonly crews: Recent<number, Map<number, Crew>>;

  constructor(
    private readonly db: Database,
    private readonly records: AlarmRecords,
    private readonly presenter: AlarmPresenter,
    private readonly monitors: Pick<MonitorCommands, 'writeFor'>,
    private readonly events: OrganizationEvents,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    this.crews = new Recent(20, db.generation);
  }

  /** A new alarm on its monitors, before anyone is notified. */
  async raised(doc: AlarmDoc): Promise<void> {
    await this.show(doc, await this.project(doc, [], []), 'set');
  }

  /** An ended alarm leaves its monitors (their split screens keep the others). */
  async ended(doc: AlarmDoc, endedAt: Date): Promise<void> {
    await this.show(doc, { eventId: doc.id, eventEndDate: endedAt.toISOString() }, 'patch');
  }

  /** Stops taking changes and waits for the rewrites under way (the service is stopping). */
  async stop(): Promise<void> {
    this.stopping = true;
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Deliveries or answers of the alarm changed: its wall (while it runs) and the room's counts follow. */
  changed(alarmId: number): void {
    if (this.stopping) return;
    this.track(
      this.records
        .find(alarmId)
        .then((doc) => {
          if (doc && !doc.endedAt) this.rewriteSoon(doc);
          else if (doc) return this.announce(alarmId);
        })
        .catch((err) => this.log.warn({ err, alarmId }, 'alarm:updated could not be announced')),
    );
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** As changed(), for an alarm already read. */
  rewriteSoon(doc: AlarmDoc): void {
    const pending = this.rewrites.get(doc.id);
    if (pending) {
      pending.again = true;
      return;
    }
    if (this.stopping) return;
    const state = { again: true };
    this.rewrites.set(doc.id, state);
    const run = (async () => {
      try {
        for (let failures = 0; state.again;) {
          state.again = false;
          try {
            // Read again: an input's later document may have added the address or the place.
            await this.rewrite((await this.records.find(doc.id)) ?? doc);
          } catch (err) {
            this.log.warn({ err, alarmId: doc.id }, 'the answers could not be shown on the wall now');
            if (++failures <= RETRIES) {
              state.again = true;
              await sleep(500 * failures);
            }
          }
          await this.announce(doc.id).catch((err) =>
            this.log.warn({ err, alarmId: doc.id }, 'alarm:updated could not be announced'),
          );
        }
      } finally {
        this.rewrites.delete(doc.id);
      }
    })();
    this.track(run);
  }

  // The counters and the members from every answer stored. Under the alarm's lock, so that of two
  // answers at once (on two processes) the later write is built on both.
  private async rewrite(doc: AlarmDoc): Promise<void> {
    await withClaimLock(this.db.system.Lock, `alarm-wall:${doc.id}`, async () => {
      const [deliveries, answers] = await Promise.all([this.records.deliveries(doc), this.records.answers(doc)]);
      const { eventId, positiveResponses, negativeResponses, awaitingResponses, units } = await this.project(
        doc,
        deliveries?.items ?? [],
        answers,
      );
      await this.show(doc, { eventId, positiveResponses, negativeResponses, awaitingResponses, units }, 'patch');
    });
  }

  // The alarm as its monitors show it: the counters, and the alerted and answering members by name (1
  // coming, 0 not, 2 awaiting), each under the first of his units (his membership's) that the alarm names
  // — or, when it names none, under his own units — and those without one in a unit without a name.
  private async project(doc: AlarmDoc, items: DeliveryItem[], answers: AnswerDoc[]): Promise<JsonObject> {
    const answered = new Map(answers.map((a) => [a.userId, a.response]));
    const alerted = [...new Set([...notified(items), ...answered.keys()])];
    const crew = await this.crewOf(doc, alerted);
    const members = alerted
      .map((userId) => ({
        name: crew.get(userId)?.name ?? `#${userId}`,
        units: crew.get(userId)?.units ?? [],
        feedback: answered.has(userId) ? Number(answered.get(userId)) : 2,
      }))
      .sort((a, b) => a.feedback - b.feedback || a.name.localeCompare(b.name))
      .slice(0, WALL_MEMBERS);
    const names = doc.units.length > 0 ? doc.units : [...new Set(members.flatMap((m) => m.units))];
    const unitOf = (m: { units: string[] }) => m.units.find((u) => names.includes(u)) ?? '';
    const feedback = (name: string) =>
      members.filter((m) => unitOf(m) === name).map(({ name: member, feedback: f }) => ({ name: member, feedback: f }));
    const apart = feedback('');
    const units = [
      ...names.map((name) => ({ name, feedback: feedback(name) })),
      ...(apart.length > 0 ? [{ name: '', feedback: apart }] : []),
    ];
    const geo = geoOf(doc);
    return {
      eventId: doc.id,
      event: doc.event,
      // The wall shows the fallback keyword in its own language (display-client/src/alarms.ts).
      ...(doc.eventKind ? { eventKind: doc.eventKind } : {}),
      ...(doc.message ? { message: doc.message } : {}),
      eventStartDate: doc.startedAt.toISOString(),
      ...(geo ? { geo } : {}),
      units,
      positiveResponses: answers.filter((a) => a.response).length,
      negativeResponses: answers.filter((a) => !a.response).length,
      awaitingResponses: alerted.filter((userId) => !answered.has(userId)).length,
    };
  }

  /** The members as the alarm's deliveries were built from them: named without reading them again. */
  know(alarmId: number, members: Map<number, Crew>): void {
    const known = this.crews.get(alarmId) ?? new Map<number, Crew>();
    for (const [userId, member] of members) if (!known.has(userId)) known.set(userId, member);
    this.crews.set(alarmId, known);
  }

  // The members' names and units, each read once per alarm (an unknown user again each time).
  private async crewOf(doc: AlarmDoc, userIds: number[]): Promise<Map<number, Crew>> {
    let known = this.crews.get(doc.id);
    if (!known) this.crews.set(doc.id, (known = new Map()));
    const missing = userIds.filter((userId) => !known.has(userId));
    if (missing.length > 0)
      for (const [userId, member] of await crewOf(this.db, doc.organizationId, missing)) known.set(userId, member);
    return known;
  }

  // Every monitor of the alarm shows it as an M7 (set) or M8 (patch) write would; a monitor that cannot
  // does not stop the others.
  private async show(doc: AlarmDoc, payload: JsonObject, op: 'set' | 'patch'): Promise<void> {
    await Promise.all(
      doc.monitorIds.map((monitorId) =>
        this.monitors
          .writeFor({ id: monitorId, organizationID: doc.organizationId }, 'alarming', op, payload)
          .catch((err) =>
            this.log.warn({ err, alarmId: doc.id, monitorId }, 'an alarm could not be shown on a monitor'),
          ),
      ),
    );
  }

  // alarm:updated with the counts as stored now.
  private async announce(alarmId: number): Promise<void> {
    const doc = await this.records.find(alarmId);
    if (doc)
      this.events.toOrganization(doc.organizationId, 'alarm:updated', { alarm: await this.presenter.present(doc) });
  }
}
