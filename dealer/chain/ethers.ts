import { JsonRpcProvider } from 'ethers';
import type { BadShareEvidence } from '../../core/sealed.ts';
import type { ChainView, GameInfo, GamePhase, PostedRoot, SeatShare, TxRef } from './types.ts';

function pending(what: string): never {
  throw new Error(`EthersChain.${what}: pending the game contract ABI`);
}

/**
 * JSON-RPC ChainView. PENDING: only the chain id and head block are wired; the game reads, the event
 * scan and the writes wait for the contract ABI (contracts/ is being written now).
 */
export class EthersChain implements ChainView {
  readonly provider: JsonRpcProvider;
  readonly gameContract: string;

  constructor(rpcUrl: string, chainId: number, gameContract: string) {
    // staticNetwork: no eth_chainId round trip per call, and no retry storm when the node is down.
    this.provider = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true });
    this.gameContract = gameContract;
  }

  async chainId(): Promise<bigint> {
    return BigInt(await this.provider.send('eth_chainId', []));
  }

  async headBlock(): Promise<number> {
    return this.provider.getBlockNumber();
  }

  async gamesCreated(_fromBlock: number, _toBlock: number): Promise<bigint[]> {
    return pending('gamesCreated');
  }
  async game(_gameId: bigint): Promise<GameInfo | null> {
    return pending('game');
  }
  async phase(_gameId: bigint): Promise<GamePhase> {
    return pending('phase');
  }
  async seatShares(_gameId: bigint): Promise<SeatShare[]> {
    return pending('seatShares');
  }
  async mapRoot(_gameId: bigint): Promise<PostedRoot | null> {
    return pending('mapRoot');
  }
  async revealCommit(_gameId: bigint, _player: string, _turn: number): Promise<bigint | null> {
    return pending('revealCommit');
  }
  async secretsPublished(_gameId: bigint): Promise<boolean> {
    return pending('secretsPublished');
  }
  async postRoot(_gameId: bigint, _root: PostedRoot): Promise<TxRef> {
    return pending('postRoot');
  }
  async postBadShareEvidence(_gameId: bigint, _player: string, _evidence: BadShareEvidence): Promise<TxRef> {
    return pending('postBadShareEvidence');
  }
  async publishSecrets(_gameId: bigint, _masterSecret: bigint, _shares: readonly bigint[]): Promise<TxRef> {
    return pending('publishSecrets');
  }
}
