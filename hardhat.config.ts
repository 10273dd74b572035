import { createRequire } from 'node:module';
import hardhatEthers from '@nomicfoundation/hardhat-ethers';
import hardhatIgnition from '@nomicfoundation/hardhat-ignition';
import { defineConfig } from 'hardhat/config';

const require = createRequire(import.meta.url);

/** solc-js from node_modules: Hardhat compiles offline, with no compiler download. */
const soljson = require.resolve('solc/soljson.js');

export default defineConfig({
  /**
   * hardhat-ignition for its tasks on the deploy journals (`npx hardhat ignition status|wipe|track-tx ID`);
   * the deployment itself runs the modules of contracts/ignition/ through scripts/deploy.ts.
   */
  plugins: [hardhatEthers, hardhatIgnition],
  /**
   * The IR pipeline: ~2.7k less gas per turn (the game's share of it), smaller contracts, fraud proofs ~13% cheaper;
   * a full build takes ~1.5 min instead of ~0.5 (solc-js).
   */
  solidity: {
    version: '0.8.28',
    path: soljson,
    settings: { optimizer: { enabled: true, runs: 200 }, viaIR: true, evmVersion: 'cancun' },
  },
  paths: { sources: './contracts', artifacts: './artifacts', cache: './cache' },
  /**
   * Solidity tests (test/contracts/invariants/: `npm run test:sol`, also run by `npm test`). Invariant campaigns
   * sized for about a minute on 2 cores, with Hardhat's fixed default seed (reproducible); SHROUD_INVARIANT_RUNS,
   * SHROUD_INVARIANT_DEPTH and SHROUD_FUZZ_SEED run longer or other campaigns.
   */
  test: {
    solidity: {
      fuzz: { seed: process.env['SHROUD_FUZZ_SEED'] },
      invariant: {
        runs: Number(process.env['SHROUD_INVARIANT_RUNS'] ?? 64),
        depth: Number(process.env['SHROUD_INVARIANT_DEPTH'] ?? 200),
      },
    },
  },
  networks: {
    /** The in-process EDR chain (tests, `deploy:local`). */
    local: { type: 'edr-simulated', chainType: 'l1' },
    /** Any EVM testnet: `RPC_URL` and `DEPLOYER_KEY` from the environment. */
    testnet: {
      type: 'http',
      chainType: 'l1',
      url: process.env['RPC_URL'] ?? 'http://127.0.0.1:8545',
      accounts: process.env['DEPLOYER_KEY'] ? [process.env['DEPLOYER_KEY']] : [],
    },
  },
});
