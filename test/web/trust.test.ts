/**
 * The play page on a public chain acts only with the game contracts it was built with, and reads the chain through
 * the player's wallet rather than a link's `?rpc=` (client/web/trust.ts, wallet.ts, build.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BrowserProvider } from 'ethers';
import { buildPlayPage, trustedGamesFrom } from '../../client/web/build.ts';
import { assertTrustedGame, isTrustedGame, UntrustedGameError } from '../../client/web/trust.ts';
import { connectWallet } from '../../client/web/wallet.ts';

const SEPOLIA = 11155111n;
const GAME = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const LOOKALIKE = '0x5FbDB2315678afecb367f032d93F642f64180aa4';
const trust = { [String(SEPOLIA)]: [GAME.toLowerCase()] };

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'shroud-trust-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('trusted game contracts', () => {
  it('a public chain takes only the built-in contract (any case), refusing a look-alike and naming both', () => {
    assert.equal(isTrustedGame(trust, SEPOLIA, GAME), true);
    assert.doesNotThrow(() => assertTrustedGame(trust, SEPOLIA, GAME.toUpperCase().replace('0X', '0x')));
    assert.throws(
      () => assertTrustedGame(trust, SEPOLIA, LOOKALIKE),
      (e: Error) =>
        e instanceof UntrustedGameError &&
        e.message.includes(LOOKALIKE) &&
        e.message.includes(GAME.toLowerCase()),
    );
  });

  it('a public chain the page has no deployment for trusts nothing; the local chain trusts any contract', () => {
    assert.throws(() => assertTrustedGame(trust, 1n, GAME), /trusts no game contract on chain 1/);
    assert.throws(() => assertTrustedGame({}, SEPOLIA, GAME), UntrustedGameError);
    assert.doesNotThrow(() => assertTrustedGame({}, 31337n, LOOKALIKE));
  });

  it('the table comes from the deployment records, without the local chain; a malformed record stops the build', () => {
    const d = tmp();
    writeFileSync(path.join(d, '11155111.json'), JSON.stringify({ chainId: 11155111, shroudGame: GAME }));
    writeFileSync(path.join(d, '31337.json'), JSON.stringify({ chainId: 31337, shroudGame: LOOKALIKE }));
    writeFileSync(path.join(d, 'README.md'), 'not a record');
    assert.deepEqual(trustedGamesFrom(d), trust);
    assert.deepEqual(trustedGamesFrom(path.join(d, 'missing')), {});

    const wrongChain = tmp();
    writeFileSync(path.join(wrongChain, '1.json'), JSON.stringify({ chainId: 11155111, shroudGame: GAME }));
    assert.throws(() => trustedGamesFrom(wrongChain), /chainId 11155111 is not 1/);
    const badAddress = tmp();
    writeFileSync(path.join(badAddress, '1.json'), JSON.stringify({ chainId: 1, shroudGame: '0x1234' }));
    assert.throws(() => trustedGamesFrom(badAddress), /shroudGame is not an address/);
    const badName = tmp();
    writeFileSync(path.join(badName, 'sepolia.json'), JSON.stringify({ chainId: 1, shroudGame: GAME }));
    assert.throws(() => trustedGamesFrom(badName), /named <chainId>\.json/);
  });

  it('the build compiles the table into play.js', { timeout: 120_000 }, async () => {
    const out = path.join(tmp(), 'play');
    const built = await buildPlayPage(out, { trusted: trust });
    assert.deepEqual(built.trusted, trust);
    const js = readFileSync(path.join(out, 'play.js'), 'utf8');
    assert.ok(js.includes(GAME.toLowerCase()), 'the trusted address is in the bundle');
    assert.ok(!js.includes('__SHROUD_TRUSTED_GAMES__'), 'the placeholder was replaced');
  });
});

describe("a link's ?rpc= with a browser wallet", () => {
  /** A minimal EIP-1193 wallet on `chainId`. */
  const injected = (chainId: bigint) => ({
    async request({ method }: { method: string }): Promise<unknown> {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [GAME];
      if (method === 'eth_chainId') return `0x${chainId.toString(16)}`;
      throw new Error(`unexpected ${method}`);
    },
  });
  const storage = { getItem: () => null, setItem: () => {} };

  it('on a public chain is ignored: the game reads and broadcasts through the wallet', async () => {
    // The RPC URL is never contacted (nothing listens there): a lying RPC has no say.
    const w = await connectWallet({
      rpcUrl: 'http://127.0.0.1:9/evil',
      allowLocalKey: false,
      storage,
      injected: injected(SEPOLIA),
    });
    assert.equal(w.chainId, SEPOLIA);
    assert.ok(w.provider instanceof BrowserProvider, "the wallet's own provider");
    assert.equal(w.rpcIgnored, 'http://127.0.0.1:9/evil');
  });

  it('without a link RPC the wallet answers, and nothing is reported ignored', async () => {
    const w = await connectWallet({
      rpcUrl: null,
      allowLocalKey: false,
      storage,
      injected: injected(SEPOLIA),
    });
    assert.ok(w.provider instanceof BrowserProvider);
    assert.equal(w.rpcIgnored, undefined);
  });
});
