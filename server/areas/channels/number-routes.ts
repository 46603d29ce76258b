// Per-user number operations (S9–S13, C7–C11): what mobile and phone numbers share. Paths that the
// 2019 documents describe with the ID in the query also accept their literal placeholder.
import type { PhoneCreate, PhoneIdParams, PhoneQuery } from '../../../schemas/call.js';
import { DeleteResult, OptionalOrganizationQuery, OwnerQuery } from '../../../schemas/channels.js';
import type { MobileCreate, MobileIdParams, MobileQuery } from '../../../schemas/sms.js';
import { defineOperation, type Named, type NamedSchema, type Operation } from '../../http/operation.js';
import { deleted } from './results.js';
import { pathOrQueryId } from './fields.js';
import { ORGANIZATION_ID, OWNER_ID, PAYLOAD, idMessage } from './messages.js';
import type { ChannelNumbers } from './numbers.js';

/** Who may reach a user's numbers. */
export const NUMBER_SCOPE =
  'the owner himself without organization_id, or an admin or the API key of an organization the owner belongs to';

/** One channel's numbers: mobile numbers of sms, phone numbers of call. */
export interface NumberResource {
  channel: 'sms' | 'call';
  /** Path segment: mobile or phone. */
  resource: 'mobile' | 'phone';
  schemas: {
    one: NamedSchema;
    list: NamedSchema;
    create: typeof MobileCreate | typeof PhoneCreate;
    idParams: typeof MobileIdParams | typeof PhoneIdParams;
    /** mobileID or phoneID (for the 2019 clients) and organization_id. */
    query: typeof MobileQuery | typeof PhoneQuery;
  };
}

/** How operations on one number name it: the path with its ID, the ID's schemas, and the ID a request names. */
export function numberAddress<
  P extends NumberResource['schemas']['idParams'],
  Q extends NumberResource['schemas']['query'],
>(r: NumberResource & { schemas: { idParams: P; query: Q } }) {
  const idName = `${r.resource}ID`;
  return {
    idName,
    byId: `/api/v1/${r.channel}/${r.resource}/:${idName}`,
    params: { schema: r.schemas.idParams, message: idMessage(idName) },
    query: { schema: r.schemas.query, message: idMessage(idName) },
    /** The ID from the path, or from the query when the path holds the 2019 documents' literal placeholder. */
    idOf(params: Record<string, unknown>, query: Record<string, unknown>) {
      const fromQuery = query[idName];
      return pathOrQueryId(
        String(params[idName]),
        typeof fromQuery === 'number' ? fromQuery : undefined,
        idName,
        idMessage(idName),
      );
    },
  };
}

/**
 * The number operations both channels declare alike: list, create and delete. Update and get differ
 * (S10 names the number in the body, C9 in the path; S13 answers a one-element list, C11 the number):
 * each channel declares those in its own routes.ts, its get last, since its path catches every other name.
 */
export function numberOperations(
  r: NumberResource & { labels: { list: Named; create: Named; remove: Named; update: Named } },
  numbers: ChannelNumbers,
): Operation[] {
  const { idName, byId, params, query, idOf } = numberAddress(r);
  const body = { schema: r.schemas.create, message: PAYLOAD };
  return [
    defineOperation({
      ...r.labels.list,
      method: 'get',
      path: `/api/v1/${r.channel}/${r.resource}`,
      summary: `List a user's ${r.resource} numbers (${NUMBER_SCOPE})`,
      description:
        `Without organization_id a user lists his own ${r.resource} numbers; an admin or the API key ` +
        `lists those of a member of the organization. In ID order.`,
      query: { schema: OwnerQuery, message: OWNER_ID },
      response: { status: 200, schema: r.schemas.list, description: `The ${r.resource} numbers in ID order` },
      errors: [400, 403],
      handler: ({ actor, query: q }) => numbers.list(actor, q.owner_id, q.organization_id),
    }),
    defineOperation({
      ...r.labels.create,
      method: 'post',
      path: `/api/v1/${r.channel}/${r.resource}`,
      summary: `Create a ${r.resource} number for ownerID (${NUMBER_SCOPE}; name defaults to empty, active to true)`,
      description:
        `id is ignored; the answer carries the assigned one. The gsm number must be E.164 with 00 (or +) for ` +
        `+, a person's number valid in its country (premium-rate and other service numbers: 400). A user ` +
        `enters at most 5 himself, and each organization 5 for him (409 limit_reached).`,
      query: { schema: OptionalOrganizationQuery, message: ORGANIZATION_ID },
      body,
      response: { status: 200, schema: r.schemas.one, description: `The created ${r.resource} number with its id` },
      errors: [400, 403, 409, 413, 415],
      handler: ({ actor, query: q, body: b }) => numbers.create(actor, q.organization_id, b),
    }),
    defineOperation({
      ...r.labels.remove,
      method: 'delete',
      path: byId,
      summary: `Delete a ${r.resource} number`,
      description:
        `Who may: as ${r.labels.update.label}. Clients generated from the 2019 document send the literal ` +
        `{${idName}} in the path and the ID in the query; both forms work. An unknown or unreachable number is 404.`,
      params,
      query,
      response: { status: 200, schema: DeleteResult, description: 'Deleted' },
      errors: [400, 403, 404],
      handler: ({ actor, params: p, query: q }) => deleted(numbers.remove(actor, idOf(p, q), q.organization_id)),
    }),
  ];
}
