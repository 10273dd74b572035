import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { BASE8, mulPoint, type Point, SUBGROUP_ORDER } from '../../core/babyjub.ts';
import {
  generateSealKey,
  type SealContext,
  type SealKeyPair,
  sealContext,
  sealShare,
} from '../../core/sealed.ts';
import type { CircuitInput } from '../../core/witness/inputs.ts';
import { buildSealCircuit, inspectFindings } from '../../scripts/circuits/build.ts';
import { readSealArtifacts, selectorFor } from '../../scripts/contracts/rulesets.ts';
import { generateVerifiers } from '../../scripts/contracts/verifiers.ts';
import { type LoadedCircuit, loadSeal, P, rejects, str } from './helpers.ts';

after(async () => {
  await releaseSnarkjsThreads();
});

const ctx: SealContext = { gameId: 0xc0ffeen, player: 0x70997970c51812dc3a010c7d01b50e0d17dc79c8n };
const share = 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn;
const e = 0x0fedcba987654321fedcba987654321fedcba987654321fedcba9876543210n;

let c: LoadedCircuit;
let key: SealKeyPair;
before(async () => {
  c = await loadSeal();
  key = generateSealKey();
});

const pt = (q: Point): string[] => [str(q[0]), str(q[1])];

/** Wire index of a main-component signal, from the .sym file (undefined when --O2 removed it). */
function wireOf(name: string): number | undefined {
  const sym = readFileSync(path.join(c.art.dir, 'seal.sym'), 'utf8');
  for (const line of sym.split('\n')) {
    const [, wire, , n] = line.split(',');
    if (n === `main.${name}`) return Number(wire) >= 0 ? Number(wire) : undefined;
  }
  throw new Error(`no signal main.${name}`);
}

describe('seal circuit (SealedShare)', () => {
  test('5 public inputs, no outputs, about 3.9k constraints (fits a power-12 ptau)', () => {
    assert.equal(c.art.publicInputs, 5);
    assert.equal(c.art.publicOutputs, 0);
    assert.equal(c.art.privateInputs, 5); // gameId, dealerKey (2), share, ephemeralSecret
    assert.ok(c.art.constraints < 4096, `${c.art.constraints} constraints`);
  });

  test('honest witnesses satisfy the R1CS and carry the plan public signals', async () => {
    const l = SUBGROUP_ORDER;
    // Random e, and edge scalars: 1, l − 1, l (E = identity), l + 1, 2^253 − 1.
    for (const eph of [undefined, e, 1n, l - 1n, l, l + 1n, (1n << 253n) - 1n]) {
      const { plan } = sealShare(c.h, key.publicKey, share, ctx, eph ? { ephemeralSecret: eph } : {});
      const w = await c.witness(plan.input);
      assert.ok(c.satisfies(w));
      assert.deepEqual(c.publicOf(w), plan.publicSignals, `e = ${eph}`);
    }
  });

  test('wrong share, ciphertext, ephemeral key, context, dealer key, game or player: no witness', async () => {
    const { sealed, plan } = sealShare(c.h, key.publicKey, share, ctx, { ephemeralSecret: e });
    const base = plan.input;
    const E = mulPoint(BASE8, e);
    assert.equal(sealed.ephemeralY, E[1]);
    const other = generateSealKey().publicKey;
    const bad: [string, CircuitInput][] = [
      ['share + 1 (commitment and pad)', { ...base, share: str(share + 1n) }],
      ['commitment + 1', { ...base, commitment: str(BigInt(base.commitment as string) + 1n) }],
      ['ciphertext + 1', { ...base, ciphertext: str((sealed.ciphertext + 1n) % P) }],
      ['ciphertext − 1', { ...base, ciphertext: str((sealed.ciphertext - 1n + P) % P) }],
      ['ephemeralY of (e+1)·BASE8', { ...base, ephemeralY: str(mulPoint(BASE8, e + 1n)[1]) }],
      ['ephemeralY of BASE8', { ...base, ephemeralY: str(BASE8[1]) }],
      ['ephemeralY + 1', { ...base, ephemeralY: str(E[1] + 1n) }],
      [
        'dealerKey off the curve',
        { ...base, dealerKey: [str(key.publicKey[0]), str(key.publicKey[1] + 1n)] },
      ],
      // The context pins the key: another key (even one consistent with its own context) fails here.
      ['another dealer key', { ...base, dealerKey: pt(other) }],
      ['sealContext of another key', { ...base, sealContext: str(sealContext(c.h, ctx.gameId, other)) }],
      [
        'sealContext of another game',
        { ...base, sealContext: str(sealContext(c.h, ctx.gameId + 1n, key.publicKey)) },
      ],
      ['gameId + 1', { ...base, gameId: str(ctx.gameId + 1n) }],
      ['another player', { ...base, player: str(ctx.player ^ 1n) }],
      ['ephemeralSecret + 2^253', { ...base, ephemeralSecret: str(e + (1n << 253n)) }],
      ['ephemeralSecret = e + l·k ≥ 2^253', { ...base, ephemeralSecret: str(e + 6n * SUBGROUP_ORDER) }],
      ['ephemeralSecret = p − 1', { ...base, ephemeralSecret: str(P - 1n) }],
    ];
    assert.ok(e + 6n * SUBGROUP_ORDER >= 1n << 253n && e + 6n * SUBGROUP_ORDER < P);
    assert.ok(e + (1n << 253n) < P, 'the circuit, not the input guard, refuses it');
    for (const [what, input] of bad) assert.ok(await rejects(c, input), what);
    // A share sealed for another game or player does not verify here, even with its own commitment.
    for (const o of [
      { ...ctx, gameId: ctx.gameId + 1n },
      { ...ctx, player: ctx.player + 1n },
    ]) {
      const moved = sealShare(c.h, key.publicKey, share, o, { ephemeralSecret: e }).plan.input;
      assert.ok(await rejects(c, { ...moved, gameId: str(ctx.gameId), player: str(ctx.player) }));
      assert.ok(await rejects(c, { ...base, gameId: str(o.gameId), player: str(o.player) }));
    }
    // Inputs ≥ p are refused before witness generation (circom would reduce them).
    assert.ok(await rejects(c, { ...base, ciphertext: str(sealed.ciphertext + P) }));
  });

  test('a tampered witness (edited ECDH point S or pad) does not satisfy the R1CS', async () => {
    const { plan } = sealShare(c.h, key.publicKey, share, ctx, { ephemeralSecret: e });
    const w = await c.witness(plan.input);
    assert.ok(c.satisfies(w));
    const S = mulPoint(key.publicKey, e);
    const sx = wireOf('S[0]');
    const sy = wireOf('S[1]');
    assert.ok(sx !== undefined && sy !== undefined, 'S is a wire');
    assert.deepEqual([w[sx], w[sy]], [S[0], S[1]]);
    const edit = (edits: [number, bigint][]) => {
      const t = w.slice();
      for (const [i, v] of edits) t[i] = v;
      return c.satisfies(t);
    };
    assert.equal(edit([[sx, (S[0] + 1n) % P]]), false, 'S.x + 1');
    assert.equal(edit([[sy, (S[1] + 1n) % P]]), false, 'S.y + 1');
    // Another curve point, e.g. (e+1)·P or S + BASE8: still bound by the EscalarMulAny constraints.
    const S2 = mulPoint(key.publicKey, e + 1n);
    assert.equal(
      edit([
        [sx, S2[0]],
        [sy, S2[1]],
      ]),
      false,
      'S = (e+1)·P',
    );
    // The pad: --O2 folds `pad` into `ciphertext − share`; editing it means editing the public ciphertext
    // (or a wire of its own when the optimiser keeps one) with everything else unchanged.
    const padWire = wireOf('pad');
    const pad = c.h.hash([S[0], S[1], ctx.gameId, ctx.player]);
    if (padWire !== undefined) assert.equal(edit([[padWire, (pad + 1n) % P]]), false, 'pad + 1');
    const cw = wireOf('ciphertext')!;
    assert.equal(w[cw], (share + pad) % P);
    assert.equal(edit([[cw, (w[cw]! + 1n) % P]]), false, 'ciphertext + 1 (pad + 1)');
    const shareWire = wireOf('share')!;
    assert.equal(edit([[shareWire, (share + 1n) % P]]), false, 'share + 1');
  });

  test('the build drops only the known circomlib --inspect warnings', () => {
    const known = (t: string) =>
      `warning[CA02]: In template "${t}": Array of subcomponent input/output signals segments[1].dbl contains a total of 2 signals that do not appear in any constraint of the father component\n = For example: segments[1].dbl[0], segments[1].dbl[1].\n`;
    const out = `Everything went okay\n${known('EscalarMulFix(253,[1,2])')}\n${known('EscalarMulAny(253)')}\n`;
    assert.doesNotMatch(inspectFindings(out), /warning/);
    assert.match(
      inspectFindings(`${out}${known('MyTemplate()')}`),
      /warning\[CA02\]: In template "MyTemplate/,
    );
    assert.match(inspectFindings(known('EscalarMulAny(253)').replace('segments[1].dbl', 'e')), /warning/);
  });
});

describe('seal circuit: Groth16', () => {
  const quiet = { log: () => {}, info: () => {}, debug: () => {}, warn: () => {}, error: () => {} };

  test('proves and verifies; every edited public signal fails', async () => {
    const art = await buildSealCircuit({ log: () => {} });
    assert.match(readFileSync(art.verifier!, 'utf8'), /uint\[5\] calldata _pubSignals/);
    const vkey = JSON.parse(readFileSync(art.vkey!, 'utf8'));
    assert.equal(vkey.nPublic, 5);
    const { plan } = sealShare(c.h, key.publicKey, share, ctx);
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(
      plan.input as never,
      art.wasm,
      art.zkey!,
    );
    assert.deepEqual(publicSignals.map(BigInt), plan.publicSignals);
    assert.equal(await snarkjs.groth16.verify(vkey, publicSignals, proof, quiet), true);
    for (let i = 0; i < publicSignals.length; i++) {
      const edited = publicSignals.slice();
      edited[i] = ((BigInt(edited[i]!) + 1n) % P).toString();
      assert.equal(await snarkjs.groth16.verify(vkey, edited, proof, quiet), false, `signal ${i} edited`);
    }
  });

  test('generateVerifiers always writes SealVerifier.sol, seal/ artifacts and seal.json', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'shroud-verifiers-'));
    try {
      const manifest = await generateVerifiers({
        rulesets: [],
        outDir: out,
        log: () => {},
      });
      assert.deepEqual(manifest, {});
      const seal = readSealArtifacts(out);
      assert.equal(seal.contract, 'SealVerifier');
      assert.equal(seal.nPublic, 5);
      assert.equal(seal.selector, selectorFor(5));
      for (const f of [seal.vkey, seal.zkey, seal.wasm])
        assert.ok(existsSync(f) && f.startsWith(path.join(out, 'seal')));
      const sol = readFileSync(path.join(out, 'SealVerifier.sol'), 'utf8');
      assert.match(sol, /\bcontract SealVerifier\b/);
      assert.doesNotMatch(sol, /Groth16Verifier/);
      assert.deepEqual(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')), {});
      assert.throws(() => readSealArtifacts(path.join(out, 'nowhere')), /seal\.json not found/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
