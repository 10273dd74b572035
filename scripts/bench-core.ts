import { performance } from 'node:perf_hooks';
import {
  commitMap,
  countingHasher,
  generateMap,
  type Hasher,
  loadHasher,
  merklePath,
  shippedRuleset,
  verifyPath,
} from '../core/index.ts';
import { median, round } from './lib/stats.ts';

/** The same Poseidon calls as the map commitment (by arity), on fresh inputs, with nothing else around them. */
function rawHashing(h: Hasher, calls: Map<number, number>): number {
  const t0 = performance.now();
  let acc = 1n;
  for (const [arity, n] of calls) {
    const inputs = new Array<bigint>(arity).fill(0n);
    for (let i = 0; i < n; i++) {
      inputs[0] = acc;
      inputs[arity - 1] = BigInt(i);
      acc = h.hash(inputs);
    }
  }
  return performance.now() - t0;
}

/** Root of a map (salts, leaves and tree) against the raw cost of the same Poseidon calls, interleaved. */
function rootVsRaw(h: Hasher, name: string, rounds: number) {
  const b = shippedRuleset(name).board;
  const tiles = generateMap(h, b, 0x5eedn);
  const counter = countingHasher(h);
  const commitment = commitMap(counter, b, tiles, 99n);
  const root: number[] = [];
  const raw: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    commitMap(h, b, tiles, 99n + BigInt(r));
    root.push(performance.now() - t0);
    raw.push(rawHashing(h, counter.calls));
  }
  return { rootMs: median(root), rawMs: median(raw), hashes: counter.total(), tree: commitment.tree };
}

export async function benchCore(): Promise<Record<string, number>> {
  const h = await loadHasher();
  const out: Record<string, number> = {};
  for (const name of ['duel', 'standard']) {
    const r = rootVsRaw(h, name, name === 'duel' ? 7 : 5);
    out[`root_ms_${name}`] = round(r.rootMs, 1);
    out[`raw_hash_ms_${name}`] = round(r.rawMs, 1);
    out[`raw_hash_ratio_${name}`] = round(r.rootMs / r.rawMs);
    out[`root_hashes_${name}`] = r.hashes;
    const b = shippedRuleset(name).board;
    const t0 = performance.now();
    generateMap(h, b, 0x5eedn);
    out[`gen_ms_${name}`] = round(performance.now() - t0, 1);
    if (name === 'duel') {
      const leaves = r.tree.levels[0]!;
      const paths = Array.from({ length: 256 }, (_, i) => (i * 997) % leaves.length).map((i) => ({
        i,
        leaf: leaves[i]!,
        path: merklePath(r.tree, i),
      }));
      let n = 0;
      const start = performance.now();
      while (performance.now() - start < 1500) {
        const p = paths[n % paths.length]!;
        if (!verifyPath(h, r.tree.root, p.i, p.leaf, p.path)) throw new Error('path failed to verify');
        n++;
      }
      out.path_verifications_per_s = round((n * 1000) / (performance.now() - start), 0);
    }
  }
  return out;
}
