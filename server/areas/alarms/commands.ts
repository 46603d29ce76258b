// Alarms (docs/alarms.md): raised by AL1, an SMS or a call with the PIN (inbound.ts) or a things rule;
// shown on the organization's monitors first, then delivered through the outbox; ended by AL4.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import {
  ALARM_CHANNELS,
  type AL1Input,
  type AL2QueryInput,
  type AlarmChannel,
  type AlarmDetailView,
  type AlarmView,
} from '../../../schemas/alarms.js';
import type { Database } from '../../db/database.js';
import { isDuplicateKey } from '../../db/errors.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { HubEvents } from '../../hub/events.js';
import type { Actor } from '../../identity/actor.js';
import { membersOf, namesOf } from '../../identity/lookup.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { JsonObject } from '../../../common/monitor-data.js';
import { withClaimLock } from '../../db/claim-lock.js';
import type { AlarmAnswer, AlarmReplies } from '../app/replies.js';
import { setById } from '../channels/upsert.js';
import type { MonitorCommands } from '../monitor/commands.js';
import { maskTarget } from './gateways.js';
import {
  alarmModels,
  type AlarmDoc,
  type AlarmModels,
  type AlarmSource,
  type AnswerDoc,
  type DeliveriesDoc,
  type DeliveryItem,
} from './models.js';
import type { AlarmOutbox } from './outbox.js';
import { deliveriesFor, type TargetSources } from './recipients.js';

/** How long an Idempotency-Key answers with the alarm it raised. */
export const IDEMPOTENCY_MS = 24 * 60 * 60_000;
/** A key whose alarm never appeared this long after it was taken (its request died) may be used again. */
const ABANDONED_KEY_MS = 30_000;
const MAX_KEY_LENGTH = 200;
/** Members listed on the wall per alarm (the monitor data's limit of a unit's feedback list). */
const WALL_MEMBERS = 500;

/** An alarm as the raising paths describe it. */
export interface AlarmInput {
  event: string;
  message?: string;
  address?: string;
  latitude?: number;
  longitude?: number;
  units?: string[];
  monitorIds?: number[];
  channels?: AlarmChannel[];
  templateId?: number | null;
}

/** The answer of AL1: the alarm, and whether it was raised now (201) or by an earlier request with the key (200). */
export interface Raised {
  alarm: AlarmView;
  created: boolean;
}

/** Raises, lists, reads and ends alarms, and takes in the members' answers. */
export class AlarmCommands implements AlarmReplies {
  private readonly models: AlarmModels;
  private readonly walls = new Map<number, { again: boolean }>();

  constructor(
    private readonly db: Database,
    private readonly monitors: MonitorCommands,
    private readonly events: HubEvents,
    private readonly outbox: AlarmOutbox,
    private readonly sources: TargetSources,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    this.models = alarmModels(db);
    // Deliveries changed (recorded tries, receipts, built by a sweeper): the wall's notified members
    // and the room's counts follow.
    outbox.changed = (alarmId) =>
      void this.find(alarmId)
        .then((doc) => {
          if (doc && !doc.endedAt) this.wallLater(doc);
          else if (doc) return this.announce(alarmId);
        })
        .catch((err) => this.log.warn({ err, alarmId }, 'alarm:updated could not be announced'));
    outbox.hooks = {
      prepare: (alarmId) => this.prepare(alarmId),
      blocked: async (channel, organizationId) =>
        (await sources.flags.isDisabled(channel, organizationId))
          ? `the organization disabled the ${channel} channel`
          : null,
    };
  }

  /** AL1: admins and the API key; a repeated Idempotency-Key answers the alarm it raised. */
  async create(actor: Actor, input: AL1Input, idempotencyKey: string | undefined): Promise<Raised> {
    const { organizationID, ...fields } = input;
    if (!canConfigure(actor, organizationID))
      throw forbidden("Alarms are raised by organization admins and the organization's API key");
    if (idempotencyKey === undefined) return { alarm: await this.raise(organizationID, 'api', fields), created: true };
    if (idempotencyKey.length === 0 || idempotencyKey.length > MAX_KEY_LENGTH) {
      throw badRequest('invalid_parameter', 'Idempotency-Key in wrong format', [
        { in: 'header', path: 'Idempotency-Key', problem: `must be 1 to ${MAX_KEY_LENGTH} characters` },
      ]);
    }
    // Per organization: another organization's key of the same text is another key.
    const keyId = `${organizationID}:${createHash('sha256').update(idempotencyKey).digest('hex')}`;
    const alarmId = await this.db.ids.next('alarm');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.models.AlarmKey.create({ _id: keyId, alarmId, at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const taken = await this.models.AlarmKey.findById(keyId).lean();
        if (!taken) continue;
        const age = Date.now() - taken.at.getTime();
        const earlier = await this.find(taken.alarmId);
        if (earlier && age < IDEMPOTENCY_MS) return { alarm: await this.present(earlier), created: false };
        if (!earlier && age < ABANDONED_KEY_MS)
          throw new AppError(
            409,
            'conflict',
            'A request with this Idempotency-Key is still being processed; try again',
            undefined,
            { 'Retry-After': '1' },
          );
        await this.models.AlarmKey.deleteOne({ _id: keyId, at: taken.at });
        continue;
      }
      try {
        return { alarm: await this.raise(organizationID, 'api', fields, alarmId), created: true };
      } catch (err) {
        // Nothing was raised: the key may be used again at once.
        await this.models.AlarmKey.deleteOne({ _id: keyId, alarmId }).catch(() => undefined);
        throw err;
      }
    }
    throw conflict('conflict', 'The Idempotency-Key changed hands too often; try again');
  }

  /**
   * Raises an alarm: its deliveries promised to the outbox, the alarm stored and shown on its monitors
   * (the wall first), its deliveries stored, and announced to the organization's room. Once the alarm
   * is stored nothing fails the raise: deliveries this process could not store are built by the
   * outbox's sweep (docs/alarms.md "Delivered").
   */
  async raise(organizationId: number, source: AlarmSource, input: AlarmInput, id?: number): Promise<AlarmView> {
    const owned = await this.monitors.store.list(organizationId);
    const monitorIds = input.monitorIds ?? owned.map((m) => m.id).sort((a, b) => a - b);
    const foreign = monitorIds.filter((m) => !owned.some((o) => o.id === m));
    if (foreign.length > 0) {
      throw badRequest('invalid_body', 'Alarm in wrong format or required field missing', [
        { in: 'body', path: 'monitorIds', problem: `names no monitor of the organization: ${foreign.join(', ')}` },
      ]);
    }
    const alarmId = id ?? (await this.db.ids.next('alarm'));
    const doc: AlarmDoc = {
      _id: String(alarmId),
      id: alarmId,
      organizationId,
      // As the Alarm schema bounds them (an SMS's first line, a rule's rendered text may be longer).
      event: input.event.slice(0, 500),
      message: (input.message ?? '').slice(0, 10_000),
      source,
      templateId: input.templateId ?? null,
      address: (input.address ?? '').slice(0, 500),
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      units: input.units ?? [],
      monitorIds,
      channels: input.channels ?? [...ALARM_CHANNELS],
      startedAt: new Date(),
      endedAt: null,
    };
    await this.outbox.open(alarmId, organizationId);
    // Where the alarm lives first, so that AL3 and answers find it as soon as it exists; then the wall,
    // before the recipients are looked up (hundreds of members take a while).
    await this.models.AlarmId.create({ _id: doc._id, organizationId });
    await (await this.models.alarms.of(organizationId)).create(doc);
    await this.show(doc, await this.wall(doc, [], []), 'set');
    let items: DeliveryItem[] = [];
    try {
      items = await this.recipients(doc);
      await this.outbox.store(alarmId, organizationId, items);
    } catch (err) {
      this.log.warn({ err, alarmId }, 'alarm deliveries not stored now; the outbox sweep builds them');
    }
    // The alerted members and how many are awaited, on the wall too.
    if (items.length > 0) this.wallLater(doc);
    const alarm = this.view(doc, { _id: doc._id, organizationId, items }, []);
    this.events.toOrganization(organizationId, 'alarm:created', { alarm });
    return alarm;
  }

  /** The deliveries of an alarm whose raise did not store them (the outbox's sweep asks); null when it is gone. */
  async prepare(alarmId: number): Promise<{ organizationId: number; items: DeliveryItem[] } | null> {
    const doc = await this.find(alarmId);
    if (!doc) return null;
    return { organizationId: doc.organizationId, items: await this.recipients(doc) };
  }

  private async recipients(doc: AlarmDoc): Promise<DeliveryItem[]> {
    return deliveriesFor(
      doc.id,
      doc.organizationId,
      doc.channels,
      await membersOf(this.db, doc.organizationId),
      this.sources,
    );
  }

  /** AL2: members read their organization's alarms, newest first. */
  async list(actor: Actor, query: AL2QueryInput): Promise<{ alarms: AlarmView[]; total: number }> {
    const organizationId = query.organization_id;
    if (!canRead(actor, organizationId)) throw forbidden();
    const model = await this.models.alarms.of(organizationId);
    const filter = query.active === undefined ? {} : query.active ? { endedAt: null } : { endedAt: { $ne: null } };
    const [docs, total] = await Promise.all([
      model
        .find(filter)
        .sort({ id: -1 })
        .skip(query.offset ?? 0)
        .limit(query.limit ?? 10)
        .lean(),
      model.countDocuments(filter),
    ]);
    return { alarms: await Promise.all(docs.map((doc) => this.present(doc))), total };
  }

  /** AL3: members read an alarm of their organization with every delivery and answer. */
  async get(actor: Actor, alarmId: number): Promise<AlarmDetailView> {
    const doc = await this.readable(actor, alarmId);
    const [deliveries, answers] = await Promise.all([this.deliveries(doc), this.answers(doc)]);
    const names = await namesOf(
      this.db,
      answers.map((a) => a.userId),
    );
    return {
      ...this.view(doc, deliveries, answers),
      deliveries: (deliveries?.items ?? []).map((item) => ({
        channel: item.channel,
        recipientUserId: item.recipientUserId,
        target: maskTarget(item.target),
        // Being sent is still queued to the reader: it has not reached the gateway yet.
        status: item.status === 'sending' ? 'queued' : item.status,
        attempts: item.attempts,
        lastError: item.lastError,
      })),
      answers: answers.map((a) => ({
        userId: a.userId,
        name: names.get(a.userId) ?? '',
        response: a.response,
        distance: a.distance,
        duration: a.duration,
        at: a.at.toISOString(),
      })),
    };
  }

  /** AL4: admins and the API key end an alarm; ending an ended one changes nothing. */
  async end(actor: Actor, alarmId: number): Promise<AlarmView> {
    const doc = await this.readable(actor, alarmId);
    if (!canConfigure(actor, doc.organizationId))
      throw forbidden("Alarms are ended by organization admins and the organization's API key");
    if (doc.endedAt) return this.present(doc);
    const endedAt = new Date();
    const model = await this.models.alarms.of(doc.organizationId);
    await model.updateOne({ _id: doc._id, endedAt: null }, { $set: { endedAt } });
    const ended = { ...doc, endedAt };
    for (const monitorId of doc.monitorIds) {
      await this.monitors
        .writeFor({ id: monitorId, organizationID: doc.organizationId }, 'alarming', 'patch', {
          eventId: doc.id,
          eventEndDate: endedAt.toISOString(),
        })
        .catch((err) => this.log.warn({ err, alarmId, monitorId }, 'an ended alarm could not be ended on a monitor'));
    }
    const alarm = await this.present(ended);
    this.events.toOrganization(doc.organizationId, 'alarm:updated', { alarm });
    return alarm;
  }

  /** The alarm with this ID, wherever it lives, or null. */
  async find(alarmId: number): Promise<AlarmDoc | null> {
    const home = await this.models.AlarmId.findById(String(alarmId)).lean();
    if (!home) return null;
    return (await this.models.alarms.of(home.organizationId)).findById(String(alarmId)).lean();
  }

  // 404 for an alarm the actor's organizations do not hold: another organization's alarm is not confirmed.
  private async readable(actor: Actor, alarmId: number): Promise<AlarmDoc> {
    const doc = await this.find(alarmId);
    if (!doc || !canRead(actor, doc.organizationId)) throw notFound('Alarm not found');
    return doc;
  }

  /** A user's answer (A10, A11) to an alarm of the organization: his latest counts, on the wall at once. */
  async answered(answer: AlarmAnswer): Promise<void> {
    const doc = await this.find(answer.alarmId);
    if (!doc || doc.organizationId !== answer.organizationId) return;
    const { alarmId, organizationId, userId, response, distance, duration } = answer;
    await setById(await this.models.answers.of(organizationId), `${alarmId}:${userId}`, {
      alarmId,
      organizationId,
      userId,
      response,
      distance,
      duration,
      at: new Date(),
    });
    // Stored: the answer counts. The wall and the room follow (a burst of answers shares the rewrites).
    if (!doc.endedAt) this.wallLater(doc);
    else
      void this.announce(alarmId).catch((err) =>
        this.log.warn({ err, alarmId }, 'alarm:updated could not be announced'),
      );
  }

  // Rewrites the alarm's wall soon, once at a time per alarm here: answers arriving meanwhile are all
  // taken by the next rewrite, which reads every answer stored. Then alarm:updated.
  private wallLater(doc: AlarmDoc): void {
    const pending = this.walls.get(doc.id);
    if (pending) {
      pending.again = true;
      return;
    }
    const state = { again: true };
    this.walls.set(doc.id, state);
    void (async () => {
      try {
        for (let failures = 0; state.again;) {
          state.again = false;
          try {
            await this.refreshWall(doc);
          } catch (err) {
            // Tried again a few times (the lock busy under a burst), so the last answer is not lost there.
            this.log.warn({ err, alarmId: doc.id }, 'the answers could not be shown on the wall now');
            if (++failures < 4) {
              state.again = true;
              await new Promise((r) => setTimeout(r, 500 * failures));
            }
          }
          await this.announce(doc.id).catch((err) =>
            this.log.warn({ err, alarmId: doc.id }, 'alarm:updated could not be announced'),
          );
        }
      } finally {
        this.walls.delete(doc.id);
      }
    })();
  }

  /** A push of the alarm reached the device. */
  async delivered(alarmId: number, deviceId: number): Promise<void> {
    await this.outbox.markDelivered(alarmId, deviceId);
  }

  // The counters and the members on the wall from every answer stored. Under the alarm's lock, so that
  // of two answers at once (on two processes) the later write is built on both.
  private async refreshWall(doc: AlarmDoc): Promise<void> {
    await withClaimLock(this.db.system.Lock, `alarm-wall:${doc.id}`, async () => {
      const [deliveries, answers] = await Promise.all([this.deliveries(doc), this.answers(doc)]);
      const { eventId, positiveResponses, negativeResponses, awaitingResponses, units } = await this.wall(
        doc,
        deliveries?.items ?? [],
        answers,
      );
      await this.show(doc, { eventId, positiveResponses, negativeResponses, awaitingResponses, units }, 'patch');
    });
  }

  // The alarm as its monitors show it: the counters, and the alerted and answering members by name in
  // the alarm's first unit (a unit without a name when it names none): 1 coming, 0 not, 2 awaiting.
  private async wall(doc: AlarmDoc, items: DeliveryItem[], answers: AnswerDoc[]): Promise<JsonObject> {
    const answered = new Map(answers.map((a) => [a.userId, a.response]));
    const alerted = [...new Set([...notified(items), ...answered.keys()])];
    const names = await namesOf(this.db, alerted);
    const members = alerted
      .map((userId) => ({
        name: names.get(userId) ?? `#${userId}`,
        feedback: answered.has(userId) ? Number(answered.get(userId)) : 2,
      }))
      .sort((a, b) => a.feedback - b.feedback || a.name.localeCompare(b.name))
      .slice(0, WALL_MEMBERS);
    const units =
      doc.units.length > 0
        ? doc.units.map((name, i) => ({ name, feedback: i === 0 ? members : [] }))
        : members.length > 0
          ? [{ name: '', feedback: members }]
          : [];
    const geo = geoOf(doc);
    return {
      eventId: doc.id,
      event: doc.event,
      ...(doc.message ? { message: doc.message } : {}),
      eventStartDate: doc.startedAt.toISOString(),
      ...(geo ? { geo } : {}),
      units,
      positiveResponses: answers.filter((a) => a.response).length,
      negativeResponses: answers.filter((a) => !a.response).length,
      awaitingResponses: alerted.filter((userId) => !answered.has(userId)).length,
    };
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
    const doc = await this.find(alarmId);
    if (doc) this.events.toOrganization(doc.organizationId, 'alarm:updated', { alarm: await this.present(doc) });
  }

  private async present(doc: AlarmDoc): Promise<AlarmView> {
    const [deliveries, answers] = await Promise.all([this.deliveries(doc), this.answers(doc)]);
    return this.view(doc, deliveries, answers);
  }

  private deliveries(doc: AlarmDoc): Promise<DeliveriesDoc | null> {
    return this.models.Deliveries.findById(doc._id).lean();
  }

  private async answers(doc: AlarmDoc): Promise<AnswerDoc[]> {
    const answers = await (await this.models.answers.of(doc.organizationId)).find({ alarmId: doc.id }).lean();
    return answers.sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  private view(doc: AlarmDoc, deliveries: DeliveriesDoc | null, answers: AnswerDoc[]): AlarmView {
    const items = deliveries?.items ?? [];
    const tally = (channel: AlarmChannel) => {
      const of = items.filter((item) => item.channel === channel);
      return {
        targets: of.length,
        sent: of.filter((item) => item.status === 'sent' || item.status === 'delivered').length,
        delivered: of.filter((item) => item.status === 'delivered').length,
        failed: of.filter((item) => item.status === 'failed').length,
      };
    };
    const answered = new Set(answers.map((a) => a.userId));
    return {
      id: doc.id,
      organizationId: doc.organizationId,
      event: doc.event,
      message: doc.message,
      source: doc.source,
      templateId: doc.templateId,
      address: doc.address,
      latitude: doc.latitude,
      longitude: doc.longitude,
      units: doc.units,
      monitorIds: doc.monitorIds,
      channels: doc.channels,
      startedAt: doc.startedAt.toISOString(),
      endedAt: doc.endedAt?.toISOString() ?? null,
      recipients: { app: tally('app'), sms: tally('sms'), call: tally('call') },
      responses: {
        positive: answers.filter((a) => a.response).length,
        negative: answers.filter((a) => !a.response).length,
        awaiting: notified(items).filter((userId) => !answered.has(userId)).length,
      },
    };
  }
}

/** An alarm's place as monitor data and the SMS formatters take it (`geo`), or undefined when it has none. */
export function geoOf(
  doc: Pick<AlarmDoc, 'address' | 'latitude' | 'longitude'>,
): { address?: string; latitude?: number; longitude?: number } | undefined {
  const geo = {
    ...(doc.address ? { address: doc.address } : {}),
    ...(doc.latitude !== null ? { latitude: doc.latitude } : {}),
    ...(doc.longitude !== null ? { longitude: doc.longitude } : {}),
  };
  return Object.keys(geo).length > 0 ? geo : undefined;
}

// The users an alarm notifies or has notified: those with a delivery that did not fail.
function notified(items: DeliveryItem[]): number[] {
  return [...new Set(items.filter((item) => item.status !== 'failed').map((item) => item.recipientUserId))];
}
