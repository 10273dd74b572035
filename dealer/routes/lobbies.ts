import type { FastifyInstance } from 'fastify';
import { DURATION_FIELDS } from '../../core/limits.ts';
import type { JoinBody } from '../../core/lobby.ts';
import type { LeaveBody } from '../../core/lobby-leave.ts';
import type { LobbyService } from '../lobby.ts';
import { errorSchema } from '../plugins/schemas.ts';

const hex32 = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' };
const address = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
const wei = { type: 'string', pattern: '^[0-9]{1,29}$' };

export const joinBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['player', 'rulesetHash', 'stake', 'seats', 'nonce', 'deadline', 'signature'],
  properties: {
    player: { ...address, description: 'The joining player, the signer' },
    rulesetHash: { ...hex32, description: "The lobby's rulesetHash" },
    stake: { ...wei, description: 'Decimal wei (uint96): the most the player stakes; at least the lobby’s' },
    seats: { type: 'integer', minimum: 2, maximum: 6, description: "The lobby's seat count" },
    nonce: { ...hex32, description: 'Client-random 32 bytes, single use per player' },
    deadline: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Unix seconds (uint64 in the signed message); at most lobbies.maxJoinAheadSeconds ahead',
    },
    signature: { type: 'string', pattern: '^0x[0-9a-fA-F]{130}$', description: 'EIP-712 Join signature' },
  },
} as const;

export const leaveBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['player', 'joinNonce', 'signature'],
  properties: {
    player: { ...address, description: 'The leaving player, the signer' },
    joinNonce: {
      ...hex32,
      description: "The nonce of the join whose seat it gives up (the join status's nonce)",
    },
    signature: { type: 'string', pattern: '^0x[0-9a-fA-F]{130}$', description: 'EIP-712 Leave signature' },
  },
} as const;

const durations = {
  type: 'object',
  properties: Object.fromEntries(DURATION_FIELDS.map((f) => [f, { type: 'integer' }])),
};

const lobbySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    kind: { type: 'string' },
    ruleset: { type: 'string' },
    rulesetHash: { type: 'string' },
    seats: { type: 'integer' },
    filled: { type: 'integer' },
    stake: { type: 'string' },
    disputeDeposit: { type: 'string' },
    maxTurns: { type: 'integer' },
    bond: { type: 'string' },
    durations,
    status: { type: 'string' },
    gameId: { type: ['string', 'null'] },
  },
} as const;

const joinStatusSchema = {
  type: 'object',
  properties: {
    lobbyId: { type: 'string' },
    player: { type: 'string' },
    seat: { type: 'integer' },
    nonce: { type: 'string' },
    status: { type: 'string', enum: ['waiting', 'created', 'failed'] },
    filled: { type: 'integer' },
    seats: { type: 'integer' },
    gameId: { type: ['string', 'null'] },
    message: { type: ['string', 'null'] },
  },
} as const;

const lobbyParams = {
  type: 'object',
  additionalProperties: false,
  required: ['lobbyId'],
  properties: { lobbyId: hex32 },
} as const;

const DOMAIN =
  'EIP-712 Join {lobbyId bytes32, player address, rulesetHash bytes32, stake uint96, seats uint8, nonce bytes32, ' +
  'deadline uint64} under domain "Shroud Lobby" v1 (chainId, verifyingContract = the game contract), core/lobby.ts.';

/** The lobbies: list, join with a signed `Join`, leave with a signed `Leave`, and each join's status (the game id once created). */
export function lobbyRoutes(lobbies: LobbyService) {
  return async (app: FastifyInstance) => {
    app.get(
      '/v1/lobbies',
      {
        schema: {
          summary: 'Open lobbies, with what a join signs (chain id, game contract) and the dealer',
          response: {
            200: {
              type: 'object',
              properties: {
                chainId: { type: 'string' },
                gameContract: { type: 'string' },
                dealer: { type: 'string' },
                sealKey: { type: 'array', items: { type: 'string' } },
                lobbies: { type: 'array', items: lobbySchema },
              },
            },
          },
        },
      },
      () => lobbies.list(),
    );

    app.get<{ Params: { lobbyId: string } }>(
      '/v1/lobbies/:lobbyId',
      {
        schema: {
          summary: 'One lobby, open or not (its game id once created)',
          params: lobbyParams,
          response: { 200: lobbySchema, '4xx': errorSchema },
        },
      },
      (req) => lobbies.get(req.params.lobbyId),
    );

    app.post<{ Params: { lobbyId: string }; Body: JoinBody }>(
      '/v1/lobbies/:lobbyId/joins',
      {
        schema: {
          summary: 'Take a seat with a signed Join',
          description:
            `${DOMAIN} Refused, with nothing written: a bad signature or one not by player (401 bad-signature), ` +
            'an expired deadline (401 expired) or one too far ahead (400 deadline-too-far), a used nonce (409 ' +
            'nonce-replayed), another ruleset or seat count (409 ruleset-mismatch, seats-mismatch), a stake below ' +
            "the lobby's (409 stake-too-low), a second seat (409 already-joined), a full lobby (409 lobby-closed), " +
            'an unknown lobby (404 unknown-lobby).',
          params: lobbyParams,
          body: joinBodySchema,
          response: { 200: joinStatusSchema, '4xx': errorSchema },
        },
      },
      (req) => lobbies.join(req.params.lobbyId, req.body),
    );

    app.post<{ Params: { lobbyId: string }; Body: LeaveBody }>(
      '/v1/lobbies/:lobbyId/leaves',
      {
        schema: {
          summary: 'Give up a seat in a lobby that has not filled, with a signed Leave',
          description:
            'EIP-712 Leave {lobbyId bytes32, player address, joinNonce bytes32} under the Join domain, ' +
            'core/lobby-leave.ts. Later seats move down by one; the join stays spent. Refused, with nothing ' +
            'changed: a bad signature (401 bad-signature), no seat (404 not-joined), a seat taken by another join ' +
            'than joinNonce (409 stale-leave), a lobby that filled (409 lobby-closed), an unknown lobby (404 ' +
            'unknown-lobby).',
          params: lobbyParams,
          body: leaveBodySchema,
          response: {
            200: {
              type: 'object',
              properties: {
                lobbyId: { type: 'string' },
                player: { type: 'string' },
                seat: { type: 'integer' },
                status: { type: 'string', enum: ['left'] },
              },
            },
            '4xx': errorSchema,
          },
        },
      },
      (req) => lobbies.leave(req.params.lobbyId, req.body),
    );

    app.get<{ Params: { lobbyId: string; player: string } }>(
      '/v1/lobbies/:lobbyId/joins/:player',
      {
        schema: {
          summary: "A join's status: waiting, created (with the game id) or failed",
          params: {
            type: 'object',
            additionalProperties: false,
            required: ['lobbyId', 'player'],
            properties: { lobbyId: hex32, player: address },
          },
          response: { 200: joinStatusSchema, '4xx': errorSchema },
        },
      },
      (req) => lobbies.status(req.params.lobbyId, req.params.player),
    );
  };
}
