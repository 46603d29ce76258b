// The alarms area's storage (docs/alarms.md "Storage"). Every lookup on a request's path is an exact
// string-_id lookup or a query of one organization's own partition:
//   alarms_<orgId>      "<alarmId>": the alarm (AL2 lists and counts this organization's partition only)
//   alarm_ids           "<alarmId>": the organization an alarm belongs to (AL3, AL4, answers)
//   alarm_keys          "<orgId>:<sha256 of Idempotency-Key>": the alarm that key raised (first insert wins)
//   alarm_deliveries    "<alarmId>": the alarm's deliveries: the parts that hold them, changed only under the
//                       alarm's claim lock (delivery-store.ts)
//   alarm_delivery_parts "<alarmId>:<random>": up to 100 of them, never changed (a write stores new parts)
//   alarm_outbox        "<alarmId>": present while a delivery of the alarm is unfinished — the work queue
//                       every process sweeps (it holds only unfinished work, so reading it whole is cheap)
//   alarm_answers_<orgId> "<alarmId>:<userId>": a user's latest answer (A10, A11), read per alarm
//   escalation_policies "<orgId>": the organization's escalation policy (W4), absent: none
//   alarm_delivery_tries "<deliveryId>:<try>": one try of one delivery, inserted before it is sent (the
//                       insert decides who sends it), its outcome after; gone when the alarm's are final
import { Schema, type Connection, type Model } from 'mongoose';
import type { AlarmChannel, EscalationSkip } from '../../../schemas/alarms.js';
import { defineModels } from '../../db/models.js';
import { partitioned, type Partitions } from '../../db/partitions.js';

export type AlarmSource = 'api' | 'sms' | 'call' | 'rule' | 'input';

/** An alarm input whose document raised the alarm or was merged into it (docs/inputs.md). */
export interface AlarmSourceEntry {
  kind: 'imap' | 'document' | 'pager';
  inputId: number;
  name: string;
  at: Date;
}

export interface AlarmDoc {
  _id: string;
  id: number;
  organizationId: number;
  event: string;
  message: string;
  source: AlarmSource;
  templateId: number | null;
  /** 'phone': a call alarm without a template, its keyword the fallback each wall shows in its language. */
  eventKind?: 'phone' | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  units: string[];
  monitorIds: number[];
  channels: AlarmChannel[];
  startedAt: Date;
  endedAt: Date | null;
  /** The inputs whose documents raised it or merged into it; absent on alarms no input raised. */
  sources?: AlarmSourceEntry[];
}

export interface AlarmIdDoc {
  _id: string;
  organizationId: number;
}

export interface AlarmKeyDoc {
  _id: string;
  alarmId: number;
  at: Date;
}

/** waiting: held by the escalation policy until `nextAt`; skipped: not sent (docs/alarms.md "Escalation"). */
export type DeliveryStatus = 'waiting' | 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'skipped';

/** One message to one target (a device, a mobile, a phone) of one recipient. */
export interface DeliveryItem {
  /** "<alarmId>-<index>": sent to the gateway, which may use it to drop a repeated request. */
  id: string;
  channel: AlarmChannel;
  recipientUserId: number;
  /** The number (00…) or the device ID; shown masked. */
  target: string;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  /** When a queued (or waiting) item is due. */
  nextAt: Date;
  /** Who is sending it and until when (an expired claim is taken over). */
  claim: { by: string; until: Date } | null;
  /** Set on the items the escalation policy held: when they were due to go unless skipped. */
  dueAt?: Date;
  /** Set on skipped items: why. */
  reason?: EscalationSkip;
}

export interface DeliveriesDoc {
  _id: string;
  organizationId: number;
  /** Every delivery, in order (as stored: in the parts, or in the head before parts existed). */
  items: DeliveryItem[];
  /** The parts that hold the items, in order (delivery-store.ts); absent in heads stored before parts. */
  parts?: DeliveryPartRef[];
  /** Parts replaced by writes, removed once the deliveries are final (delivery-store.ts). */
  retired?: string[];
  /**
   * While the raising process is still adding its members' deliveries (outbox.ts, prepareNow): until when
   * it is taken to be alive; past it, a sweeper builds the rest. Absent once every member's are stored.
   */
  buildingUntil?: Date;
}

export interface OutboxDoc {
  _id: string;
  organizationId: number;
  /** The earliest time an unfinished item is due (a hint for the sweep). */
  dueAt: Date;
}

export interface AnswerDoc {
  _id: string;
  alarmId: number;
  organizationId: number;
  userId: number;
  response: boolean;
  distance: number | null;
  duration: number | null;
  /** Who entered it for the member (docs/alarms.md "Answered"); null or absent: the member himself. */
  enteredBy?: { kind: 'user' | 'apikey'; id: number } | null;
  at: Date;
}

export interface EscalationDoc {
  _id: string;
  organizationId: number;
  pushReceiptWithinSeconds: number | null;
  channels: Array<'sms' | 'call'>;
  changedAt: Date;
}

/** What a try came to: the item's fields it set (docs/alarms.md "Delivered", at most once per recipient). */
export interface TryOutcome {
  status: 'sent' | 'queued' | 'failed';
  lastError: string | null;
  nextAt?: Date;
}

export interface DeliveryTryDoc {
  _id: string;
  alarmId: number;
  /** When the try began. */
  at: Date;
  /** Absent while it is under way (or when its process stopped during it); set by versions before the notes. */
  outcome?: TryOutcome;
  /** In "<alarmId>:notes:<k>": the outcomes of tries that ended together, as JSON (delivery-tries.ts). */
  notes?: string;
}

/** A part of an alarm's deliveries, as its head names it: its ID and how many items it holds. */
export interface DeliveryPartRef {
  id: string;
  n: number;
}

export interface DeliveryPartDoc {
  _id: string;
  /** The items as JSON (delivery-store.ts); absent in parts stored before, which hold `items`. */
  json?: string;
  items?: DeliveryItem[];
}

export interface AlarmModels {
  alarms: Partitions<AlarmDoc>;
  AlarmId: Model<AlarmIdDoc>;
  AlarmKey: Model<AlarmKeyDoc>;
  Deliveries: Model<DeliveriesDoc>;
  /** Read and written together with Deliveries, through delivery-store.ts. */
  DeliveryParts: Model<DeliveryPartDoc>;
  Outbox: Model<OutboxDoc>;
  answers: Partitions<AnswerDoc>;
  Escalation: Model<EscalationDoc>;
  Tries: Model<DeliveryTryDoc>;
}

const opts = { versionKey: false } as const;

export const alarmModels = defineModels((conn: Connection): AlarmModels => {
  const alarm = new Schema<AlarmDoc>(
    {
      _id: String,
      id: { type: Number, required: true },
      organizationId: { type: Number, required: true },
      event: String,
      message: String,
      source: String,
      templateId: { type: Number, default: null },
      eventKind: { type: String, default: null },
      address: String,
      latitude: { type: Number, default: null },
      longitude: { type: Number, default: null },
      units: [String],
      monitorIds: [Number],
      channels: [String],
      startedAt: Date,
      endedAt: { type: Date, default: null },
      sources: {
        type: [new Schema({ kind: String, inputId: Number, name: String, at: Date }, { _id: false })],
        default: undefined,
      },
    },
    opts,
  );
  alarm.index({ id: -1 });
  const item = new Schema<DeliveryItem>(
    {
      id: String,
      channel: String,
      recipientUserId: Number,
      target: String,
      status: String,
      attempts: Number,
      lastError: { type: String, default: null },
      nextAt: Date,
      claim: { type: new Schema({ by: String, until: Date }, { _id: false }), default: null },
      // No defaults: present only on the items escalation concerns.
      dueAt: Date,
      reason: String,
    },
    { _id: false },
  );
  const answer = new Schema<AnswerDoc>(
    {
      _id: String,
      alarmId: Number,
      organizationId: Number,
      userId: Number,
      response: Boolean,
      distance: { type: Number, default: null },
      duration: { type: Number, default: null },
      enteredBy: { type: { _id: false, kind: String, id: Number }, default: null },
      at: Date,
    },
    opts,
  );
  answer.index({ alarmId: 1 });
  const tries = new Schema<DeliveryTryDoc>(
    {
      _id: String,
      alarmId: Number,
      at: Date,
      outcome: { type: new Schema({ status: String, lastError: String, nextAt: Date }, { _id: false }) },
      notes: String,
    },
    opts,
  );
  // No defaults: a head stored before parts existed has items and no parts, a newer one parts only.
  const Deliveries = conn.model<DeliveriesDoc>(
    'AlarmDeliveries',
    new Schema<DeliveriesDoc>(
      {
        _id: String,
        organizationId: Number,
        items: { type: [item], default: undefined },
        parts: { type: [new Schema({ id: String, n: Number }, { _id: false })], default: undefined },
        retired: { type: [String], default: undefined },
        buildingUntil: Date,
      },
      opts,
    ),
    'alarm_deliveries',
  );
  const DeliveryParts = conn.model<DeliveryPartDoc>(
    'AlarmDeliveryPart',
    new Schema<DeliveryPartDoc>({ _id: String, json: String, items: { type: [item], default: undefined } }, opts),
    'alarm_delivery_parts',
  );
  return {
    alarms: partitioned(conn, 'Alarm', alarm, 'alarms_'),
    AlarmId: conn.model<AlarmIdDoc>(
      'AlarmId',
      new Schema<AlarmIdDoc>({ _id: String, organizationId: Number }, opts),
      'alarm_ids',
    ),
    AlarmKey: conn.model<AlarmKeyDoc>(
      'AlarmKey',
      new Schema<AlarmKeyDoc>({ _id: String, alarmId: Number, at: Date }, opts),
      'alarm_keys',
    ),
    Deliveries,
    DeliveryParts,
    Outbox: conn.model<OutboxDoc>(
      'AlarmOutbox',
      new Schema<OutboxDoc>({ _id: String, organizationId: Number, dueAt: Date }, opts),
      'alarm_outbox',
    ),
    answers: partitioned(conn, 'AlarmAnswer', answer, 'alarm_answers_'),
    Escalation: conn.model<EscalationDoc>(
      'EscalationPolicy',
      new Schema<EscalationDoc>(
        {
          _id: String,
          organizationId: Number,
          pushReceiptWithinSeconds: { type: Number, default: null },
          channels: [String],
          changedAt: Date,
        },
        opts,
      ),
      'escalation_policies',
    ),
    Tries: conn.model<DeliveryTryDoc>('AlarmDeliveryTry', tries, 'alarm_delivery_tries'),
  };
});
