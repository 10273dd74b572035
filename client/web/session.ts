/**
 * The game's session key: the wallet approves one transaction per game, not one per turn. The page makes a
 * fresh key; the wallet funds it with ONE transfer (the stake plus a gas budget); the key is the seat: it signs
 * the lobby join, every game transaction and every dealer request; when the game is over it withdraws its
 * credit and sends everything back to the wallet. No contract change: to the game, the seat is the key.
 *
 * The trade: the key is hot (in the page) and holds the stake and the gas budget for the game's length; and it
 * must outlive a reload, or its funds wait (on-chain, as credit) until the key is found again: it is sealed under
 * the wallet's key in IndexedDB (session-store.ts) before any funds move to it.
 */
import { Contract, type Provider, type Signer, type Wallet } from 'ethers';

/** Gas a whole game may take from one seat: commit, seal, spawn, each turn, and room for attacks and answers. */
export const GAS_PER_GAME_TURN = 1_500_000n;
export const GAS_FIXED = 3_000_000n;

/** What the wallet sends: the stake and the gas of `maxTurns` turns at today's fee, doubled for headroom. */
export async function sessionBudget(provider: Provider, stake: bigint, maxTurns: number): Promise<bigint> {
  const fee = await provider.getFeeData();
  const price = fee.maxFeePerGas ?? fee.gasPrice ?? 1_000_000_000n;
  return stake + 2n * price * (GAS_FIXED + GAS_PER_GAME_TURN * BigInt(maxTurns + 1));
}

export class SessionFundingError extends Error {
  override name = 'SessionFundingError';
}

/** The one approval: the wallet sends `amount` to the session key. A refusal is a SessionFundingError. */
export async function fundSession(owner: Signer, session: string, amount: bigint): Promise<string> {
  try {
    const tx = await owner.sendTransaction({ to: session, value: amount });
    await tx.wait();
    return tx.hash;
  } catch (e) {
    const m = (e as { shortMessage?: string; message?: string }).shortMessage ?? (e as Error).message;
    throw new SessionFundingError(`the wallet did not fund the game's session key: ${m.split('\n')[0]}`, {
      cause: e,
    });
  }
}

const CREDIT_ABI = ['function credit(address account) view returns (uint256)', 'function withdraw()'];

/**
 * Sends the session key's funds back to the wallet: its credit in the game contract (payouts and refunds, once
 * the game settled) withdrawn, then its whole balance minus the transfer's gas. Returns what was sent.
 */
export async function sweepSession(session: Wallet, owner: string, gameContract: string): Promise<bigint> {
  const provider = session.provider!;
  const game = new Contract(gameContract, CREDIT_ABI, session);
  if ((await game.getFunction('credit')(session.address)) > 0n)
    await (await game.getFunction('withdraw')()).wait();
  const fee = await provider.getFeeData();
  const price = fee.maxFeePerGas ?? fee.gasPrice ?? 0n;
  const gas = 21_000n * price;
  const balance = await provider.getBalance(session.address);
  if (balance <= gas) return 0n;
  const value = balance - gas;
  await (
    await session.sendTransaction({
      to: owner,
      value,
      gasLimit: 21_000n,
      ...(fee.maxFeePerGas
        ? { maxFeePerGas: price, maxPriorityFeePerGas: fee.maxPriorityFeePerGas ?? 0n }
        : { gasPrice: price }),
    })
  ).wait();
  return value;
}
