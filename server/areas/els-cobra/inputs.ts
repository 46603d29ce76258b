// The integration's inputs beyond what the schemas check: where organizationID travels (path, or the
// query behind the 2019 placeholder), the body agreeing with the address, PEM and URL contents.
import {
  ORGANIZATION_PLACEHOLDER,
  type CertificateInput,
  type CredentialsInput,
  type ElsCobraParamsInput,
  type ElsCobraQueryInput,
  type KeywordInput,
  type LoginInput,
} from '../../../schemas/els-cobra.js';
import { MAX_SAFE_ID } from '../../../schemas/common.js';
import { badRequest, type ErrorDetail } from '../../errors.js';
import type { Fields } from './commands.js';
import { certificateSetProblems, isHttpUrl } from './pem.js';

/** The failure wording of the integration's parameters and bodies (the interface has none). */
export const elsWording = {
  organization: 'organizationID missing or in wrong format',
  service: 'organizationID or serviceName missing or in wrong format',
  certificate: 'Certificate set in wrong format or required field missing',
  credentials: 'Credentials in wrong format or required field missing',
  keywords: 'Keyword list in wrong format or required field missing',
  login: 'Login in wrong format or required field missing',
} as const;

/** The addressed organization: the path's, or the query's where the path is the 2019 placeholder. */
export function organizationOf(params: ElsCobraParamsInput, query: ElsCobraQueryInput, message: string): number {
  const fail = (where: 'path' | 'query', problem: string) =>
    badRequest('invalid_parameter', message, [{ in: where, path: 'organizationID', problem }]);
  if (params.organizationID === ORGANIZATION_PLACEHOLDER) {
    if (query.organizationID === undefined)
      throw fail('query', `is required when the path carries ${ORGANIZATION_PLACEHOLDER}`);
    return query.organizationID;
  }
  const id = Number(params.organizationID);
  if (id > MAX_SAFE_ID) throw fail('path', `must be at most ${MAX_SAFE_ID}`);
  if (query.organizationID !== undefined && query.organizationID !== id)
    throw fail('query', "must be the path's organizationID");
  return id;
}

function check(message: string, problems: ErrorDetail[]): void {
  if (problems.length) throw badRequest('invalid_body', message, problems);
}

// A body may repeat the organization (Go clients send 0 for "not set"), but not name another one.
function sameOrganization(body: { organizationId?: number }, organizationId: number): ErrorDetail[] {
  return body.organizationId && body.organizationId !== organizationId
    ? [{ in: 'body', path: 'organizationId', problem: 'must be the addressed organization' }]
    : [];
}

function urlProblems(url: string): ErrorDetail[] {
  return isHttpUrl(url) ? [] : [{ in: 'body', path: 'url', problem: 'must be an http or https URL' }];
}

/** E2's fields: a certificate, its key, and a chain of certificates (may be empty). */
export function certificateFields(body: CertificateInput, organizationId: number): Fields {
  check(elsWording.certificate, [...sameOrganization(body, organizationId), ...certificateSetProblems(body)]);
  return { certificate: body.certificate, caChain: body.caChain ?? '', privateKey: body.privateKey };
}

/** E4's fields, for the service the query names. */
export function credentialFields(body: CredentialsInput, organizationId: number, serviceName: string): Fields {
  const otherService =
    body.serviceName !== undefined && body.serviceName !== serviceName
      ? [{ in: 'body' as const, path: 'serviceName', problem: "must be the query's serviceName" }]
      : [];
  check(elsWording.credentials, [...sameOrganization(body, organizationId), ...otherService, ...urlProblems(body.url)]);
  return { serviceName, username: body.username, password: body.password, url: body.url };
}

/** E6's fields; null lists (from Go clients) become empty ones. */
export function keywordFields(body: KeywordInput, organizationId: number): Fields {
  check(elsWording.keywords, sameOrganization(body, organizationId));
  const list = (body.keywordScenarioList ?? []).map((item) => ({ ...item, scenarioIds: item.scenarioIds ?? [] }));
  return { keywordScenarioList: list };
}

/** E7's fields. */
export function loginFields(body: LoginInput, organizationId: number): Fields {
  check(elsWording.login, [...sameOrganization(body, organizationId), ...urlProblems(body.url)]);
  return { url: body.url };
}
