// Per-user number operations (S9–S13, C7–C11), declared once for mobile and phone numbers. Paths that
// the 2019 documents describe with the ID in the query also accept their literal placeholder.
import type { NumberCreateInput, NumberUpdateInput, OptionalOrganizationInput, OwnerQueryInput } from '../../../schemas/channels.js';
import { badRequest } from '../../errors.js';
import { defineOperation, type Named, type Operation } from '../../http/operation.js';
import { deleted } from './results.js';
import { pathOrQueryId } from './fields.js';
import { ORGANIZATION_ID, OWNER_ID, PAYLOAD, idMessage } from './messages.js';
import type { ChannelNumbers } from './numbers.js';

type IdQuery = { organization_id?: number } & Record<string, number | undefined>;

/** How one channel exposes its numbers. */
export interface NumberRoutes {
  channel: 'sms' | 'call';
  /** Path segment and schema prefix: mobile/Mobile or phone/Phone. */
  resource: 'mobile' | 'phone';
  schema: 'Mobile' | 'Phone';
  labels: { list: Named; create: Named; update: Named; remove: Named; get: Named };
  /** S10 names the number by `id` in the body (or the query); C9 by the path. */
  updateBy: 'body' | 'path';
  /** S13 answers a one-element list, C11 the number itself. */
  getAsList: boolean;
}

/** The five number operations; the get by ID comes last, since its path catches every other name. */
export function numberOperations(r: NumberRoutes, numbers: ChannelNumbers): Operation[] {
  const idName = `${r.resource}ID`;
  const byId = `/api/v1/${r.channel}/${r.resource}/:${idName}`;
  const idOf = (params: Record<string, string>, query: IdQuery) => pathOrQueryId(params[idName], query[idName], idName, idMessage(idName));
  const params = { schema: `${r.schema}IdParams`, message: idMessage(idName) };
  const query = { schema: `${r.schema}Query`, message: idMessage(idName) };
  const body = (op: 'Create' | 'Update') => ({ schema: `${r.schema}${op}`, message: PAYLOAD });
  const scope = 'the owner himself without organization_id, or an admin or the API key of an organization the owner belongs to';
  const update = defineOperation<IdQuery, Record<string, string>, NumberUpdateInput>({
    ...r.labels.update, method: 'put', path: r.updateBy === 'path' ? byId : `/api/v1/${r.channel}/${r.resource}`,
    summary: `Update a ${r.resource} number (${r.updateBy === 'path' ? 'ID in the path' : `id in the body, or ${idName} in the query`}; given fields replace the stored ones; ownerID cannot change)`,
    description: `Who may: the owner himself without organization_id, or an admin or the API key of an organization the owner belongs to. ${r.updateBy === 'path' ? `The path names the number (or the literal {${idName}} with ${idName} in the query).` : `id in the body and ${idName} in the query must agree when both are given (400).`} The gsm number must be valid for its country code.`,
    ...(r.updateBy === 'path' ? { params } : {}),
    query, body: body('Update'),
    response: { status: 200, schema: r.schema, description: `The updated ${r.resource} number` }, errors: [400, 403, 404, 413, 415],
    handler({ actor, params: p, query: q, body: b }) {
      const id = r.updateBy === 'path' ? idOf(p, q) : b.id ?? q[idName];
      if (b.id !== undefined && q[idName] !== undefined && b.id !== q[idName]) throw badRequest('invalid_body', PAYLOAD, [{ in: 'body', path: 'id', problem: `differs from ${idName}` }]);
      if (id === undefined) throw badRequest('invalid_body', PAYLOAD, [{ in: 'body', path: 'id', problem: `is required (or ${idName} in the query)` }]);
      return numbers.update(actor, id, q.organization_id, b);
    },
  });
  return [
    defineOperation<OwnerQueryInput>({
      ...r.labels.list, method: 'get', path: `/api/v1/${r.channel}/${r.resource}`,
      summary: `List a user's ${r.resource} numbers (${scope})`,
      description: `Without organization_id a user lists his own ${r.resource} numbers; an admin or the API key lists those of a member of the organization. In ID order.`,
      query: { schema: 'OwnerQuery', message: OWNER_ID },
      response: { status: 200, schema: `${r.schema}List`, description: `The ${r.resource} numbers in ID order` }, errors: [400, 403],
      handler: ({ actor, query: q }) => numbers.list(actor, q.owner_id, q.organization_id),
    }),
    defineOperation<OptionalOrganizationInput, unknown, NumberCreateInput>({
      ...r.labels.create, method: 'post', path: `/api/v1/${r.channel}/${r.resource}`,
      summary: `Create a ${r.resource} number for ownerID (${scope}; name defaults to empty, active to true)`,
      description: `id is ignored; the answer carries the assigned one. The gsm number must be E.164 with 00 for +, with a known country code and a length valid there (400 otherwise).`,
      query: { schema: 'OptionalOrganizationQuery', message: ORGANIZATION_ID }, body: body('Create'),
      response: { status: 200, schema: r.schema, description: `The created ${r.resource} number with its id` }, errors: [400, 403, 413, 415],
      handler: ({ actor, query: q, body: b }) => numbers.create(actor, q.organization_id, b),
    }),
    update,
    defineOperation<IdQuery, Record<string, string>>({
      ...r.labels.remove, method: 'delete', path: byId,
      summary: `Delete a ${r.resource} number`,
      description: `Who may: as ${r.labels.update.label}. Clients generated from the 2019 document send the literal {${idName}} in the path and the ID in the query; both forms work. An unknown or unreachable number is 404.`,
      params,
      query,
      response: { status: 200, schema: 'DeleteResult', description: 'Deleted' }, errors: [400, 403, 404],
      handler: ({ actor, params: p, query: q }) => deleted(numbers.remove(actor, idOf(p, q), q.organization_id)),
    }),
    defineOperation<IdQuery, Record<string, string>>({
      ...r.labels.get, method: 'get', path: `/api/v1/${r.channel}/:${idName}`,
      summary: `Get a ${r.resource} number${r.getAsList ? ' (as a one-element list, like the 2019 API)' : ''}`,
      description: `The owner reads his own number without organization_id; an admin or the API key of an organization the owner belongs to reads it too. A number the caller cannot reach is 404.`,
      params,
      query,
      response: { status: 200, schema: r.getAsList ? `${r.schema}List` : r.schema, description: `The ${r.resource} number` }, errors: [400, 403, 404],
      async handler({ actor, params: p, query: q }) {
        const found = await numbers.get(actor, idOf(p, q), q.organization_id);
        return r.getAsList ? [found] : found;
      },
    }),
  ];
}
