export const errorSchema = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    error: { type: 'string', description: 'Stable code, e.g. nonce-replayed' },
    message: { type: 'string' },
    field: { type: 'string', description: 'The request field at fault' },
  },
} as const;
