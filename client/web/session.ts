/**
 * The game's session key: the wallet approves one transaction per game, not one per turn. The page makes a
 * fresh key; the wallet funds it with ONE transfer (the stake plus a gas budget); the key is the seat: it signs
 * the lobby join, every game transaction and every dealer request; when the game is over it withdraws its
 * credit and sends everything back to the wallet. To the game, the seat is the key; its payouts go to the wallet.
 *
 * The trade: the key is hot (in the page) and holds the stake and the gas budget for the game's length; and it
 * must outlive a reload: it is sealed under the wallet's key in IndexedDB (session-store.ts) before any funds move
 * to it. Its first transaction names the wallet as the payee of its credit (`payToWallet`), so that the stake is
 * paid to the wallet, not to a key that a cleared browser would lose.
 *
 * After play the game is not closed yet: the dealer's secrets and the audit window come first, and if the dealer
 * is gone someone must slash it (P7). So when play ends the key keeps a closing reserve: the gas to send that
 * exit, withdraw its credit and send it home, whoever else is online (`closeStep`).
 */
import { isFinalPhase } from '@shroud/core/deadlines.ts';
import type { GamePhaseName } from '@shroud/core/game-phases.ts';
import type { Board } from '@shroud/core/geometry.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import { rulesetHash } from '@shroud/core/ruleset/hash.ts';
import { shippedRuleset, shippedRulesetNames } from '@shroud/core/ruleset/shipped.ts';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import {
  auditRoot,
  checkLobbyGameOnChain,
  claimExpired,
  DealerRefusedError,
  type ExpiredClaim,
  GameChain,
  GameTermsRejectedError,
  type JoinTicket,
  LobbyClient,
  LobbyGameFailedError,
  type LobbyInfo,
  LobbyTermsRejectedError,
  type RootAudit,
  withdrawAll,
  withdrawToPayee,
} from '@shroud/sdk';
import type { Provider, Signer, Wallet } from 'ethers';
import type { SessionLobby, SessionRecord } from './session-store.ts';

/** Gas a whole game may take from one seat: commit, seal, spawn, each turn, and room for attacks and answers. */
export const GAS_PER_GAME_TURN = 1_500_000n;
export const GAS_FIXED = 3_000_000n;

/**
 * Gas a session key keeps when play ends, to close the game itself: one deadline exit (slashing a dealer that
 * never published its secrets, or settling after the audit: 67k and 56k for two seats, more for six), the
 * withdrawal of its credit (30k) and the transfer home (21k), with room to spare.
 */
export const CLOSING_GAS = 400_000n;

/**
 * Gas the key also keeps until the audit found something (`auditRoot`): one zone challenge (1.72M on a duel
 * board, ~1.8M on the largest) or the proof that the zone roots do not build the root (1.02M on duel, ~2.6M on
 * standard; more on larger boards, which any seat or auditor can send), with room to spare.
 */
export const AUDIT_GAS = 3_000_000n;

/**
 * What a session key pays per gas: today's ceiling (twice the base fee plus the tip, so that it is mined even as the
 * base fee climbs), the gas price where the chain has no EIP-1559, with no fee data 1 gwei. `fields` price a
 * transaction at that ceiling; `exact` ones pay all of it (the tip takes what the base fee leaves), so that a
 * transfer of the balance minus its gas leaves no change behind.
 */
async function feeOf(provider: Provider): Promise<{ perGas: bigint; fields: FeeFields; exact: FeeFields }> {
  const fee = await provider.getFeeData();
  if (fee.maxFeePerGas) {
    const perGas = fee.maxFeePerGas;
    const tip = fee.maxPriorityFeePerGas ?? 0n;
    return {
      perGas,
      fields: { maxFeePerGas: perGas, maxPriorityFeePerGas: tip },
      exact: { maxFeePerGas: perGas, maxPriorityFeePerGas: perGas },
    };
  }
  const perGas = fee.gasPrice ?? 1_000_000_000n;
  return { perGas, fields: { gasPrice: perGas }, exact: { gasPrice: perGas } };
}

type FeeFields = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

const feePerGas = async (provider: Provider) => (await feeOf(provider)).perGas;

/**
 * What the wallet sends: the stake, the dispute deposit (a zone challenge pays it), and the gas of `maxTurns`
 * turns and of the audit at today's fee, doubled for headroom.
 */
export async function sessionBudget(
  provider: Provider,
  stake: bigint,
  maxTurns: number,
  disputeDeposit = 0n,
): Promise<bigint> {
  const gas = GAS_FIXED + AUDIT_GAS + GAS_PER_GAME_TURN * BigInt(maxTurns + 1);
  return stake + disputeDeposit + 2n * (await feePerGas(provider)) * gas;
}

/**
 * What a session key keeps after play to close its game: `CLOSING_GAS` at twice today's fee, and until the audit
 * found something (`audit`: the game's dispute deposit) `AUDIT_GAS` too and the deposit a challenge pays.
 */
export async function closingReserve(
  provider: Provider,
  audit?: { disputeDeposit: bigint },
): Promise<bigint> {
  const gas = audit ? CLOSING_GAS + AUDIT_GAS : CLOSING_GAS;
  return 2n * (await feePerGas(provider)) * gas + (audit?.disputeDeposit ?? 0n);
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

/**
 * Names the wallet `owner` as the payee of the session key's credit (once; before the key stakes anything): its
 * stake is then paid to the wallet, which withdraws it from anywhere, even when this browser lost the key. Then
 * sends home what the wallet is owed already (games whose keys closed in a tab that was shut, or were lost): best
 * effort, since a wallet that refuses the transfer (a contract) must not stop the game (`pushFailed` says why).
 */
export async function payToWallet(
  session: Wallet,
  owner: string,
  gameContract: string,
): Promise<{ named: boolean; returned: bigint; pushFailed?: string }> {
  const chain = new GameChain(gameContract, session);
  const named = (await chain.payeeOf(session.address))?.toLowerCase() !== owner.toLowerCase();
  if (named) await chain.setPayee(owner);
  try {
    return { named, returned: (await withdrawToPayee(chain))?.wei ?? 0n };
  } catch (e) {
    return { named, returned: 0n, pushFailed: (e as Error).message };
  }
}

/**
 * Sends the session key's funds back to the wallet: the credit of the wallet (its payee) and of the key in the game
 * contract (payouts and refunds, once the game settled) withdrawn, then the key's balance minus the transfer's gas
 * and minus `keep` (the closing reserve while the game is not closed). Returns what was sent.
 */
export async function sweepSession(
  session: Wallet,
  owner: string,
  gameContract: string,
  keep = 0n,
): Promise<bigint> {
  const provider = session.provider!;
  const chain = new GameChain(gameContract, session);
  const paid = (await withdrawToPayee(chain))?.wei ?? 0n;
  await withdrawAll(chain, session.address); // what it was owed before it named the wallet
  const fee = await feeOf(provider);
  const gas = 21_000n * fee.perGas;
  const balance = await provider.getBalance(session.address);
  if (balance <= gas + keep) return paid;
  const value = balance - gas - keep;
  // Keeping nothing, the key is forgotten next (its game is closed): change left in it would be lost, so the
  // transfer pays its whole fee ceiling. Keeping the reserve, the change stays with it.
  const pay = keep === 0n ? fee.exact : fee.fields;
  await (await session.sendTransaction({ to: owner, value, gasLimit: 21_000n, ...pay })).wait();
  return paid + value;
}

/** How the seat went: given up at the dealer, never held, or kept by a lobby that filled or failed first. */
export type LobbyExit = 'left' | 'not-seated' | 'filled' | 'failed';

/**
 * The person leaves a lobby that has not given them a game yet: the seat is given up at the dealer (a signed
 * `Leave`, client/sdk/lobby-client.ts), then everything the key holds goes back to the wallet: nothing is staked
 * before the game exists. A lobby that filled first keeps the seat (`filled`): its game waits for a commit this key
 * never sends, and is cancelled when its commit window ends, as for any player who stays away; one whose game
 * could not be created (`failed`) holds nothing. Safe to run again (a second run finds no seat and an empty key).
 */
export async function leaveLobby(
  session: Wallet,
  r: Pick<SessionRecord, 'owner' | 'gameContract' | 'lobby'>,
  dealer: { url: string; chainId: bigint },
): Promise<{ exit: LobbyExit; returned: bigint }> {
  let exit: LobbyExit = 'left';
  if (r.lobby) {
    const client = new LobbyClient(dealer.url, { chainId: dealer.chainId, gameContract: r.gameContract });
    try {
      await client.leave(session, r.lobby.id);
    } catch (e) {
      if (e instanceof LobbyGameFailedError) exit = 'failed';
      else if (e instanceof DealerRefusedError && e.code === 'not-joined') exit = 'not-seated';
      else if (e instanceof DealerRefusedError && e.code === 'lobby-closed') exit = 'filled';
      else throw e;
    }
  } else exit = 'not-seated';
  return { exit, returned: await sweepSession(session, r.owner, r.gameContract) };
}

/**
 * What the page's Leave would do now, while it waits for its lobby's game (`lobbyGame`):
 * - `joining`: a join of the session key may be on its way to the dealer (sent and not answered, or its answer
 *   lost). Not offered: a leave sent now could find no seat, and the join then take one; if that join filled the
 *   lobby, its game would be created for a key whose funds went home, and cancelled when its commit window ends.
 * - `open`: no join is unanswered, and the seat (if the dealer holds one) is in a lobby still open, or the game
 *   was refused (its terms, or the dealer could not create it): a leave gives the seat up and the funds go home.
 * - `full`: the lobby filled with this seat: its game is being created, and it is this key's to play.
 */
export type LeaveOffer = 'joining' | 'open' | 'full';

export interface LobbyGameVia {
  dealerUrl: string;
  chainId: bigint;
  /** Where the game the dealer names is read before anything is staked (the dealer's word is not enough). */
  chain: Pick<GameChain, 'game' | 'seat' | 'config'>;
  pollMs: number;
  /** The person's Leave: stops the wait (rejecting with its reason). The page aborts it only in `open`. */
  signal?: AbortSignal;
  /** Each change of what a Leave would do. */
  onOffer?: (offer: LeaveOffer) => void;
  print?: (line: string) => void;
  /** The dealer's fetch (tests). */
  fetch?: typeof globalThis.fetch;
}

/** The lobby is full (the game is this seat's), by the dealer's last answer; unknown from older dealers. */
const isFull = (t: JoinTicket) =>
  t.status === 'created' || (t.filled !== undefined && t.seats !== undefined && t.filled >= t.seats);

/**
 * The session key's seat in `lobby` and, once the dealer created the game, its id: the game is read on-chain and
 * held to the terms the key was funded for before anything is staked (GameTermsRejectedError). A seat the dealer
 * holds already (a retry, a reload, a join whose answer was lost) is taken up, not joined again. Safe to run again.
 * `onOffer` follows what a Leave would do (`LeaveOffer`): `joining` from the join's signature until the dealer's
 * answer, then `open` while the seat waits in an open lobby, `full` once it filled.
 */
export async function lobbyGame(key: Signer, lobby: SessionLobby, via: LobbyGameVia): Promise<bigint> {
  const client = new LobbyClient(via.dealerUrl, {
    chainId: via.chainId,
    gameContract: lobby.gameContract,
    ...(via.fetch ? { fetch: via.fetch } : {}),
  });
  const terms = {
    maxStake: lobby.stake,
    maxTurns: lobby.maxTurns,
    maxDisputeDeposit: lobby.disputeDeposit,
    // The windows the person saw: a game with a shorter one is refused.
    ...(lobby.durations ? { floors: lobby.durations } : {}),
  };
  const me = await key.getAddress();
  let signed: LobbyInfo | undefined;
  try {
    let ticket = await client.status(lobby.id, me).catch((e: unknown) => {
      if (e instanceof DealerRefusedError && e.code === 'not-joined') return null;
      throw e;
    });
    if (ticket) via.print?.(`seat ${ticket.seat + 1} in lobby ${lobby.kind} (${lobby.id}), taken earlier`);
    else {
      // From here until the answer a Leave waits (`joining`): an answer lost (the dealer down) keeps it waiting,
      // and the retry asks the dealer first whether this join took the seat.
      via.onOffer?.('joining');
      try {
        ticket = await client.join(key, lobby.id, terms);
        signed = ticket.lobby;
      } catch (e) {
        // A refusal may answer a retry of a join whose first answer was lost after it took the seat (e.g.
        // `lobby-closed` once it filled the lobby): the seat is looked up before a Leave is offered (review 37).
        if (!(e instanceof DealerRefusedError)) throw e;
        ticket = await client.status(lobby.id, me).catch((s: unknown) => {
          if (s instanceof DealerRefusedError && s.code === 'not-joined') throw e;
          throw s;
        });
      }
      via.print?.(
        `joined lobby ${lobby.kind} (${lobby.id}): seat ${ticket.seat + 1}${ticket.seats ? ` of ${ticket.seats}` : ''}, stake ${lobby.stake} wei${isFull(ticket) ? '; the lobby is full: the dealer creates the game' : '; waiting for the other players…'}`,
      );
    }
    const offer = (t: JoinTicket) => via.onOffer?.(isFull(t) ? 'full' : 'open');
    offer(ticket);
    // The SDK's wait (a Leave while an answer was on its way wins; a game the dealer could not create throws).
    const { gameId } = await client.waitForGame(lobby.id, ticket, {
      pollMs: via.pollMs,
      onAnswer: offer,
      ...(via.signal ? { signal: via.signal } : {}),
    });
    // Held to what the person picked (`pinned`), not only to the dealer's word: a seat taken up on a retry or
    // reload has no signed view, and the lobby's listing now is whatever the dealer says (review 37).
    const view = signed ?? (await client.lobby(lobby.id));
    await checkLobbyGameOnChain(
      via.chain,
      gameId,
      lobby.pinned ? { ...view, ...lobby.pinned } : view,
      me,
      terms,
    );
    return gameId;
  } catch (e) {
    // The dealer answered (a refusal: no seat taken), or the game is refused: a Leave is safe, and the way out.
    if (
      e instanceof DealerRefusedError ||
      e instanceof LobbyTermsRejectedError ||
      e instanceof GameTermsRejectedError ||
      e instanceof LobbyGameFailedError
    )
      via.onOffer?.('open');
    throw e;
  }
}

/** One look at a game whose play is over, from its session key (`closeStep`). */
export interface CloseStep {
  phase: GamePhaseName;
  /** Unix seconds: the end of the current phase (the next look is due then). */
  deadline: number;
  /** What the audit found this look (`auditRoot`; null outside the audit window or without `audit`). */
  audited: RootAudit | null;
  /** The deadline exit this look sent, if one was due. */
  claimed: ExpiredClaim | null;
  /** Wei sent home: the credit and the key's whole balance, once the game is closed. */
  returned: bigint;
  /** Settled or cancelled: the key holds nothing more and can be forgotten. */
  closed: boolean;
}

/**
 * During the audit, with `audit` (the hasher, the ruleset's board, the block the game's logs start at), checks
 * the posted root against Gen(seed) and proves a wrong one on-chain (`auditRoot`; once it found something, later
 * looks need not pass `audit`); sends the deadline exit that is due (the dealer's missing secrets slash it; an
 * audit window that passed settles the game), and once the game is settled or cancelled withdraws the key's
 * credit and sends all it holds home. Safe to repeat: a look with nothing due sends nothing.
 */
export async function closeStep(
  session: Wallet,
  owner: string,
  gameContract: string,
  gameId: bigint,
  audit?: { h: Hasher; board: Board },
): Promise<CloseStep> {
  const chain = new GameChain(gameContract, session);
  const audited = audit ? await auditRoot(chain, audit.h, audit.board, gameId) : null;
  const claimed = await claimExpired(chain, gameId);
  const g = await chain.game(gameId);
  const closed = isFinalPhase(g.phase);
  const returned = closed ? await sweepSession(session, owner, gameContract) : 0n;
  return { phase: g.phase, deadline: g.deadline, audited, claimed, returned, closed };
}

/** The shipped ruleset game `gameId` plays (by the hash the chain stores); null when this page ships none. */
export async function shippedRulesetOf(
  chain: GameChain,
  gameId: bigint,
): Promise<{ name: string; ruleset: ValidRuleset } | null> {
  const { rulesetHash: hash } = await chain.config(gameId);
  const name = shippedRulesetNames.find((n) => rulesetHash(shippedRuleset(n)).toLowerCase() === hash);
  return name === undefined ? null : { name, ruleset: shippedRuleset(name) };
}

/**
 * One look at a finished game of an earlier visit (its page closed before the game did): `closeStep` with the
 * audit (P3), so that a seat whose tab was closed still challenges a lying root during the audit window. A game
 * of a ruleset this page no longer ships closes without the audit. `boardOf`: the game's board with its start
 * areas.
 */
export async function closeFinished(
  session: Wallet,
  r: SessionRecord & { gameId: bigint },
  h: Hasher,
  boardOf = async (chain: GameChain, gameId: bigint) =>
    (await shippedRulesetOf(chain, gameId))?.ruleset.board ?? null,
): Promise<CloseStep> {
  const board = await boardOf(new GameChain(r.gameContract, session), r.gameId);
  return closeStep(session, r.owner, r.gameContract, r.gameId, board ? { h, board } : undefined);
}
