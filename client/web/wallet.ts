/**
 * The player's wallet: an EIP-1193 provider injected by a browser wallet when there is one, else (local chain
 * only) a key generated in this browser and funded by the chain itself. The wallet signs exactly one thing
 * per game: the transfer funding the game's session key (session.ts).
 */
import {
  BrowserProvider,
  type Eip1193Provider,
  JsonRpcProvider,
  type Provider,
  type Signer,
  Wallet,
} from 'ethers';

import { LOCAL_CHAIN_ID } from './trust.ts';

const LOCAL_KEY_ITEM = 'shroud.localWalletKey';
/** What a generated key gets on the local chain (hardhat_setBalance): plenty for stakes and gas. */
const LOCAL_FUNDS = 10n ** 21n;

export interface ConnectedWallet {
  kind: 'injected' | 'local';
  signer: Signer;
  address: string;
  /**
   * Reads and broadcasts for the game: the injected wallet's own provider (the chain the player chose to trust);
   * the `?rpc=` URL only without a wallet, or on the local chain.
   */
  provider: Provider;
  chainId: bigint;
  /** Set when a link's `?rpc=` was ignored in favour of the wallet's provider (a public chain). */
  rpcIgnored?: string;
}

export class WalletError extends Error {
  override name = 'WalletError';
}

export interface ConnectOptions {
  rpcUrl: string | null;
  /** Use a generated key even on a chain other than 31337 (a test network the user funds by hand). */
  allowLocalKey: boolean;
  /** Where a generated key is kept (localStorage). */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  injected?: Eip1193Provider | null;
}

export async function connectWallet(o: ConnectOptions): Promise<ConnectedWallet> {
  if (o.injected) {
    const bp = new BrowserProvider(o.injected);
    try {
      await bp.send('eth_requestAccounts', []);
    } catch (e) {
      throw new WalletError(`the wallet refused to connect: ${(e as Error).message.split('\n')[0]}`);
    }
    const signer = await bp.getSigner();
    const chainId = (await bp.getNetwork()).chainId;
    const address = await signer.getAddress();
    // A link's RPC could lie about the game (its root, its phase): on a public chain the wallet's provider answers.
    if (o.rpcUrl && chainId !== LOCAL_CHAIN_ID)
      return { kind: 'injected', signer, address, provider: bp, chainId, rpcIgnored: o.rpcUrl };
    const provider = o.rpcUrl ? rpcProvider(o.rpcUrl) : bp;
    if (o.rpcUrl) {
      const rpcChain = (await provider.getNetwork()).chainId;
      if (rpcChain !== chainId)
        throw new WalletError(`the wallet is on chain ${chainId}, the RPC URL serves chain ${rpcChain}`);
    }
    return { kind: 'injected', signer, address, provider, chainId };
  }
  if (!o.rpcUrl)
    throw new WalletError('no wallet in this browser and no RPC URL (add ?rpc=http://… to the address)');
  const provider = rpcProvider(o.rpcUrl);
  let chainId: bigint;
  try {
    chainId = BigInt(await provider.send('eth_chainId', []));
  } catch (e) {
    throw new WalletError(`the chain at ${o.rpcUrl} does not answer: ${(e as Error).message.split('\n')[0]}`);
  }
  if (chainId !== LOCAL_CHAIN_ID && !o.allowLocalKey)
    throw new WalletError(
      `chain ${chainId} is not the local chain (31337): connect a browser wallet, or add allowLocalKey=1 to use a key kept in this browser`,
    );
  let key = o.storage.getItem(LOCAL_KEY_ITEM);
  if (!key || !/^0x[0-9a-f]{64}$/i.test(key)) {
    key = Wallet.createRandom().privateKey;
    o.storage.setItem(LOCAL_KEY_ITEM, key);
  }
  const signer = new Wallet(key, provider);
  if (chainId === LOCAL_CHAIN_ID && (await provider.getBalance(signer.address)) < LOCAL_FUNDS / 2n)
    await provider.send('hardhat_setBalance', [signer.address, `0x${LOCAL_FUNDS.toString(16)}`]);
  return { kind: 'local', signer, address: signer.address, provider, chainId };
}

/** A JSON-RPC provider that never caches reads (game state changes every block). */
export function rpcProvider(url: string): JsonRpcProvider {
  return new JsonRpcProvider(url, undefined, { cacheTimeout: -1, pollingInterval: 500 });
}
