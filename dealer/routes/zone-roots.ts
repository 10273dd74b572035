import type { FastifyInstance } from 'fastify';
import { errorSchema } from '../plugins/schemas.ts';
import type { RevealService } from '../reveals.ts';
import { gameParams } from './reveals.ts';

const fieldString = { type: 'string', pattern: '^[0-9]{1,78}$' };

export const zoneRootsResponse = {
  200: {
    type: 'object',
    required: ['gameId', 'root', 'zoneRoots'],
    properties: {
      gameId: { ...fieldString, description: 'Decimal game id' },
      root: { ...fieldString, description: 'The map root (informational: clients check against the chain)' },
      zoneRoots: {
        type: 'array',
        items: fieldString,
        description: 'Root of each zone subtree (3 levels of the 4-ary tree), zone order; they hash to root',
      },
    },
  },
  '4xx': errorSchema,
} as const;

/**
 * `GET /v1/games/:gameId/zone-roots`: the roots of the zone subtrees of a dealt map, from the cached
 * tree. Public (the map proof posts them on-chain too), so unauthenticated; turn proofs with
 * passability need them as the shared top of the map tree.
 */
export function zoneRootRoutes(service: RevealService) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { gameId: string } }>(
      '/v1/games/:gameId/zone-roots',
      {
        schema: {
          summary: 'The zone roots of a dealt map (public; for turn proofs with passability)',
          description:
            'Answered once the map root is posted on-chain (409 root-not-posted before). Clients must ' +
            'check that the zone roots hash to the on-chain root before using them.',
          params: gameParams,
          response: zoneRootsResponse,
        },
      },
      async (req, reply) => {
        const json = await service.zoneRoots(req.params.gameId);
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );
  };
}
