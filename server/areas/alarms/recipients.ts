// Who an alarm reaches (docs/alarms.md "Delivery"): the organization's members, each over every active
// target of every channel the alarm uses and the organization has not disabled (A9, S6, C6). A target
// two members share gets one message.
import type { AlarmChannel } from '../../../schemas/alarms.js';
import type { ChannelFlags } from '../channels/flags.js';
import type { DeliveryItem } from './models.js';

/** Where each member's targets are found: active ones only are used. */
export interface TargetSources {
  flags: Pick<ChannelFlags, 'isDisabled'>;
  /** A member's devices (their IDs), mobiles and phones (their numbers), active or not. */
  targets: Record<AlarmChannel, (userId: number) => Promise<Array<{ target: string; active: boolean }>>>;
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
        ...(await Promise.all(userIds.slice(i, i + PARALLEL).map((userId) => sources.targets[channel](userId)))),
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
