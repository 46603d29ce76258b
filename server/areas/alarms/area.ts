// The alarms area (AL1–AL4, IN1, IN2, W4; docs/alarms.md): alarms raised by the API, an SMS or a call with
// the PIN, or a things rule; shown on the organization's monitors first, delivered by push, SMS and
// voice through the durable outbox (SMS and calls held for a push's receipt by the escalation policy),
// and answered by the members.
import * as schemas from '../../../schemas/alarms.js';
import { Recent } from '../../db/recent.js';
import * as answerSchemas from '../../../schemas/answer-links.js';
import { defineArea } from '../area.js';
import type { DeviceDoc } from '../app/models.js';
import type { NumberDoc } from '../channels/models.js';
import { formatSms } from '../sms/formatters.js';
import { answerModels } from './answer-models.js';
import { answerLinkOperations } from './answer-routes.js';
import { AlarmAnswers } from './answers.js';
import { MemberAnswering } from './answering.js';
import { AlarmCommands } from './commands.js';
import { answeredAmong, EscalationPolicies } from './escalation.js';
import { gatewaySender } from './gateways.js';
import { IdempotencyKeys } from './idempotency.js';
import { InboundAlarms, WRONG_PINS } from './inbound.js';
import { GatewayQuotas } from './quota.js';
import { alarmModels, type DeliveryItem } from './models.js';
import { incidentModels } from './incident-models.js';
import { Incidents } from './incidents.js';
import { AlarmOutbox, DeliveryError, type Sender } from './outbox.js';
import { AlarmPresenter, geoOf } from './presenter.js';
import { AlarmRecipients } from './recipients.js';
import { AlarmRecords } from './records.js';
import { CALL_KEYS } from './replies.js';
import { alarmOperations } from './routes.js';
import { AlarmWall } from './wall.js';

/** What the alarms area offers the others. */
export interface AlarmParts {
  alarms: AlarmCommands;
  answers: AlarmAnswers;
  /** Answer links, reply SMS and call keys (docs/alarms.md "Answering without the app"). */
  answering: MemberAnswering;
  escalation: EscalationPolicies;
  inbound: InboundAlarms;
  /** Alarms of the inputs, one per incident (docs/inputs.md "One incident, one alarm"). */
  incidents: Incidents;
  outbox: AlarmOutbox;
  wall: AlarmWall;
}

declare module '../area.js' {
  interface AreaParts {
    alarms: AlarmParts;
  }
}

export const alarmsArea = defineArea({
  name: 'alarms',
  models: [alarmModels, answerModels, incidentModels],
  schemas: [schemas, answerSchemas],
  build({ db, config, events, limits, log, metrics, scheduler, publicUrl, need }) {
    const { monitors, store } = need('monitor');
    const { flags, targets } = need('channels');
    const app = need('app');
    const sms = need('sms');
    const call = need('call');
    const gateways = config.alarms;

    const records = new AlarmRecords(db);
    const presenter = new AlarmPresenter(db, records);
    const wall = new AlarmWall(db, records, presenter, monitors, events, log);
    const escalation = new EscalationPolicies(records.models);
    const recipients = new AlarmRecipients(
      db,
      records,
      {
        flags,
        targets: async (userId, organizationId, channels) => {
          const { device, mobile, phone } = await targets(userId, organizationId);
          const devices = device as DeviceDoc[];
          // Their first push takes them as read here, a moment before (AlarmPushes.remember).
          if (channels.includes('app')) app.alarmPushes.remember(devices.filter((d) => d.active));
          const numbers = (list: unknown[]) => (list as NumberDoc[]).map((n) => ({ target: n.gsm, active: n.active }));
          return {
            app: devices.map((d) => ({ target: d._id, active: d.active })),
            sms: numbers(mobile),
            call: numbers(phone),
          };
        },
      },
      escalation,
      (alarmId, members) => wall.know(alarmId, members),
    );

    // What a delivery says depends on the alarm only (its event, message and place never change).
    const alarmOf = async (alarmId: number) => {
      const alarm = await records.unchanging(alarmId);
      if (!alarm) throw new DeliveryError('the alarm is gone', true);
      return alarm;
    };
    // An SMS ends with its recipient's answer link; a call tells which keys answer.
    const answering = new MemberAnswering({
      db,
      records,
      alarmOf,
      answered: (answer) => answers.answered(answer),
      base: () => publicUrl.href,
      log,
      scheduler,
      metrics,
    });
    // The organization's formatter as the alarm's SMS and calls use it: read once per alarm (its hundreds of
    // SMS would read it each), as the alarm itself is.
    const formatters = new Recent<number, ReturnType<typeof sms.formatters.nameOf>>(100, db.generation);
    const formatterOf = (alarm: { id: number; organizationId: number }) => {
      let name = formatters.get(alarm.id);
      if (!name) {
        name = sms.formatters.nameOf(alarm.organizationId);
        // A failed read is not kept: the next try reads again (this one fails and is retried).
        name.catch(() => formatters.delete(alarm.id));
        formatters.set(alarm.id, name);
      }
      return name;
    };
    const smsText = async (alarmId: number, link?: string): Promise<string> => {
      const alarm = await alarmOf(alarmId);
      const geo = geoOf(alarm);
      const formatter = await formatterOf(alarm);
      const data = { event: alarm.event, message: alarm.message, eventId: alarm.id, ...(geo ? { geo } : {}) };
      return formatSms(formatter, data, link).text;
    };
    const text = {
      sms: async (item: DeliveryItem, alarmId: number) => smsText(alarmId, await answering.linkFor(item, alarmId)),
      call: async (_item: DeliveryItem, alarmId: number) => `${await smsText(alarmId)}\n${CALL_KEYS}`,
    };
    const quotas = new GatewayQuotas(limits, gateways.quotaPerDay);
    const organizationOf = async (alarmId: number) => (await alarmOf(alarmId)).organizationId;
    const senders: Record<'app' | 'sms' | 'call', Sender> = {
      app: async (item, alarmId, signal) => app.alarmPushes.send(item.target, await alarmOf(alarmId), signal),
      sms: quotas.metered(
        'sms',
        answering.recorded(
          gatewaySender(gateways.smsGatewayUrl, gateways.gatewayToken, gateways.gatewayTimeoutMs, text.sms),
        ),
        organizationOf,
      ),
      call: quotas.metered(
        'call',
        answering.recorded(
          gatewaySender(gateways.callGatewayUrl, gateways.gatewayToken, gateways.gatewayTimeoutMs, text.call),
        ),
        organizationOf,
      ),
    };
    const outbox = new AlarmOutbox(
      records.models,
      db.system.Lock,
      senders,
      {
        prepare: (alarmId) => recipients.prepare(alarmId),
        blocked: (channel, organizationId) => recipients.blocked(channel, organizationId),
        changed: (alarmId) => wall.changed(alarmId),
        answered: (alarmId, organizationId, userIds) => answeredAmong(records.models, alarmId, organizationId, userIds),
        ended: async (alarmId) => Boolean((await records.find(alarmId))?.endedAt),
      },
      log,
      { sweepMs: gateways.outboxSweepMs, claimMs: gateways.gatewayTimeoutMs * 3, concurrency: 250 },
    );
    scheduler.every('alarm-outbox-sweep', gateways.outboxSweepMs, () => outbox.sweep());

    const keys = new IdempotencyKeys(records.models, (alarmId) => records.find(alarmId), log);
    const alarms = new AlarmCommands({
      db,
      records,
      presenter,
      wall,
      recipients,
      outbox,
      keys,
      monitors: store,
      events,
      log,
    });
    const answers = new AlarmAnswers(records, wall, outbox);
    const incidents = new Incidents(db, alarms, records, wall);
    scheduler.every('alarm-incident-sweep', 3_600_000, async () => {
      await incidents.sweep();
    });
    const inbound = new InboundAlarms(
      gateways.inboundGatewayToken,
      sms.alarming,
      call.alarming,
      alarms,
      need('templates'),
      limits.create('inbound-wrong-pins', WRONG_PINS.burst / WRONG_PINS.perSeconds, WRONG_PINS.burst, true),
      log,
      answering.replies,
    );

    metrics.counter(
      'alarmhub_alarm_delivery_failed_tries_total',
      'Tries of alarm deliveries (push, SMS, call) that failed on this process; each is retried or ' +
        'ends failed (docs/alarms.md)',
      () => outbox.failedTries,
    );
    for (const channel of ['sms', 'call'] as const) {
      const noun = channel === 'sms' ? 'SMS' : 'calls';
      metrics.counter(
        `alarmhub_alarm_${channel}_sent_total`,
        `Alarm ${noun} the gateway took from this process (all organizations: label values stay bounded)`,
        () => quotas.counts[channel].sent,
      );
      metrics.counter(
        `alarmhub_alarm_${channel}_over_quota_total`,
        `Alarm ${noun} not sent by this process because their organization's quota was spent`,
        () => quotas.counts[channel].overQuota,
      );
    }
    metrics.counter(
      'alarmhub_inbound_received_total',
      'SMS and calls the gateways reported to IN1 and IN2 on this process',
      () => inbound.counts.accepted,
    );
    metrics.counter(
      'alarmhub_inbound_alarms_raised_total',
      'Alarms raised by an SMS or a call with the right PIN on this process',
      () => inbound.counts.raised,
    );
    metrics.counter(
      'alarmhub_inbound_wrong_pins_total',
      'Wrong PIN tries on this process: words of SMS (and calls) that could be a PIN and matched no configuration',
      () => inbound.counts.wrongPin,
    );
    metrics.counter(
      'alarmhub_inbound_throttled_total',
      'SMS and calls ignored because their sender sent too many wrong PINs',
      () => inbound.counts.throttled,
    );
    return { alarms, answers, answering, escalation, inbound, incidents, outbox, wall };
  },
  // The deliveries in flight record their results, and the wall's rewrites finish, before the database closes.
  async close({ outbox, wall }) {
    await outbox.stop();
    await wall.stop();
  },
  operations: ({ alarms, answering, escalation, inbound }) => [
    ...alarmOperations({ alarms, escalation, inbound }),
    ...answerLinkOperations(answering.links),
  ],
});
