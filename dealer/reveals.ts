import type { TypedDataDomain } from 'ethers';
import { type Hasher, InputError, revealCommitment, toField } from '../core/index.ts';
import {
  type RevealRequestMessage,
  RevealSignatureVerifier,
  revealDomain,
  type SignatureCheck,
} from './auth.ts';
import type { ChainView } from './chain/types.ts';
import { DealerError } from './errors.ts';
import type { MapCache } from './maps.ts';
import type { DealerStore, GameRecord } from './store/types.ts';

/** The request body as it arrives, after the JSON schema checked its shape. */
export interface RevealRequestBody {
  gameId: string;
  player: string;
  turn: number;
  leaves: number[];
  blinding: string;
  nonce: string;
  expiry: number;
  signature: string;
}

export interface RevealDeps {
  h: Hasher;
  chain: ChainView;
  store: DealerStore;
  maps: MapCache;
  chainId: bigint;
  /** Furthest ahead a request's expiry may be, in seconds (bounds how long nonces must be kept). */
  maxExpirySeconds: number;
  /** Unix seconds. */
  now: () => number;
  onServed?: () => void;
  /** Signature checker; defaults to RevealSignatureVerifier. Injectable for tests and the bench's diagnostics. */
  signatures?: {
    check(
      domain: TypedDataDomain,
      msg: RevealRequestMessage,
      signature: string,
      claimed: string,
    ): SignatureCheck;
  };
}

const UINT256 = 1n << 256n;

function parseUint256(v: string, field: string): bigint {
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(v)) {
    throw new DealerError(400, 'invalid-request', `${field}: not a decimal or 0x-hex uint256`, field);
  }
  const n = BigInt(v);
  if (n >= UINT256) throw new DealerError(400, 'invalid-request', `${field}: exceeds uint256`, field);
  return n;
}

function parseField(v: string, field: string): bigint {
  try {
    return toField(v, field);
  } catch (e) {
    if (e instanceof InputError) throw new DealerError(400, 'invalid-request', e.message, field);
    throw e;
  }
}

/**
 * Serves one signed reveal request. Every check runs before the nonce is burned, so a refused request
 * changes nothing; the answer is only ever the opened leaves, from the cached tree.
 * Returns the response body, already serialized.
 */
export class RevealService {
  readonly #d: RevealDeps;
  /** revealCommit per (game, player, turn): immutable once a proof stored it, so safe to cache. */
  readonly #commits = new Map<string, bigint>();
  /** (game, player, turn) already recorded as served: re-fetches skip the write. */
  readonly #recorded = new Set<string>();
  readonly #signatures: NonNullable<RevealDeps['signatures']>;
  /** Games whose root is confirmed: their record no longer changes in ways that matter here. */
  readonly #dealt = new Map<string, GameRecord>();

  constructor(d: RevealDeps) {
    this.#d = d;
    this.#signatures = d.signatures ?? new RevealSignatureVerifier();
  }

  async #game(gameId: bigint): Promise<GameRecord> {
    const hit = this.#dealt.get(gameId.toString());
    if (hit) return hit;
    const game = await this.#d.store.getGame(gameId);
    if (!game)
      throw new DealerError(404, 'unknown-game', `gameId: no game ${gameId} at this dealer`, 'gameId');
    if (game.status !== 'dealt' && game.status !== 'published') {
      throw new DealerError(409, 'root-not-posted', 'gameId: the map root is not posted yet', 'gameId');
    }
    this.#dealt.set(gameId.toString(), game);
    return game;
  }

  async serve(urlGameId: string, body: RevealRequestBody): Promise<string> {
    const d = this.#d;
    const gameId = parseField(urlGameId, 'gameId');
    if (parseField(body.gameId, 'gameId') !== gameId) {
      throw new DealerError(400, 'invalid-request', 'gameId: body and URL name different games', 'gameId');
    }
    const blinding = parseField(body.blinding, 'blinding');
    const nonce = parseUint256(body.nonce, 'nonce');
    const now = d.now();
    if (body.expiry <= now)
      throw new DealerError(401, 'expired', 'expiry: the request has expired', 'expiry');
    if (body.expiry > now + d.maxExpirySeconds) {
      throw new DealerError(
        400,
        'invalid-request',
        `expiry: more than ${d.maxExpirySeconds} s ahead`,
        'expiry',
      );
    }

    const game = await this.#game(gameId);

    const player = body.player.toLowerCase();
    const msg: RevealRequestMessage = {
      gameId,
      player: body.player,
      turn: body.turn,
      leaves: body.leaves,
      blinding,
      nonce,
      expiry: body.expiry,
    };
    const sig = this.#signatures.check(revealDomain(d.chainId, game.contract), msg, body.signature, player);
    if (sig === 'malformed') {
      throw new DealerError(
        401,
        'bad-signature',
        'signature: not a valid low-s secp256k1 signature',
        'signature',
      );
    }
    if (sig === 'not-signer') {
      throw new DealerError(401, 'bad-signature', 'signature: not signed by player', 'signature');
    }
    if (!game.players.includes(player)) {
      throw new DealerError(403, 'not-a-player', 'player: not a player of this game', 'player');
    }

    const map = await d.maps.get(gameId);
    const ruleset = map.ruleset;
    if (body.leaves.length > ruleset.maxRevealedTiles) {
      throw new DealerError(400, 'invalid-request', `leaves: at most ${ruleset.maxRevealedTiles}`, 'leaves');
    }
    body.leaves.forEach((leaf, i) => {
      if (!map.entries.has(leaf)) {
        throw new DealerError(
          400,
          'invalid-request',
          `leaves.${i}: ${leaf} is not an on-board leaf`,
          `leaves.${i}`,
        );
      }
    });

    const onChain = await this.#revealCommit(gameId, player, body.turn);
    if (onChain === null) {
      throw new DealerError(
        404,
        'unknown-turn',
        `turn: no revealCommit on-chain for turn ${body.turn}`,
        'turn',
      );
    }
    if (revealCommitment(d.h, body.leaves, ruleset.maxRevealedTiles, blinding) !== onChain) {
      throw new DealerError(
        403,
        'opening-mismatch',
        'leaves: leaves and blinding do not open revealCommit',
        'leaves',
      );
    }

    if (!(await d.store.burnNonce(player, nonce, body.expiry))) {
      throw new DealerError(409, 'nonce-replayed', 'nonce: already used', 'nonce');
    }
    const servedKey = `${gameId}:${player}:${body.turn}`;
    if (!this.#recorded.has(servedKey)) {
      await d.store.recordReveal({ gameId, player, turn: body.turn, leaves: body.leaves, blinding });
      this.#recorded.add(servedKey);
    }
    d.onServed?.();
    const tiles = body.leaves.map((leaf) => map.entries.get(leaf)!).join(',');
    return `{"gameId":"${gameId}","player":"${player}","turn":${body.turn},"root":"${map.root}","tiles":[${tiles}]}`;
  }

  async #revealCommit(gameId: bigint, player: string, turn: number): Promise<bigint | null> {
    const key = `${gameId}:${player}:${turn}`;
    const hit = this.#commits.get(key);
    if (hit !== undefined) return hit;
    const v = await this.#d.chain.revealCommit(gameId, player, turn);
    if (v !== null) this.#commits.set(key, v);
    return v;
  }
}
