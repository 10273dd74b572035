/**
 * Which game this seat plays. Today the id is given (`--game`); joining through a dealer lobby (`--lobby ID`:
 * `LobbyClient.join(signer, lobbyId)` then `waitForGame(…) → { gameId }`) becomes one more target kind and
 * one more case here, with the signer and dealer URL already passed in.
 */
import type { Signer } from 'ethers';

export type GameTarget = { kind: 'game'; id: bigint };

export interface ResolveVia {
  signer: Signer;
  dealerUrl: string;
}

/** The game id to join. */
export async function resolveGameId(target: GameTarget, _via: ResolveVia): Promise<bigint> {
  switch (target.kind) {
    case 'game':
      return target.id;
  }
}
