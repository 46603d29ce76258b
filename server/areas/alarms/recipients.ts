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
  /**
   * A member's targets an alarm of the organization may use (his own, and those the organization
   * entered), active or not, by channel: his devices (their IDs), mobiles and phones (their numbers);
   * `channels` are those the alarm uses.
   */
  targets: (
    userId: number,
    organizationId: number,
    channels: AlarmChannel[],
  ) => Promise<Record<AlarmChannel, Array<{ target: string; active: boolean }>>>;
}

/**
 * Members whose deliveries are built and stored together, first: the first go out while the next are
 * read. Each chunk twice the one before (25, 50, 100, 200, then 200 each): every chunk stored rewrites
 * the alarm's deliveries, so few chunks for a large organization, none taking long.
 */
const FIRST_CHUNK = 25;
const LARGEST_CHUNK = 200;
/** Members' targets read at once (each mostly one exact lookup): the pool serves others too. */
const LOOKUPS = 50;

/** Runs the jobs, at most `width` at a time; their results in order. */
async function bounded<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

/** A member's name and units by user ID (the wall shows who is coming, under his unit). */
export type Members = Map<number, { name: string; units: string[] }>;

/**
 * The deliveries of a new alarm, a chunk of members at a time: queued, due now, the channels taking turns within
 * each chunk. Each chunk's items are numbered on from the last; a target two members share gets one.
 */
export async function* deliveriesFor(
  alarmId: number,
  organizationId: number,
  channels: AlarmChannel[],
  members: Members,
  sources: TargetSources,
): AsyncGenerator<DeliveryItem[]> {
  const userIds = [...members.keys()].sort((a, b) => a - b);
  const used = (
    await Promise.all(
      channels.map(async (channel) => ((await sources.flags.isDisabled(channel, organizationId)) ? null : channel)),
    )
  ).filter((channel) => channel !== null);
  const seen = new Map(used.map((channel) => [channel, new Set<string>()]));
  let count = 0;
  for (let i = 0, size = FIRST_CHUNK; i < userIds.length; i += size, size = Math.min(size * 2, LARGEST_CHUNK)) {
    const chunk = userIds.slice(i, i + size);
    // The targets of the chunk's members, LOOKUPS members' at a time.
    const targets = await bounded(
      chunk.map((userId) => () => sources.targets(userId, organizationId, used)),
      LOOKUPS,
    );
    const byChannel = used.map((channel) => {
      const list: Array<Pick<DeliveryItem, 'channel' | 'recipientUserId' | 'target'>> = [];
      for (const [m, recipientUserId] of chunk.entries())
        for (const { target, active } of targets[m][channel]) {
          if (!active || seen.get(channel)!.has(target)) continue;
          seen.get(channel)!.add(target);
          list.push({ channel, recipientUserId, target });
        }
      return list;
    });
    const now = new Date();
    const items: DeliveryItem[] = [];
    for (let k = 0; byChannel.some((list) => k < list.length); k++)
      for (const list of byChannel)
        if (k < list.length)
          items.push({
            ...list[k],
            id: `${alarmId}-${count++}`,
            status: 'queued',
            attempts: 0,
            lastError: null,
            nextAt: now,
            claim: null,
          });
    yield items;
  }
}

/** The deliveries of alarms, from the organization's members as they are now. */
export class AlarmRecipients {
  constructor(
    private readonly db: Database,
    private readonly records: Pick<AlarmRecords, 'find'>,
    private readonly sources: TargetSources,
    private readonly policies: Pick<EscalationPolicies, 'of'>,
    /** Told the members read for an alarm's deliveries (its wall names them without reading them again). */
    private readonly read: (alarmId: number, members: Members) => void = () => undefined,
  ) {}

  /** The deliveries of a new alarm, a chunk of members at a time, those the escalation policy holds waiting. */
  async *of(doc: AlarmDoc): AsyncGenerator<DeliveryItem[]> {
    const [members, policy] = await Promise.all([
      membersOf(this.db, doc.organizationId),
      this.policies.of(doc.organizationId),
    ]);
    this.read(doc.id, members);
    // A member's deliveries are all in one chunk: whether he has a push is known within it.
    for await (const items of deliveriesFor(doc.id, doc.organizationId, doc.channels, members, this.sources))
      yield holdForReceipt(items, policy, doc.startedAt);
  }

  /** The deliveries of an alarm whose raise did not store them all (the outbox's sweep asks); null when it is gone. */
  async prepare(alarmId: number): Promise<{ organizationId: number; items: DeliveryItem[] } | null> {
    const doc = await this.records.find(alarmId);
    if (!doc) return null;
    const items: DeliveryItem[] = [];
    for await (const chunk of this.of(doc)) items.push(...chunk);
    return { organizationId: doc.organizationId, items };
  }

  /** Why a channel may not send for the organization now (disabled), or null. */
  async blocked(channel: AlarmChannel, organizationId: number): Promise<string | null> {
    return (await this.sources.flags.isDisabled(channel, organizationId))
      ? `the organization disabled the ${channel} channel`
      : null;
  }
}
