/**
 * Deploys Shroud (Poseidon 1..6, MapGen, ShroudGame) and records `deployments/<chainId>.json`.
 *   node contracts/scripts/deploy.ts --network local     # the in-process EDR chain (record not written unless --record)
 *   RPC_URL=… DEPLOYER_KEY=0x… node contracts/scripts/deploy.ts --network testnet
 */
import { parseArgs } from 'node:util';
import { network } from 'hardhat';
import { deployShroud, recordDeployment } from '../deployer.ts';

const { values } = parseArgs({
  options: { network: { type: 'string', default: 'local' }, record: { type: 'boolean', default: false } },
});
const name = values.network!;
if (name !== 'local' && name !== 'testnet') {
  console.error(`--network must be local or testnet, got "${name}"`);
  process.exit(2);
}
if (name === 'testnet' && (!process.env['RPC_URL'] || !process.env['DEPLOYER_KEY'])) {
  console.error('testnet deploys need RPC_URL and DEPLOYER_KEY in the environment');
  process.exit(2);
}
const { ethers } = await network.connect({ network: name });
const { deployment } = await deployShroud(ethers);
// The in-process chain vanishes with this process: record it only on request.
if (name === 'testnet' || values.record) console.log(`recorded ${await recordDeployment(deployment)}`);
console.log(JSON.stringify(deployment, null, 2));
