/**
 * Whether a Groth16 verification key is the one a deployed verifier contract checks with. snarkjs' Solidity
 * template compiles every constant of the key (alpha, beta, gamma, delta, each IC point) into the contract's code as
 * a literal, pushed whole (PUSH1..PUSH32, its leading zero bytes dropped), so each coordinate's bytes appear in the
 * runtime code. A key of another circuit or another setup shares none of them but by chance (2^-248 per
 * coordinate). Pure: the caller reads the code (`provider.getCode(verifier)`).
 */
import type { Groth16VerificationKey } from './groth16-batch.ts';

/** The big-endian bytes of a decimal field element, without leading zero bytes, as lower-case hex. */
function pushedHex(decimal: string): string {
  const hex = BigInt(decimal).toString(16);
  return hex.length % 2 ? `0${hex}` : hex;
}

/** The key's coordinates that its verifier contract holds as constants. */
function constants(vkey: Groth16VerificationKey): string[] {
  const g1 = (p: readonly string[]) => [p[0]!, p[1]!];
  const g2 = (p: readonly (readonly string[])[]) => [...p[0]!, ...p[1]!];
  return [
    ...g1(vkey.vk_alpha_1),
    ...g2(vkey.vk_beta_2),
    ...g2(vkey.vk_gamma_2),
    ...g2(vkey.vk_delta_2),
    ...vkey.IC.flatMap(g1),
  ];
}

/** True when every constant of `vkey` is in `code` (0x-hex runtime bytecode); false for no code at all. */
export function vkeyInVerifierCode(vkey: Groth16VerificationKey, code: string): boolean {
  const body = code.toLowerCase().replace(/^0x/, '');
  if (body.length === 0) return false;
  // A coordinate of a few bytes could occur anywhere: only ones of 16 bytes or more count (all but ~2^-128 of them).
  const big = constants(vkey)
    .map(pushedHex)
    .filter((h) => h.length >= 32);
  return big.length > 0 && big.every((h) => body.includes(h));
}
