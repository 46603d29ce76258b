// OpenAPI 3.1 built from the operation declarations and the same schemas Ajv compiles.
import type { Operation } from './operation.js';
import type { Validator } from './validation.js';

type Json = Record<string, unknown>;

// One example error body per status, so every error response shows what a client will parse.
const ERROR_EXAMPLE: Record<number, { error: string; message: string; details?: unknown[] }> = {
  400: {
    error: 'invalid_parameter',
    message: 'monitor_id missing or in wrong format',
    details: [{ in: 'path', path: 'monitor_id', problem: 'must be integer' }],
  },
  401: { error: 'unauthorized', message: 'Unauthorized' },
  403: { error: 'forbidden', message: 'Not allowed in this organization' },
  404: { error: 'not_found', message: 'Monitor not found' },
  409: { error: 'conflict', message: 'This gsm number already has an alarming configuration in the organization' },
  413: { error: 'payload_too_large', message: 'Request bodies are limited to 1048576 bytes' },
  415: { error: 'unsupported_media_type', message: 'Request bodies must be application/json' },
  429: { error: 'rate_limited', message: 'Too many requests; slow down' },
  500: { error: 'internal_error', message: 'Unexpected error' },
  502: { error: 'push_failed', message: 'FCM refused the push: 400 INVALID_ARGUMENT' },
  503: { error: 'unavailable', message: 'Service temporarily unavailable' },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'A parameter or the body is missing or in wrong format (error: invalid_parameter, invalid_body, invalid_json)',
  401: 'Credential missing, unknown or revoked (error: unauthorized)',
  403: 'Not allowed in this organization or on this resource (error: forbidden)',
  404: "Not found, also for another organization's resource (error: not_found)",
  409: "Conflict with the resource's state (see the operation's description for its codes)",
  413: 'Body over 1 MiB (error: payload_too_large)',
  415: 'Body is not application/json (error: unsupported_media_type)',
  429: 'Too many requests from this credential and address; see Retry-After (error: rate_limited)',
  500: 'Unexpected error (error: internal_error)',
  503: 'Database or Redis unavailable; see Retry-After (error: unavailable)',
};

// Schemas refer to each other by bare $id for Ajv; OpenAPI wants component references.
function toComponent(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toComponent);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    out[key] =
      key === '$ref' && typeof value === 'string' && !value.startsWith('#')
        ? `#/components/schemas/${value}`
        : toComponent(value);
  }
  return out;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** A media type of schema `id`, with the schema's first example so Swagger UI shows it. */
function media(validator: Validator, id: string, example?: unknown): Json {
  const first = example ?? (validator.schema(id).examples as unknown[] | undefined)?.[0];
  return { 'application/json': { schema: ref(id), ...(first === undefined ? {} : { example: first }) } };
}

function parameters(
  validator: Validator,
  where: 'query' | 'path',
  schemaId: string | undefined,
  message: string | undefined,
): Json[] {
  if (!schemaId) return [];
  const schema = validator.schema(schemaId) as { properties?: Json; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (schema.required ?? []).includes(name),
    description: message ? `Answered with 400 "${message}" when missing or in wrong format` : undefined,
    schema: toComponent(s),
    ...((s as Json).examples ? { example: ((s as Json).examples as unknown[])[0] } : {}),
  }));
}

function operationDoc(op: Operation, validator: Validator, method: string): Json {
  const responses: Json = {
    [op.response.status]: {
      description: op.response.description,
      content: op.response.files
        ? Object.fromEntries(op.response.files.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]))
        : media(validator, op.response.schema),
      ...(op.response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(op.response.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
            ),
          }
        : {}),
    },
  };
  if (op.response.conditional)
    responses[304] = { description: 'Not modified: If-None-Match matched the current ETag (no body)' };
  for (const status of [
    ...op.errors,
    ...(op.public ? [] : [401]),
    ...(op.rateLimited === false ? [] : [429]),
    500,
    503,
  ].sort()) {
    const example = ERROR_EXAMPLE[status] && {
      ...ERROR_EXAMPLE[status],
      requestId: '5b0e7c1e-4f7a-4d53-9a43-2d1f0c6e8a17',
    };
    // A document body (IP4, IP5) has a limit and types of its own.
    const description =
      op.document && status === 413
        ? `Body over ${op.document.limitBytes / 1024 / 1024} MiB (error: payload_too_large)`
        : op.document && status === 415
          ? `Body is none of ${op.document.types.join(', ')}${op.body ? ' nor JSON' : ''} (error: unsupported_media_type)`
          : (ERROR_TEXT[status] ?? 'Error');
    responses[status] = { description, content: media(validator, 'ErrorBody', example) };
  }
  return {
    // An extra method on the same path gets its own name: setMonitorAlarmingDataWithPut.
    operationId:
      method === op.method ? op.operationId : `${op.operationId}With${method[0].toUpperCase()}${method.slice(1)}`,
    'x-label': op.label,
    // The label leads the summary, so the docs page and generated clients show it.
    summary: `${op.label}: ${op.summary}`,
    ...(op.description ? { description: op.description } : {}),
    ...(op.public
      ? { security: [] }
      : op.screens
        ? { security: [{ API_Token: [] }, { 'Personal-Access-Token': [] }, { 'Screen-Token': [] }] }
        : {}),
    tags: [op.path.split('/')[3]],
    parameters: [
      ...parameters(validator, 'path', op.params?.schema, op.params?.message),
      ...parameters(validator, 'query', op.query?.schema, op.query?.message),
      ...(op.response.conditional
        ? [
            {
              name: 'If-None-Match',
              in: 'header',
              required: false,
              description: 'An ETag from an earlier answer (weak or strong, a list, or *)',
              schema: { type: 'string' },
            },
          ]
        : []),
    ],
    ...(op.body || op.document
      ? {
          requestBody: {
            required: true,
            description: op.body
              ? `Answered with 400 "${op.body.message}" when missing or in wrong format`
              : `A document, at most ${op.document!.limitBytes} bytes`,
            content: {
              // Listed first: where a document type is also JSON's (text/plain), the document wins.
              ...Object.fromEntries(
                (op.document?.types ?? []).map((type) => [
                  type,
                  {
                    schema: {
                      type: 'string',
                      format: 'binary',
                      description: `At most ${op.document!.limitBytes} bytes`,
                    },
                  },
                ]),
              ),
              ...(op.body ? media(validator, op.body.schema) : {}),
              ...(op.csv
                ? {
                    'text/csv': {
                      schema: { type: 'string', description: 'CSV with a header line' },
                      example: op.csv.example,
                    },
                  }
                : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every mounted operation. */
export function buildOpenApi(operations: Operation[], validator: Validator): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const path = op.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] ??= {};
    for (const method of [op.method, ...(op.alsoMethods ?? [])])
      paths[path][method] = operationDoc(op, validator, method);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'alarm-hub',
      version: '0.1.0',
      description:
        'Alarm delivery and station displays. The hub for screens is Socket.IO at /socket.io; operations ' +
        "carry the interface's label in x-label (F1–F8: the screen fleet). Errors share one body (ErrorBody); " +
        'IDs never exceed 2^53-1. A method a path does not have answers 405 with an Allow header.',
    },
    servers: [{ url: '/' }],
    security: [{ API_Token: [] }, { 'Personal-Access-Token': [] }],
    paths,
    components: {
      securitySchemes: {
        API_Token: {
          type: 'apiKey',
          in: 'header',
          name: 'API-TOKEN',
          description: 'An organization API key (admin command: apikey create)',
        },
        'Personal-Access-Token': {
          type: 'apiKey',
          in: 'header',
          name: 'Personal-Access-Token',
          description: "A user's personal access token (admin command: pat create)",
        },
        'Screen-Token': {
          type: 'apiKey',
          in: 'header',
          name: 'Screen-Token',
          description: "A paired screen's token (ahs_…, from F2): reads its own monitor only (M4, M6)",
        },
      },
      schemas: Object.fromEntries(validator.schemas.map((s) => [s.$id, toComponent(s)])),
    },
  };
}
