import type { Logger } from 'pino';
import { type Hasher, seedFromShares } from '../core/index.ts';
import { zoneRoots } from '../core/mapproof/witness.ts';
import { addressToField, openSealedShare } from '../core/sealed.ts';
import type { ChainView, DealerCloseCall, GamePhase } from './chain/types.ts';
import type { MapCache } from './maps.ts';
import { randomFieldElement } from './random.ts';
import { type DealerStore, ROOT_POSTED, type SealedShareRecord } from './store/types.ts';

/** Points between persisted steps; a test hook may pause there to be SIGKILLed. */
export type DealStep = 'secrets-stored' | 'root-computed' | 'root-posted';

export interface DealingDeps {
  h: Hasher;
  chain: ChainView;
  store: DealerStore;
  maps: MapCache;
  /**
   * The dealer's Baby Jubjub seal secret d (`keys.dealerKey`), behind the games' `sealKey` d·BASE8. Used
   * only to open sealed shares privately: nothing derived from it is ever written, sent or logged.
   */
  sealSecretKey: bigint;
  log: Logger;
  onStep?: (step: DealStep, gameId: bigint) => Promise<void>;
  onDealt?: (gameId: bigint) => void;
  /** A reveal dispute of a dealt game was answered on-chain (metrics). */
  onDisputeAnswered?: (gameId: bigint) => void;
  /** An audit zone challenge of a published game was answered on-chain (metrics). */
  onZoneChallengeAnswered?: (gameId: bigint) => void;
  /** This dealer closed a game on-chain (dealer/closing.ts; metrics). */
  onClosed?: (gameId: bigint, call: DealerCloseCall) => void;
  /** This dealer withdrew its credit, `wei` (metrics). */
  onWithdrawn?: (wei: bigint) => void;
  /** Attempts at posting the root before giving up until the next tick. */
  postAttempts?: number;
}

export type DealOutcome = 'waiting' | 'dealt' | 'cancelled' | 'forced-open';

/** Records that the chain stopped the game (cancelled, or force-opened because the dealer failed). */
export async function markStopped(
  d: Pick<DealingDeps, 'store'>,
  gameId: bigint,
  phase: Extract<GamePhase, 'cancelled' | 'forced-open'>,
): Promise<void> {
  await d.store.updateGame(gameId, { status: phase, fault: `${phase} on-chain` });
}

/**
 * Deals one game, resumably. Every step is persisted before the next, and each chain write is preceded
 * by a read of the state it would change, so a crash between any two steps resumes without a second
 * master secret, a second root or a duplicated transaction.
 */
export async function dealGame(d: DealingDeps, gameId: bigint): Promise<DealOutcome> {
  const game = await d.store.getGame(gameId);
  if (!game) throw new Error(`game ${gameId} is not tracked`);
  if (ROOT_POSTED.includes(game.status)) return 'dealt';
  if (game.status === 'cancelled' || game.status === 'forced-open') return game.status;
  const log = d.log.child({ gameId: gameId.toString() });

  let secrets = await d.store.getSecrets(gameId);
  if (!secrets) {
    const phase = await d.chain.phase(gameId);
    if (phase === 'cancelled' || phase === 'forced-open') {
      await markStopped(d, gameId, phase);
      return phase;
    }
    if (phase !== 'dealing') return 'waiting';
    const opened = await openShares(d, gameId, game.createdBlock, game.fault, log);
    if (!opened) return 'waiting';
    secrets = await d.store.putSecretsOnce(gameId, {
      shares: opened,
      seed: seedFromShares(d.h, opened),
      masterSecret: randomFieldElement(),
    });
    log.info({ step: 'secrets-stored' }, 'seed and master secret stored');
    await d.onStep?.('secrets-stored', gameId);
  }

  const map = await d.maps.get(gameId);
  if (game.root === null) {
    await d.store.updateGame(gameId, {
      status: 'root-computed',
      root: map.root,
      masterCommitment: map.masterCommitment,
    });
  } else if (game.root !== map.root) {
    throw new Error(`game ${gameId}: stored root does not match the rebuilt tree`);
  }
  log.info({ step: 'root-computed', root: map.root.toString() }, 'map built');
  await d.onStep?.('root-computed', gameId);

  const txHash = await postRootOnce(
    d,
    gameId,
    { root: map.root, masterCommitment: map.masterCommitment },
    zoneRoots(map.commitment, map.ruleset.board),
    log,
  );
  if (txHash === null) return 'waiting';
  await d.store.updateGame(gameId, { status: 'dealt', rootTx: txHash });
  log.info({ step: 'root-posted', tx: txHash }, 'root posted');
  d.onDealt?.(gameId);
  await d.onStep?.('root-posted', gameId);
  return 'dealt';
}

/**
 * Opens every seat's sealed share with the seal secret, privately. The contract verified at sealedReveal
 * that each accepted share opens to the preimage of its `C_i`, so a failure here is a dealer bug (e.g. a
 * wrong `keys.dealerKey`): it is logged as an error, with public data only, and nothing else happens. There
 * is no evidence to file and the dealer never cancels: publishing anything computed from its key and a
 * ciphertext someone else chose would make it a decryption oracle (P1). The game is then force-opened
 * on-chain when the root deadline passes, which is the right outcome for a failed dealer. Returns the
 * shares in seat order, or null when one did not open (retried on the next tick, logged once).
 */
async function openShares(
  d: DealingDeps,
  gameId: bigint,
  createdBlock: number | null,
  previousFault: string | null,
  log: Logger,
): Promise<bigint[] | null> {
  const seats = await d.chain.seatShares(gameId, createdBlock ?? undefined);
  const records: SealedShareRecord[] = [];
  const shares: bigint[] = [];
  let failed: number | null = null;
  seats.forEach((s, seat) => {
    if (!s.sealed) throw new Error(`game ${gameId}: seat ${seat} has no sealed share on-chain`);
    let outcome: SealedShareRecord['outcome'] = 'ok';
    try {
      const ctx = { gameId, player: addressToField(s.player) };
      shares.push(openSealedShare(d.h, d.sealSecretKey, s.sealed, ctx, s.commitment));
    } catch {
      // The error itself is not logged: only public facts leave this function.
      outcome = 'not-opened';
      failed ??= seat;
    }
    records.push({ seat, player: s.player, commitment: s.commitment, sealed: s.sealed, outcome });
  });
  await d.store.putSealedShares(gameId, records);
  if (failed === null) {
    if (previousFault?.startsWith('share-not-opened')) await d.store.updateGame(gameId, { fault: null });
    return shares;
  }
  const fault = `share-not-opened:${failed}`;
  const facts = { seat: failed, player: seats[failed]!.player };
  if (previousFault === fault) {
    log.debug(facts, 'sealed share still does not open; not dealing');
    return null;
  }
  log.error(
    facts,
    'a sealed share the contract accepted does not open under this dealer seal key (a dealer bug: check ' +
      'keys.dealerKey); not dealing this game, filing nothing: it will be force-opened on-chain',
  );
  await d.store.updateGame(gameId, { fault });
  return null;
}

/**
 * Posts the root unless the chain already has it. Each attempt first reads the chain, so a post that
 * landed but whose receipt was lost is not sent twice. Returns null when the game can no longer take a root.
 */
async function postRootOnce(
  d: DealingDeps,
  gameId: bigint,
  root: { root: bigint; masterCommitment: bigint },
  zoneRoots: readonly bigint[],
  log: Logger,
): Promise<string | null> {
  const attempts = d.postAttempts ?? 3;
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      const posted = await d.chain.mapRoot(gameId);
      if (posted) {
        if (posted.root !== root.root || posted.masterCommitment !== root.masterCommitment) {
          throw new Error(`game ${gameId}: the chain holds a different root than this dealer's`);
        }
        return (await d.store.getGame(gameId))?.rootTx ?? 'already-posted';
      }
      const phase = await d.chain.phase(gameId);
      if (phase !== 'dealing') {
        log.warn({ phase }, 'root not posted and the game no longer accepts one');
        if (phase === 'cancelled' || phase === 'forced-open') await markStopped(d, gameId, phase);
        return null;
      }
      return (await d.chain.postRoot(gameId, root, zoneRoots)).hash;
    } catch (e) {
      lastError = e;
      log.warn({ attempt: i + 1, err: (e as Error).message }, 'posting the root failed; re-checking');
      await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    }
  }
  throw lastError;
}
