import { judgeRoot } from '@shroud/core/audit.ts';
import { generateMap } from '@shroud/core/generator/index.ts';
import type { Board } from '@shroud/core/geometry.ts';
import { commitMap } from '@shroud/core/maptree.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import { ChainError, type GameChain, type TxResult } from './chain.ts';

/**
 * What `auditRoot` found: the root is Gen(seed) (`honest`), or it is not and was proven so on-chain now
 * (`zone-roots`, `zone`: core/audit.ts `RootFinding`) or by this seat's earlier challenge (`challenged`). Any of
 * them is final for the game: there is no need to audit it again.
 */
export type RootAudit =
  | { kind: 'honest' }
  | { kind: 'challenged' }
  | { kind: 'zone-roots'; gas: bigint }
  | { kind: 'zone'; zone: number; gas: bigint };

/**
 * The audit after the secrets (P3, ShroudAudit), for a seat's signer (a player's key, its page's session key):
 * recomputes the dealer's tree from the published secrets (`commitMap(Gen(seed), master_secret)`) and, when the
 * posted root is not it, proves so on-chain whether or not a wrong tile was ever served: `proveZoneRootsFraud`
 * when the zone roots the dealer posted with its root do not build it, else `challengeZone` with the first
 * differing zone's true leaves, paying the game's dispute deposit (the dealer cannot answer it truthfully, so its
 * bond is slashed when it answers or at settlement, and the deposit comes back; once per seat). Null outside the
 * audit window (nothing to judge yet, or too late). `board` must carry the ruleset's start areas (the chain's
 * MapGen uses them). The game's logs are read from the block of its root (`rootBlock`), whenever this signer
 * joined: the secrets and challenges come after it.
 */
export async function auditRoot(
  chain: GameChain,
  h: Hasher,
  board: Board,
  gameId: bigint,
): Promise<RootAudit | null> {
  const g = await chain.game(gameId);
  const now = (await chain.provider.getBlock('latest'))?.timestamp ?? 0;
  // A transaction is mined after the latest block: at the deadline's second it would come too late.
  if (g.phase !== 'Audit' || now >= g.deadline) return null;
  const events = await chain.events(gameId, await chain.rootBlock(gameId));
  const posted = events.find((e) => e.kind === 'RootPosted');
  const secrets = events.findLast((e) => e.kind === 'SecretsPublished');
  if (posted?.kind !== 'RootPosted' || secrets?.kind !== 'SecretsPublished')
    throw new Error(`game ${gameId} is in its audit, but its root or secrets log was not found`);
  const honest = commitMap(h, board, generateMap(h, board, secrets.seed), secrets.masterSecret);
  const finding = judgeRoot(h, board, g.root, posted.zoneRoots, honest);
  if (finding.kind === 'honest') return finding;
  if (finding.kind === 'zone-roots') {
    const tx = await unlessEnded(chain, gameId, () => chain.proveZoneRootsFraud(gameId, posted.zoneRoots));
    return tx && { kind: 'zone-roots', gas: tx.gasUsed };
  }
  // One challenge per seat: this signer's seat (chain.join refuses a signer without one).
  const { seat } = await chain.join(gameId);
  if (events.some((e) => e.kind === 'ZoneChallenged' && e.seat === seat)) return { kind: 'challenged' };
  const tx = await unlessEnded(chain, gameId, () =>
    chain.challengeZone(gameId, posted.zoneRoots, finding.zone, finding.leaves),
  );
  return tx && { kind: 'zone', zone: finding.zone, gas: tx.gasUsed };
}

/**
 * Sends `send`; null when it failed because the audit ended meanwhile (another seat's proof settled the game, or
 * the window closed first), which is not an error. Other failures are thrown.
 */
async function unlessEnded(
  chain: GameChain,
  gameId: bigint,
  send: () => Promise<TxResult>,
): Promise<TxResult | null> {
  try {
    return await send();
  } catch (e) {
    if (!(e instanceof ChainError)) throw e;
    const g = await chain.game(gameId);
    const now = (await chain.provider.getBlock('latest'))?.timestamp ?? 0;
    if (g.phase !== 'Audit' || now >= g.deadline) return null;
    throw e;
  }
}
