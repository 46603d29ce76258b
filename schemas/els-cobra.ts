// JSON Schemas of the emergency-control-system integration (E1–E7 and the GET/DELETE of each
// resource), shaped like GroupAlarm's 2019 els-cobra document. Compiled once at boot.
import type { FromSchema } from 'json-schema-to-ts';
import { int64Id, nonNegativeInt } from './common.js';
import { deletedStatus } from './journal.js';

/** The path segment generated 2019 clients send where the document puts organizationID in the query. */
export const ORGANIZATION_PLACEHOLDER = '{organizationID}';

const organizationId = {
  ...nonNegativeInt,
  description: 'Optional; when given (not 0) it must be the addressed organization',
} as const;
const httpUrl = {
  type: 'string',
  minLength: 8,
  maxLength: 2000,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description: 'An http(s) URL',
} as const;
const serviceName = { type: 'string', minLength: 1, maxLength: 200 } as const;
const text = { type: 'string', maxLength: 200 } as const;

// Examples; the PEM texts are shortened here (E2 checks that a real key belongs to its certificate).
const pem = (label: string) => `-----BEGIN ${label}-----\nMIIBszCCAVmgAwIBAgIUe3Xv…\n-----END ${label}-----\n`;
const certificateExample = {
  certificate: pem('CERTIFICATE'),
  caChain: pem('CERTIFICATE'),
  privateKey: pem('PRIVATE KEY'),
};
const credentialsExample = {
  serviceName: 'cobra-leitstelle',
  username: 'ff-hanau-mitte',
  password: 'k3Y!2025-Wache1',
  url: 'https://els.leitstelle-mkk.example/api',
} as const;
const keywordExample = {
  keyword_1: 'B3',
  keyword_2: 'Wohnungsbrand',
  type_1: 'Brand',
  type_2: 'Menschenleben in Gefahr',
  priority: 1,
  scenarioIds: [12, 14],
} as const;
const loginExample = { url: 'https://els.leitstelle-mkk.example/login' } as const;

export const ElsCobraParams = {
  $id: 'ElsCobraParams',
  type: 'object',
  required: ['organizationID'],
  properties: {
    organizationID: {
      type: 'string',
      maxLength: 16,
      pattern: '^([1-9][0-9]{0,15}|\\{organizationID\\})$',
      examples: ['7'],
      description:
        'The organization; generated 2019 clients send the literal {organizationID} here and the ID in the query',
    },
  },
} as const;

export const ElsCobraQuery = {
  $id: 'ElsCobraQuery',
  type: 'object',
  properties: {
    organizationID: {
      ...int64Id,
      description: 'The organization, where the 2019 document puts it in the query',
      examples: [7],
    },
  },
} as const;

export const ElsCobraCredentialsQuery = {
  $id: 'ElsCobraCredentialsQuery',
  type: 'object',
  properties: {
    ...ElsCobraQuery.properties,
    serviceName: {
      ...serviceName,
      description: "Without it, GET lists every service's credentials",
      examples: ['cobra-leitstelle'],
    },
  },
} as const;

export const ElsCobraServiceQuery = {
  $id: 'ElsCobraServiceQuery',
  type: 'object',
  required: ['serviceName'],
  properties: ElsCobraCredentialsQuery.properties,
} as const;

const certificateFields = {
  certificate: { type: 'string', minLength: 1, maxLength: 16_384, description: 'One PEM certificate' },
  caChain: { type: 'string', maxLength: 65_536, description: 'PEM certificates of the chain; may be empty' },
  privateKey: {
    type: 'string',
    minLength: 1,
    maxLength: 16_384,
    description: "The certificate's unencrypted PEM private key; stored encrypted",
  },
} as const;

export const ElsCobraCertificateBody = {
  $id: 'ElsCobraCertificateBody',
  type: 'object',
  additionalProperties: false,
  required: ['certificate', 'privateKey'],
  properties: { ...certificateFields, organizationId },
  examples: [{ ...certificateExample, organizationId: 7 }],
} as const;

const credentialFields = {
  serviceName: { ...serviceName, description: "Optional in the body; when given it must be the query's serviceName" },
  username: { type: 'string', minLength: 1, maxLength: 500 },
  password: { type: 'string', maxLength: 1000, description: 'Stored encrypted' },
  url: httpUrl,
} as const;

export const ElsCobraCredentialsBody = {
  $id: 'ElsCobraCredentialsBody',
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password', 'url'],
  properties: { ...credentialFields, organizationId },
  examples: [{ ...credentialsExample, organizationId: 7 }],
} as const;

const keywordScenario = {
  type: 'object',
  additionalProperties: false,
  required: ['keyword_1', 'priority', 'scenarioIds'],
  properties: {
    keyword_1: text,
    keyword_2: text,
    type_1: text,
    type_2: text,
    priority: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    scenarioIds: {
      type: ['array', 'null'],
      maxItems: 100,
      items: int64Id,
      description: 'null (from Go clients) stores as []',
    },
  },
} as const;

export const ElsCobraKeywordBody = {
  $id: 'ElsCobraKeywordBody',
  type: 'object',
  additionalProperties: false,
  required: ['keywordScenarioList'],
  properties: {
    keywordScenarioList: {
      type: ['array', 'null'],
      maxItems: 1000,
      items: keywordScenario,
      description: 'null stores as []',
    },
    organizationId,
  },
  examples: [
    {
      keywordScenarioList: [
        keywordExample,
        { keyword_1: 'TH 1', keyword_2: 'Baum auf Straße', priority: 3, scenarioIds: [21] },
      ],
      organizationId: 7,
    },
  ],
} as const;

export const ElsCobraLoginBody = {
  $id: 'ElsCobraLoginBody',
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: { url: httpUrl, organizationId },
  examples: [{ ...loginExample, organizationId: 7 }],
} as const;

const responseOrg = { organizationId: int64Id } as const;

export const ElsCobraCertificate = {
  $id: 'ElsCobraCertificate',
  type: 'object',
  additionalProperties: false,
  required: ['organizationId', 'certificate', 'caChain', 'privateKey'],
  properties: { ...responseOrg, ...certificateFields },
  examples: [{ organizationId: 7, ...certificateExample }],
} as const;

export const ElsCobraCredentials = {
  $id: 'ElsCobraCredentials',
  type: 'object',
  additionalProperties: false,
  required: ['organizationId', 'serviceName', 'username', 'password', 'url'],
  properties: { ...responseOrg, ...credentialFields },
  examples: [{ organizationId: 7, ...credentialsExample }],
} as const;

export const ElsCobraCredentialsResult = {
  $id: 'ElsCobraCredentialsResult',
  description: "With serviceName one service's credentials, without it every service's (by serviceName)",
  anyOf: [{ $ref: 'ElsCobraCredentials' }, { type: 'array', items: { $ref: 'ElsCobraCredentials' } }],
  examples: [
    { organizationId: 7, ...credentialsExample },
    [
      { organizationId: 7, ...credentialsExample },
      {
        organizationId: 7,
        serviceName: 'cobra-wachalarm',
        username: 'wache1',
        password: 'Gong-4711',
        url: 'https://wachalarm.example/api',
      },
    ],
  ],
} as const;

export const ElsCobraKeywordList = {
  $id: 'ElsCobraKeywordList',
  type: 'object',
  additionalProperties: false,
  required: ['organizationId', 'keywordScenarioList'],
  properties: {
    ...responseOrg,
    keywordScenarioList: {
      type: 'array',
      items: {
        ...keywordScenario,
        properties: { ...keywordScenario.properties, scenarioIds: { type: 'array', items: int64Id } },
      },
    },
  },
  examples: [{ organizationId: 7, keywordScenarioList: [keywordExample] }],
} as const;

export const ElsCobraLogin = {
  $id: 'ElsCobraLogin',
  type: 'object',
  additionalProperties: false,
  required: ['organizationId', 'url'],
  properties: { ...responseOrg, url: httpUrl },
  examples: [{ organizationId: 7, ...loginExample }],
} as const;

export const ElsCobraDeleted = deletedStatus('ElsCobraDeleted');

export type ElsCobraParamsInput = FromSchema<typeof ElsCobraParams>;
export type ElsCobraQueryInput = FromSchema<typeof ElsCobraCredentialsQuery>;
export type CertificateInput = FromSchema<typeof ElsCobraCertificateBody>;
export type CredentialsInput = FromSchema<typeof ElsCobraCredentialsBody>;
export type KeywordInput = FromSchema<typeof ElsCobraKeywordBody>;
export type LoginInput = FromSchema<typeof ElsCobraLoginBody>;
