/**
 * `ceremony contribute`: one contributor's secret randomness applied to every circuit's latest zkey, each
 * contribution attested by a signature of the contributor's Ethereum key. A contributor runs it on their
 * own machine, on the folder the previous contributor passed on, then passes the folder on.
 */
import { randomBytes } from 'node:crypto';
import type { HDNodeWallet, Wallet } from 'ethers';
import { inputDir, parseCli, required, UsageError } from '../../lib/cli.ts';
import { timed } from '../circuits/build.ts';
import { attestationText, CONTRIBUTOR_KEY_ENV, contributorWallet } from './attest.ts';
import { applyStep } from './chain.ts';
import { logFile, readCeremony } from './record.ts';
import type { CeremonyRecord, ContributionRecord } from './types.ts';
import type { Ui } from './ui.ts';
import { contributeZkey } from './zkey.ts';

export interface ContributeOptions {
  dir: string;
  name: string;
  /** Extra text mixed into the randomness (snarkjs adds 64 random bytes of its own either way). */
  entropy?: string;
  wallet: Wallet | HDNodeWallet;
}

/** snarkjs keeps 64 characters of a name; the attestation text is one line of printable ASCII. */
const NAME = /^[A-Za-z0-9][\x20-\x7e]{0,63}$/;

/** The ceremony to contribute to; refuses a bad name or a closed ceremony before any work. */
function openCeremony(o: Pick<ContributeOptions, 'dir' | 'name'>): CeremonyRecord {
  if (!NAME.test(o.name) || o.name.trimEnd() !== o.name)
    throw new UsageError(
      `--name "${o.name}": 1 to 64 printable ASCII characters, starting with a letter or digit`,
    );
  const rec = readCeremony(o.dir);
  const closed = rec.circuits.find((c) => c.beacon);
  if (closed)
    throw new Error(`${closed.id}: the beacon is applied; the ceremony takes no more contributions`);
  return rec;
}

export async function contribute(o: ContributeOptions, ui: Ui): Promise<ContributionRecord[]> {
  const rec = openCeremony(o);
  const made: ContributionRecord[] = [];
  await applyStep(
    o.dir,
    rec,
    async (c, prev, next) => {
      const hash = await timed(
        ui.progress,
        `contribute ${c.id}`,
        undefined,
        () =>
          contributeZkey(
            prev,
            next,
            o.name,
            o.entropy ?? randomBytes(32).toString('hex'),
            logFile(o.dir),
            c.id,
          ),
        `ceremony contribute ${c.id}`,
      );
      const fields = { index: c.contributions.length + 1, name: o.name, hash, prev: c.zkeySha256 };
      const signature = await o.wallet.signMessage(attestationText(c.id, fields));
      return { ...fields, address: o.wallet.address, signature };
    },
    ({ c, zkeySha256, result }) => {
      const r: ContributionRecord = { ...result, zkeySha256 };
      c.contributions.push(r);
      made.push(r);
      ui.print(`attestation: ${attestationText(c.id, r)} | signer ${r.address} | signature ${r.signature}`);
    },
  );
  return made;
}

export const CONTRIBUTE_USAGE = `usage: ${CONTRIBUTOR_KEY_ENV}=0x… npm run ceremony -- contribute --dir DIR --name NAME [--entropy TEXT]

Applies your contribution to every circuit's latest zkey in DIR (the folder the previous contributor passed
on; it refuses a zkey that is not the one ceremony.json records), then prints one attestation per circuit
signed with your Ethereum key (EIP-191):
  shroud-ceremony v1 <circuit> #<n> <name> <contribution hash> prev <previous zkey sha256>
Pass the folder on to the next contributor. The secret exists only in snarkjs's memory during the run.
  --dir       the ceremony folder
  --name      your name as recorded in the zkeys and the manifest (1..64 printable ASCII characters)
  --entropy   extra text mixed into snarkjs's own 64 random bytes (default: 32 more random bytes)
  ${CONTRIBUTOR_KEY_ENV}  the signing key (0x-hex); without it a fresh key signs and its address is printed`;

export async function contributeCli(argv: string[], ui: Ui): Promise<void> {
  const { values } = parseCli(
    {
      name: 'ceremony',
      usage: CONTRIBUTE_USAGE,
      options: { dir: { type: 'string' }, name: { type: 'string' }, entropy: { type: 'string' } },
    },
    argv,
  );
  const dir = inputDir('dir', required('dir', values.dir));
  const name = required('name', values.name);
  const { wallet, fresh } = contributorWallet();
  openCeremony({ dir, name });
  if (fresh)
    ui.progress.line(`· no ${CONTRIBUTOR_KEY_ENV}: signing with a fresh key, address ${wallet.address}`);
  await contribute(
    { dir, name, wallet, ...(values.entropy === undefined ? {} : { entropy: values.entropy }) },
    ui,
  );
}
