// Never send a model: an alarm as AL1–AL4 and the hub's alarm:created / alarm:updated present it, its
// counts taken from its deliveries and answers, and AL3's list of both.
import type { AlarmChannel, AlarmDetailView, AlarmView } from '../../../schemas/alarms.js';
import type { Database } from '../../db/database.js';
import { namesOf } from '../../identity/lookup.js';
import { maskTarget } from './gateways.js';
import type { AlarmDoc, AnswerDoc, DeliveriesDoc, DeliveryItem } from './models.js';
import type { AlarmRecords } from './records.js';

/** Alarms as the API and the hub show them. */
export class AlarmPresenter {
  constructor(
    private readonly db: Database,
    private readonly records: AlarmRecords,
  ) {}

  /** The alarm with its counts as stored now. */
  async present(doc: AlarmDoc): Promise<AlarmView> {
    const [deliveries, answers] = await Promise.all([this.records.deliveries(doc), this.records.answers(doc)]);
    return alarmView(doc, deliveries, answers);
  }

  /** AL3: the alarm with every delivery (its target masked) and every answer by name. */
  async detail(doc: AlarmDoc): Promise<AlarmDetailView> {
    const [deliveries, answers] = await Promise.all([this.records.deliveries(doc), this.records.answers(doc)]);
    const names = await namesOf(
      this.db,
      answers.map((a) => a.userId),
    );
    return {
      ...alarmView(doc, deliveries, answers),
      deliveries: (deliveries?.items ?? []).map((item) => ({
        channel: item.channel,
        recipientUserId: item.recipientUserId,
        target: maskTarget(item.target),
        // Being sent is still queued to the reader: it has not reached the gateway yet.
        status: item.status === 'sending' ? 'queued' : item.status,
        attempts: item.attempts,
        lastError: item.lastError,
        // Only where escalation concerns the item (docs/alarms.md "Escalation").
        ...(item.dueAt ? { dueAt: item.dueAt.toISOString() } : {}),
        ...(item.reason ? { reason: item.reason } : {}),
      })),
      answers: answers.map((a) => ({
        userId: a.userId,
        name: names.get(a.userId) ?? '',
        response: a.response,
        distance: a.distance,
        duration: a.duration,
        enteredBy: a.enteredBy ?? null,
        at: a.at.toISOString(),
      })),
      sources: (doc.sources ?? []).map((s) => ({
        kind: s.kind,
        inputId: s.inputId,
        name: s.name,
        at: s.at.toISOString(),
      })),
    };
  }
}

/** The alarm as the Alarm schema shows it, its counts from the deliveries and answers given. */
export function alarmView(doc: AlarmDoc, deliveries: DeliveriesDoc | null, answers: AnswerDoc[]): AlarmView {
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

/** The users an alarm notifies or has notified: those with a delivery that did not fail. */
export function notified(items: DeliveryItem[]): number[] {
  return [...new Set(items.filter((item) => item.status !== 'failed').map((item) => item.recipientUserId))];
}
