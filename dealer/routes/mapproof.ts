import type { FastifyInstance } from 'fastify';
import type { MapProver } from '../mapproof/service.ts';
import type { DealerStore } from '../store/types.ts';

const proofSchema = { type: 'object', additionalProperties: true };

/**
 * `GET /v1/games/:gameId/map-proof`: the ZK proof that the posted root commits to Gen(seed) for the
 * ceremony's seed. Public data: clients verify it before playing. 202 while proving.
 */
export function mapProofRoutes(store: DealerStore, prover: MapProver) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { gameId: string } }>(
      '/v1/games/:gameId/map-proof',
      {
        schema: {
          summary: 'The game map proof (per-zone chunk proofs and the root proof)',
          params: {
            type: 'object',
            required: ['gameId'],
            properties: { gameId: { type: 'string', pattern: '^[0-9]{1,78}$' } },
          },
          response: {
            200: {
              type: 'object',
              properties: {
                status: { const: 'done' },
                proof: {
                  type: 'object',
                  properties: { chunks: { type: 'array', items: proofSchema }, root: proofSchema },
                },
              },
            },
            202: {
              type: 'object',
              properties: {
                status: { type: 'string' },
                done: { type: 'integer' },
                total: { type: 'integer' },
              },
            },
          },
        },
      },
      async (req, reply) => {
        const gameId = BigInt(req.params.gameId);
        const game = await store.getGame(gameId);
        if (!game || game.root === null) {
          return reply.status(404).send({
            statusCode: 404,
            error: 'Not Found',
            message: game ? 'the map is not dealt yet' : 'unknown game',
            field: 'gameId',
          });
        }
        const proof = await prover.proof(gameId);
        if (proof) return reply.status(200).send({ status: 'done', proof });
        const s = prover.status(gameId);
        return reply.status(202).send({ status: s.state, done: s.done, total: s.total });
      },
    );
  };
}
