// Who an alarm reaches (docs/alarms.md "Delivered"): the organization's members, each over every active
// target of every channel the alarm uses and the organization has not disabled (A9, S6, C6). A target
// two members share gets one message. The organization's escalation policy may hold SMS and calls back
// (escalation.ts, docs/alarms.md "Escalation").
import type { AlarmChannel } from '../../../schemas/alarms.js';
import type { Database } from '../../db/database.js';
import { membersOf } from '../../identity/lookup.js';
import type { ChannelFlags } from '../channels/flags.js';
import { holdForReceipt, type EscalationPolicies } from './escalation.js';
import type { AlarmDoc, DeliveryItem } from './models.js';
import type { AlarmRecords } from './records.js';

/** Where each member's targets are found: active ones only are used. */
export interface TargetSources {
  flags: Pick<ChannelFlags, 'isDisabled'>;
  /** A member's devices (their IDs), mobiles and phones (their numbers), active or not. */
  /** A member's targets an alarm of the organization may use (his own, and those the organization entered). */
  targets: Record<
    AlarmChannel,
    (userId: number, organizationId: number) => Promise<Array<{ target: string; active: boolean }>>
  >;
}

const PARALLEL = 25;

/** A member's name by user ID (answers and the wall show who is coming). */
export type Members = Map<number, string>;

/**
 * The deliveries of a new alarm: queued, due now, the channels taking turns (every channel's first recipients go
 * first).
 */
export async function deliveriesFor(
  alarmId: number,
  organizationId: number,
  channels: AlarmChannel[],
  members: Members,
  sources: TargetSources,
): Promise<DeliveryItem[]> {
  const now = new Date();
  const userIds = [...members.keys()].sort((a, b) => a - b);
  const byChannel: Array<Array<Pick<DeliveryItem, 'channel' | 'recipientUserId' | 'target'>>> = [];
  for (const channel of channels) {
    if (await sources.flags.isDisabled(channel, organizationId)) continue;
    const seen = new Set<string>();
    // Read PARALLEL members' targets at a time (a few exact lookups each), then taken in member order.
    const targets: Array<Array<{ target: string; active: boolean }>> = [];
    for (let i = 0; i < userIds.length; i += PARALLEL)
      targets.push(
        ...(await Promise.all(
          userIds.slice(i, i + PARALLEL).map((userId) => sources.targets[channel](userId, organizationId)),
        )),
      );
    const list: Array<Pick<DeliveryItem, 'channel' | 'recipientUserId' | 'target'>> = [];
    for (const [i, recipientUserId] of userIds.entries()) {
      for (const { target, active } of targets[i]) {
        if (!active || seen.has(target)) continue;
        seen.add(target);
        list.push({ channel, recipientUserId, target });
      }
    }
    byChannel.push(list);
  }
  const items: DeliveryItem[] = [];
  for (let i = 0; byChannel.some((list) => i < list.length); i++) {
    for (const list of byChannel) {
      if (i < list.length)
        items.push({
          ...list[i],
          id: `${alarmId}-${items.length}`,
          status: 'queued',
          attempts: 0,
          lastError: null,
          nextAt: now,
          claim: null,
        });
    }
  }
  return items;
}

/** The deliveries of alarms, from the organization's members as they are now. */
export class AlarmRecipients {
  constructor(
    private readonly db: Database,
    private readonly records: Pick<AlarmRecords, 'find'>,
    private readonly sources: TargetSources,
    private readonly policies: Pick<EscalationPolicies, 'of'>,
  ) {}

  /** The deliveries of a new alarm, those the escalation policy holds waiting. */
  async of(doc: AlarmDoc): Promise<DeliveryItem[]> {
    const [members, policy] = await Promise.all([
      membersOf(this.db, doc.organizationId),
      this.policies.of(doc.organizationId),
    ]);
    return holdForReceipt(
      await deliveriesFor(doc.id, doc.organizationId, doc.channels, members, this.sources),
      policy,
      doc.startedAt,
    );
  }

  /** The deliveries of an alarm whose raise did not store them (the outbox's sweep asks); null when it is gone. */
  async prepare(alarmId: number): Promise<{ organizationId: number; items: DeliveryItem[] } | null> {
    const doc = await this.records.find(alarmId);
    if (!doc) return null;
    return { organizationId: doc.organizationId, items: await this.of(doc) };
  }

  /** Why a channel may not send for the organization now (disabled), or null. */
  async blocked(channel: AlarmChannel, organizationId: number): Promise<string | null> {
    return (await this.sources.flags.isDisabled(channel, organizationId))
      ? `the organization disabled the ${channel} channel`
      : null;
  }
}
