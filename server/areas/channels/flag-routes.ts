// Disable flag and any-active operations (A7–A9, S5/S6/S14, C5/C6/C12), declared once per channel.
import {
  AnyActiveQuery,
  AnyActiveResult,
  DisabledFlag,
  DisabledFlagList,
  OrganizationIdQuery,
} from '../../../schemas/channels.js';
import { defineOperation, type Named, type Operation } from '../../http/operation.js';
import type { ActiveSource, ChannelFlags } from './flags.js';
import { ORGANIZATION_ID, PAYLOAD, USER_OR_ORGANIZATION } from './messages.js';
import type { Channel } from './models.js';

/** The names of the three operations in one channel. */
export interface FlagLabels {
  anyActive: Named;
  get: Named;
  set: Named;
}

const WAYS: Record<Channel, string> = { app: 'app pushes', sms: 'sms', call: 'calls' };
const THINGS: Record<Channel, string> = { app: 'device', sms: 'mobile number', call: 'phone number' };

/** The any-active check and the disable flag of one channel. */
export function flagOperations(
  channel: Channel,
  labels: FlagLabels,
  flags: ChannelFlags,
  source: ActiveSource,
): Operation[] {
  const base = `/api/v1/${channel}`;
  const organization = { schema: OrganizationIdQuery, message: ORGANIZATION_ID };
  return [
    defineOperation({
      ...labels.anyActive,
      method: 'get',
      path: `${base}/any-active`,
      summary:
        `Whether a user can be alarmed by ${WAYS[channel]} in an organization: he is a member, the organization ` +
        `has not disabled it, and he has an active ${THINGS[channel]} (members of the organization ask)`,
      description:
        `Members, admins and the API key of the organization ask; for a user who is no member the answer ` +
        `is false, not an error. Only ${THINGS[channel]}s with active true count.`,
      query: { schema: AnyActiveQuery, message: USER_OR_ORGANIZATION },
      response: { status: 200, schema: AnyActiveResult, description: 'The any-active result' },
      errors: [400, 403],
      handler: ({ actor, query }) => flags.anyActive(actor, channel, query.organization_id, query.user_id, source),
    }),
    defineOperation({
      ...labels.get,
      method: 'get',
      path: `${base}/disabled`,
      summary:
        `Whether the organization has disabled alarming by ${WAYS[channel]} (false until set), as a ` +
        `one-element list; members read it`,
      description:
        `Answers [{"isDisabled": false}] until an admin set the flag with ${labels.set.label}. Members, ` +
        `admins and the API key of the organization read it; another organization is a 403.`,
      query: organization,
      response: { status: 200, schema: DisabledFlagList, description: 'The disable flag' },
      errors: [400, 403],
      handler: ({ actor, query }) => flags.get(actor, channel, query.organization_id),
    }),
    defineOperation({
      ...labels.set,
      method: 'put',
      path: `${base}/disabled`,
      summary: `Disable or enable alarming by ${WAYS[channel]} in the organization (admins and the API key)`,
      description:
        `Organization admins and the API key. While the flag is true, ${labels.anyActive.label} answers ` +
        `false for every member; setting the value it already has changes nothing.`,
      query: organization,
      body: { schema: DisabledFlag, message: PAYLOAD },
      response: { status: 200, schema: DisabledFlag, description: 'The disable flag as set' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, query, body }) => flags.set(actor, channel, query.organization_id, body.isDisabled),
    }),
  ];
}
