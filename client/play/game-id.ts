/**
 * Which game this seat plays: a given id (`--game`), or a seat taken in one of the dealer's lobbies (`--lobby`,
 * a lobby id or the operator's name for a kind of game): the join is signed (EIP-712, client/sdk/lobby-client.ts)
 * and the id comes once the lobby filled and the dealer created the game.
 */
import type { Signer } from 'ethers';
import type { GameChain } from '../sdk/chain.ts';
import { checkLobbyGameOnChain, type JoinOptions, LobbyClient } from '../sdk/lobby-client.ts';

export type GameTarget =
  /** `maxStake`, when given (`--max-stake`): the most this player stakes in that game (checked before it commits). */
  | { kind: 'game'; id: bigint; maxStake?: bigint }
  /**
   * `maxStake`: the most this player agreed to stake (a lobby asking more is refused before signing); the other
   * terms it agreed to (a page funded its key from the listing it showed, whose durations are its `floors`),
   * checked the same way.
   */
  | ({ kind: 'lobby'; lobby: string; maxStake: bigint } & Pick<
      JoinOptions,
      'maxTurns' | 'maxDisputeDeposit' | 'minBond' | 'floors'
    >);

export interface ResolveVia {
  signer: Signer;
  dealerUrl: string;
  /** The chain and contract this player connected to: a lobby creating games elsewhere is refused. */
  chainId: bigint;
  gameContract: string;
  /** Where the game the dealer names is read before anything is staked (the dealer's word is not enough). */
  chain: Pick<GameChain, 'game' | 'seat' | 'config'>;
  pollMs: number;
  /** Progress lines (the lobby taken, waiting for other players). */
  print?: (line: string) => void;
  /** Stops the wait for the lobby to fill (rejecting with the signal's reason): the page's Leave. */
  signal?: AbortSignal;
}

/** The game id to join. */
export async function resolveGameId(target: GameTarget, via: ResolveVia): Promise<bigint> {
  switch (target.kind) {
    case 'game':
      return target.id;
    case 'lobby': {
      const client = new LobbyClient(via.dealerUrl, { chainId: via.chainId, gameContract: via.gameContract });
      const open = await client.lobbies();
      const lobby = open.find((l) => l.id === target.lobby) ?? open.find((l) => l.kind === target.lobby);
      if (!lobby)
        throw new Error(
          `--lobby ${target.lobby}: no open lobby with that id or name (open: ${open.map((l) => `${l.kind} ${l.id}`).join(', ') || 'none'})`,
        );
      const { kind: _, lobby: __, ...terms } = target;
      via.signal?.throwIfAborted();
      const ticket = await client.join(via.signer, lobby.id, terms);
      via.print?.(
        `joined lobby ${lobby.kind} (${lobby.id}): seat ${ticket.seat + 1} of ${lobby.seats}, stake ${lobby.stake} wei; waiting for the other players…`,
      );
      const { gameId } = await client.waitForGame(lobby.id, ticket, {
        pollMs: via.pollMs,
        ...(via.signal ? { signal: via.signal } : {}),
      });
      // The id is the dealer's word: the game must be the one signed for (GameTermsRejectedError, nothing staked).
      await checkLobbyGameOnChain(
        via.chain,
        gameId,
        ticket.lobby ?? lobby,
        await via.signer.getAddress(),
        terms,
      );
      return gameId;
    }
  }
}
