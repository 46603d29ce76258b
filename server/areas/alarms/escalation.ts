// Escalation (W4; docs/alarms.md "Escalation"): with an organization's policy, an alarm's SMS and calls to
// a member whose push is under way wait until `pushReceiptWithinSeconds` after the alarm's start. His
// push's receipt (push/delivered) or his answer before then skips them; otherwise they go then. They wait
// in the outbox's own deliveries document (status `waiting`, `nextAt` their due time), so the outbox's
// lock, claims and sweep make them durable: no second queue, no timer that a dying process takes along.
import {
  ESCALATION_CHANNELS,
  type EscalationInput,
  type EscalationSkip,
  type EscalationView,
} from '../../../schemas/alarms.js';
import { withClaimLock, type LockDoc } from '../../db/claim-lock.js';
import { forbidden } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { canConfigure, canRead } from '../../identity/policy.js';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { AlarmDoc, AlarmModels, DeliveryItem } from './models.js';
import { deliveriesOf } from './delivery-store.js';

/** An organization's policy; `pushReceiptWithinSeconds` null: none (every channel at once). */
export type EscalationPolicy = Omit<EscalationView, 'organizationId'>;

/** What an organization that never set a policy has. */
export const NO_POLICY: EscalationPolicy = { pushReceiptWithinSeconds: null, channels: ['sms', 'call'] };

/** Answer lookups in flight at once when a release checks who answered. */
const PARALLEL = 25;

/** W4: the organizations' escalation policies, one document each under its ID. */
export class EscalationPolicies {
  constructor(private readonly models: Pick<AlarmModels, 'Escalation'>) {}

  /** The policy an alarm of the organization is delivered by (read once per alarm). */
  of(organizationId: number): Promise<EscalationPolicy> {
    return policyOf(this.models, organizationId);
  }

  /** W4 (GET): members and the API key read it. */
  async read(actor: Actor, organizationId: number): Promise<EscalationView> {
    if (!canRead(actor, organizationId)) throw forbidden(`You are not a member of organization ${organizationId}`);
    return { organizationId, ...(await this.of(organizationId)) };
  }

  /** W4 (PUT): admins and the API key set it; it holds for alarms raised from then on. */
  async set(actor: Actor, organizationId: number, body: EscalationInput): Promise<EscalationView> {
    if (!canConfigure(actor, organizationId))
      throw forbidden("The escalation policy is set by organization admins and the organization's API key");
    // Stored in the order of ESCALATION_CHANNELS, whatever order the request named them in.
    const channels = ESCALATION_CHANNELS.filter((c) => body.channels.includes(c));
    const policy = { pushReceiptWithinSeconds: body.pushReceiptWithinSeconds, channels };
    await this.models.Escalation.replaceOne(
      { _id: String(organizationId) },
      { _id: String(organizationId), organizationId, ...policy, changedAt: new Date() },
      { upsert: true },
    );
    return { organizationId, ...policy };
  }
}

/**
 * A new alarm's deliveries under the policy: those on its channels to a member who gets a push (the alarm
 * has an app delivery to him) wait until the alarm's start plus the window. Members without one: at once.
 */
export function holdForReceipt(items: DeliveryItem[], policy: EscalationPolicy, startedAt: Date): DeliveryItem[] {
  if (policy.pushReceiptWithinSeconds === null) return items;
  const dueAt = new Date(startedAt.getTime() + policy.pushReceiptWithinSeconds * 1000);
  const pushed = new Set(items.filter((i) => i.channel === 'app').map((i) => i.recipientUserId));
  for (const item of items) {
    if (item.channel === 'app' || !policy.channels.includes(item.channel) || !pushed.has(item.recipientUserId))
      continue;
    Object.assign(item, { status: 'waiting', nextAt: dueAt, dueAt });
  }
  return items;
}

/** Under the alarm's lock: the member's waiting deliveries skipped for `reason`; whether there were any. */
export function skipWaiting(items: DeliveryItem[], userId: number, reason: EscalationSkip): boolean {
  let skipped = false;
  for (const item of items) {
    if (item.status !== 'waiting' || item.recipientUserId !== userId) continue;
    Object.assign(item, { status: 'skipped', reason, claim: null });
    skipped = true;
  }
  return skipped;
}

/**
 * Under the alarm's lock, before the outbox claims: waiting deliveries whose time has come go out (queued,
 * due now) — or at once when every push to their member failed, since no receipt can come — unless his
 * push was confirmed or he answered (`answered` reads the stored answers: a receipt or answer whose own
 * skipping did not happen, the process dying between, still counts), or the alarm has ended by then
 * (`ended`: nobody is called out for an alarm that is over). Whether any item changed.
 */
export async function releaseDue(
  items: DeliveryItem[],
  now: number,
  answered: (userIds: number[]) => Promise<Set<number>>,
  ended: () => Promise<boolean>,
): Promise<boolean> {
  if (!items.some((item) => item.status === 'waiting')) return false;
  const pushes = new Map<number, { confirmed: boolean; failed: boolean }>();
  for (const item of items) {
    if (item.channel !== 'app') continue;
    const seen = pushes.get(item.recipientUserId) ?? { confirmed: false, failed: true };
    pushes.set(item.recipientUserId, {
      confirmed: seen.confirmed || item.status === 'delivered',
      failed: seen.failed && item.status === 'failed',
    });
  }
  const due = items.filter(
    (item) =>
      item.status === 'waiting' && (item.nextAt.getTime() <= now || (pushes.get(item.recipientUserId)?.failed ?? true)),
  );
  if (due.length === 0) return false;
  if (await ended()) {
    for (const item of due) Object.assign(item, { status: 'skipped', reason: 'alarm ended' });
    return true;
  }
  const answeredBy = await answered([...new Set(due.map((item) => item.recipientUserId))]);
  for (const item of due) {
    const confirmed = pushes.get(item.recipientUserId)?.confirmed ?? false;
    if (confirmed || answeredBy.has(item.recipientUserId))
      Object.assign(item, { status: 'skipped', reason: confirmed ? 'push confirmed' : 'answered' });
    else Object.assign(item, { status: 'queued', nextAt: new Date(Math.min(item.nextAt.getTime(), now)) });
  }
  return true;
}

/** Of these members, those whose answer to the alarm is stored (exact lookups by the answers' _id). */
export async function answeredAmong(
  models: Pick<AlarmModels, 'answers'>,
  alarmId: number,
  organizationId: number,
  userIds: number[],
): Promise<Set<number>> {
  const answers = await models.answers.of(organizationId);
  const found = new Set<number>();
  for (let i = 0; i < userIds.length; i += PARALLEL) {
    const batch = userIds.slice(i, i + PARALLEL);
    const docs = await Promise.all(batch.map((userId) => answers.findById(`${alarmId}:${userId}`, { _id: 1 }).lean()));
    docs.forEach((doc, k) => doc && found.add(batch[k]));
  }
  return found;
}

/** The organization's policy, or NO_POLICY. */
async function policyOf(models: Pick<AlarmModels, 'Escalation'>, organizationId: number): Promise<EscalationPolicy> {
  const doc = await models.Escalation.findById(String(organizationId)).lean();
  return doc ? { pushReceiptWithinSeconds: doc.pushReceiptWithinSeconds, channels: doc.channels } : NO_POLICY;
}

/**
 * He answered: his deliveries still waiting are skipped. Only while the organization's policy window may
 * still hold some (the burst of answers after it reads nothing more than the small policy), and read
 * first without the lock (nothing else turns an item into a waiting one). Whatever this misses — a
 * policy changed since the alarm, a failure, which is only logged — the release finds: it reads the
 * stored answers again.
 */
export async function skipAnswered(
  parts: {
    models: Pick<AlarmModels, 'Deliveries' | 'DeliveryParts' | 'Escalation'>;
    locks: Model<LockDoc>;
    log: Pick<Logger, 'warn'>;
  },
  alarm: Pick<AlarmDoc, 'id' | 'organizationId' | 'startedAt'>,
  userId: number,
): Promise<void> {
  const deliveries = deliveriesOf(parts.models);
  const alarmId = alarm.id;
  const waits = (items: DeliveryItem[] | undefined) =>
    items?.some((item) => item.status === 'waiting' && item.recipientUserId === userId) ?? false;
  try {
    const window = (await policyOf(parts.models, alarm.organizationId)).pushReceiptWithinSeconds;
    if (window === null || Date.now() >= alarm.startedAt.getTime() + window * 1000) return;
    if (!waits((await deliveries.read(alarmId))?.items)) return;
    await withClaimLock(parts.locks, `alarm-deliveries:${alarmId}`, async () => {
      const doc = await deliveries.read(alarmId);
      if (doc && skipWaiting(doc.items, userId, 'answered')) await deliveries.write(doc);
    });
  } catch (err) {
    parts.log.warn({ err, alarmId, userId }, 'waiting deliveries not skipped now; their release checks the answer');
  }
}
