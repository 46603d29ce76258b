// Per-user number operations (S9–S13, C7–C11): what mobile and phone numbers share. Paths that the
// 2019 documents describe with the ID in the query also accept their literal placeholder.
import type { NumberCreateInput, OptionalOrganizationInput, OwnerQueryInput } from '../../../schemas/channels.js';
import { defineOperation, type Named, type Operation } from '../../http/operation.js';
import { deleted } from './results.js';
import { pathOrQueryId } from './fields.js';
import { ORGANIZATION_ID, OWNER_ID, PAYLOAD, idMessage } from './messages.js';
import type { ChannelNumbers } from './numbers.js';

/** The query of operations that name a number: mobileID or phoneID (for the 2019 clients) and organization_id. */
export type IdQuery = { organization_id?: number } & Record<string, number | undefined>;

/** Who may reach a user's numbers. */
export const NUMBER_SCOPE = 'the owner himself without organization_id, or an admin or the API key of an organization the owner belongs to';

/** One channel's numbers: mobile numbers of sms, phone numbers of call. */
export interface NumberResource {
  channel: 'sms' | 'call';
  /** Path segment and schema prefix: mobile/Mobile or phone/Phone. */
  resource: 'mobile' | 'phone';
  schema: 'Mobile' | 'Phone';
}

/** How operations on one number name it: the path with its ID, the ID's schemas, and the ID a request names. */
export function numberAddress(r: NumberResource) {
  const idName = `${r.resource}ID`;
  return {
    idName,
    byId: `/api/v1/${r.channel}/${r.resource}/:${idName}`,
    params: { schema: `${r.schema}IdParams`, message: idMessage(idName) },
    query: { schema: `${r.schema}Query`, message: idMessage(idName) },
    /** The ID from the path, or from the query when the path holds the 2019 documents' literal placeholder. */
    idOf: (params: Record<string, string>, query: IdQuery) => pathOrQueryId(params[idName], query[idName], idName, idMessage(idName)),
  };
}

/**
 * The number operations both channels declare alike: list, create and delete. Update and get differ
 * (S10 names the number in the body, C9 in the path; S13 answers a one-element list, C11 the number):
 * each channel declares those in its own routes.ts, its get last, since its path catches every other name.
 */
export function numberOperations(r: NumberResource & { labels: { list: Named; create: Named; remove: Named; update: Named } }, numbers: ChannelNumbers): Operation[] {
  const { idName, byId, params, query, idOf } = numberAddress(r);
  const body = { schema: `${r.schema}Create`, message: PAYLOAD };
  return [
    defineOperation<OwnerQueryInput>({
      ...r.labels.list, method: 'get', path: `/api/v1/${r.channel}/${r.resource}`,
      summary: `List a user's ${r.resource} numbers (${NUMBER_SCOPE})`,
      description: `Without organization_id a user lists his own ${r.resource} numbers; an admin or the API key lists those of a member of the organization. In ID order.`,
      query: { schema: 'OwnerQuery', message: OWNER_ID },
      response: { status: 200, schema: `${r.schema}List`, description: `The ${r.resource} numbers in ID order` }, errors: [400, 403],
      handler: ({ actor, query: q }) => numbers.list(actor, q.owner_id, q.organization_id),
    }),
    defineOperation<OptionalOrganizationInput, unknown, NumberCreateInput>({
      ...r.labels.create, method: 'post', path: `/api/v1/${r.channel}/${r.resource}`,
      summary: `Create a ${r.resource} number for ownerID (${NUMBER_SCOPE}; name defaults to empty, active to true)`,
      description: `id is ignored; the answer carries the assigned one. The gsm number must be E.164 with 00 for +, with a known country code and a length valid there (400 otherwise).`,
      query: { schema: 'OptionalOrganizationQuery', message: ORGANIZATION_ID }, body,
      response: { status: 200, schema: r.schema, description: `The created ${r.resource} number with its id` }, errors: [400, 403, 413, 415],
      handler: ({ actor, query: q, body: b }) => numbers.create(actor, q.organization_id, b),
    }),
    defineOperation<IdQuery, Record<string, string>>({
      ...r.labels.remove, method: 'delete', path: byId,
      summary: `Delete a ${r.resource} number`,
      description: `Who may: as ${r.labels.update.label}. Clients generated from the 2019 document send the literal {${idName}} in the path and the ID in the query; both forms work. An unknown or unreachable number is 404.`,
      params,
      query,
      response: { status: 200, schema: 'DeleteResult', description: 'Deleted' }, errors: [400, 403, 404],
      handler: ({ actor, params: p, query: q }) => deleted(numbers.remove(actor, idOf(p, q), q.organization_id)),
    }),
  ];
}
