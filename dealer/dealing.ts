import type { Logger } from 'pino';
import { type Hasher, seedFromShares } from '../core/index.ts';
import { addressToField, openSealedShare, proveBadShare } from '../core/sealed.ts';
import type { ChainView } from './chain/types.ts';
import type { MapCache } from './maps.ts';
import { randomFieldElement } from './random.ts';
import type { DealerStore, SealedShareRecord } from './store/types.ts';

/** Points between persisted steps; a test hook may pause there to be SIGKILLed. */
export type DealStep = 'secrets-stored' | 'root-computed' | 'root-posted';

export interface DealingDeps {
  h: Hasher;
  chain: ChainView;
  store: DealerStore;
  maps: MapCache;
  /** The dealer's secp256k1 secret for `dealerEncKey`. */
  encSecretKey: Uint8Array;
  chainId: bigint;
  log: Logger;
  onStep?: (step: DealStep, gameId: bigint) => Promise<void>;
  onDealt?: (gameId: bigint) => void;
  /** Attempts at posting the root before giving up until the next tick. */
  postAttempts?: number;
}

export type DealOutcome = 'waiting' | 'dealt' | 'cancelled';

/**
 * Deals one game, resumably. Every step is persisted before the next, and each chain write is preceded
 * by a read of the state it would change, so a crash between any two steps resumes without a second
 * master secret, a second root or a duplicated transaction.
 */
export async function dealGame(d: DealingDeps, gameId: bigint): Promise<DealOutcome> {
  const game = await d.store.getGame(gameId);
  if (!game) throw new Error(`game ${gameId} is not tracked`);
  if (game.status === 'dealt' || game.status === 'published') return 'dealt';
  if (game.status === 'cancelled') return 'cancelled';
  const log = d.log.child({ gameId: gameId.toString() });

  let secrets = await d.store.getSecrets(gameId);
  if (!secrets) {
    const phase = await d.chain.phase(gameId);
    if (phase === 'cancelled' || phase === 'forced-open') {
      await d.store.updateGame(gameId, { status: 'cancelled', fault: `${phase} on-chain` });
      return 'cancelled';
    }
    if (phase !== 'dealing') return 'waiting';
    const opened = await openShares(d, gameId);
    if (!opened) return 'cancelled';
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
    log,
  );
  if (txHash === null) return 'waiting';
  await d.store.updateGame(gameId, { status: 'dealt', rootTx: txHash });
  log.info({ step: 'root-posted', tx: txHash }, 'root posted');
  d.onDealt?.(gameId);
  await d.onStep?.('root-posted', gameId);
  return 'dealt';
}

/** Opens every seat's sealed share; on the first bad one, files the evidence and cancels. */
async function openShares(d: DealingDeps, gameId: bigint): Promise<bigint[] | null> {
  const seats = await d.chain.seatShares(gameId);
  const records: SealedShareRecord[] = [];
  const shares: bigint[] = [];
  let bad: { seat: number; player: string } | null = null;
  seats.forEach((s, seat) => {
    const ctx = { chainId: d.chainId, gameId, player: addressToField(s.player) };
    const sealed = s.sealed ?? new Uint8Array();
    const r = openSealedShare(d.h, d.encSecretKey, sealed, ctx, s.commitment);
    records.push({
      seat,
      player: s.player,
      commitment: s.commitment,
      sealed,
      outcome: r.ok ? 'ok' : r.reason,
    });
    if (r.ok) shares.push(r.share);
    else bad ??= { seat, player: s.player };
  });
  await d.store.putSealedShares(gameId, records);
  if (!bad) return shares;

  const { seat, player } = bad;
  const seatShare = seats[seat]!;
  const ctx = { chainId: d.chainId, gameId, player: addressToField(player) };
  const evidence = proveBadShare(
    d.h,
    d.encSecretKey,
    seatShare.sealed ?? new Uint8Array(),
    ctx,
    seatShare.commitment,
  );
  d.log.warn(
    { gameId: gameId.toString(), player, reason: records[seat]!.outcome },
    'bad sealed share: filing evidence',
  );
  // Re-check the phase so a retry after a crash does not file twice.
  if ((await d.chain.phase(gameId)) === 'dealing')
    await d.chain.postBadShareEvidence(gameId, player, evidence);
  await d.store.updateGame(gameId, { status: 'cancelled', fault: `bad-share:${player}` });
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
        if (phase === 'cancelled' || phase === 'forced-open') {
          await d.store.updateGame(gameId, { status: 'cancelled', fault: `${phase} on-chain` });
        }
        return null;
      }
      return (await d.chain.postRoot(gameId, root)).hash;
    } catch (e) {
      lastError = e;
      log.warn({ attempt: i + 1, err: (e as Error).message }, 'posting the root failed; re-checking');
      await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    }
  }
  throw lastError;
}
