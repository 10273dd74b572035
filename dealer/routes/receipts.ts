import type { FastifyInstance } from 'fastify';
import { errorSchema } from '../plugins/schemas.ts';
import type { ReceiptBody, RevealService } from '../reveals.ts';
import { gameParams, PLAYER_LIMIT, revealRequestSchema, uintString } from './reveals.ts';

export const receiptSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['player', 'turn', 'revealCommit', 'stateCommit', 'signature'],
  properties: {
    player: { ...revealRequestSchema.properties.player, description: 'The player, the signer' },
    turn: revealRequestSchema.properties.turn,
    revealCommit: {
      ...uintString,
      description: "The turn's reveal commitment R (decimal or 0x-hex uint256), as signed",
    },
    stateCommit: {
      ...uintString,
      description:
        'State commitment S (decimal or 0x-hex field element, not signed): Poseidon(S, R, mapRoot), mapRoot the ' +
        "game's posted map root, must be the turn's on-chain play commitment",
    },
    signature: {
      ...revealRequestSchema.properties.signature,
      description: 'EIP-712 RevealReceipt(gameId, turn, revealCommit) signature (65 bytes, low s)',
    },
  },
} as const;

/** `POST /v1/games/:gameId/receipts`: a player's receipt for a turn it was served (core/reveal-receipt.ts). */
export function receiptRoutes(service: RevealService) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: { gameId: string }; Body: ReceiptBody }>(
      '/v1/games/:gameId/receipts',
      {
        schema: {
          summary: "Hand the dealer a player's receipt for a served turn",
          description:
            'EIP-712 RevealReceipt {gameId, turn, revealCommit} signed by the player under the reveal-request ' +
            'domain ("Shroud Dealer" v1, chainId, verifyingContract = game contract), for the reveal ' +
            "commitment R of that player and turn: with stateCommit it must open the turn's on-chain play " +
            "commitment, Poseidon(stateCommit, revealCommit, mapRoot), mapRoot the game's map root this " +
            'dealer posted (not sent). The dealer answers a later dispute of that turn with it ' +
            '(the dispute was false: the contract keeps the deposit for the dealer). The first receipt per ' +
            '(game, player, turn) is kept; re-posting answers 200 again. ' +
            PLAYER_LIMIT,
          params: gameParams,
          body: receiptSchema,
          response: {
            200: {
              type: 'object',
              properties: {
                gameId: { type: 'string' },
                player: { type: 'string' },
                turn: { type: 'integer' },
                revealCommit: { type: 'string' },
                stored: {
                  type: 'string',
                  enum: ['new', 'already-stored'],
                  description: 'new: this request stored it; already-stored: one was already kept',
                },
              },
            },
            '4xx': errorSchema,
          },
        },
      },
      async (req, reply) => {
        const json = await service.receipt(req.params.gameId, req.body);
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );
  };
}
