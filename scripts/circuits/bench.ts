/**
 * Circuit benchmark: per circuit of one ruleset, constraints and median witness, proof and
 * verification times, as flat `<circuit>_<ruleset>_<metric>` numbers. Wired into scripts/bench.ts
 * (`npm run bench -- circuits --ruleset NAME [--ptau-dir DIR] --json FILE`); runnable alone:
 *   node scripts/circuits/bench.ts --ruleset duel [--ptau-dir DIR] [--circuits turn] [--json FILE]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { generateMap } from '../../core/generator/index.ts';
import { type Coord, leafIndex, tilesInRange } from '../../core/geometry.ts';
import { zoneRoots } from '../../core/mapproof/witness.ts';
import { commitMap } from '../../core/maptree.ts';
import { merklePath } from '../../core/merkle.ts';
import { loadHasher } from '../../core/poseidon.ts';
import { shippedRuleset, shippedRulesetNames } from '../../core/ruleset/shipped.ts';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import type { Unit } from '../../core/state.ts';
import { isPassable } from '../../core/tile.ts';
import {
  attackWitness,
  type CircuitInput,
  combatWitness,
  spawnSlots,
  spawnWitness,
  turnWitness,
} from '../../core/witness/inputs.ts';
import { mobileSlots } from '../../core/witness/maptop.ts';
import { inputDir, outputFile, parseCli, runCli, UsageError } from '../../lib/cli.ts';
import { consoleProgress } from '../lib/progress.ts';
import { buildCircuits } from './build.ts';
import { CIRCUITS, MAP_CIRCUITS } from './generate.ts';

type GameCircuit = (typeof CIRCUITS)[number];

const require = createRequire(import.meta.url);

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A full, legal workload: every slot filled near seat 0's start area, every reveal lane used. */
export async function workloads(r: ValidRuleset): Promise<Record<GameCircuit, CircuitInput>> {
  const h = await loadHasher();
  const a = r.startAreas[0]!;
  const area: Coord[] = [];
  for (let row = a.row0; row <= a.row1; row++)
    for (let col = a.col0; col <= a.col1; col++) area.push({ col, row });
  const spawn = spawnSlots(
    r,
    r.spawn.map((_, i) => area[(i * 7) % area.length]!),
  );
  // Turn state: every slot alive (infantry beyond the spawn list), then each mobile unit steps once.
  const full: Unit[] = spawn.map(
    (u, i) => u ?? { type: 0, hp: r.unitTypes[0]!.hp, ...area[(i * 5) % area.length]! },
  );
  const metric = r.board.kind === 'hex' ? 'hex' : 'chebyshev';
  // Terrain rules: a map of a fixed seed; only the mobile spawn slots move (onto a passable neighbour).
  const pass = r.provePassability;
  const tiles = pass ? generateMap(h, r.board, 0x5eedn) : [];
  const map = pass ? commitMap(h, r.board, tiles, 987654321n) : null;
  const mobile = pass ? new Set(mobileSlots(r)) : null;
  const tileAt = (c: Coord) => tiles[c.row * r.board.width + c.col]!;
  const moved = full.map((u, i) => {
    const t = r.unitTypes[u.type]!;
    if (mobile && !mobile.has(i)) return u;
    const to = tilesInRange(r.board, metric, u, t.structure ? 0 : Math.min(1, t.speed));
    const ok = pass ? to.filter((c) => isPassable(tileAt(c).terrain)) : to;
    return { ...u, ...(ok.length ? ok[ok.length - 1]! : u) };
  });
  const passability = map
    ? {
        passability: {
          zoneRoots: zoneRoots(map, r.board),
          destinations: moved.map((u, i) => {
            if (u.col === full[i]!.col && u.row === full[i]!.row) return null;
            const leaf = leafIndex(r.board, u);
            return { tile: tileAt(u), salt: map.salts[leaf]!, path: merklePath(map.tree, leaf) };
          }),
        },
      }
    : {};
  const seen: Coord[] = [];
  if (r.vision.model !== 'litZones') {
    for (const u of moved)
      seen.push(...tilesInRange(r.board, r.vision.model, u, r.unitTypes[u.type]!.vision));
  } else seen.push(moved[0]!);
  const revealed = Array.from({ length: r.maxRevealedTiles }, (_, i) => seen[i % seen.length]!);
  const spawnSeen: Coord[] = [];
  for (const u of spawn) {
    if (u === null) continue;
    if (r.vision.model === 'litZones') spawnSeen.push(u);
    else spawnSeen.push(...tilesInRange(r.board, r.vision.model, u, r.unitTypes[u.type]!.vision));
  }
  const spawnRevealed = Array.from(
    { length: r.maxRevealedTiles },
    (_, i) => spawnSeen[i % spawnSeen.length]!,
  );
  const all = (1n << BigInt(r.board.zoneCount)) - 1n;
  const opp = new Array(r.players.max - 1).fill(all);
  // The root the play commitments bind: the map's for passability, any field element otherwise.
  const common = { gameId: 12345n, player: 0xabcdefn, turn: 9n, mapRoot: map ? map.tree.root : 0x600dn };
  const attacker = moved.findIndex((u) => r.unitTypes[u.type]!.attackRange > 0);
  return {
    turn: turnWitness(r, h, {
      ...common,
      seat: 0,
      oldSlots: full,
      oldBlinding: 1n,
      oldRevealCommit: 8n,
      newSlots: moved,
      newBlinding: 2n,
      revealed,
      revealBlinding: 3n,
      oppMasks: opp,
      ...passability,
    }).input,
    spawn: spawnWitness(r, h, {
      ...common,
      seat: 0,
      slots: spawn,
      blinding: 4n,
      revealed: spawnRevealed,
      revealBlinding: 5n,
      oppMasks: opp,
    }).input,
    attack: attackWitness(r, h, {
      ...common,
      slots: moved,
      blinding: 6n,
      revealCommit: 8n,
      slot: attacker,
      target: moved[attacker]!,
    }).input,
    combat: combatWitness(r, h, {
      ...common,
      slots: moved,
      blinding: 7n,
      revealCommit: 8n,
      target: moved[0]!,
      damage: 3,
    }).input,
  };
}

export interface BenchOptions {
  ruleset: string;
  ptauDir?: string;
  circuits?: readonly GameCircuit[];
  /** Proofs per circuit (median); default 3. */
  runs?: number;
}

export async function benchCircuits(opts: BenchOptions): Promise<Record<string, number>> {
  const r = shippedRuleset(opts.ruleset);
  const names = opts.circuits ?? CIRCUITS;
  const runs = opts.runs ?? 3;
  const inputs = await workloads(r);
  const out: Record<string, number> = {};
  const log = (m: string) => console.error(m);
  const progress = consoleProgress({ out: process.stderr });
  try {
    // Map-proof circuits: constraint counts here (compile only); proving time is the mapproof suite's.
    const map = await buildCircuits({ ruleset: r, circuits: MAP_CIRCUITS, setup: false, log, progress });
    for (const name of MAP_CIRCUITS) {
      out[`${name}_${r.name.replace(/-/g, '_')}_constraints`] = map[name]!.constraints;
    }
    for (const name of names) {
      const art = (
        await buildCircuits({
          ruleset: r,
          circuits: [name],
          ...(opts.ptauDir ? { ptauDir: opts.ptauDir } : {}),
          log,
          progress,
        })
      )[name]!;
      const key = `${name}_${r.name.replace(/-/g, '_')}`;
      out[`${key}_constraints`] = art.constraints;
      out[`${key}_public_signals`] = art.publicSignals;
      const builder = require(art.witnessCalculator) as (
        c: Buffer,
      ) => Promise<{ calculateWTNSBin(i: unknown, s: boolean): Promise<Uint8Array> }>;
      const wc = await builder(readFileSync(art.wasm));
      const input = inputs[name];
      const wt: number[] = [];
      let wtns: Uint8Array | undefined;
      for (let i = 0; i < Math.max(5, runs); i++) {
        const t0 = performance.now();
        wtns = await wc.calculateWTNSBin(input, true);
        wt.push(performance.now() - t0);
      }
      const vkey = JSON.parse(readFileSync(art.vkey!, 'utf8'));
      const pt: number[] = [];
      const vt: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const { proof, publicSignals } = await snarkjs.groth16.prove(art.zkey!, wtns as never);
        pt.push(performance.now() - t0);
        const t1 = performance.now();
        const ok = await snarkjs.groth16.verify(vkey, publicSignals, proof);
        vt.push(performance.now() - t1);
        if (!ok) throw new Error(`${name}: benchmark proof did not verify`);
      }
      out[`${key}_witness_ms`] = Math.round(median(wt) * 10) / 10;
      out[`${key}_prove_ms`] = Math.round(median(pt));
      out[`${key}_verify_ms`] = Math.round(median(vt) * 10) / 10;
      log(
        `${key}: ${JSON.stringify(Object.fromEntries(Object.entries(out).filter(([k]) => k.startsWith(key))))}`,
      );
    }
  } finally {
    await releaseSnarkjsThreads();
  }
  return out;
}

const USAGE = `usage: node scripts/circuits/bench.ts --ruleset NAME [--ptau-dir DIR] [--circuits a,b] [--json FILE]

Per circuit of one ruleset: constraints, public signals, median witness, proof and verification times
(the \`circuits\` suite of \`npm run bench\`).`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('circuits bench', async () => {
    const { values } = parseCli({
      name: 'circuits bench',
      usage: USAGE,
      options: {
        ruleset: { type: 'string', default: 'tiny' },
        'ptau-dir': { type: 'string' },
        circuits: { type: 'string' },
        json: { type: 'string' },
      },
    });
    const ruleset = values.ruleset!;
    if (!shippedRulesetNames.includes(ruleset))
      throw new UsageError(`--ruleset ${ruleset}: unknown; shipped: ${shippedRulesetNames.join(', ')}`);
    const circuits = values.circuits?.split(',') as GameCircuit[] | undefined;
    for (const c of circuits ?? [])
      if (!CIRCUITS.includes(c))
        throw new UsageError(`--circuits ${c}: unknown; circuits: ${CIRCUITS.join(', ')}`);
    if (values.json) outputFile('json', values.json);
    const ptauDir = values['ptau-dir'] ? inputDir('ptau-dir', values['ptau-dir']) : undefined;
    const res = await benchCircuits({
      ruleset,
      ...(ptauDir ? { ptauDir } : {}),
      ...(circuits ? { circuits } : {}),
    });
    const json = JSON.stringify(res, null, 2);
    if (values.json) writeFileSync(values.json, `${json}\n`);
    console.log(json);
  });
}
