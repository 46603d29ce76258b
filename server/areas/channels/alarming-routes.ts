// Alarming configuration operations (S1–S4, C1–C4), declared once per channel.
import { ConfigurationIdParams, DeleteResult, OrganizationIdQuery } from '../../../schemas/channels.js';
import type { CallAlarmingCreate, CallAlarmingUpdate } from '../../../schemas/call.js';
import type { SmsAlarmingCreate, SmsAlarmingUpdate } from '../../../schemas/sms.js';
import { defineOperation, type Named, type NamedSchema, type Operation } from '../../http/operation.js';
import { deleted } from './results.js';
import type { AlarmingConfigs } from './alarming.js';
import { CONFIGURATION_ID, ORGANIZATION_ID, PAYLOAD_INVALID } from './messages.js';

/** Names and schemas of one channel's configuration operations. */
export interface AlarmingRoutes {
  channel: 'sms' | 'call';
  labels: { list: Named; update: Named; create: Named; remove: Named };
  schemas: {
    one: NamedSchema;
    list: NamedSchema;
    create: typeof SmsAlarmingCreate | typeof CallAlarmingCreate;
    update: typeof SmsAlarmingUpdate | typeof CallAlarmingUpdate;
  };
}

/** The four configuration operations of one channel. */
export function alarmingOperations(
  { channel, labels, schemas }: AlarmingRoutes,
  configs: AlarmingConfigs,
): Operation[] {
  const path = `/api/v1/${channel}/alarming`;
  const what = `${channel}-alarming configuration`;
  const uniqueness = 'a gsm number has one configuration per organization (409 conflict)';
  return [
    defineOperation({
      ...labels.list,
      method: 'get',
      path,
      summary: `List the organization's ${what}s (members read them)`,
      description:
        `Members, admins and the API key of the organization read its ${what}s, in ID order; another ` +
        `organization is a 403.`,
      query: { schema: OrganizationIdQuery, message: ORGANIZATION_ID },
      response: { status: 200, schema: schemas.list, description: `The ${what}s in ID order` },
      errors: [400, 403],
      handler: ({ actor, query }) => configs.list(actor, query.organization_id),
    }),
    defineOperation({
      ...labels.update,
      method: 'put',
      path,
      summary: `Update a ${what} (id in body; given fields replace the stored ones; organizationID cannot change; ${uniqueness})`,
      description:
        `Organization admins and the API key. The ${what} is named by id in the body (404 when unknown ` +
        `or in another organization); given fields replace the stored ones, organizationID cannot change ` +
        `(400). A gsm number already configured in the organization is 409 conflict.`,
      body: { schema: schemas.update, message: PAYLOAD_INVALID },
      response: { status: 200, schema: schemas.one, description: `The updated ${what}` },
      errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, body }) => configs.update(actor, body),
    }),
    defineOperation({
      ...labels.create,
      method: 'post',
      path,
      summary: `Create a ${what} (admins and the API key; ${uniqueness})`,
      description:
        `Organization admins and the API key of organizationID; id is ignored and the answer carries ` +
        `the assigned one. The gsm number must be valid for its country code (400); one already configured ` +
        `in the organization is 409 conflict, so a retried create does not make a second.`,
      body: { schema: schemas.create, message: PAYLOAD_INVALID },
      response: { status: 200, schema: schemas.one, description: `The created ${what} with its ID` },
      errors: [400, 403, 409, 413, 415],
      handler: ({ actor, body }) => configs.create(actor, body),
    }),
    defineOperation({
      ...labels.remove,
      method: 'delete',
      path: `${path}/:configurationID`,
      summary: `Delete a ${what}`,
      description:
        'Organization admins and the API key. A configuration that is unknown, already deleted or of ' +
        'another organization is 404.',
      params: { schema: ConfigurationIdParams, message: CONFIGURATION_ID },
      response: { status: 200, schema: DeleteResult, description: 'Deleted' },
      errors: [400, 403, 404],
      handler: ({ actor, params }) => deleted(configs.remove(actor, params.configurationID)),
    }),
  ];
}
