/**
 * Gas of the contract operations on the in-process EDR chain: node scripts/bench-gas.ts
 * `benchGas()` returns a flat record (gas units) for the benchmark report.
 */
import type { Contract, ContractTransactionResponse } from 'ethers';
import { network } from 'hardhat';
import { deployShroud } from '../contracts/deployer.ts';
import {
  commitMap,
  generateMap,
  leafIndex,
  loadHasher,
  makeBoard,
  masterCommitment,
  merklePath,
  shareCommitment,
  type Tile,
} from '../core/index.ts';

const DURATIONS = {
  commitSeconds: 600,
  revealSeconds: 600,
  rootSeconds: 1800,
  turnSeconds: 600,
  combatSeconds: 300,
  secretsSeconds: 3600,
  auditSeconds: 3600,
};
const ENC_KEY = '0x0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';

async function gasOf(tx: Promise<ContractTransactionResponse>): Promise<number> {
  const rc = await (await tx).wait();
  if (!rc) throw new Error('no receipt');
  return Number(rc.gasUsed);
}

/** One duel-sized hex game (40×26, 2 players) through ceremony, end, secrets and a fraud proof. */
export async function benchGas(): Promise<Record<string, number>> {
  const { ethers } = await network.connect();
  const h = await loadHasher();
  const [deployer, dealer, p1, p2, other] = await ethers.getSigners();
  const { game } = await deployShroud(ethers, deployer);
  const as = (s: typeof dealer) => game.connect(s!) as Contract;
  const board = makeBoard('hex', 40, 26);
  const out: Record<string, number> = {};

  out['gas_create_game'] = await gasOf(
    as(dealer).getFunction('createGame')(
      [p1!.address, p2!.address],
      dealer!.address,
      ENC_KEY,
      `0x${'11'.repeat(32)}`,
      DURATIONS,
      { kind: 0, width: 40, height: 26, maxTurns: 100 },
      0n,
      { value: 10n ** 18n },
    ),
  );
  const id = (await game.getFunction('gameCount')()) as bigint;
  const shares = [0x1234n, 0x5678n];
  const players = [p1!, p2!];
  const commits: number[] = [];
  for (const [i, p] of players.entries()) {
    commits.push(
      await gasOf(as(p).getFunction('commit')(id, shareCommitment(h, id, BigInt(p.address), shares[i]!))),
    );
  }
  out['gas_commit'] = Math.max(...commits);
  // A realistic sealed reveal: 33-byte ephemeral key, 32-byte body, 16-byte tag.
  const ct = `0x02${'ab'.repeat(32)}${'cd'.repeat(32)}${'ef'.repeat(16)}`;
  const reveals: number[] = [];
  for (const p of players) reveals.push(await gasOf(as(p).getFunction('sealedReveal')(id, ct)));
  out['gas_sealed_reveal'] = Math.max(...reveals);

  // A dishonest dealer: one tile altered, so a fraud proof can succeed.
  const seed = h.hash(shares);
  const tiles = generateMap(h, board, seed);
  const target = { col: 21, row: 13 };
  const k = target.row * board.width + target.col;
  tiles[k] = { ...tiles[k]!, rivers: tiles[k]!.rivers ^ 1 } as Tile;
  const master = 987654321n;
  const { tree, salts } = commitMap(h, board, tiles, master);
  out['gas_post_root'] = await gasOf(
    as(dealer).getFunction('postRoot')(id, tree.root, masterCommitment(h, master)),
  );
  out['gas_forfeit_end'] = await gasOf(as(p2).getFunction('forfeit')(id));
  out['gas_publish_secrets'] = await gasOf(as(other).getFunction('publishSecrets')(id, master, shares));
  const i = leafIndex(board, target);
  const t = tiles[k]!;
  out['gas_fraud_proof'] = await gasOf(
    as(p1).getFunction('proveFraud')(
      id,
      i,
      [t.terrain, t.feature, t.resource, t.rivers, salts[i]!],
      merklePath(tree, i),
    ),
  );
  out['gas_withdraw'] = await gasOf(as(p1).getFunction('withdraw')());
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchGas(), null, 2));
}
