import type { FastifyInstance } from 'fastify';
import { errorSchema } from '../plugins/schemas.ts';
import type { RevealRequestBody, RevealService } from '../reveals.ts';

const uintString = { type: 'string', pattern: '^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$' };

export const revealRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['gameId', 'player', 'turn', 'leaves', 'blinding', 'nonce', 'expiry', 'signature'],
  properties: {
    gameId: { ...uintString, description: 'Game id (decimal or 0x-hex), equal to the URL parameter' },
    player: {
      type: 'string',
      pattern: '^0x[0-9a-fA-F]{40}$',
      description: 'The requesting player, the signer',
    },
    turn: { type: 'integer', minimum: 0, maximum: 4294967295, description: '0 = spawn, then turns' },
    leaves: {
      type: 'array',
      maxItems: 64,
      items: { type: 'integer', minimum: 0, maximum: 4294967295 },
      description: 'Zone-major leaf indices: the opening of revealCommit',
    },
    blinding: { ...uintString, description: 'Blinding of revealCommit (field element)' },
    nonce: { ...uintString, description: 'Client-random uint256, single use' },
    expiry: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Unix seconds (uint64 in the signed message)',
    },
    signature: {
      type: 'string',
      pattern: '^0x[0-9a-fA-F]{130}$',
      description: 'EIP-712 signature (65 bytes)',
    },
  },
} as const;

const tileSchema = {
  type: 'object',
  properties: {
    leaf: { type: 'integer' },
    col: { type: 'integer' },
    row: { type: 'integer' },
    terrain: { type: 'integer' },
    feature: { type: 'integer' },
    resource: { type: 'integer' },
    rivers: { type: 'integer' },
    salt: { type: 'string' },
    path: { type: 'array', items: { type: 'string' } },
  },
};

/** `POST /v1/games/:gameId/reveals`: the tiles behind an opened revealCommit. */
export function revealRoutes(service: RevealService) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: { gameId: string }; Body: RevealRequestBody }>(
      '/v1/games/:gameId/reveals',
      {
        schema: {
          summary: 'Fetch the tiles of an opened revealCommit',
          description:
            'EIP-712-signed (domain "Shroud Dealer" v1, chainId, verifyingContract = game contract). ' +
            'Idempotent per turn: a new nonce returns the same tiles.',
          params: {
            type: 'object',
            additionalProperties: false,
            required: ['gameId'],
            properties: { gameId: uintString },
          },
          body: revealRequestSchema,
          response: {
            200: {
              type: 'object',
              properties: {
                gameId: { type: 'string' },
                player: { type: 'string' },
                turn: { type: 'integer' },
                root: { type: 'string' },
                tiles: { type: 'array', items: tileSchema },
              },
            },
            '4xx': errorSchema,
          },
        },
      },
      async (req, reply) => {
        const json = await service.serve(req.params.gameId, req.body);
        // Pre-serialized from cached per-leaf JSON: skip the serializer.
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );
  };
}
