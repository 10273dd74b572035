/**
 * Post-game audit of a Shroud game, as importable functions (the `npm run audit` CLI and the demo use them):
 * read the published master secret and shares from the chain, regenerate the whole map with the core
 * (`generateMap`) and its salted tree (`commitMap`), compare the root with the one the dealer posted, check the
 * tiles a player was served against `Gen(seed)` and `Poseidon(master, leaf)`, and prove fraud on-chain.
 */
import { Contract, type ContractTransactionReceipt, type EventLog, type Log } from 'ethers';
import { VERIFIER_REGISTRY_ABI } from '../../core/abi/verifier-registry.ts';
import { judgeRoot, type RootFinding } from '../../core/audit.ts';
import { type GamePhaseName, phaseName } from '../../core/game-phases.ts';
import { type MapBoard, withStartAreas } from '../../core/generator/index.ts';
import {
  commitMap,
  generateMap,
  type Hasher,
  leafCoord,
  leafHash,
  loadHasher,
  type MapCommitment,
  makeBoard,
  pathLength,
  seedFromShares,
  type Tile,
  tileSalt,
  treeLeaves,
  verifyPath,
} from '../../core/index.ts';

/** A phase as ShroudGame names it (core/game-phases.ts). */
export type PhaseName = GamePhaseName;

export class AuditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditError';
  }
}

/** What the chain says about a game after its end. */
export interface GameSecrets {
  gameId: bigint;
  phase: PhaseName;
  /** The geometry, with the start areas the registry feeds MapGen for the game's ruleset. */
  board: MapBoard;
  /** The root the dealer posted (0 for a force-opened game). */
  root: bigint;
  /** The seed ShroudGame computed from the shares. */
  seed: bigint;
  masterSecret: bigint;
  shares: bigint[];
  /** The dealer's zone roots published with the secrets (empty for a force-opened game). */
  zoneRoots: bigint[];
  /** True for a force-opened game: public map, no root, nothing to audit. */
  openMap: boolean;
}

/**
 * Reads a game's board, posted root, the zone roots of its `RootPosted` event and the
 * `SecretsPublished(gameId, masterSecret, shares, seed)` event.
 * Throws AuditError when the game is unknown or its secrets are not published (yet, or ever).
 */
export async function readGameSecrets(game: Contract, gameId: bigint, fromBlock = 0): Promise<GameSecrets> {
  let g: unknown[];
  let cfg: unknown[];
  try {
    g = [...(await game.getFunction('getGame')(gameId))];
    cfg = [...(await game.getFunction('getGameConfig')(gameId))];
  } catch (e) {
    throw new AuditError(`game ${gameId}: not found (${e instanceof Error ? e.message.split('\n')[0] : e})`);
  }
  const phase = phaseName(g[1] as bigint);
  const b = cfg[0] as { kind: bigint; width: bigint; height: bigint };
  // The generator's start areas are the ruleset's; the chain's MapGen takes them from the registry, and so does
  // the audit (a game whose registry lacks them regenerates as the chain would, and the players' SDK refused it).
  const registry = new Contract(
    String(await game.getFunction('registry')()),
    VERIFIER_REGISTRY_ABI,
    game.runner,
  );
  const starts = (await registry.getFunction('startAreasOf')(cfg[2])) as bigint;
  const board = withStartAreas(
    makeBoard(Number(b.kind) === 0 ? 'hex' : 'square', Number(b.width), Number(b.height)),
    starts,
  );
  const root = g[6] as bigint;
  const seed = g[8] as bigint;
  const openMap = g[10] as boolean;
  const base = { gameId, phase, board, root, seed, openMap };
  if (openMap) return { ...base, masterSecret: 0n, shares: [], zoneRoots: [] };
  // The root's block bounds the search (its log holds the zone roots; the secrets come after it).
  const rootBlock = Math.max(fromBlock, Number(await game.getFunction('rootBlock')(gameId)));
  const logs = (await game.queryFilter(game.filters['SecretsPublished']!(gameId), rootBlock)) as EventLog[];
  const ev = logs.at(-1);
  if (!ev) throw new AuditError(`game ${gameId}: secrets not published (phase ${phase})`);
  const [posted] = (await game.queryFilter(
    game.filters['RootPosted']!(gameId),
    rootBlock,
    rootBlock,
  )) as EventLog[];
  if (!posted) throw new AuditError(`game ${gameId}: no RootPosted log at block ${rootBlock}`);
  return {
    ...base,
    masterSecret: ev.args[1] as bigint,
    shares: [...(ev.args[2] as bigint[])],
    zoneRoots: [...(posted.args[3] as bigint[])],
  };
}

/** The regenerated map and how it compares with the chain. */
export interface MapAudit {
  tiles: Tile[];
  map: MapCommitment;
  /** Root of `commitMap(Gen(seed), master)`. */
  root: bigint;
  rootMatches: boolean;
  /** What the posted root and published zone roots let anyone prove on-chain (core/audit.ts). */
  finding: RootFinding;
  /** `Poseidon(shares)` equals the seed ShroudGame stored. */
  seedMatches: boolean;
}

/** Regenerates the whole map from the published shares and master secret, and its tree. */
export function auditMap(h: Hasher, s: GameSecrets): MapAudit {
  const seed = seedFromShares(h, s.shares);
  const tiles = generateMap(h, s.board, seed);
  const map = commitMap(h, s.board, tiles, s.masterSecret);
  return {
    tiles,
    map,
    root: map.tree.root,
    rootMatches: map.tree.root === s.root,
    finding: judgeRoot(h, s.board, s.root, s.zoneRoots, map),
    seedMatches: seed === s.seed,
  };
}

/** One tile a player was served: the SDK's verified tile (`{leaf, terrain, feature, resource, rivers, salt, path}`). */
export interface ServedTileRecord {
  leaf: number;
  terrain: number;
  feature: number;
  resource: number;
  rivers: number;
  salt: bigint;
  path: bigint[];
}

const big = (v: unknown, what: string): bigint => {
  if (typeof v === 'bigint') return v;
  if (
    (typeof v === 'number' && Number.isSafeInteger(v)) ||
    (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v))
  )
    return BigInt(v);
  throw new AuditError(`${what}: not an integer (${String(v)})`);
};
const small = (v: unknown, what: string): number => {
  const x = big(v, what);
  if (x < 0n || x > BigInt(Number.MAX_SAFE_INTEGER)) throw new AuditError(`${what}: out of range`);
  return Number(x);
};

/** Parses a JSON array of served tiles (numbers or decimal/hex strings; extra fields such as col/row ignored). */
export function parseServedTiles(json: unknown): ServedTileRecord[] {
  if (!Array.isArray(json)) throw new AuditError('tiles: expected a JSON array');
  return json.map((raw, i) => {
    const t = raw as Record<string, unknown>;
    if (typeof t !== 'object' || t === null) throw new AuditError(`tiles.${i}: not an object`);
    if (!Array.isArray(t['path'])) throw new AuditError(`tiles.${i}.path: not an array`);
    return {
      leaf: small(t['leaf'], `tiles.${i}.leaf`),
      terrain: small(t['terrain'], `tiles.${i}.terrain`),
      feature: small(t['feature'], `tiles.${i}.feature`),
      resource: small(t['resource'], `tiles.${i}.resource`),
      rivers: small(t['rivers'], `tiles.${i}.rivers`),
      salt: big(t['salt'], `tiles.${i}.salt`),
      path: (t['path'] as unknown[]).map((p, k) => big(p, `tiles.${i}.path.${k}`)),
    };
  });
}

/** Why a served tile is wrong. */
export type TileProblem = 'gen' | 'salt' | 'off-board';

export interface TileFinding {
  tile: ServedTileRecord;
  col: number | null;
  row: number | null;
  problems: TileProblem[];
  /** `Gen(seed)` at the tile (null off-board). */
  expected: Tile | null;
  /** The tile's path verifies against the posted root, so a fraud proof can land. */
  provable: boolean;
}

export interface TilesAudit {
  checked: number;
  /** Tiles differing from `Gen(seed)` or with a wrong salt (or in an off-board slot). */
  mismatches: TileFinding[];
  /** Tiles whose path does not verify against the posted root (not the dealer's commitment: not evidence). */
  unverifiable: ServedTileRecord[];
}

/** Checks served tiles against the regenerated map: terrain/feature/resource/rivers and salt per leaf. */
export function checkServedTiles(
  h: Hasher,
  s: GameSecrets,
  audit: MapAudit,
  tiles: readonly ServedTileRecord[],
): TilesAudit {
  const out: TilesAudit = { checked: tiles.length, mismatches: [], unverifiable: [] };
  for (const t of tiles) {
    const served: Tile = {
      terrain: t.terrain as Tile['terrain'],
      feature: t.feature as Tile['feature'],
      resource: t.resource as Tile['resource'],
      rivers: t.rivers,
    };
    const inTree =
      t.leaf >= 0 && t.leaf < treeLeaves(s.board.depth) && t.path.length === pathLength(s.board.depth);
    const provable = inTree && verifyPath(h, s.root, t.leaf, leafHash(h, served, t.salt), t.path);
    if (!provable) {
      out.unverifiable.push(t);
      continue;
    }
    const c = leafCoord(s.board, t.leaf);
    const problems: TileProblem[] = [];
    let expected: Tile | null = null;
    if (c === null) problems.push('off-board');
    else {
      expected = audit.tiles[c.row * s.board.width + c.col]!;
      if (
        expected.terrain !== t.terrain ||
        expected.feature !== t.feature ||
        expected.resource !== t.resource ||
        expected.rivers !== t.rivers
      )
        problems.push('gen');
      if (tileSalt(h, s.masterSecret, t.leaf) !== t.salt) problems.push('salt');
    }
    if (problems.length > 0)
      out.mismatches.push({
        tile: t,
        col: c?.col ?? null,
        row: c?.row ?? null,
        problems,
        expected,
        provable,
      });
  }
  return out;
}

export interface FraudResult {
  txHash: string;
  gasUsed: bigint;
  /** Bond slashed to the players (0 if the bond was already gone). */
  slashed: bigint;
  phase: PhaseName;
}

/** Submits `proveFraud` for a finding with `game` connected to the prover's signer; reports the slash. */
export async function submitFraudProof(game: Contract, gameId: bigint, f: TileFinding): Promise<FraudResult> {
  const t = f.tile;
  const tx = await game.getFunction('proveFraud')(
    gameId,
    t.leaf,
    [t.terrain, t.feature, t.resource, t.rivers, t.salt],
    t.path,
  );
  const rc = (await tx.wait()) as ContractTransactionReceipt;
  let slashed = 0n;
  for (const l of rc.logs as Log[]) {
    const e = game.interface.parseLog(l);
    if (e?.name === 'DealerSlashed') slashed += e.args[2] as bigint;
  }
  const g = await game.getFunction('getGame')(gameId);
  return { txHash: rc.hash, gasUsed: rc.gasUsed, slashed, phase: phaseName(g.phase) };
}

/** Proves a root finding on-chain (`proveZoneRootsFraud`, or `challengeZone` paying the game's deposit). */
export async function submitRootProof(
  game: Contract,
  s: GameSecrets,
  f: Exclude<RootFinding, { kind: 'honest' }>,
): Promise<FraudResult> {
  let tx: { wait(): Promise<unknown> };
  if (f.kind === 'zone-roots') tx = await game.getFunction('proveZoneRootsFraud')(s.gameId, s.zoneRoots);
  else {
    const cfg = await game.getFunction('getGameConfig')(s.gameId);
    tx = await game.getFunction('challengeZone')(s.gameId, s.zoneRoots, f.zone, f.leaves, {
      value: cfg.disputeDeposit as bigint,
    });
  }
  const rc = (await tx.wait()) as ContractTransactionReceipt;
  let slashed = 0n;
  for (const l of rc.logs as Log[]) {
    const e = game.interface.parseLog(l);
    if (e?.name === 'DealerSlashed') slashed += e.args[2] as bigint;
  }
  const g = await game.getFunction('getGame')(s.gameId);
  return { txHash: rc.hash, gasUsed: rc.gasUsed, slashed, phase: phaseName(g.phase) };
}

export interface AuditReport {
  gameId: bigint;
  phase: PhaseName;
  openMap: boolean;
  postedRoot: bigint;
  computedRoot: bigint | null;
  rootMatches: boolean | null;
  seedMatches: boolean | null;
  tiles: TilesAudit | null;
  /** What the root lets anyone prove on-chain (null for a force-opened game). */
  finding: RootFinding | null;
  fraud: FraudResult | null;
}

export interface RunAuditOptions {
  /** ShroudGame (read-only is enough unless `fraudGame` is given). */
  game: Contract;
  gameId: bigint;
  h?: Hasher;
  /** Tiles served to a player, to check against the regenerated map. */
  tiles?: readonly ServedTileRecord[];
  /** ShroudGame connected to a funded signer: submit `proveFraud` for the first provable mismatch. */
  fraudGame?: Contract;
  fromBlock?: number;
}

/** The whole audit: secrets → map → root → served tiles → (optionally) a fraud proof. */
export async function runAudit(o: RunAuditOptions): Promise<AuditReport> {
  const h = o.h ?? (await loadHasher());
  const s = await readGameSecrets(o.game, o.gameId, o.fromBlock ?? 0);
  const report: AuditReport = {
    gameId: o.gameId,
    phase: s.phase,
    openMap: s.openMap,
    postedRoot: s.root,
    computedRoot: null,
    rootMatches: null,
    seedMatches: null,
    tiles: null,
    finding: null,
    fraud: null,
  };
  if (s.openMap) return report;
  const audit = auditMap(h, s);
  report.computedRoot = audit.root;
  report.rootMatches = audit.rootMatches;
  report.seedMatches = audit.seedMatches;
  if (o.tiles) {
    report.tiles = checkServedTiles(h, s, audit, o.tiles);
    const first = report.tiles.mismatches.find((m) => m.provable);
    if (first && o.fraudGame) report.fraud = await submitFraudProof(o.fraudGame, o.gameId, first);
  }
  report.finding = audit.finding;
  // Without a served tile to show, the root itself is proven wrong (zone roots, or a zone challenge).
  if (!report.fraud && o.fraudGame && audit.finding.kind !== 'honest')
    report.fraud = await submitRootProof(o.fraudGame, s, audit.finding);
  return report;
}

/** Human-readable lines for a report. */
export function formatReport(r: AuditReport): string {
  const lines = [`game ${r.gameId} (phase ${r.phase})`];
  if (r.openMap) {
    lines.push('force-opened: the map is public (no root, nothing to audit)');
    return lines.join('\n');
  }
  lines.push(`posted root   ${r.postedRoot}`);
  lines.push(`computed root ${r.computedRoot}`);
  lines.push(
    r.rootMatches
      ? 'root: MATCH'
      : 'root: MISMATCH (the posted root is not Gen(seed) under the master secret)',
  );
  if (!r.seedMatches) lines.push('seed: the on-chain seed differs from Poseidon(shares)');
  if (r.finding?.kind === 'zone-roots')
    lines.push('zone roots: the published zone roots do not build the posted root (proveZoneRootsFraud)');
  if (r.finding?.kind === 'zone')
    lines.push(`zone ${r.finding.zone}: differs from Gen(seed) (challengeZone with its true leaves)`);
  if (r.tiles) {
    lines.push(
      `tiles: ${r.tiles.checked} checked, ${r.tiles.mismatches.length} mismatching, ${r.tiles.unverifiable.length} not under the posted root`,
    );
    for (const m of r.tiles.mismatches) {
      const where = m.col === null ? 'off-board' : `(${m.col},${m.row})`;
      lines.push(`  leaf ${m.tile.leaf} ${where}: ${m.problems.join(', ')}`);
    }
  }
  if (r.fraud)
    lines.push(
      `fraud proof landed: tx ${r.fraud.txHash}, gas ${r.fraud.gasUsed}, bond slashed ${r.fraud.slashed} wei, phase ${r.fraud.phase}`,
    );
  return lines.join('\n');
}
