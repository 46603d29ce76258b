// A10: a device's feedback to an alarm, per organization, alarm and device; a later one replaces it.
// Staff clients of the organization see it at once on the hub (app:feedback).
import type { FeedbackInput } from '../../../schemas/app.js';
import type { Database } from '../../db/database.js';
import { badRequest, forbidden } from '../../errors.js';
import type { HubEvents } from '../../hub/events.js';
import type { Actor } from '../../identity/actor.js';
import { canRead, feedbackOrganization } from '../../identity/policy.js';
import { setById } from '../channels/upsert.js';
import type { Devices } from './devices.js';
import { appModels } from './models.js';
import type { AlarmReplies, EnteredBy } from './replies.js';

export const FEEDBACK_NOT_SET = 'organizationID or alarmID not set';

// An admin or the API key may enter a member's answer with his device (the dispatcher took it by phone):
// it counts as his, and says who entered it (docs/alarms.md "Answered").
function enteredBy(actor: Actor, ownerId: number): EnteredBy | null {
  if (actor.kind === 'apikey') return { kind: 'apikey', id: actor.tokenId };
  return actor.userId === ownerId ? null : { kind: 'user', id: actor.userId };
}

/** Records alarm feedback. */
export class AlarmFeedback {
  constructor(
    private readonly db: Database,
    private readonly devices: Devices,
    private readonly events: HubEvents,
    private readonly replies: AlarmReplies,
  ) {}

  /** The organization is an API key's own or the query's; the device must be one the caller reaches. */
  async record(actor: Actor, organizationId: number | undefined, input: FeedbackInput): Promise<{ success: true }> {
    const organization = feedbackOrganization(actor, organizationId);
    if (organization === undefined || input.alarmID === undefined) {
      const missing =
        organization === undefined
          ? { in: 'query' as const, path: 'organization_id' }
          : { in: 'body' as const, path: 'alarmID' };
      throw badRequest('invalid_body', FEEDBACK_NOT_SET, [{ ...missing, problem: 'is required' }]);
    }
    if (!canRead(actor, organization)) throw forbidden();
    const device = await this.devices.owned.reachable(actor, input.deviceID, organization);
    const updatedAt = new Date();
    const { distance = null, duration = null } = input.answerData;
    const fields = {
      organizationID: organization,
      alarmID: input.alarmID,
      deviceID: input.deviceID,
      ownerID: device.ownerID,
      response: input.response ?? null,
    };
    await setById(appModels(this.db).AlarmFeedback, `${organization}:${input.alarmID}:${input.deviceID}`, {
      ...fields,
      distance,
      duration,
      updatedAt,
    });
    this.events.toOrganization(organization, 'app:feedback', {
      ...fields,
      answerData: input.answerData,
      updatedAt: updatedAt.toISOString(),
    });
    // An answer to an alarm of this service also counts there (the device's owner answers).
    if (input.response !== undefined && input.response !== null) {
      await this.replies.answered({
        organizationId: organization,
        alarmId: input.alarmID,
        userId: device.ownerID,
        response: input.response,
        distance,
        duration,
        enteredBy: enteredBy(actor, device.ownerID),
      });
    }
    return { success: true };
  }
}
