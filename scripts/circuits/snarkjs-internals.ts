/**
 * The few snarkjs helpers the development ptau and zkeys need that its package does not export (the ptau
 * header and contribution writers, the beacon key, the hasher snapshot), loaded from its sources by
 * path. snarkjs is pinned in package.json; `test/circuits/devptau.test.ts` fails if they move.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChaCha, Curve } from 'ffjavascript';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.resolve('snarkjs'))), 'src');
const load = <T>(file: string): Promise<T> => import(pathToFileURL(path.join(SRC, file)).href) as Promise<T>;

/** What snarkjs's binary writers call on a file descriptor. */
export interface SnarkFd {
  pos: number;
  write(buff: Uint8Array, pos?: number): Promise<void>;
  writeULE32(v: number, pos?: number): Promise<void>;
  writeULE64(v: number, pos?: number): Promise<void>;
}

/** A contribution's secret and public key (snarkjs keypair.js). */
export interface PtauKey {
  tau: { prvKey: Uint8Array };
  alpha: { prvKey: Uint8Array };
  beta: { prvKey: Uint8Array };
}

export interface Contribution {
  name: string;
  type: 0 | 1;
  numIterationsExp?: number;
  beaconHash?: Uint8Array;
  key: PtauKey;
  tauG1: Uint8Array;
  tauG2: Uint8Array;
  alphaG1: Uint8Array;
  betaG1: Uint8Array;
  betaG2: Uint8Array;
  partialHash: Uint8Array;
  nextChallenge: Uint8Array;
}

/** noble's streaming blake2b (the copy snarkjs uses, so its hasher snapshot reads the right fields). */
export interface Hasher {
  update(b: Uint8Array): Hasher;
  digest(): Uint8Array;
}

export interface SnarkjsInternals {
  getCurve(): Promise<Curve>;
  writePTauHeader(fd: SnarkFd, curve: Curve, power: number): Promise<void>;
  writeContributions(fd: SnarkFd, curve: Curve, c: Contribution[]): Promise<void>;
  calculateFirstChallengeHash(curve: Curve, power: number): Uint8Array;
  keyFromBeacon(curve: Curve, challenge: Uint8Array, beacon: Uint8Array, iterExp: number): Promise<PtauKey>;
  toPtauPubKeyRpr(buff: Uint8Array, pos: number, curve: Curve, key: PtauKey, montgomery: boolean): void;
  toPartialHash(h: Hasher): Uint8Array;
  blake2b(): Hasher;
  /** The beacon's random stream: SHA-256 iterated 2^iterExp times, then ChaCha (snarkjs misc.js). */
  rngFromBeaconParams(beacon: Uint8Array, iterExp: number): Promise<ChaCha>;
  /** A G2 point from a transcript hash (snarkjs keypair.js). */
  hashToG2(curve: Curve, hash: Uint8Array): Uint8Array;
}

export async function snarkjsInternals(): Promise<SnarkjsInternals> {
  const utils =
    await load<Omit<SnarkjsInternals, 'getCurve' | 'toPartialHash' | 'blake2b'>>('powersoftau_utils.js');
  const misc = await load<Pick<SnarkjsInternals, 'toPartialHash' | 'rngFromBeaconParams'>>('misc.js');
  const keypair = await load<Pick<SnarkjsInternals, 'hashToG2'>>('keypair.js');
  const curves = await load<{ getCurveFromName(n: string, o?: { singleThread?: boolean }): Promise<Curve> }>(
    'curves.js',
  );
  const noble = createRequire(path.join(SRC, 'misc.js')).resolve('@noble/hashes/blake2b');
  const { blake2b } = (await import(pathToFileURL(noble).href)) as {
    blake2b: { create(o: { dkLen: number }): Hasher };
  };
  return {
    // Single-threaded: the heavy work is ours (fixedbase.ts); this also exposes the wasm code.
    getCurve: () => curves.getCurveFromName('bn128', { singleThread: true }),
    writePTauHeader: utils.writePTauHeader,
    writeContributions: utils.writeContributions,
    calculateFirstChallengeHash: utils.calculateFirstChallengeHash,
    keyFromBeacon: utils.keyFromBeacon,
    toPtauPubKeyRpr: utils.toPtauPubKeyRpr,
    toPartialHash: misc.toPartialHash,
    rngFromBeaconParams: misc.rngFromBeaconParams,
    hashToG2: keypair.hashToG2,
    blake2b: () => blake2b.create({ dkLen: 64 }),
  };
}
