// Never send a model: entities, records and rules leave the service through these functions.
import { RULE_COOLDOWN } from '../../../schemas/things.js';
import type { Actor } from '../../identity/actor.js';
import { canReadRecords, canWriteRecords } from '../../identity/policy.js';
import type { EntityDoc, RecordDoc, RuleDoc, StoredValue } from './models.js';

/** A record's values by field ID, as stored. */
export type ValueMap = Record<string, StoredValue>;

/** Parses a record's stored values. */
export function valuesOf(record: Pick<RecordDoc, 'values'>): ValueMap {
  return JSON.parse(record.values) as ValueMap;
}

/** The public shape of an entity, with the actor's rights and its record count. */
export function presentEntity(doc: EntityDoc, actor: Actor, recordCount: number) {
  return {
    id: doc._id,
    name: doc.name,
    description: doc.description,
    icon: doc.icon,
    organizationID: doc.organizationID,
    fields: doc.fields.map((f) => ({ id: f.id, name: f.name, type: f.type, selectionValues: [...f.selectionValues] })),
    readOnlyUserIDs: [...doc.readOnlyUserIDs],
    readWriteUserIDs: [...doc.readWriteUserIDs],
    recordCount,
    canRead: canReadRecords(actor, doc),
    canWrite: canWriteRecords(actor, doc),
  };
}

/** The public shape of a record: values of the entity's current fields, in the entity's field order. */
export function presentRecord(entity: EntityDoc, record: { _id: string; values: ValueMap }) {
  const values = entity.fields.flatMap((f) => {
    const stored = record.values[f.id];
    return stored ? [{ fieldID: f.id, id: stored.i, value: stored.v }] : [];
  });
  return { id: record._id, entityID: entity._id, values };
}

/** The public shape of a rule. */
export function presentRule(doc: RuleDoc) {
  const t = doc.actionAlarmTemplate;
  return {
    id: doc.ruleID,
    entityID: doc.entityID,
    name: doc.name,
    description: doc.description,
    action: doc.action,
    ...(t
      ? {
          actionAlarmTemplate: {
            alarmMessage: t.alarmMessage,
            ...(t.alarmTemplateID !== null ? { alarmTemplateID: t.alarmTemplateID } : {}),
            documentKeysFieldID: t.documentKeysFieldID,
            eventName: t.eventName,
            positionFieldID: t.positionFieldID,
          },
        }
      : {}),
    conditions: doc.conditions.map((c) => ({ fieldID: c.fieldID, operator: c.operator, comparison: c.comparison })),
    triggers: [...doc.triggers],
    cooldownSeconds: doc.cooldownSeconds ?? RULE_COOLDOWN.defaultSeconds,
  };
}

export type EntityView = ReturnType<typeof presentEntity>;
export type RecordView = ReturnType<typeof presentRecord>;
export type RuleView = ReturnType<typeof presentRule>;
