// Fragments shared by the operation schemas. Every value that comes from outside carries a bound.

/** Largest integer JavaScript reads exactly; IDs never exceed it (docs/api.md "Base, formats, IDs"). */
export const MAX_SAFE_ID = 9007199254740991;

export const int64Id = { type: 'integer', minimum: 1, maximum: MAX_SAFE_ID } as const;
export const nonNegativeInt = { type: 'integer', minimum: 0, maximum: MAX_SAFE_ID } as const;
export const count = { type: 'integer', minimum: 0, maximum: 1_000_000 } as const;
export const shortText = { type: 'string', maxLength: 500 } as const;
export const longText = { type: 'string', maxLength: 10_000 } as const;
export const dateTime = { type: 'string', format: 'date-time', maxLength: 64 } as const;
export const latitude = { type: 'number', minimum: -90, maximum: 90 } as const;
export const longitude = { type: 'number', minimum: -180, maximum: 180 } as const;

/** An open property map (docs/api.md "Base, formats, IDs" names them): any keys, bounded in number. */
export const openMap = { type: 'object', additionalProperties: true, maxProperties: 500 } as const;

/** The error body of every failure (docs/api.md "Errors"). */
export const ErrorBody = {
  $id: 'ErrorBody',
  type: 'object',
  additionalProperties: false,
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: 'Stable snake_case code' },
    message: { type: 'string' },
    details: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['in', 'path', 'problem'],
        properties: {
          in: { type: 'string', enum: ['query', 'path', 'body', 'header'] },
          path: { type: 'string' },
          problem: { type: 'string' },
        },
      },
    },
    requestId: { type: 'string' },
  },
  examples: [
    {
      error: 'invalid_parameter',
      message: 'owner_id missing or in wrong format',
      details: [{ in: 'query', path: 'owner_id', problem: 'must be integer' }],
      requestId: '5b0e7c1e-4f7a-4d53-9a43-2d1f0c6e8a17',
    },
  ],
} as const;

export const MessageResult = {
  $id: 'MessageResult',
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string' } },
  examples: [{ message: 'Alarming data saved (version 8)' }],
} as const;
