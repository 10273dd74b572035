/**
 * `npm run dealer -- keys [--out FILE] [--json]`: the dealer's three secrets, made once, written to a new
 * 0600 file (env lines or JSON) and never printed; stdout gets only the public parts an operator needs
 * (the seal public key games will name, the transaction address to fund).
 */
import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { computeAddress } from 'ethers';
import { generateSealKey } from '../../core/sealed.ts';
import { parseCli } from '../../lib/cli.ts';
import { writePrivateFile } from './secret-file.ts';

/** The secrets, as 0x-hex in the config's spelling (`keys.*`). */
export interface DealerKeys {
  /** Baby Jubjub seal secret d, 1 ≤ d < l (SHROUD_DEALER_KEY). */
  dealerKey: string;
  /** secp256k1 key sending the dealer's transactions (SHROUD_TX_KEY). */
  txKey: string;
  /** 32 random bytes: the AES-256-GCM key for secrets at rest (SHROUD_MASTER_KEY). */
  masterKey: string;
}

/** What may be shown: derived from the secrets, revealing nothing of them. */
export interface DealerPublicKeys {
  /** d·BASE8 as decimal coordinates: every game this dealer serves names it as `sealKey`. */
  sealKey: [string, string];
  /** The address of `txKey`: it pays gas, so it needs funds. */
  txAddress: string;
}

/** The environment variable of each key. */
export const KEY_ENV: Readonly<Record<keyof DealerKeys, string>> = {
  dealerKey: 'SHROUD_DEALER_KEY',
  txKey: 'SHROUD_TX_KEY',
  masterKey: 'SHROUD_MASTER_KEY',
};

const hex32 = (b: Uint8Array | bigint) =>
  `0x${typeof b === 'bigint' ? b.toString(16).padStart(64, '0') : Buffer.from(b).toString('hex')}`;

export function generateDealerKeys(): { keys: DealerKeys; pub: DealerPublicKeys } {
  const seal = generateSealKey();
  let tx = secp256k1.utils.randomSecretKey();
  // The dealer refuses a txKey equal to the seal secret (one key per job); a collision is ~2^-252, still.
  while (BigInt(hex32(tx)) === seal.secretKey) tx = secp256k1.utils.randomSecretKey();
  const keys = { dealerKey: hex32(seal.secretKey), txKey: hex32(tx), masterKey: hex32(randomBytes(32)) };
  return {
    keys,
    pub: {
      sealKey: [seal.publicKey[0].toString(), seal.publicKey[1].toString()],
      txAddress: computeAddress(keys.txKey),
    },
  };
}

/** An env file (systemd EnvironmentFile, docker --env-file, `set -a; . FILE`): comments say what is public. */
export function keysEnvText(keys: DealerKeys, pub: DealerPublicKeys, made = new Date()): string {
  return [
    `# Shroud dealer keys, made ${made.toISOString()} by \`npm run dealer -- keys\`. SECRET: keep this file`,
    '# 0600, and a copy apart from the database backups (they are encrypted under SHROUD_MASTER_KEY).',
    `# seal public key (each game's sealKey): ${pub.sealKey.join(', ')}`,
    `# transaction address (fund it): ${pub.txAddress}`,
    ...(Object.keys(KEY_ENV) as (keyof DealerKeys)[]).map((k) => `${KEY_ENV[k]}=${keys[k]}`),
    '',
  ].join('\n');
}

/** JSON shaped as a config file's `keys` section. */
export function keysJsonText(keys: DealerKeys): string {
  return `${JSON.stringify(keys, null, 2)}\n`;
}

export const KEYS_USAGE = `usage: npm run dealer -- keys [--out FILE] [--json]

Makes the dealer's three secrets and writes them to FILE, created with mode 0600 (never over an existing
file): the seal secret (SHROUD_DEALER_KEY, Baby Jubjub), the transaction key (SHROUD_TX_KEY, secp256k1)
and the at-rest key (SHROUD_MASTER_KEY, 32 random bytes). Prints only the public parts: the seal public
key and the transaction address, which needs funds for gas.
  --out FILE  default ./dealer-keys.env (./dealer-keys.json with --json)
  --json      write {"dealerKey", "txKey", "masterKey"} (a config file's "keys") instead of env lines`;

export function keysCommand(argv: string[]): void {
  const { values } = parseCli(
    {
      name: 'dealer keys',
      usage: KEYS_USAGE,
      options: { out: { type: 'string' }, json: { type: 'boolean' } },
    },
    argv,
  );
  const json = values.json === true;
  const file = values.out ?? (json ? './dealer-keys.json' : './dealer-keys.env');
  const { keys, pub } = generateDealerKeys();
  writePrivateFile('out', file, json ? keysJsonText(keys) : keysEnvText(keys, pub));
  process.stdout.write(
    [
      `wrote ${file} (mode 0600): ${Object.values(KEY_ENV).join(', ')}`,
      `seal public key (each game's sealKey): ${pub.sealKey.join(', ')}`,
      `transaction address (fund it): ${pub.txAddress}`,
      '',
    ].join('\n'),
  );
}
