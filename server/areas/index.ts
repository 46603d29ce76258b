// Every area, built once, in dependency order, and its operations in the order the router mounts them
// (the composition root, server/service.ts, gives the monitor's live side and the hub's broadcasts).
// An area's routes.ts only declares operations over the commands built here; a new area adds its
// commands and its operations here.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { HubEvents } from '../hub/events.js';
import { AppError } from '../errors.js';
import type { Limits } from '../http/limits.js';
import { Recent } from '../db/recent.js';
import type { Operation } from '../http/operation.js';
import { AlarmCommands, geoOf } from './alarms/alarms.js';
import { gatewaySender } from './alarms/gateways.js';
import { InboundAlarms, WRONG_PINS } from './alarms/inbound.js';
import { alarmModels } from './alarms/models.js';
import { AlarmOutbox, DeliveryError } from './alarms/outbox.js';
import { alarmOperations } from './alarms/routes.js';
import { PushConfirmations } from './app/confirmations.js';
import { Devices } from './app/devices.js';
import { AlarmFeedback } from './app/feedback.js';
import { TestPushes } from './app/push.js';
import { appModels } from './app/models.js';
import { PushGateways } from './app/push/gateways.js';
import { appOperations } from './app/routes.js';
import { callModels } from './call/models.js';
import { callOperations } from './call/routes.js';
import { AlarmingConfigs } from './channels/alarming.js';
import { ChannelFlags } from './channels/flags.js';
import { ChannelNumbers } from './channels/numbers.js';
import { ElsCobraCommands } from './els-cobra/commands.js';
import { elsCobraOperations } from './els-cobra/routes.js';
import { openKeyring, type Keyring } from './els-cobra/secrets.js';
import { CategoryCommands } from './journal/categories.js';
import { EntryCommands } from './journal/entries.js';
import { JournalExport } from './journal/export.js';
import { JournalCommands } from './journal/journals.js';
import { JournalLog } from './journal/log.js';
import { journalModels } from './journal/models.js';
import { journalOperations } from './journal/routes.js';
import { MonitorCommands } from './monitor/commands.js';
import type { MonitorEvents } from './monitor/events.js';
import { monitorOperations } from './monitor/routes.js';
import type { MonitorStore } from './monitor/store.js';
import { ScreenCommands } from './screens/commands.js';
import { screenOperations } from './screens/routes.js';
import { SmsFormatters } from './sms/formatter.js';
import { formatSms } from './sms/formatters.js';
import { smsModels } from './sms/models.js';
import { smsOperations } from './sms/routes.js';
import { BulkCommands } from './things/bulk.js';
import { RecordEffects } from './things/effects.js';
import { EntityCommands } from './things/entities.js';
import { thingsModels } from './things/models.js';
import { PositionIndex } from './things/positions.js';
import { RecordCommands } from './things/records.js';
import { RuleRunner } from './things/rule-engine.js';
import { RuleSets } from './things/rule-sets.js';
import { RuleCommands } from './things/rules.js';
import { thingsOperations } from './things/routes.js';
import { RecordSlots } from './things/slots.js';
import { RecordStore } from './things/store.js';
import { WaterSources } from './things/water.js';

/** What the areas are built from. */
export interface AreaDeps {
  config: Config;
  db: Database;
  log: Logger;
  limits: Limits;
  /** The hub's broadcasts (events to organizations, screen commands, revocations). */
  events: HubEvents;
  /** The monitor's store and its live side on the hub (server/areas/monitor/live.ts). */
  monitorStore: MonitorStore;
  monitorEvents: MonitorEvents;
}

/** The built areas: the commands the hub uses, and every operation. */
export interface Areas {
  monitors: MonitorCommands;
  screens: ScreenCommands;
  /** Sends alarm deliveries; the service starts and stops its sweep. */
  outbox: AlarmOutbox;
  inbound: InboundAlarms;
  /** Answers screens' `water:nearby` on the hub. */
  water: WaterSources;
  operations: Operation[];
}

/** Builds every area once. */
export function buildAreas({ config, db, log, limits, events, monitorStore, monitorEvents }: AreaDeps): Areas {
  const monitors = new MonitorCommands(monitorStore, monitorEvents, config.dataWrites);
  const screens = new ScreenCommands(db, monitors, events, limits);
  const flags = new ChannelFlags(db);

  const devices = new Devices(db);
  const confirmations = new PushConfirmations(db, config.push.confirmTtlSeconds);
  const pushGateway = new PushGateways(config.push);

  const { Mobile, SmsAlarming } = smsModels(db);
  const sms = {
    alarming: new AlarmingConfigs(db, SmsAlarming, 'sms-alarming'),
    mobiles: new ChannelNumbers(db, Mobile, 'mobile'),
    flags,
    formatters: new SmsFormatters(db),
  };
  const { Phone, CallAlarming } = callModels(db);
  const call = {
    alarming: new AlarmingConfigs(db, CallAlarming, 'call-alarming'),
    phones: new ChannelNumbers(db, Phone, 'phone'),
    flags,
  };

  // Alarms: raised here, shown through the monitor area, delivered through the outbox.
  const gateways = config.alarms;
  // What a delivery says depends on the alarm only (its event, message and place never change): read
  // once per alarm and process, not once per recipient.
  const alarmOf = keptPerAlarm((alarmId) => alarms.find(alarmId));
  const smsText = keptPerAlarm(async (alarmId): Promise<string> => {
    const alarm = await alarmOf(alarmId);
    if (!alarm) throw new DeliveryError('the alarm is gone', true);
    const geo = geoOf(alarm);
    return formatSms(await sms.formatters.nameOf(alarm.organizationId), {
      event: alarm.event,
      message: alarm.message,
      eventId: alarm.id,
      ...(geo ? { geo } : {}),
    }).text;
  });
  // A push to one device, with an A11 token tied to the alarm; a dead token sets the device inactive.
  const pushAlarm = async (deviceId: string, alarmId: number): Promise<void> => {
    const [device, alarm] = await Promise.all([appModels(db).Device.findById(deviceId).lean(), alarmOf(alarmId)]);
    if (!alarm) throw new DeliveryError('the alarm is gone', true);
    if (!device?.active) throw new DeliveryError('the device was removed or set inactive', true);
    let gateway;
    try {
      gateway = pushGateway.for(device.platform);
    } catch (err) {
      throw new DeliveryError((err as Error).message, true);
    }
    const confirmToken = await confirmations.issue(device, alarm.organizationId, alarmId);
    let outcome;
    try {
      outcome = await gateway.send(device, {
        title: alarm.event,
        body: alarm.message || alarm.address || alarm.event,
        confirmToken,
        alarmId,
      });
    } catch (err) {
      await confirmations.discard(confirmToken);
      // 503: the gateway may take it later; any other refusal will not change.
      throw new DeliveryError((err as Error).message, !(err instanceof AppError && err.status === 503));
    }
    if (outcome === 'dead') {
      await confirmations.discard(confirmToken);
      await devices.deactivate(device);
      throw new DeliveryError('the push gateway says the device token is no longer valid (device set inactive)', true);
    }
  };
  const outbox: AlarmOutbox = new AlarmOutbox(
    alarmModels(db),
    db.system.Lock,
    {
      app: (item, alarmId) => pushAlarm(item.target, alarmId),
      sms: gatewaySender(gateways.smsGatewayUrl, gateways.gatewayToken, gateways.gatewayTimeoutMs, (_item, alarmId) =>
        smsText(alarmId),
      ),
      call: gatewaySender(gateways.callGatewayUrl, gateways.gatewayToken, gateways.gatewayTimeoutMs, (_item, alarmId) =>
        smsText(alarmId),
      ),
    },
    log,
    { sweepMs: gateways.outboxSweepMs, claimMs: gateways.gatewayTimeoutMs * 3, concurrency: 25 },
  );
  const activeNumbers = (numbers: ChannelNumbers) => async (userId: number) =>
    (await numbers.owned.ofOwner(userId)).map((n) => ({ target: n.gsm, active: n.active }));
  const alarms: AlarmCommands = new AlarmCommands(
    db,
    monitors,
    events,
    outbox,
    {
      flags,
      targets: {
        app: async (userId) => (await devices.owned.ofOwner(userId)).map((d) => ({ target: d._id, active: d.active })),
        sms: activeNumbers(sms.mobiles),
        call: activeNumbers(call.phones),
      },
    },
    log,
  );
  const inbound = new InboundAlarms(
    gateways.inboundGatewayToken,
    sms.alarming,
    call.alarming,
    alarms,
    limits.create('inbound-wrong-pins', WRONG_PINS.burst / WRONG_PINS.perSeconds, WRONG_PINS.burst, true),
    log,
  );

  // The app reports its users' answers and receipts to the alarms.
  const app = {
    devices,
    confirmations,
    flags,
    pushes: new TestPushes(devices, pushGateway, confirmations),
    feedback: new AlarmFeedback(db, devices, events, alarms),
    replies: alarms,
  };

  const journalLog = new JournalLog(journalModels(db), db.ids);
  const categories = new CategoryCommands(db);
  const journals = new JournalCommands(db, journalLog, events);
  const journal = {
    categories,
    journals,
    entries: new EntryCommands(db, journalLog, journals, categories),
    exports: new JournalExport(db, journalLog, journals),
    timeZone: config.journalTimeZone,
  };

  // Opened on first use: services that never touch the integration need no key.
  let keyring: Keyring | undefined;
  const elsCobra = new ElsCobraCommands(db, () => (keyring ??= openKeyring(config).keyring));

  const recordStore = new RecordStore(db, log);
  const slots = new RecordSlots(db, recordStore, config.thingsRecordLimit);
  const sets = new RuleSets(db, log);
  const runner = new RuleRunner(thingsModels(db), sets, events, log, (organizationId, ruleName, alarm) =>
    alarms.raise(organizationId, 'rule', {
      event: alarm.eventName || ruleName,
      message: alarm.message,
      templateId: alarm.alarmTemplateID,
      ...(alarm.position && 'address' in alarm.position ? { address: alarm.position.address } : {}),
      // Coordinates the record holds outside the globe are left out rather than refusing the alarm.
      ...(alarm.position &&
      'latitude' in alarm.position &&
      Math.abs(alarm.position.latitude) <= 90 &&
      Math.abs(alarm.position.longitude) <= 180
        ? { latitude: alarm.position.latitude, longitude: alarm.position.longitude }
        : {}),
    }),
  );
  const positions = new PositionIndex(thingsModels(db).ThingPositionIndex, db.system.Lock, recordStore);
  const effects = new RecordEffects(positions, runner, events, log);
  const things = {
    entities: new EntityCommands(db, recordStore, sets),
    records: new RecordCommands(db, recordStore, slots, effects),
    bulk: new BulkCommands(db, recordStore, slots, effects),
    rules: new RuleCommands(db, sets),
  };

  return {
    monitors,
    screens,
    outbox,
    inbound,
    water: new WaterSources(thingsModels(db), recordStore, positions, monitors),
    operations: [
      ...monitorOperations(monitors),
      ...screenOperations(screens),
      ...appOperations(app),
      ...smsOperations(sms),
      ...callOperations(call),
      ...journalOperations(journal),
      ...elsCobraOperations(elsCobra),
      ...thingsOperations(things),
      ...alarmOperations({ alarms, inbound }),
    ],
  };
}

// A per-alarm answer kept for the last 100 alarms (a failed one is asked again), for reads whose
// answer never changes (an alarm's record, its text).
function keptPerAlarm<V>(read: (alarmId: number) => Promise<V>): (alarmId: number) => Promise<V> {
  const kept = new Recent<number, Promise<V>>(100);
  return (alarmId) => {
    let value = kept.get(alarmId);
    if (!value) {
      value = read(alarmId);
      value.catch(() => kept.delete(alarmId));
      kept.set(alarmId, value);
    }
    return value;
  };
}
