/**
 * The snarkjs steps of a phase-2 ceremony, through its CLI as the circuit build runs it (`snark`: a child
 * process, output appended to the ceremony's log). Contribution hashes are read from what snarkjs prints,
 * so they are exactly the ones `snarkjs zkey verify` shows anyone who checks the files by hand.
 */
import { snark } from '../circuits/build.ts';

/** A contribution as `zkey verify` lists it (a beacon carries its value and iterations). */
export interface ZkeyContribution {
  /** 1-based. */
  index: number;
  name: string;
  hash: string;
  beacon?: { hash: string; iterations: number };
}

/** The name the beacon step carries in the zkey. */
export const BEACON_NAME = 'shroud ceremony beacon';

export type ZkeyCheck =
  | { ok: true; contributions: ZkeyContribution[] }
  /** `index`: the 1-based contribution snarkjs rejected, when it says which. */
  | { ok: false; reason: string; index?: number };

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const plain = (out: string) => out.replace(ANSI, '');
/** snarkjs `formatHash`: a title line, then 4 lines of 4 groups of 8 hex digits. */
const HASH_BODY = '((?:\\s+[0-9a-f]{8}){16})';
const joinHash = (body: string) => body.replace(/\s+/g, '');

/** The hash snarkjs printed under `title` (e.g. `Contribution Hash:`). */
export function printedHash(out: string, title: string): string {
  const m = new RegExp(`${title}${HASH_BODY}`).exec(plain(out));
  if (!m) throw new Error(`snarkjs printed no "${title}"`);
  return joinHash(m[1]!);
}

/** The contributions `zkey verify` lists after "ZKey Ok!" checks pass (it prints them newest first). */
export function listedContributions(out: string): ZkeyContribution[] {
  const text = plain(out);
  const list: ZkeyContribution[] = [];
  const re = new RegExp(
    `contribution #(\\d+) (.*):${HASH_BODY}(?:\\n[^\\n]*?Beacon generator: ([0-9a-f]+)\\n[^\\n]*?Beacon iterations Exp: (\\d+))?`,
    'g',
  );
  for (const m of text.matchAll(re)) {
    const c: ZkeyContribution = { index: Number(m[1]), name: m[2]!, hash: joinHash(m[3]!) };
    if (m[4] !== undefined) c.beacon = { hash: m[4], iterations: Number(m[5]) };
    list.push(c);
  }
  return list.sort((a, b) => a.index - b.index);
}

/** `groth16 setup`: the zkey with no contribution yet. */
export async function newZkey(r1cs: string, ptau: string, out: string, log: string, what: string) {
  await snark(['groth16', 'setup', r1cs, ptau, out], log, `zkey new ${what}`);
}

/** Applies one contribution; returns its hash. snarkjs mixes its own 64 random bytes into `entropy`. */
export async function contributeZkey(
  prev: string,
  next: string,
  name: string,
  entropy: string,
  log: string,
  what: string,
): Promise<string> {
  const out = await snark(
    ['zkey', 'contribute', prev, next, `-n=${name}`, `-e=${entropy}`],
    log,
    `zkey contribute ${what} (${name})`,
  );
  return printedHash(out, 'Contribution Hash:');
}

/** Applies the public beacon; returns its contribution hash. */
export async function beaconZkey(
  prev: string,
  next: string,
  hash: string,
  iterations: number,
  log: string,
  what: string,
): Promise<string> {
  const out = await snark(
    ['zkey', 'beacon', prev, next, hash, String(iterations), `-n=${BEACON_NAME}`],
    log,
    `zkey beacon ${what}`,
  );
  return printedHash(out, 'Contribution Hash:');
}

/**
 * `zkey verify`: the zkey derives from this r1cs and ptau through a consistent chain of contributions.
 * On failure, the 1-based index of the contribution snarkjs found broken when it names one.
 */
export async function verifyZkey(
  r1cs: string,
  ptau: string,
  zkey: string,
  log: string,
  what: string,
): Promise<ZkeyCheck> {
  let out: string;
  try {
    out = await snark(['zkey', 'verify', r1cs, ptau, zkey], log, `zkey verify ${what}`);
  } catch (e) {
    const reason = (e as Error).message;
    const i = /INVALID\((\d+)\)/.exec(reason)?.[1];
    return { ok: false, reason, ...(i === undefined ? {} : { index: Number(i) + 1 }) };
  }
  if (!/ZKey Ok!/.test(out)) return { ok: false, reason: 'zkey verify did not print "ZKey Ok!"' };
  return { ok: true, contributions: listedContributions(out) };
}

/** The verification key and the Solidity verifier of a final zkey. */
export async function exportKeys(zkey: string, vkey: string, sol: string, log: string, what: string) {
  await snark(['zkey', 'export', 'verificationkey', zkey, vkey], log, `export vkey ${what}`);
  await snark(['zkey', 'export', 'solidityverifier', zkey, sol], log, `export Solidity verifier ${what}`);
}
