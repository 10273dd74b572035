/**
 * Groth16 verification keys and valid proofs made from a known trapdoor, with no circuit: for a key with
 * α, β, γ, δ and ICⱼ = icⱼ·G, any A = a·G1, B = b·G2 and C = c·G1 with
 * a·b = α·β + x·γ + c·δ (x = ic₀ + Σ icⱼ·sⱼ) verifies for the signals s. Tests of verifiers only: whoever knows the
 * trapdoor proves anything.
 */
import type { Curve } from 'ffjavascript';
import type { Groth16VerificationKey } from '../../client/sdk/groth16-batch.ts';
import type { Groth16Proof } from '../../core/mapproof/types.ts';

function rand(r: bigint): bigint {
  const b = crypto.getRandomValues(new Uint8Array(40));
  return b.reduce((v, x) => (v << 8n) | BigInt(x), 0n) % r;
}

function inverse(a: bigint, m: bigint): bigint {
  let [t, nt, rr, nr] = [0n, 1n, m, ((a % m) + m) % m];
  while (nr !== 0n) {
    const q = rr / nr;
    [t, nt] = [nt, t - q * nt];
    [rr, nr] = [nr, rr - q * nr];
  }
  return ((t % m) + m) % m;
}

const g1Json = (c: Curve, k: bigint) => c.G1.toObject(c.G1.toAffine(c.G1.timesScalar(c.G1.g, k))).map(String);
const g2Json = (c: Curve, k: bigint) =>
  (c.G2.toObject(c.G2.toAffine(c.G2.timesScalar(c.G2.g, k))) as bigint[][]).map((u) => u.map(String));

export interface SyntheticKey {
  vkey: Groth16VerificationKey;
  /** A valid proof of `signals` (random ones when omitted). */
  prove(signals?: bigint[]): Groth16Proof;
}

export function syntheticKey(c: Curve, nPublic: number): SyntheticKey {
  const r = c.r;
  const [alpha, beta, gamma, delta] = [rand(r), rand(r), rand(r), rand(r)];
  const ic = Array.from({ length: nPublic + 1 }, () => rand(r));
  const vkey: Groth16VerificationKey = {
    protocol: 'groth16',
    curve: 'bn128',
    nPublic,
    vk_alpha_1: g1Json(c, alpha),
    vk_beta_2: g2Json(c, beta),
    vk_gamma_2: g2Json(c, gamma),
    vk_delta_2: g2Json(c, delta),
    IC: ic.map((k) => g1Json(c, k)),
  };
  return {
    vkey,
    prove(signals = Array.from({ length: nPublic }, () => rand(r))) {
      const x = signals.reduce((acc, s, j) => (acc + s * ic[j + 1]!) % r, ic[0]!);
      const [a, b] = [rand(r) || 1n, rand(r) || 1n];
      const cc = (((a * b - alpha * beta - x * gamma) % r) + r) % r;
      const cScalar = (cc * inverse(delta, r)) % r;
      return {
        proof: {
          pi_a: g1Json(c, a),
          pi_b: g2Json(c, b),
          pi_c: g1Json(c, cScalar),
          protocol: 'groth16',
          curve: 'bn128',
        },
        publicSignals: signals.map(String),
      };
    },
  };
}
