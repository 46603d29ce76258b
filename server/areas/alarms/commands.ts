// Alarms (docs/alarms.md): raised by AL1, an SMS or a call with the PIN (inbound.ts) or a things rule;
// shown on the organization's monitors first (wall.ts), then delivered through the outbox; listed and
// read (AL2, AL3), ended by AL4.
import type { Logger } from 'pino';
import {
  ALARM_CHANNELS,
  type AL1Input,
  type AL2QueryInput,
  type AlarmChannel,
  type AlarmDetailView,
  type AlarmView,
} from '../../../schemas/alarms.js';
import { withClaimLock } from '../../db/claim-lock.js';
import type { Database } from '../../db/database.js';
import { badRequest, forbidden } from '../../errors.js';
import type { OrganizationEvents } from '../../hub/events.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { MonitorStore } from '../monitor/store.js';
import type { IdempotencyKeys } from './idempotency.js';
import type { AlarmDoc, AlarmSource, AlarmSourceEntry } from './models.js';
import type { AlarmOutbox } from './outbox.js';
import { alarmView, type AlarmPresenter } from './presenter.js';
import type { AlarmRecipients } from './recipients.js';
import { alarmLockKey, type AlarmRecords } from './records.js';
import type { AlarmWall } from './wall.js';

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
  /** 'phone': the keyword is the call alarm's fallback, shown in each wall's language (docs/alarms.md "Raised"). */
  eventKind?: 'phone';
  /** Monitors of `monitorIds` that no longer exist are left out instead of refusing the alarm (a template's list). */
  skipUnknownMonitors?: boolean;
  /** The input whose document raises it (incidents.ts). */
  sources?: AlarmSourceEntry[];
}

/** The answer of AL1: the alarm, and whether it was raised now (201) or by an earlier request with the key (200). */
export interface Raised {
  alarm: AlarmView;
  created: boolean;
}

/** What the alarm commands are built on. */
export interface AlarmCommandParts {
  db: Database;
  records: AlarmRecords;
  presenter: AlarmPresenter;
  wall: AlarmWall;
  recipients: AlarmRecipients;
  outbox: AlarmOutbox;
  keys: IdempotencyKeys;
  /** The organization's monitors (an alarm is shown on all of them unless it names some). */
  monitors: Pick<MonitorStore, 'list'>;
  events: OrganizationEvents;
  log: Pick<Logger, 'warn'>;
}

/** Raises, lists, reads and ends alarms. */
export class AlarmCommands {
  constructor(private readonly parts: AlarmCommandParts) {}

  /** AL1: admins and the API key; a repeated Idempotency-Key answers the alarm it raised. */
  async create(actor: Actor, input: AL1Input, idempotencyKey: string | undefined): Promise<Raised> {
    const { organizationID, ...fields } = input;
    if (!canConfigure(actor, organizationID))
      throw forbidden("Alarms are raised by organization admins and the organization's API key");
    if (idempotencyKey === undefined) return { alarm: await this.raise(organizationID, 'api', fields), created: true };
    const taken = await this.parts.keys.take(organizationID, idempotencyKey, await this.parts.db.ids.next('alarm'));
    if ('earlier' in taken) return { alarm: await this.parts.presenter.present(taken.earlier), created: false };
    try {
      return { alarm: await this.raise(organizationID, 'api', fields, taken.alarmId), created: true };
    } catch (err) {
      // Nothing was raised: the key may be used again at once.
      await taken.release();
      throw err;
    }
  }

  /**
   * Raises an alarm: its deliveries promised to the outbox, the alarm stored and shown on its monitors
   * (the wall first), announced to the organization's room, and answered. Its deliveries are built and
   * stored after that (hundreds of members take a while; docs/alarms.md "Delivered"): the answer counts
   * none of them yet, and alarm:updated follows with their counts once stored. Once the alarm is stored
   * nothing fails the raise: deliveries this process could not build or store (it died, the database
   * was away) are built by the outbox's sweep.
   */
  async raise(organizationId: number, source: AlarmSource, input: AlarmInput, id?: number): Promise<AlarmView> {
    const { db, records, wall, recipients, outbox, events } = this.parts;
    const owned = await this.parts.monitors.list(organizationId);
    const known = (m: number) => owned.some((o) => o.id === m);
    let chosen = input.monitorIds;
    // A template's monitors that are gone are left out; none left: every monitor, as without a list.
    if (chosen && input.skipUnknownMonitors) chosen = chosen.filter(known).length ? chosen.filter(known) : undefined;
    const monitorIds = chosen ?? owned.map((m) => m.id).sort((a, b) => a - b);
    const foreign = monitorIds.filter((m) => !known(m));
    if (foreign.length > 0) {
      throw badRequest('invalid_body', 'Alarm in wrong format or required field missing', [
        { in: 'body', path: 'monitorIds', problem: `names no monitor of the organization: ${foreign.join(', ')}` },
      ]);
    }
    const alarmId = id ?? (await db.ids.next('alarm'));
    const doc: AlarmDoc = {
      _id: String(alarmId),
      id: alarmId,
      organizationId,
      // As the Alarm schema bounds them (an SMS's first line, a rule's rendered text may be longer).
      event: input.event.slice(0, 500),
      message: (input.message ?? '').slice(0, 10_000),
      source,
      templateId: input.templateId ?? null,
      eventKind: input.eventKind ?? null,
      address: (input.address ?? '').slice(0, 500),
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      units: input.units ?? [],
      monitorIds,
      channels: input.channels ?? [...ALARM_CHANNELS],
      startedAt: new Date(),
      endedAt: null,
      ...(input.sources ? { sources: input.sources } : {}),
    };
    await outbox.open(alarmId, organizationId);
    // Where the alarm lives first, so that AL3 and answers find it as soon as it exists; then the wall.
    await records.models.AlarmId.create({ _id: doc._id, organizationId });
    await (await records.models.alarms.of(organizationId)).create(doc);
    await wall.raised(doc);
    outbox.prepareNow(
      alarmId,
      organizationId,
      () => recipients.of(doc),
      (items) => {
        // The alerted members and how many are awaited, on the wall and in alarm:updated.
        if (items.length > 0) wall.rewriteSoon(doc);
      },
    );
    const alarm = alarmView(doc, null, []);
    events.toOrganization(organizationId, 'alarm:created', { alarm });
    return alarm;
  }

  /** The keyword and address of the organization's alarm with this ID (an event's journal names it), or null. */
  async summary(organizationId: number, alarmId: number): Promise<{ event: string; address: string } | null> {
    const doc = await this.parts.records.find(alarmId);
    return doc && doc.organizationId === organizationId ? { event: doc.event, address: doc.address } : null;
  }

  /** AL2: members read their organization's alarms, newest first. */
  async list(actor: Actor, query: AL2QueryInput): Promise<{ alarms: AlarmView[]; total: number }> {
    const organizationId = query.organization_id;
    if (!canRead(actor, organizationId)) throw forbidden();
    const model = await this.parts.records.models.alarms.of(organizationId);
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
    return { alarms: await Promise.all(docs.map((doc) => this.parts.presenter.present(doc))), total };
  }

  /** AL3: members read an alarm of their organization with every delivery and answer. */
  async get(actor: Actor, alarmId: number): Promise<AlarmDetailView> {
    return this.parts.presenter.detail(await this.parts.records.readable(actor, alarmId));
  }

  /** AL4: admins and the API key end an alarm; ending an ended one changes nothing. */
  async end(actor: Actor, alarmId: number): Promise<AlarmView> {
    const { records, presenter, wall, events } = this.parts;
    const doc = await records.readable(actor, alarmId);
    if (!canConfigure(actor, doc.organizationId))
      throw forbidden("Alarms are ended by organization admins and the organization's API key");
    if (doc.endedAt) return presenter.present(doc);
    const endedAt = new Date();
    const model = await records.models.alarms.of(doc.organizationId);
    // Under the alarm's lock, as a merge (incidents.ts): an update on the embedded engine writes back the
    // whole document it read, so an end and a merge at once would lose one of them.
    const { current, endedNow } = await withClaimLock(this.parts.db.system.Lock, alarmLockKey(alarmId), async () => {
      const read = (await records.find(alarmId)) ?? doc;
      if (read.endedAt) return { current: read, endedNow: false };
      await model.updateOne({ _id: doc._id }, { $set: { endedAt } });
      return { current: { ...read, endedAt }, endedNow: true };
    });
    if (!endedNow) return presenter.present(current);
    await wall.ended(current, endedAt);
    const alarm = await presenter.present(current);
    events.toOrganization(doc.organizationId, 'alarm:updated', { alarm });
    return alarm;
  }
}
