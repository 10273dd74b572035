/**
 * `ceremony beacon`: the last step, a public random beacon (e.g. the hash of a block chosen in advance)
 * applied to every circuit. Anyone can recompute it, so it adds no secret; it closes the ceremony so that
 * no last contributor could have chosen their contribution after seeing the others'.
 */

import { inputDir, intFlag, parseCli, required, UsageError } from '../../lib/cli.ts';
import { timed } from '../circuits/build.ts';
import { applyStep } from './chain.ts';
import { logFile, readCeremony } from './record.ts';
import type { BeaconRecord } from './types.ts';
import type { Ui } from './ui.ts';
import { beaconZkey } from './zkey.ts';

export interface BeaconOptions {
  dir: string;
  /** Hex, 1..255 bytes (snarkjs's limits). */
  hash: string;
  /** numIterationsExp: 2^N hash rounds, 10..63. */
  iterations: number;
}

export async function applyBeacon(o: BeaconOptions, ui: Ui): Promise<void> {
  const rec = readCeremony(o.dir);
  for (const c of rec.circuits) {
    if (c.beacon) throw new Error(`${c.id}: the beacon is already applied`);
    if (c.contributions.length === 0)
      throw new Error(`${c.id}: no contribution yet; the beacon comes after the contributions`);
  }
  await applyStep(
    o.dir,
    rec,
    (c, prev, next) =>
      timed(
        ui.progress,
        `beacon ${c.id}`,
        undefined,
        () => beaconZkey(prev, next, o.hash, o.iterations, logFile(o.dir), c.id),
        `ceremony beacon ${c.id}`,
      ),
    ({ c, zkeySha256, result }) => {
      const b: BeaconRecord = {
        hash: o.hash,
        iterations: o.iterations,
        contributionHash: result,
        prev: c.zkeySha256,
        zkeySha256,
      };
      c.beacon = b;
      ui.print(`beacon: ${c.id} ${o.hash} 2^${o.iterations} → contribution hash ${result}`);
    },
  );
}

export const BEACON_USAGE = `usage: npm run ceremony -- beacon --dir DIR --hash HEX --iterations N

Applies a public random beacon to every circuit, after the last contribution: a value nobody could know
when the contributions were made (announce beforehand, e.g., the hash of a future block). Closes the
ceremony: verify, then finalize.
  --dir         the ceremony folder
  --hash        the beacon, hex (1..255 bytes, no 0x)
  --iterations  N: the beacon is hashed 2^N times (10..63; snarkjs's numIterationsExp)`;

export async function beaconCli(argv: string[], ui: Ui): Promise<void> {
  const { values } = parseCli(
    {
      name: 'ceremony',
      usage: BEACON_USAGE,
      options: { dir: { type: 'string' }, hash: { type: 'string' }, iterations: { type: 'string' } },
    },
    argv,
  );
  const dir = inputDir('dir', required('dir', values.dir));
  const hash = required('hash', values.hash).replace(/^0x/i, '').toLowerCase();
  if (!/^([0-9a-f]{2}){1,255}$/.test(hash))
    throw new UsageError(`--hash ${values.hash}: hex bytes expected (1..255 bytes)`);
  const iterations = intFlag('iterations', required('iterations', values.iterations), 10, 63);
  await applyBeacon({ dir, hash, iterations }, ui);
}
