// JSON Schemas of people (docs/people.md, P1–P9): invitations, joining, sessions, members, the roster import.
import { int64Id } from './common.js';

const dateTimeOut = { type: 'string', format: 'date-time' } as const;
const role = { type: 'string', enum: ['admin', 'member'] } as const;
// One line of text with something in it: no control characters (a line break, a tab).
const personName = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$',
} as const;
const unitName = { type: 'string', minLength: 1, maxLength: 50 } as const;
const numberText = { type: 'string', minLength: 1, maxLength: 32 } as const;

export const InvitationBody = {
  $id: 'InvitationBody',
  type: 'object',
  additionalProperties: false,
  required: ['organizationID', 'name', 'role'],
  properties: {
    organizationID: int64Id,
    name: { ...personName, description: "The person's name as the organization knows him" },
    role,
    userId: { ...int64Id, description: 'A member already there, invited to sign in on a new device' },
  },
  examples: [{ organizationID: 1, name: 'Alex Berger', role: 'member' }],
} as const;

const codeProperties = {
  code: { type: 'string', description: 'Single use; only its hash is stored' },
  link: { type: 'string', description: '<PUBLIC_URL>/join/<code>' },
  expiresAt: dateTimeOut,
} as const;
const codeExample = {
  code: 'q0K8v5c2H1m9T4xZr7LbW3nY6sJdAe0F',
  link: 'https://alarm.example.org/join/q0K8v5c2H1m9T4xZr7LbW3nY6sJdAe0F',
  expiresAt: '2026-12-06T18:00:00.000Z',
} as const;

export const InvitationCreated = {
  $id: 'InvitationCreated',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'code', 'link', 'expiresAt'],
  properties: { id: { type: 'string' }, ...codeProperties },
  examples: [{ id: '5f2a9c0e71d3b8a4', ...codeExample }],
} as const;

export const SignInLink = {
  $id: 'SignInLink',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'link', 'expiresAt'],
  properties: codeProperties,
  examples: [codeExample],
} as const;

export const JoinBody = {
  $id: 'JoinBody',
  type: 'object',
  additionalProperties: false,
  required: ['code'],
  properties: { code: { type: 'string', minLength: 1, maxLength: 200 } },
  examples: [{ code: codeExample.code }],
} as const;

const userRef = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: int64Id, name: { type: 'string' } },
} as const;

export const Joined = {
  $id: 'Joined',
  type: 'object',
  additionalProperties: false,
  required: ['user', 'organizationId', 'role'],
  properties: {
    user: userRef,
    organizationId: { anyOf: [int64Id, { type: 'null' }] },
    role: { anyOf: [role, { type: 'null' }] },
  },
  examples: [{ user: { id: 7, name: 'Alex Berger' }, organizationId: 1, role: 'member' }],
} as const;

export const SessionView = {
  $id: 'SessionView',
  type: 'object',
  additionalProperties: false,
  required: ['user', 'organizations', 'passkeys'],
  properties: {
    user: userRef,
    passkeys: { type: 'integer', minimum: 0, description: 'How many passkeys he registered' },
    organizations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'role'],
        properties: { id: int64Id, name: { type: 'string' }, role },
      },
    },
  },
  examples: [
    { user: { id: 7, name: 'Alex Berger' }, organizations: [{ id: 1, name: 'FF Nord', role: 'admin' }], passkeys: 1 },
  ],
} as const;

export const SignedOut = {
  $id: 'SignedOut',
  type: 'object',
  additionalProperties: false,
  required: ['signedOut'],
  properties: { signedOut: { type: 'boolean', const: true } },
  examples: [{ signedOut: true }],
} as const;

export const OrganizationMemberParams = {
  $id: 'OrganizationMemberParams',
  type: 'object',
  required: ['organizationId'],
  properties: { organizationId: { ...int64Id, examples: [1] }, userId: { ...int64Id, examples: [7] } },
} as const;

const member = {
  type: 'object',
  additionalProperties: false,
  required: ['userId', 'name', 'role', 'units', 'joinedAt', 'lastSeenAt'],
  properties: {
    userId: int64Id,
    name: { type: 'string' },
    role,
    units: { type: 'array', items: { type: 'string' } },
    joinedAt: { anyOf: [dateTimeOut, { type: 'null' }], description: 'Null for members from before invitations' },
    lastSeenAt: {
      anyOf: [dateTimeOut, { type: 'null' }],
      description: 'The last use of any of his sessions or tokens (recorded at most once a minute)',
    },
  },
} as const;
const memberExample = {
  userId: 7,
  name: 'Alex Berger',
  role: 'member',
  units: ['HLF 20'],
  joinedAt: '2026-11-29T18:00:00.000Z',
  lastSeenAt: '2026-11-29T19:02:00.000Z',
} as const;

export const Member = { $id: 'Member', ...member, examples: [memberExample] } as const;

export const MemberList = {
  $id: 'MemberList',
  type: 'object',
  additionalProperties: false,
  required: ['members'],
  properties: { members: { type: 'array', items: member } },
  examples: [{ members: [memberExample] }],
} as const;

export const MemberRoleBody = {
  $id: 'MemberRoleBody',
  type: 'object',
  additionalProperties: false,
  required: ['role'],
  properties: { role },
  examples: [{ role: 'admin' }],
} as const;

export const MAX_IMPORT = 1_000;

export const RosterImportBody = {
  $id: 'RosterImportBody',
  type: 'object',
  additionalProperties: false,
  required: ['members'],
  properties: {
    members: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_IMPORT,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: personName,
          role,
          mobile: { ...numberText, description: 'E.164 (+49…) or 0049…: entered for him by the organization (S11)' },
          phone: { ...numberText, description: 'For voice alarms, as mobile (C8)' },
          units: { type: 'array', maxItems: 20, items: unitName },
        },
      },
    },
  },
  examples: [
    {
      members: [
        { name: 'Alex Berger', role: 'admin', mobile: '+491701234567', units: ['HLF 20'] },
        { name: 'Kim Sommer', phone: '+4922112345678', units: ['HLF 20', 'DLK 23'] },
      ],
    },
  ],
} as const;

export const RosterImported = {
  $id: 'RosterImported',
  type: 'object',
  additionalProperties: false,
  required: ['created', 'members'],
  properties: {
    created: { type: 'integer', minimum: 0 },
    members: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['userId', 'name', 'invitation'],
        properties: {
          userId: int64Id,
          name: { type: 'string' },
          invitation: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'link', 'expiresAt'],
            properties: codeProperties,
          },
        },
      },
    },
  },
  examples: [{ created: 1, members: [{ userId: 7, name: 'Alex Berger', invitation: codeExample }] }],
} as const;

/** A browser's WebAuthn answer (SimpleWebAuthn checks its inside). */
const webAuthnResponse = {
  type: 'object',
  required: ['id', 'rawId', 'type', 'response'],
  maxProperties: 20,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 1024 },
    rawId: { type: 'string', maxLength: 1024 },
    type: { const: 'public-key' },
    response: { type: 'object', maxProperties: 20 },
  },
} as const;
const challengeId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } as const;

export const PasskeyOptions = {
  $id: 'PasskeyOptions',
  type: 'object',
  additionalProperties: false,
  required: ['challengeId', 'options'],
  properties: {
    challengeId: { type: 'string', description: 'Sent back with the answer' },
    options: {
      type: 'object',
      description: "WebAuthn's PublicKeyCredentialCreationOptionsJSON or RequestOptionsJSON, for the browser",
    },
  },
  examples: [{ challengeId: 'pQ9hR1cB0mEe4kYt2wZs7A', options: { challenge: 'x8Gd0…', rpId: 'alarm.example.org' } }],
} as const;

export const PasskeyRegisterBody = {
  $id: 'PasskeyRegisterBody',
  type: 'object',
  additionalProperties: false,
  required: ['challengeId', 'response'],
  properties: {
    challengeId,
    response: webAuthnResponse,
    name: { type: 'string', maxLength: 100, description: 'Which device it is on, for the person' },
  },
  examples: [
    {
      challengeId: 'pQ9hR1cB0mEe4kYt2wZs7A',
      name: 'Phone',
      response: { id: 'AbC…', rawId: 'AbC…', type: 'public-key', response: {} },
    },
  ],
} as const;

export const PasskeySignInBody = {
  $id: 'PasskeySignInBody',
  type: 'object',
  additionalProperties: false,
  required: ['challengeId', 'response'],
  properties: { challengeId, response: webAuthnResponse },
  examples: [
    {
      challengeId: 'pQ9hR1cB0mEe4kYt2wZs7A',
      response: { id: 'AbC…', rawId: 'AbC…', type: 'public-key', response: {} },
    },
  ],
} as const;

const passkey = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'createdAt', 'lastUsedAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    createdAt: dateTimeOut,
    lastUsedAt: { anyOf: [dateTimeOut, { type: 'null' }] },
  },
} as const;
const passkeyExample = { id: 'AbC…', name: 'Phone', createdAt: '2026-11-29T18:00:00.000Z', lastUsedAt: null } as const;

export const PasskeyView = { $id: 'PasskeyView', ...passkey, examples: [passkeyExample] } as const;

export const PasskeyList = {
  $id: 'PasskeyList',
  type: 'object',
  additionalProperties: false,
  required: ['passkeys'],
  properties: { passkeys: { type: 'array', items: passkey } },
  examples: [{ passkeys: [passkeyExample] }],
} as const;

export const PasskeyIdParams = {
  $id: 'PasskeyIdParams',
  type: 'object',
  required: ['passkeyId'],
  properties: { passkeyId: { type: 'string', minLength: 1, maxLength: 1024, examples: ['AbC'] } },
} as const;

// API keys (K1–K3, docs/people.md "API keys"): an organization's keys for its integrations.
export const ApiKeyParams = {
  $id: 'ApiKeyParams',
  type: 'object',
  required: ['organizationId'],
  properties: { organizationId: { ...int64Id, examples: [1] }, keyId: { ...int64Id, examples: [12] } },
} as const;

const apiKey = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'createdAt', 'lastUsedAt', 'revokedAt'],
  properties: {
    id: int64Id,
    name: { type: 'string' },
    createdAt: dateTimeOut,
    lastUsedAt: { anyOf: [dateTimeOut, { type: 'null' }], description: 'Recorded at most once a minute' },
    revokedAt: { anyOf: [dateTimeOut, { type: 'null' }] },
  },
} as const;
const apiKeyExample = {
  id: 12,
  name: 'Leitstelle',
  createdAt: '2026-11-29T14:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
};

export const ApiKey = { $id: 'ApiKey', ...apiKey, examples: [apiKeyExample] } as const;

export const ApiKeyList = {
  $id: 'ApiKeyList',
  type: 'object',
  additionalProperties: false,
  required: ['apiKeys'],
  properties: { apiKeys: { type: 'array', items: apiKey } },
  examples: [{ apiKeys: [apiKeyExample] }],
} as const;

export const ApiKeyBody = {
  $id: 'ApiKeyBody',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { ...personName, description: 'What the key is for, e.g. the integration using it' } },
  examples: [{ name: 'Leitstelle' }],
} as const;

export const ApiKeyCreated = {
  $id: 'ApiKeyCreated',
  type: 'object',
  additionalProperties: false,
  required: [...apiKey.required, 'token'],
  properties: { ...apiKey.properties, token: { type: 'string', description: 'Shown once; only its hash is kept' } },
  examples: [{ ...apiKeyExample, token: 'ahk_…' }],
} as const;
