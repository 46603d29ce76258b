// The integration's operations E1–E7 plus the GET and DELETE of each resource, on the routes of
// GroupAlarm's 2019 els-cobra document (docs/api.md "REST API"). organizationID travels in the path; where the
// document puts it in the query (PUT and DELETE of credentials), generated clients send the literal
// {organizationID} in the path and the ID in the query: both are accepted everywhere.
import {
  ElsCobraCertificate,
  ElsCobraCertificateBody,
  ElsCobraCredentials,
  ElsCobraCredentialsBody,
  ElsCobraCredentialsQuery,
  ElsCobraCredentialsResult,
  ElsCobraDeleted,
  ElsCobraKeywordBody,
  ElsCobraKeywordList,
  ElsCobraLogin,
  ElsCobraLoginBody,
  ElsCobraParams,
  ElsCobraQuery,
  ElsCobraServiceQuery,
} from '../../../schemas/els-cobra.js';
import type { ElsCobraParamsInput, ElsCobraQueryInput } from '../../../schemas/els-cobra.js';
import { defineOperation, type Named, type NamedSchema, type Operation, type Valid } from '../../http/operation.js';
import type { ElsCobraCommands, Fields, Kind } from './commands.js';
import {
  certificateFields,
  credentialFields,
  elsWording,
  keywordFields,
  loginFields,
  organizationOf,
} from './inputs.js';

type Input = { params: ElsCobraParamsInput; query: ElsCobraQueryInput };

const BASE = '/api/v1/els-cobra';
const params = (message: string) => ({ schema: ElsCobraParams, message });
const ADDRESS =
  'Generated 2019 clients may send the literal {organizationID} in the path with organizationID ' +
  'in the query; both must agree when both are given.';
const deleted = { status: 200, schema: ElsCobraDeleted, description: 'Deleted' } as const;

interface Singleton<S extends NamedSchema> {
  kind: Exclude<Kind, 'credentials'>;
  segment: string;
  labels: [get: Named, put: Named, remove: Named];
  noun: string;
  readers: string;
  body: S;
  response: NamedSchema;
  message: string;
  fields(body: Valid<S>, organizationId: number): Fields;
}

/** The integration's operation declarations. */
export function elsCobraOperations(commands: ElsCobraCommands): Operation[] {
  const org = ({ params: p, query }: Input, message: string) => organizationOf(p, query, message);

  // GET, PUT and DELETE of a resource an organization has at most one of.
  const singleton = <S extends NamedSchema>(r: Singleton<S>) => {
    const path = `${BASE}/${r.segment}/:organizationID`;
    const at = (input: Input) => ({ kind: r.kind, organizationId: org(input, elsWording.organization) });
    const address = {
      params: params(elsWording.organization),
      query: { schema: ElsCobraQuery, message: elsWording.organization },
    };
    return [
      defineOperation({
        ...r.labels[0],
        method: 'get',
        path,
        ...address,
        summary: `Get the ${r.noun} of an organization (${r.readers})`,
        description:
          `${r.readers[0].toUpperCase()}${r.readers.slice(1)}; another organization is a 403. 404 until ` +
          `one was stored with ${r.labels[1].label}. ${ADDRESS}`,
        response: { status: 200, schema: r.response, description: `The ${r.noun}` },
        errors: [400, 403, 404],
        handler: ({ actor, ...input }) => commands.read(actor, at(input)),
      }),
      defineOperation({
        ...r.labels[1],
        method: 'put',
        path,
        ...address,
        summary: `Store the ${r.noun} of an organization, replacing the stored one (organization admins and the API key)`,
        description:
          `Organization admins and the API key. The last write wins, so repeating it is harmless; organizationId ` +
          `in the body, when given (not 0), must be the addressed organization. ${ADDRESS}`,
        // Named as a schema only here: the body's type for a schema still generic is too deep for the
        // compiler, so the value that passed r.body is given to r.fields, typed from r.body at each call.
        body: { schema: r.body as NamedSchema, message: r.message },
        response: { status: 200, schema: r.response, description: `The stored ${r.noun}` },
        errors: [400, 403, 413, 415],
        handler: ({ actor, body, ...input }) => {
          const target = at(input);
          return commands.write(actor, target, r.fields(body as never, target.organizationId));
        },
      }),
      defineOperation({
        ...r.labels[2],
        method: 'delete',
        path,
        ...address,
        summary: `Delete the ${r.noun} of an organization (organization admins and the API key)`,
        description: `Organization admins and the API key. 404 when none is stored (also when deleting it again). ${ADDRESS}`,
        response: deleted,
        errors: [400, 403, 404],
        handler: ({ actor, ...input }) => commands.remove(actor, at(input)),
      }),
    ];
  };

  const credentials = `${BASE}/credentials/:organizationID`;
  const serviceAddress = {
    params: params(elsWording.service),
    query: { schema: ElsCobraServiceQuery, message: elsWording.service },
  };
  const service = (input: Input) => ({
    kind: 'credentials' as const,
    organizationId: org(input, elsWording.service),
    serviceName: input.query.serviceName!,
  });

  return [
    ...singleton({
      kind: 'certificate',
      segment: 'certificate',
      labels: [
        { label: 'E1', operationId: 'getCertificateSet' },
        { label: 'E2', operationId: 'setCertificateSet' },
        { label: 'E2-delete', operationId: 'deleteCertificateSet' },
      ],
      noun: 'certificate set',
      readers: 'organization admins and the API key: it holds the private key',
      body: ElsCobraCertificateBody,
      response: ElsCobraCertificate,
      message: elsWording.certificate,
      fields: certificateFields,
    }),
    defineOperation({
      label: 'E3',
      operationId: 'getCredentials',
      method: 'get',
      path: credentials,
      summary:
        'Get the credentials of one service (serviceName), or of every service as a list (organization ' +
        'admins and the API key: they hold passwords)',
      description:
        `Organization admins and the API key; members get 403, since the answer holds passwords. With ` +
        `serviceName one object (404 when none is stored), without it a list sorted by serviceName (empty ` +
        `when none). ${ADDRESS}`,
      params: params(elsWording.service),
      query: { schema: ElsCobraCredentialsQuery, message: elsWording.service },
      response: {
        status: 200,
        schema: ElsCobraCredentialsResult,
        description: "One service's credentials, or all of them by serviceName",
      },
      errors: [400, 403, 404],
      handler: ({ actor, ...input }) =>
        input.query.serviceName === undefined
          ? commands.list(actor, org(input, elsWording.service))
          : commands.read(actor, service(input)),
    }),
    defineOperation({
      label: 'E4',
      operationId: 'setCredentials',
      method: 'put',
      path: credentials,
      ...serviceAddress,
      summary: 'Store the credentials of a service, replacing the stored ones (organization admins and the API key)',
      description:
        `Organization admins and the API key; serviceName in the query names the service, and in the ` +
        `body, when given, must be the same. The password is stored encrypted and never logged; the ` +
        `last write wins. ${ADDRESS}`,
      body: { schema: ElsCobraCredentialsBody, message: elsWording.credentials },
      response: { status: 200, schema: ElsCobraCredentials, description: 'The stored credentials' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body, ...input }) => {
        const target = service(input);
        return commands.write(actor, target, credentialFields(body, target.organizationId, target.serviceName));
      },
    }),
    defineOperation({
      label: 'E4-delete',
      operationId: 'deleteCredentials',
      method: 'delete',
      path: credentials,
      ...serviceAddress,
      summary: 'Delete the credentials of a service (organization admins and the API key)',
      description:
        `Organization admins and the API key. 404 when the service has no credentials (also when deleting ` +
        `them again). ${ADDRESS}`,
      response: deleted,
      errors: [400, 403, 404],
      handler: ({ actor, ...input }) => commands.remove(actor, service(input)),
    }),
    ...singleton({
      kind: 'keywords',
      segment: 'keyword',
      labels: [
        { label: 'E5', operationId: 'getKeywordList' },
        { label: 'E6', operationId: 'setKeywordList' },
        { label: 'E6-delete', operationId: 'deleteKeywordList' },
      ],
      noun: 'keyword list',
      readers: 'members read it',
      body: ElsCobraKeywordBody,
      response: ElsCobraKeywordList,
      message: elsWording.keywords,
      fields: keywordFields,
    }),
    ...singleton({
      kind: 'login',
      segment: 'login',
      labels: [
        { label: 'E7-get', operationId: 'getLogin' },
        { label: 'E7', operationId: 'setLogin' },
        { label: 'E7-delete', operationId: 'deleteLogin' },
      ],
      noun: 'login',
      readers: 'members read it',
      body: ElsCobraLoginBody,
      response: ElsCobraLogin,
      message: elsWording.login,
      fields: loginFields,
    }),
  ];
}
