// Entities, records, rules and rule executions. Every document has a UUID string _id, so a lookup by ID
// is the one query FerretDB answers from an index. Records live in a collection per organization
// (docs/storage.md "Partitioned by organization"), so listing and counting an entity's or an
// organization's records reads only that organization's; a record's home names its collection. An
// organization's entities are listed through their index (server/db/id-index.ts). An entity's rules
// are listed in one document under the entity's _id, so every record write finds them by exact lookups.
import { Schema, type Connection, type Model } from 'mongoose';
import { idIndexModel, type IdIndexDoc } from '../../db/id-index.js';
import { defineModels } from '../../db/models.js';
import { partitioned, type Partitions } from '../../db/partitions.js';
import type { FieldType, RuleOperator, RuleTrigger } from '../../../schemas/things.js';

export interface FieldDoc {
  id: string;
  name: string;
  type: FieldType;
  selectionValues: string[];
}

export interface EntityDoc {
  _id: string;
  organizationID: number;
  name: string;
  description: string;
  icon: string;
  fields: FieldDoc[];
  readOnlyUserIDs: number[];
  readWriteUserIDs: number[];
  createdAt: Date;
  updatedAt: Date;
}

/** One stored value: `i` is the value item's ID, `v` its text. */
export interface StoredValue {
  i: string;
  v: string;
}

export interface RecordDoc {
  _id: string;
  organizationID: number;
  entityID: string;
  /**
   * The record's place under its organization's limit (1…recordLimit). A unique index on slot in the
   * organization's collection makes the insert of the record itself the claim: no organization can hold
   * more records than slots, on MongoDB and on FerretDB, and nothing is claimed without a record.
   */
  slot: number;
  /** JSON text of Record<fieldID, StoredValue>: one string parses far faster on FerretDB than subdocuments. */
  values: string;
  /** Revision of values and slot, which change only under a revision claim (server/db/revisions.ts). */
  rev?: number;
  createdAt: Date;
  /** Position among the records one request created: a bulk's records list in the order they were sent. */
  seq: number;
  updatedAt: Date;
}

export interface ConditionDoc {
  fieldID: string;
  operator: RuleOperator;
  comparison: string;
}

export interface AlarmTemplateDoc {
  alarmMessage: string;
  alarmTemplateID: number | null;
  documentKeysFieldID: string;
  eventName: string;
  positionFieldID: string;
}

/** One saved version of a rule; its entity's rule set names the current one. Never changed: a save writes a new one. */
export interface RuleDoc {
  /** "<ruleID>:<v>", v random per save. */
  _id: string;
  ruleID: string;
  organizationID: number;
  entityID: string;
  name: string;
  description: string;
  action: 'alarm';
  actionAlarmTemplate: AlarmTemplateDoc | null;
  conditions: ConditionDoc[];
  triggers: RuleTrigger[];
  /** Absent in rules saved before it existed: the default (RULE_COOLDOWN). */
  cooldownSeconds?: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A rule's alarm for a record was raised: no other until `until` (read and claimed by _id only). */
export interface RuleCooldownDoc {
  _id: string;
  organizationID: number;
  until: Date;
}

/** A rule as its set lists it: its ID and its current version (the document "<id>:<v>"). */
export interface RuleRef {
  id: string;
  v: string;
}

/** Which rules an entity has (at most THINGS_LIMITS.rulesPerEntity): _id is the entity's. */
export interface RuleSetDoc {
  _id: string;
  organizationID: number;
  /** The rules in creation order. */
  rules: RuleRef[];
  /** Revision: the set changes only under a revision claim (server/db/revisions.ts). */
  rev?: number;
}

/** What a triggered rule produced; the same payload went to the organization's hub room. */
export interface RuleExecutionDoc {
  _id: string;
  organizationID: number;
  entityID: string;
  ruleID: string;
  recordID: string;
  trigger: RuleTrigger;
  /** JSON text of the alarm (message, eventName, position, …). */
  alarm: string;
  at: Date;
}

/** Which organization's collection holds a record (T8, T9 and T7 name records by ID only). */
export interface RecordHomeDoc {
  /** The record's ID. */
  _id: string;
  organizationID: number;
}

/** The highest record limit an organization's records were created under (see slots.ts). */
export interface SlotCeilingDoc {
  /** The organization ID as text. */
  _id: string;
  ceiling: number;
}

export interface ThingsModels {
  ThingSlotCeiling: Model<SlotCeilingDoc>;
  ThingEntity: Model<EntityDoc>;
  /** An organization's entity IDs ("entities:<organization ID>"), so T1 reads by exact lookups. */
  ThingEntityIndex: Model<IdIndexDoc>;
  /** Records, a collection per organization (things_records_<organization ID>). */
  records: Partitions<RecordDoc>;
  ThingRecordHome: Model<RecordHomeDoc>;
  ThingRuleSet: Model<RuleSetDoc>;
  ThingRule: Model<RuleDoc>;
  ThingRuleExecution: Model<RuleExecutionDoc>;
  /** Until when a rule raises no alarm for a record: _id "<ruleID>:<recordID>" (rule-engine.ts). */
  ThingRuleCooldown: Model<RuleCooldownDoc>;
  /** Records' positions by grid cell ("<entityID>:<fieldID>:<cell>", server/areas/things/positions.ts). */
  ThingPositionIndex: Model<IdIndexDoc>;
}

const opts = { versionKey: false } as const;

/** The things area's collections (server/db/models.ts). */
export const thingsModels = defineModels((conn: Connection): ThingsModels => {
  const field = new Schema<FieldDoc>(
    {
      id: { type: String, required: true },
      name: { type: String, required: true },
      type: { type: String, required: true },
      selectionValues: { type: [String], default: [] },
    },
    { _id: false },
  );
  const entity = new Schema<EntityDoc>(
    {
      _id: String,
      organizationID: { type: Number, required: true },
      name: { type: String, required: true },
      description: { type: String, default: '' },
      icon: { type: String, default: '' },
      fields: { type: [field], default: [] },
      readOnlyUserIDs: { type: [Number], default: [] },
      readWriteUserIDs: { type: [Number], default: [] },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
    },
    opts,
  );
  entity.index({ organizationID: 1, name: 1 });

  const record = new Schema<RecordDoc>(
    {
      _id: String,
      organizationID: { type: Number, required: true },
      entityID: { type: String, required: true },
      slot: { type: Number, required: true },
      values: { type: String, required: true },
      rev: { type: Number },
      createdAt: { type: Date, required: true },
      seq: { type: Number, default: 0 },
      updatedAt: { type: Date, required: true },
    },
    opts,
  );
  // The record limit (see `slot`); on MongoDB it also answers the slot scan.
  record.index({ slot: 1 }, { unique: true });
  // T5's pages in creation order, the entity's count and its scan for search and ordering.
  record.index({ entityID: 1, createdAt: 1, seq: 1, _id: 1 });

  // Both are only ever read by _id: no index beside it.
  const ruleSet = new Schema<RuleSetDoc>(
    {
      _id: String,
      organizationID: { type: Number, required: true },
      rules: { type: [new Schema<RuleRef>({ id: String, v: String }, { _id: false })], default: [] },
      rev: { type: Number },
    },
    opts,
  );
  const condition = new Schema<ConditionDoc>({ fieldID: String, operator: String, comparison: String }, { _id: false });
  const template = new Schema<AlarmTemplateDoc>(
    {
      alarmMessage: String,
      alarmTemplateID: { type: Number, default: null },
      documentKeysFieldID: { type: String, default: '' },
      eventName: { type: String, default: '' },
      positionFieldID: { type: String, default: '' },
    },
    { _id: false },
  );
  const rule = new Schema<RuleDoc>(
    {
      _id: String,
      ruleID: { type: String, required: true },
      organizationID: { type: Number, required: true },
      entityID: { type: String, required: true },
      name: { type: String, required: true },
      description: { type: String, default: '' },
      action: { type: String, required: true },
      actionAlarmTemplate: { type: template, default: null },
      conditions: { type: [condition], default: [] },
      triggers: { type: [String], required: true },
      cooldownSeconds: { type: Number },
      createdAt: { type: Date, required: true },
      updatedAt: { type: Date, required: true },
    },
    opts,
  );

  const execution = new Schema<RuleExecutionDoc>(
    {
      _id: String,
      organizationID: { type: Number, required: true },
      entityID: { type: String, required: true },
      ruleID: { type: String, required: true },
      recordID: { type: String, required: true },
      trigger: { type: String, required: true },
      alarm: { type: String, required: true },
      at: { type: Date, required: true },
    },
    opts,
  );
  execution.index({ ruleID: 1, at: -1 });

  // Read and claimed by _id only.
  const cooldown = new Schema<RuleCooldownDoc>(
    { _id: String, organizationID: { type: Number, required: true }, until: { type: Date, required: true } },
    opts,
  );

  // Read by _id only.
  const home = new Schema<RecordHomeDoc>({ _id: String, organizationID: { type: Number, required: true } }, opts);

  const ceiling = new Schema<SlotCeilingDoc>({ _id: String, ceiling: { type: Number, required: true } }, opts);

  return {
    ThingSlotCeiling: conn.model<SlotCeilingDoc>('ThingSlotCeiling', ceiling, 'things_slot_ceilings'),
    ThingEntity: conn.model<EntityDoc>('ThingEntity', entity, 'things_entities'),
    ThingEntityIndex: idIndexModel(conn, 'ThingEntityIndex', 'things_entity_index'),
    records: partitioned(conn, 'ThingRecord', record, 'things_records_'),
    ThingRecordHome: conn.model<RecordHomeDoc>('ThingRecordHome', home, 'things_record_homes'),
    ThingRuleSet: conn.model<RuleSetDoc>('ThingRuleSet', ruleSet, 'things_rule_sets'),
    ThingRule: conn.model<RuleDoc>('ThingRule', rule, 'things_entity_rules'),
    ThingRuleExecution: conn.model<RuleExecutionDoc>('ThingRuleExecution', execution, 'things_rule_executions'),
    ThingRuleCooldown: conn.model<RuleCooldownDoc>('ThingRuleCooldown', cooldown, 'things_rule_cooldowns'),
    ThingPositionIndex: idIndexModel(conn, 'ThingPositionIndex', 'things_position_index'),
  };
});
