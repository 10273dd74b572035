import type { FastifyInstance } from 'fastify';
import { errorSchema } from '../plugins/schemas.ts';
import type { RevealRequestBody, RevealService, SessionRequestBody, SessionRevealBody } from '../reveals.ts';

/** The per-player budget, as the OpenAPI descriptions state it. */
export const PLAYER_LIMIT =
  'Each authenticated player has a token bucket shared by the reveal, session, session-reveal and receipt routes ' +
  '(config reveals.playerRateLimit, default 10/s, burst 40): over it, 429 rate-limited (field player) ' +
  'with Retry-After. A refused request costs a token too.';

export const uintString = { type: 'string', pattern: '^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$' };

export const revealRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['gameId', 'player', 'turn', 'leaves', 'blinding', 'stateCommit', 'nonce', 'expiry', 'signature'],
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
      description: 'Zone-major leaf indices: the reveal list, R = revealCommitment(leaves, blinding)',
    },
    blinding: { ...uintString, description: 'Blinding of the reveal list (field element)' },
    stateCommit: {
      ...uintString,
      description:
        "State commitment S (field element) such that Poseidon(S, R, mapRoot), mapRoot the game's posted map root, " +
        "is the turn's on-chain play commitment",
    },
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

const hex32 = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' };
/** `:gameId` of the game routes: decimal or 0x-hex (parsed as a field element by the service). */
export const gameParams = {
  type: 'object',
  additionalProperties: false,
  required: ['gameId'],
  properties: { gameId: uintString },
} as const;

export const sessionRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['gameId', 'player', 'sessionKey', 'expiry', 'nonce', 'signature'],
  properties: {
    gameId: revealRequestSchema.properties.gameId,
    player: revealRequestSchema.properties.player,
    sessionKey: {
      ...hex32,
      description: 'Client-random 32-byte key; the signed message holds its keccak256 (sessionKeyHash)',
    },
    expiry: {
      ...revealRequestSchema.properties.expiry,
      description: 'Session end, Unix seconds (≤ 1 h ahead)',
    },
    nonce: revealRequestSchema.properties.nonce,
    signature: {
      ...revealRequestSchema.properties.signature,
      description: 'EIP-712 RevealSession signature',
    },
  },
} as const;

export const sessionRevealSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['sessionId', 'turn', 'leaves', 'blinding', 'stateCommit', 'nonce', 'expiry', 'mac'],
  properties: {
    sessionId: { ...hex32, description: 'From POST /sessions (the RevealSession EIP-712 digest)' },
    turn: revealRequestSchema.properties.turn,
    leaves: revealRequestSchema.properties.leaves,
    blinding: revealRequestSchema.properties.blinding,
    stateCommit: revealRequestSchema.properties.stateCommit,
    nonce: revealRequestSchema.properties.nonce,
    expiry: revealRequestSchema.properties.expiry,
    mac: { ...hex32, description: 'HMAC-SHA256 under the session MAC key (core/reveal-session.ts)' },
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

const revealResponse = {
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
} as const;

/** `POST /v1/games/:gameId/reveals`: the tiles behind an opened play commitment. */
export function revealRoutes(service: RevealService) {
  return async (app: FastifyInstance) => {
    app.post<{ Params: { gameId: string }; Body: RevealRequestBody }>(
      '/v1/games/:gameId/reveals',
      {
        schema: {
          summary: "Fetch the tiles of a turn's reveal list (an opened play commitment)",
          description:
            'EIP-712-signed (domain "Shroud Dealer" v1, chainId, verifyingContract = game contract). ' +
            'Served when Poseidon(stateCommit, revealCommitment(leaves, blinding), mapRoot), mapRoot the ' +
            "game's map root this dealer posted (not sent: the root the answer carries), is the turn's play " +
            'commitment as its TurnSubmitted log has it, or as the seat stores it now (a combat answer ' +
            'replaces it with the new state). ' +
            'Idempotent per turn: a new nonce returns the same tiles. ' +
            PLAYER_LIMIT,
          params: gameParams,
          body: revealRequestSchema,
          response: revealResponse,
        },
      },
      async (req, reply) => {
        const json = await service.serve(req.params.gameId, req.body);
        // Pre-serialized from cached per-leaf JSON: skip the serializer.
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );

    app.post<{ Params: { gameId: string }; Body: SessionRequestBody }>(
      '/v1/games/:gameId/sessions',
      {
        schema: {
          summary: 'Open a reveal session (one EIP-712 RevealSession signature)',
          description:
            'Signs {gameId, player, sessionKeyHash = keccak256(sessionKey), expiry, nonce} under the same ' +
            'domain as reveal requests. The session lives in the dealer process memory: after a dealer ' +
            'restart, open a new one. ' +
            PLAYER_LIMIT,
          params: gameParams,
          body: sessionRequestSchema,
          response: {
            200: {
              type: 'object',
              properties: {
                sessionId: { type: 'string' },
                gameId: { type: 'string' },
                player: { type: 'string' },
                expiry: { type: 'integer' },
              },
            },
            '4xx': errorSchema,
          },
        },
      },
      async (req, reply) => {
        const json = await service.createSession(req.params.gameId, req.body);
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );

    app.post<{ Params: { gameId: string }; Body: SessionRevealBody }>(
      '/v1/games/:gameId/session-reveals',
      {
        schema: {
          summary: "Fetch the tiles of a turn's reveal list under a session (HMAC-authenticated)",
          description:
            'mac = HMAC-SHA256(HKDF(sessionKey, sessionId), canonical request bytes); see ' +
            'core/reveal-session.ts. Same answer as /reveals. ' +
            PLAYER_LIMIT,
          params: gameParams,
          body: sessionRevealSchema,
          response: revealResponse,
        },
      },
      async (req, reply) => {
        const json = await service.serveSession(req.params.gameId, req.body);
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );
  };
}
