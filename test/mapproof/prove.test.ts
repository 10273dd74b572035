import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { solidityPackedKeccak256 } from 'ethers';
import * as snarkjs from 'snarkjs';
import {
  batchEquation,
  type Groth16Claim,
  invalidGroth16,
  type ParsedClaim,
  parseClaim,
  randomScalars,
} from '../../client/sdk/groth16-batch.ts';
import {
  hashZoneRoots,
  MapProofError,
  type MapProofKeys,
  verifyMapProof,
} from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import {
  commitMap,
  generateMap,
  type Hasher,
  loadHasher,
  seedFromShares,
  shareCommitment,
  shippedRuleset,
} from '../../core/index.ts';
import type { Groth16Proof, MapProof } from '../../core/mapproof/types.ts';
import { ProverPool } from '../../dealer/mapproof/pool.ts';
import { proveMap } from '../../dealer/mapproof/prove.ts';
import { buildCircuits } from '../../scripts/circuits/build.ts';

/** End to end on tiny: the dealer proves every zone and the root, a client verifies against chain values. */
describe('ZK map proof, tiny ruleset', () => {
  const r = shippedRuleset('tiny');
  const b = r.board;
  const gameId = 4242n;
  const players = [0x1111n, 0x2222n];
  const shares = [31n, 32n];
  let h: Hasher;
  let pool: ProverPool;
  let proof: MapProof;
  let vkeys: MapProofKeys;
  let artifacts: { mapchunk: { wasm: string; zkey: string }; maproot: { wasm: string; zkey: string } };
  let map: ReturnType<typeof commitMap>;
  let proved = 0;

  before(async () => {
    h = await loadHasher();
    const arts = await buildCircuits({ ruleset: r, circuits: ['mapchunk', 'maproot'], log: () => {} });
    artifacts = {
      mapchunk: { wasm: arts.mapchunk!.wasm, zkey: arts.mapchunk!.zkey! },
      maproot: { wasm: arts.maproot!.wasm, zkey: arts.maproot!.zkey! },
    };
    vkeys = {
      mapchunk: JSON.parse(readFileSync(arts.mapchunk!.vkey!, 'utf8')),
      maproot: JSON.parse(readFileSync(arts.maproot!.vkey!, 'utf8')),
    };
    pool = new ProverPool(2);
    const seed = seedFromShares(h, shares);
    map = commitMap(h, b, generateMap(h, b, seed), 777n);
    // Resume: zone 2 was proven before a "crash"; it must not be proven again.
    const saved = new Map<number, Groth16Proof>();
    const counting = {
      prove: (input: Record<string, unknown>, a: { wasm: string; zkey: string }) => {
        proved++;
        return pool.prove(input, a);
      },
    } as unknown as ProverPool;
    const job = { board: b, maxPlayers: 2, gameId, players, shares, seed, map, artifacts };
    const first = await proveMap(h, counting, {
      ...job,
      store: { load: async (z) => saved.get(z) ?? null, save: async (z, p) => void saved.set(z, p) },
    });
    assert.equal(proved, b.zoneCount + 1);
    for (const z of [0, 1, 3]) saved.delete(z);
    proved = 0;
    const progress: number[] = [];
    proof = await proveMap(h, counting, {
      ...job,
      store: { load: async (z) => saved.get(z) ?? null, save: async (z, p) => void saved.set(z, p) },
      onProgress: (done) => progress.push(done),
    });
    assert.equal(proved, 4, 'three zones and the root proved again, zone 2 reused');
    assert.deepEqual(progress.at(-1), b.zoneCount + 1);
    assert.deepEqual(proof.chunks[2], first.chunks[2]);
  });

  after(async () => {
    await pool?.close();
    await releaseSnarkjsThreads();
  });

  const claim = () => ({
    board: b,
    maxPlayers: 2,
    gameId,
    players,
    shareCommits: players.map((p, i) => shareCommitment(h, gameId, p, shares[i]!)),
    root: map.tree.root,
  });

  test('a client accepts the honest proof for the chain root', async () => {
    await verifyMapProof(claim(), proof, vkeys);
  });

  test('a client refuses proofs for another root, game or ceremony', async () => {
    const refuse = (c: ReturnType<typeof claim>, p: MapProof = proof) =>
      assert.rejects(verifyMapProof(c, p, vkeys), MapProofError);
    await refuse({ ...claim(), root: map.tree.root + 1n });
    await refuse({ ...claim(), gameId: gameId + 1n });
    await refuse({ ...claim(), shareCommits: [1n, 2n] });
    await refuse({ ...claim(), players: [0x1111n, 0x3333n] });
  });

  test('a client refuses swapped, altered or missing zone proofs', async () => {
    const swapped = { ...proof, chunks: [proof.chunks[1]!, proof.chunks[0]!, ...proof.chunks.slice(2)] };
    await assert.rejects(verifyMapProof(claim(), swapped, vkeys), /zone 0: proof is for another zone/);
    const forged = structuredClone(proof);
    forged.chunks[3]!.publicSignals[0] = forged.root.publicSignals[2 * 2 + 4 + 3]!;
    forged.root.publicSignals[2 * 2 + 4 + 3] = String(BigInt(forged.root.publicSignals[2 * 2 + 4 + 3]!) + 1n);
    await assert.rejects(verifyMapProof(claim(), forged, vkeys), MapProofError);
    const badChunk = structuredClone(proof);
    badChunk.chunks[1]!.proof.pi_a[0] = badChunk.chunks[0]!.proof.pi_a[0]!;
    await assert.rejects(verifyMapProof(claim(), badChunk, vkeys), /zone 1: chunk proof does not verify/);
    await assert.rejects(
      verifyMapProof(claim(), { ...proof, chunks: proof.chunks.slice(1) }, vkeys),
      /3 chunk proofs/,
    );
  });

  // Batch verification (client/sdk/groth16-batch.ts): every claim of the map proof in one multi-pairing.
  const claimsOf = (p: MapProof): Groth16Claim[] => [
    { vkey: vkeys.maproot, ...p.root },
    ...p.chunks.map((c) => ({ vkey: vkeys.mapchunk, ...c })),
  ];
  const snarkjsVerdicts = (cs: Groth16Claim[]) =>
    Promise.all(
      cs.map((c) =>
        snarkjs.groth16.verify(c.vkey, c.publicSignals as string[], c.proof as Groth16Proof['proof']),
      ),
    );
  const curve = () => snarkjs.curves.getCurveFromName('bn128');
  /** A G1 point as snarkjs writes it. */
  const g1Json = async (p: Uint8Array) =>
    (await curve()).G1.toObject((await curve()).G1.toAffine(p)).map(String);

  test('batch verification agrees with snarkjs on the honest proofs', async () => {
    const cs = claimsOf(proof);
    assert.deepEqual(await invalidGroth16(await curve(), cs), []);
    assert.deepEqual(
      await snarkjsVerdicts(cs),
      cs.map(() => true),
    );
  });

  test('a batch with one bad proof fails and names its zone; snarkjs rejects that proof alone', async () => {
    const bad = structuredClone(proof);
    bad.chunks[2]!.proof.pi_c = [...proof.chunks[3]!.proof.pi_c]; // a valid point, from another proof
    const err = await verifyMapProof(claim(), bad, vkeys).then(
      () => assert.fail('accepted'),
      (e) => e,
    );
    assert.ok(err instanceof MapProofError);
    assert.equal(err.zone, 2);
    assert.match(err.message, /zone 2: chunk proof does not verify$/);
    assert.deepEqual(await snarkjsVerdicts(claimsOf(bad)), [true, true, true, false, true]);
    const badRoot = structuredClone(proof);
    badRoot.root.proof.pi_c = [...proof.chunks[0]!.proof.pi_c];
    await assert.rejects(verifyMapProof(claim(), badRoot, vkeys), (e: MapProofError) => e.zone === null);
  });

  test('proofs swapped between zones (signals left in place) fail, naming the first zone', async () => {
    const swapped = structuredClone(proof);
    swapped.chunks[0]!.proof = proof.chunks[1]!.proof;
    swapped.chunks[1]!.proof = proof.chunks[0]!.proof;
    await assert.rejects(
      verifyMapProof(claim(), swapped, vkeys),
      (e: MapProofError) => e.zone === 0 && /2 of 5 proofs fail/.test(e.message),
    );
    assert.deepEqual(await snarkjsVerdicts(claimsOf(swapped)), [true, false, false, true, true]);
  });

  test('two invalid proofs whose errors cancel under equal weights are both caught', async () => {
    const c = await curve();
    const base = proof.chunks[0]!;
    const C = c.G1.fromObject(base.proof.pi_c.slice(0, 2).map(BigInt));
    const D = c.G1.fromObject(proof.chunks[1]!.proof.pi_a.slice(0, 2).map(BigInt));
    const plus = structuredClone(base);
    plus.proof.pi_c = await g1Json(c.G1.add(C, D));
    const minus = structuredClone(base);
    minus.proof.pi_c = await g1Json(c.G1.add(C, c.G1.neg(D)));
    const cs: Groth16Claim[] = [plus, minus].map((p) => ({ vkey: vkeys.mapchunk, ...p }));
    const parsed = cs.map((x) => parseClaim(c, x)) as ParsedClaim[];
    // The attack the random weights stop: with weights anyone can predict, the pair passes.
    assert.equal(await batchEquation(c, parsed, [1n, 1n]), true);
    assert.deepEqual(
      (await invalidGroth16(c, cs)).map((x) => x.index),
      [0, 1],
    );
    assert.deepEqual(await snarkjsVerdicts(cs), [false, false]);
  });

  test('points off the curve or off G2, at infinity, non-canonical, and signals ≥ r never reach the pairing', async () => {
    const c = await curve();
    const chunk = proof.chunks[1]!;
    const variant = (f: (p: Groth16Proof) => void): Groth16Claim => {
      const p = structuredClone(chunk);
      f(p);
      return { vkey: vkeys.mapchunk, ...p };
    };
    // A point of the twist outside the order-r subgroup (the cofactor is ~2²⁵⁴: any point found this way).
    let offG2: string[][] | undefined;
    for (let k = 1n; !offG2; k++) {
      const x = c.F2.fromObject([k, 1n]);
      const rhs = c.F2.add(c.F2.mul(c.F2.square(x), x), c.G2.b);
      if (!c.F2.isSquare(rhs)) continue;
      const pt = new Uint8Array(128);
      pt.set(x);
      pt.set(c.F2.sqrt(rhs), 64);
      assert.ok(c.G2.isValid(pt), 'on the twist');
      offG2 = (c.G2.toObject(pt) as bigint[][]).map((u) => u.map(String));
    }
    const q = c.q;
    const cases: [string, Groth16Claim, RegExp][] = [
      ['B off G2', variant((p) => void (p.proof.pi_b = offG2!)), /pi_b is not in G2/],
      ['A off the curve', variant((p) => void (p.proof.pi_a[1] = '5')), /pi_a is not on the curve/],
      ['A at infinity', variant((p) => void (p.proof.pi_a = ['0', '1', '0'])), /pi_a is not an affine G1/],
      [
        'A with x + q',
        variant((p) => void (p.proof.pi_a[0] = String(BigInt(p.proof.pi_a[0]!) + q))),
        /pi_a.x is not below the modulus/,
      ],
      [
        'a signal + r',
        variant((p) => void (p.publicSignals[1] = String(BigInt(p.publicSignals[1]!) + c.r))),
        /publicSignals\[1\] is not below the modulus/,
      ],
      [
        'a hex signal',
        variant((p) => void (p.publicSignals[1] = '0x1')),
        /publicSignals\[1\] is not a decimal/,
      ],
      ['a missing signal', variant((p) => void p.publicSignals.pop()), /2 public signals, the key takes 3/],
    ];
    for (const [what, cl, reason] of cases) {
      const r = parseClaim(c, cl);
      assert.equal(typeof r, 'string', what);
      assert.match(r as string, reason, what);
    }
    const all = [{ vkey: vkeys.mapchunk, ...chunk }, ...cases.map((x) => x[1])];
    assert.deepEqual(
      (await invalidGroth16(c, all)).map((x) => x.index),
      cases.map((_, i) => i + 1),
      'the honest one passes, every malformed one is named',
    );
    // snarkjs agrees where it checks: a signal ≥ r or a point off the curve is refused there too.
    assert.deepEqual(await snarkjsVerdicts([cases[1]![1], cases[4]![1]]), [false, false]);
  });

  test('weights are distinct 128-bit values from the CSPRNG; Math.random is never used', async () => {
    const w = randomScalars(256);
    assert.equal(new Set(w).size, 256);
    assert.ok(w.every((x) => x > 0n && x < 1n << 128n));
    assert.ok(
      w.some((x) => x >= 1n << 127n),
      'the top bit is used',
    );
    const random = Math.random;
    const getRandomValues = crypto.getRandomValues;
    let draws = 0;
    Math.random = () => assert.fail('Math.random called');
    crypto.getRandomValues = (<T extends ArrayBufferView | null>(a: T): T => {
      draws++;
      return getRandomValues.call(crypto, a as never) as T;
    }) as typeof crypto.getRandomValues;
    try {
      await verifyMapProof(claim(), proof, vkeys);
    } finally {
      Math.random = random;
      crypto.getRandomValues = getRandomValues;
    }
    assert.equal(draws, b.zoneCount + 1, 'one weight per proof');
  });

  test('with the registry record, the proof must be the one the chain verified', async () => {
    const M = 2;
    const zoneRoots = proof.root.publicSignals.slice(2 * M + 4).map(BigInt);
    const seedHash = BigInt(proof.root.publicSignals[2 * M + 2]!);
    assert.equal(hashZoneRoots(zoneRoots), solidityPackedKeccak256(['uint256[]'], [zoneRoots]));
    const recorded = { zoneRootsHash: hashZoneRoots(zoneRoots), seedHash };
    await verifyMapProof({ ...claim(), recorded }, proof, vkeys);
    await assert.rejects(
      verifyMapProof({ ...claim(), recorded: { ...recorded, seedHash: seedHash + 1n } }, proof, vkeys),
      /not the one the chain recorded \(seed hash\)/,
    );
    const other = hashZoneRoots([...zoneRoots.slice(1), zoneRoots[0]!]);
    await assert.rejects(
      verifyMapProof({ ...claim(), recorded: { ...recorded, zoneRootsHash: other } }, proof, vkeys),
      /not the one the chain recorded \(zone roots\)/,
    );
  });

  test('a malformed response from the dealer is refused, not thrown on', async () => {
    for (const junk of [{}, { root: null, chunks: [] }, { root: { publicSignals: 'x' }, chunks: [] }])
      await assert.rejects(verifyMapProof(claim(), junk as unknown as MapProof, vkeys), MapProofError);
    const noProof = structuredClone(proof) as unknown as { chunks: { proof: unknown }[] };
    noProof.chunks[1]!.proof = null;
    await assert.rejects(
      verifyMapProof(claim(), noProof as unknown as MapProof, vkeys),
      /zone 1: chunk proof does not verify \(no proof\)/,
    );
  });
});
