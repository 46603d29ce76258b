// Running an entity's rules after records were created, updated or deleted: conditions are compared by
// their field's type, a rule whose conditions all hold renders its alarm, which is stored as a rule
// execution and then emitted to the organization's hub room as `things:rule-triggered`.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { RULE_COOLDOWN, type RuleTrigger } from '../../../schemas/things.js';
import type { Model } from 'mongoose';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import type { Limiter } from '../../http/limits.js';
import type { OrganizationEvents } from '../../hub/events.js';
import type { RuleTriggeredEvent, ThingsAlarm } from '../../../common/hub-protocol.js';
import { compareKeys, keyOf } from './fields.js';
import type { ConditionDoc, EntityDoc, FieldDoc, RuleDoc, ThingsModels } from './models.js';
import type { RuleSets } from './rule-sets.js';
import type { ValueMap } from './presenter.js';
import { render } from './rule-check.js';

/** One record change a rule may react to (for a delete: the values the record had). */
export interface RecordChange {
  trigger: RuleTrigger;
  recordId: string;
  values: ValueMap;
  /** For an update: the values as the command read them before its write. */
  previous?: ValueMap;
}

/** Whether one condition holds for a record's value of its field (text compares without case). */
export function conditionHolds(field: FieldDoc, condition: ConditionDoc, value: string | undefined): boolean {
  const empty = value === undefined || value === '';
  if (condition.operator === 'empty') return empty;
  if (condition.operator === 'not_empty') return !empty;
  if (condition.operator === 'contains')
    return !empty && value!.toLowerCase().includes(condition.comparison.toLowerCase());
  const a = keyOf(field, value);
  const b = keyOf(field, condition.comparison);
  // A missing or unreadable value equals nothing and is neither smaller nor larger than anything.
  if (a === null || b === null) return condition.operator === 'ne';
  const order = typeof a === 'string' ? (a === b ? 0 : 1) : compareKeys(a, b);
  switch (condition.operator) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
  }
}

/** Whether every condition of the rule holds for the values (no conditions: always). */
export function ruleMatches(rule: RuleDoc, entity: EntityDoc, values: ValueMap): boolean {
  return rule.conditions.every((c) => {
    const field = entity.fields.find((f) => f.id === c.fieldID);
    return field !== undefined && conditionHolds(field, c, values[c.fieldID]?.v);
  });
}

/** The alarm of a rule for a record's values. */
export function renderAlarm(rule: RuleDoc, entity: EntityDoc, values: ValueMap): ThingsAlarm {
  const t = rule.actionAlarmTemplate!;
  const valueOf = (id: string) => values[id]?.v ?? '';
  let position: ThingsAlarm['position'] = null;
  const positionText = valueOf(t.positionFieldID);
  if (positionText) {
    const type = entity.fields.find((f) => f.id === t.positionFieldID)?.type;
    const [latitude, longitude] = positionText.split(',').map((n) => Number(n.trim()));
    position = type === 'coordinates' ? { latitude, longitude } : { address: positionText };
  }
  return {
    message: render(t.alarmMessage, valueOf),
    eventName: render(t.eventName, valueOf),
    alarmTemplateID: t.alarmTemplateID,
    position,
    documentKeys: valueOf(t.documentKeysFieldID)
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  };
}

/** At most this many alarms are raised by one record command (a bulk import must not alarm a county). */
export const MAX_RULE_ALARMS_PER_CHANGE = 5;

/** Raises a rule's alarm in the organization (the alarms area, docs/alarms.md "Raised"). */
export type RaiseRuleAlarm = (organizationId: number, ruleName: string, alarm: ThingsAlarm) => Promise<unknown>;

/** Runs an entity's rules for record changes; used by every record command after its write. */
export class RuleRunner {
  /**
   * @param perOrganization the organization's rule alarms (RULE_COOLDOWN.alarmsPerHour, kept even with
   *   rate limits off): a member with a record grant cannot alarm everyone without end.
   */
  constructor(
    private readonly models: ThingsModels,
    private readonly sets: RuleSets,
    private readonly events: OrganizationEvents,
    private readonly log: Logger,
    private readonly raise: RaiseRuleAlarm,
    private readonly perOrganization: Limiter,
    private readonly locks: Model<LockDoc>,
  ) {}

  /**
   * Records and emits an execution per rule that fires. The records are already written: a failure
   * here is logged and does not undo or fail the request.
   */
  async run(entity: EntityDoc, changes: RecordChange[]): Promise<void> {
    if (changes.length === 0) return;
    try {
      const rules = await this.sets.list(entity._id);
      const at = new Date();
      const fired: Array<RuleTriggeredEvent & { cooldownSeconds: number }> = changes.flatMap((change) =>
        rules
          .filter((rule) => rule.triggers.includes(change.trigger) && ruleMatches(rule, entity, change.values))
          .map((rule) => ({
            cooldownSeconds: rule.cooldownSeconds ?? RULE_COOLDOWN.defaultSeconds,
            executionID: randomUUID(),
            ruleID: rule.ruleID,
            ruleName: rule.name,
            entityID: entity._id,
            recordID: change.recordId,
            trigger: change.trigger,
            at: at.toISOString(),
            alarm: renderAlarm(rule, entity, change.values),
          })),
      );
      if (fired.length === 0) return;
      await this.models.ThingRuleExecution.insertMany(
        fired.map((e) => ({
          _id: e.executionID,
          organizationID: entity.organizationID,
          entityID: e.entityID,
          ruleID: e.ruleID,
          recordID: e.recordID,
          trigger: e.trigger,
          alarm: JSON.stringify(e.alarm),
          at,
        })),
      );
      for (const { cooldownSeconds: _, ...event } of fired)
        this.events.toOrganization(entity.organizationID, 'things:rule-triggered', event);
      // A rule's action is its alarm: raised for the first few firings of one command that its cooldown
      // and the organization's hour allow, logged beyond.
      let raised = 0;
      for (const event of fired) {
        if (raised >= MAX_RULE_ALARMS_PER_CHANGE) {
          this.log.warn(
            { entityID: entity._id, fired: fired.length, raised },
            'things rules fired more alarms in one command than are raised',
          );
          break;
        }
        if (await this.alarm(entity.organizationID, event, at)) raised++;
      }
    } catch (err) {
      this.log.error({ err, entityID: entity._id }, 'things rules could not run');
    }
  }

  // One firing's alarm, unless its rule raised one for the record within its cooldown or the
  // organization's hour is spent; what it claimed is given back when no alarm comes of it.
  private async alarm(
    organizationID: number,
    event: RuleTriggeredEvent & { cooldownSeconds: number },
    at: Date,
  ): Promise<boolean> {
    const context = { ruleID: event.ruleID, recordID: event.recordID, organizationID };
    const claim = await this.claimCooldown(organizationID, event, at);
    if (!claim) {
      this.log.info(context, "a things rule fired again within its cooldown: no alarm for this record's change");
      return false;
    }
    const organization = String(organizationID);
    if ((await this.perOrganization.take(organization)) > 0) {
      await claim.release();
      this.log.warn(context, "the organization's things rules raised as many alarms as an hour allows: none now");
      return false;
    }
    try {
      await this.raise(organizationID, event.ruleName, event.alarm);
      return true;
    } catch (err) {
      this.log.error({ err, ...context }, "a things rule's alarm could not be raised");
      await claim.release();
      await this.perOrganization.give(organization, 1);
      return false;
    }
  }

  // Claims the rule's alarm for the record until its cooldown ends, once across processes: the cooldown
  // document "<ruleID>:<recordID>" is read and written under a claim lock (a conditional update is no
  // guard on FerretDB: docs/storage.md). Null when a cooldown runs.
  private async claimCooldown(
    organizationID: number,
    event: { ruleID: string; recordID: string; cooldownSeconds: number },
    at: Date,
  ): Promise<{ release(): Promise<void> } | null> {
    const none = { release: async () => undefined };
    if (event.cooldownSeconds === 0) return none;
    const { ThingRuleCooldown } = this.models;
    const _id = `${event.ruleID}:${event.recordID}`;
    const until = new Date(at.getTime() + event.cooldownSeconds * 1000);
    const claimed = await withClaimLock(this.locks, `rule-cooldown:${_id}`, async () => {
      const running = await ThingRuleCooldown.findById(_id).lean();
      if (running && running.until.getTime() > at.getTime()) return false;
      await ThingRuleCooldown.updateOne({ _id }, { $set: { organizationID, until } }, { upsert: true });
      return true;
    });
    if (!claimed) return null;
    return {
      // Only this claim's own cooldown goes (a later one set meanwhile stays).
      release: async () => void (await ThingRuleCooldown.deleteOne({ _id, until }).catch(() => undefined)),
    };
  }
}
