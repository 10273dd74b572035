/**
 * VerifierRegistry: every revert, write-once entries, and the proving-artifact hashes registered beside each
 * verifier (clients refuse a zkey or wasm whose SHA-256 is not the one registered for the verifier that checks it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { HardhatEthersSigner } from '@nomicfoundation/hardhat-ethers/types';
import type { Contract } from 'ethers';
import { network } from 'hardhat';
import { artifactSha256 } from '../../core/artifacts.ts';
import { artifactHashesOf } from '../../scripts/contracts/rulesets.ts';
import { expectRevert } from './helpers.ts';

const RULESET = `0x${'ab'.repeat(32)}`;
const SELECTOR = '0x12345678';
const sha = (text: string) => artifactSha256(new TextEncoder().encode(text));

describe('VerifierRegistry', () => {
  let reg: Contract;
  let asOther: Contract;
  let verifier: string;
  let owner: HardhatEthersSigner;
  let other: HardhatEthersSigner;
  let ethers: Awaited<ReturnType<typeof network.connect>>['ethers'];

  before(async () => {
    ({ ethers } = await network.connect());
    [owner, other] = (await ethers.getSigners()) as [HardhatEthersSigner, HardhatEthersSigner];
    reg = (await ethers.deployContract('VerifierRegistry', [owner.address])) as unknown as Contract;
    asOther = reg.connect(other) as Contract;
    verifier = await (await ethers.deployContract('MockVerifier')).getAddress();
    await (await reg.getFunction('registerRuleset')(RULESET, 0, 8, 8, 2, 4, false, 16)).wait();
  });

  it('constructor: a zero owner reverts ZeroAddress', async () => {
    const factory = await ethers.getContractFactory('VerifierRegistry');
    await expectRevert(factory.deploy(ethers.ZeroAddress), reg, 'ZeroAddress');
  });

  it('registerRuleset: only the owner, once, and only sane shapes', async () => {
    await expectRevert(
      asOther.getFunction('registerRuleset')(RULESET, 0, 8, 8, 2, 4, false, 16),
      reg,
      'NotOwner',
    );
    await expectRevert(
      reg.getFunction('registerRuleset')(RULESET, 0, 8, 8, 2, 4, false, 16),
      reg,
      'AlreadyRegistered',
    );
    const fresh = `0x${'cd'.repeat(32)}`;
    for (const [label, args] of [
      ['kind 2', [2, 8, 8, 2, 4, false, 16]],
      ['zero width', [0, 0, 8, 2, 4, false, 16]],
      ['zero height', [0, 8, 0, 2, 4, false, 16]],
      // The board limits of core/limits.ts (test/contracts/limits.test.ts takes the limits themselves).
      ['1025 wide', [0, 1025, 8, 2, 4, false, 16]],
      ['1025 high', [1, 8, 1025, 2, 4, false, 16]],
      ['254 zones', [0, 1016, 16, 2, 4, false, 16]],
      ['one seat', [0, 8, 8, 1, 4, false, 16]],
      ['seven seats', [0, 8, 8, 7, 4, false, 16]],
      ['no revealed tile', [0, 8, 8, 2, 4, false, 0]],
      ['71 revealed tiles', [0, 8, 8, 2, 4, false, 71]],
    ] as const)
      await expectRevert(reg.getFunction('registerRuleset')(fresh, ...args), reg, 'BadRuleset').catch((e) => {
        throw new Error(`${label}: ${(e as Error).message}`);
      });
    assert.equal((await reg.getFunction('getRuleset')(fresh)).registered, false);
  });

  it('setVerifier: only the owner, a known ruleset, a circuit id < 5, a contract, once', async () => {
    await expectRevert(
      asOther.getFunction('setVerifier')(RULESET, 1, verifier, SELECTOR, 7),
      reg,
      'NotOwner',
    );
    const unknown = `0x${'ef'.repeat(32)}`;
    const args = await expectRevert(
      reg.getFunction('setVerifier')(unknown, 1, verifier, SELECTOR, 7),
      reg,
      'UnknownRuleset',
    );
    assert.equal(args[0], unknown);
    await expectRevert(reg.getFunction('setVerifier')(RULESET, 5, verifier, SELECTOR, 7), reg, 'BadCircuit');
    await expectRevert(
      reg.getFunction('setVerifier')(RULESET, 1, other.address, SELECTOR, 7),
      reg,
      'NotAContract',
    );
    await (await reg.getFunction('setVerifier')(RULESET, 1, verifier, SELECTOR, 7)).wait();
    await expectRevert(
      reg.getFunction('setVerifier')(RULESET, 1, verifier, SELECTOR, 7),
      reg,
      'AlreadyRegistered',
    );
    const v = await reg.getFunction('getVerifier')(RULESET, 1);
    assert.deepEqual([v.target, v.selector, Number(v.nPublic)], [verifier, SELECTOR, 7]);
  });

  it('verify: no verifier reverts NoVerifier, a wrong signal count WrongSignalCount', async () => {
    const proof = [
      [0n, 0n],
      [
        [0n, 0n],
        [0n, 0n],
      ],
      [0n, 0n],
    ] as const;
    await expectRevert(reg.getFunction('verify')(RULESET, 2, ...proof, [1n]), reg, 'NoVerifier');
    const args = await expectRevert(
      reg.getFunction('verify')(RULESET, 1, ...proof, [1n, 2n]),
      reg,
      'WrongSignalCount',
    );
    assert.deepEqual(args.map(Number), [7, 2]);
  });

  it('transferOwnership: only the owner, never to zero; the new owner registers, the old one cannot', async () => {
    await expectRevert(asOther.getFunction('transferOwnership')(other.address), reg, 'NotOwner');
    await expectRevert(reg.getFunction('transferOwnership')(ethers.ZeroAddress), reg, 'ZeroAddress');
    await (await reg.getFunction('transferOwnership')(other.address)).wait();
    const fresh = `0x${'12'.repeat(32)}`;
    await expectRevert(reg.getFunction('registerRuleset')(fresh, 0, 8, 8, 2, 4, false, 16), reg, 'NotOwner');
    await (await asOther.getFunction('transferOwnership')(owner.address)).wait();
    assert.equal(await reg.getFunction('owner')(), owner.address);
  });

  describe('proving artifacts', () => {
    it('registers the zkey and wasm SHA-256 beside a verifier, once, and emits ArtifactsRegistered', async () => {
      const [zkey, wasm] = [await sha('zkey bytes'), await sha('wasm bytes')];
      const none = await reg.getFunction('artifactsOf')(verifier);
      assert.deepEqual([none.zkey, none.wasm], [ethers.ZeroHash, ethers.ZeroHash]);
      const rc = await (await reg.getFunction('registerArtifacts')(verifier, zkey, wasm)).wait();
      const ev = rc.logs
        .map((l: { topics: string[]; data: string }) => reg.interface.parseLog(l))
        .find(Boolean);
      assert.equal(ev?.name, 'ArtifactsRegistered');
      assert.deepEqual([ev?.args.verifier, ev?.args.zkey, ev?.args.wasm], [verifier, zkey, wasm]);
      const got = await reg.getFunction('artifactsOf')(verifier);
      assert.deepEqual([got.zkey, got.wasm], [zkey, wasm]);
      // Write-once: a deployer cannot swap the keys under a running game's clients.
      await expectRevert(
        reg.getFunction('registerArtifacts')(verifier, await sha('other zkey'), wasm),
        reg,
        'AlreadyRegistered',
      );
    });

    it('refuses a non-owner, a verifier that is not a contract, and a zero hash', async () => {
      const target = await (await ethers.deployContract('MockVerifier')).getAddress();
      const h = await sha('x');
      await expectRevert(asOther.getFunction('registerArtifacts')(target, h, h), reg, 'NotOwner');
      const args = await expectRevert(
        reg.getFunction('registerArtifacts')(other.address, h, h),
        reg,
        'NotAContract',
      );
      assert.equal(args[0], other.address);
      await expectRevert(
        reg.getFunction('registerArtifacts')(target, ethers.ZeroHash, h),
        reg,
        'BadArtifacts',
      );
      await expectRevert(
        reg.getFunction('registerArtifacts')(target, h, ethers.ZeroHash),
        reg,
        'BadArtifacts',
      );
      const got = await reg.getFunction('artifactsOf')(target);
      assert.equal(got.zkey, ethers.ZeroHash);
    });
  });
});

describe('artifact hashes at deploy', () => {
  it("hashes the manifest's files, and refuses a file whose SHA-256 differs from the one the manifest records", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shroud-artifacts-'));
    try {
      const zkey = join(dir, 'turn.zkey');
      const wasm = join(dir, 'turn.wasm');
      writeFileSync(zkey, 'zkey bytes');
      writeFileSync(wasm, 'wasm bytes');
      const v = { contract: 'TinyTurnVerifier', zkey, wasm };
      const a = await artifactHashesOf(v);
      assert.deepEqual(a, { zkey: await sha('zkey bytes'), wasm: await sha('wasm bytes') });
      assert.deepEqual(
        await artifactHashesOf({ ...v, zkeySha256: a.zkey.toUpperCase().replace('0X', '0x') }),
        a,
      );
      await assert.rejects(
        artifactHashesOf({ ...v, wasmSha256: await sha('another wasm') }),
        /TinyTurnVerifier: wasm .*turn\.wasm has SHA-256 0x[0-9a-f]{64}, the manifest records 0x/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('core/artifacts', () => {
  it('artifactSha256 is the standard SHA-256 (the value `sha256sum` prints), as 0x-hex', async () => {
    assert.equal(await sha('abc'), '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(
      await artifactSha256(new Uint8Array()),
      '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});
