// Things (T1–T13; docs/api.md "Things (T1–T13)"): entities with typed fields, records (single and bulk), rules
// that raise alarms, usage against a record limit, and the water sources screens show near an alarm.
import * as schemas from '../../../schemas/things.js';
import * as ruleSchemas from '../../../schemas/things-rules.js';
import { defineArea } from '../area.js';
import { BulkCommands } from './bulk.js';
import { RecordEffects } from './effects.js';
import { EntityCommands } from './entities.js';
import { thingsModels } from './models.js';
import { PositionIndex } from './positions.js';
import { RecordCommands } from './records.js';
import { RuleRunner } from './rule-engine.js';
import { RuleSets } from './rule-sets.js';
import { RuleCommands } from './rules.js';
import { thingsOperations, type ThingsCommands } from './routes.js';
import { RecordSlots } from './slots.js';
import { RecordStore } from './store.js';
import { WaterSources } from './water.js';

/** What the things area offers the others (the hub: water sources near an alarm). */
export interface ThingsParts extends ThingsCommands {
  water: WaterSources;
}

declare module '../area.js' {
  interface AreaParts {
    things: ThingsParts;
  }
}

export const thingsArea = defineArea({
  name: 'things',
  models: [thingsModels],
  schemas: [schemas, ruleSchemas],
  build({ db, config, events, limits, log, need, scheduler }) {
    const { alarms } = need('alarms');
    const recordStore = new RecordStore(db, log);
    const slots = new RecordSlots(db, recordStore, config.thingsRecordLimit);
    const sets = new RuleSets(db, log);
    const runner = new RuleRunner(
      thingsModels(db),
      sets,
      events,
      log,
      (organizationId, ruleName, alarm) =>
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
      limits.create(
        'rule-alarms',
        schemas.RULE_COOLDOWN.alarmsPerHour / 3600,
        schemas.RULE_COOLDOWN.alarmsPerHour,
        true,
      ),
      db.system.Lock,
    );
    // A cooldown that ran out holds nothing back (a claim overwrites it): swept hourly, so the collection
    // keeps only the running ones.
    scheduler.every('things-rule-cooldown-sweep', 3_600_000, () =>
      thingsModels(db).ThingRuleCooldown.deleteMany({ until: { $lt: new Date() } }),
    );
    const positions = new PositionIndex(thingsModels(db).ThingPositionIndex, db.system.Lock, recordStore);
    const effects = new RecordEffects(positions, runner, events, log);
    return {
      entities: new EntityCommands(db, recordStore, sets, events),
      records: new RecordCommands(db, recordStore, slots, effects),
      bulk: new BulkCommands(db, recordStore, slots, effects),
      rules: new RuleCommands(db, sets),
      water: new WaterSources(thingsModels(db), recordStore, positions, need('monitor').monitors),
    };
  },
  operations: (parts) => thingsOperations(parts),
});
