/**
 * Moving a game on past its deadlines and taking the credit home, for any account of the game and without the
 * seat's hidden state: the deadline exit that is due (core/deadlines.ts, P7) and, once the game is settled or
 * cancelled, the account's credit withdrawn. GamePlayer sends these during play; a client that kept only a seat's
 * key after play (the play page's session key, on a later visit) sends them with nothing else.
 */
import { auditEnd, type DeadlineCall, expiredCall, isFinalPhase } from '@shroud/core/deadlines.ts';
import { ChainError, type GameChain, type GameState } from './chain.ts';

/** A deadline exit sent (`claimExpired`). */
export interface ExpiredClaim {
  kind: DeadlineCall;
  gas: bigint;
}

/** Which due exits to leave alone (a seat never claims against its own duty: its turn, its combat answer). */
export type SpareClaim = (call: DeadlineCall, g: GameState) => boolean | Promise<boolean>;

/**
 * When the current phase's deadline has passed, sends the one call the contract allows then, unless `spare` says
 * to leave it. Null while there is nothing to do, or when another party's call got there first (the call failed
 * and the game has moved on since it was read: not an error).
 */
export async function claimExpired(
  chain: GameChain,
  gameId: bigint,
  spare: SpareClaim = () => false,
): Promise<ExpiredClaim | null> {
  const g = await chain.game(gameId);
  const now = (await chain.provider.getBlock('latest'))?.timestamp ?? 0;
  // An audit with an unanswered zone challenge settles only once the dealer's answer window closed too.
  const deadline =
    g.phase === 'Audit' && now > g.deadline
      ? auditEnd(
          g.deadline,
          (await chain.audit(gameId)).open,
          (await chain.config(gameId)).durations.disputeSeconds,
        )
      : g.deadline;
  const call = expiredCall({ phase: g.phase, deadline, now });
  if (!call || (await spare(call, g))) return null;
  try {
    return { kind: call, gas: (await chain.claim(call, gameId)).gasUsed };
  } catch (e) {
    // Refused at the estimate, or mined after another party's claim in the same block and reverted: when the
    // game moved on meanwhile, that party did it. Otherwise the failure is ours to report.
    if (!(e instanceof ChainError)) throw e;
    const later = await chain.game(gameId);
    if (later.phase !== g.phase || later.deadline !== g.deadline || later.turn !== g.turn) return null;
    throw e;
  }
}

/** Once the game is settled or cancelled, withdraws `account`'s credit (the chain's signer must be `account`). */
export async function withdrawCredit(
  chain: GameChain,
  gameId: bigint,
  account: string,
): Promise<Withdrawal | null> {
  if (!isFinalPhase((await chain.game(gameId)).phase)) return null;
  return withdrawAll(chain, account);
}

/** A withdrawal sent: how much, and its gas. */
export interface Withdrawal {
  wei: bigint;
  gas: bigint;
}

/**
 * Withdraws all of `account`'s credit in the game contract, from every game of it that paid out (the chain's
 * signer must be `account`). Null when there is none.
 */
export function withdrawAll(chain: GameChain, account: string): Promise<Withdrawal | null> {
  return sendOwed(chain, account, () => chain.withdraw());
}

/**
 * Sends home the whole credit of the payee the chain's signer named (a session key: the wallet that funded it;
 * `GameChain.setPayee`), paying the gas: the stakes of every game that paid that wallet, whichever key played them.
 * Null when the signer named no payee or the payee is owed nothing.
 */
export async function withdrawToPayee(chain: GameChain): Promise<(Withdrawal & { payee: string }) | null> {
  const payee = await chain.payeeOf(await chain.signerAddress());
  if (!payee) return null;
  const sent = await sendOwed(chain, payee, () => chain.withdrawToPayee());
  return sent && { ...sent, payee };
}

/** Sends `owed`'s credit with `send`, unless there is none; a withdrawal another party sent first is not an error. */
async function sendOwed(
  chain: GameChain,
  owed: string,
  send: () => Promise<{ gasUsed: bigint }>,
): Promise<Withdrawal | null> {
  const wei = await chain.credit(owed);
  if (wei === 0n) return null;
  try {
    return { wei, gas: (await send()).gasUsed };
  } catch (e) {
    // Another session of the same key withdrew it first (a second tab, a resumed CLI): nothing is lost.
    if (e instanceof ChainError && (await chain.credit(owed)) === 0n) return null;
    throw e;
  }
}
