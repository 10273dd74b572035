/**
 * The phase-2 ceremony CLI (scripts/ceremony/) as its users run it, one process per command, on tiny's
 * `spawn` and the `seal` circuit (`--circuits seal,spawn`: every circuit would take minutes on 2 cores)
 * with the development ptau: init, three contributors, the beacon, verify, finalize (whose keys prove and
 * verify a real seal proof); then what it must refuse: an unknown or too small ptau, a contribution on the
 * wrong previous file, a tampered or replaced contribution, a forged attestation, bad flags.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Wallet } from 'ethers';
import * as snarkjs from 'snarkjs';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { loadHasher } from '../../core/poseidon.ts';
import { generateSealKey, sealShare } from '../../core/sealed.ts';
import { attestationText } from '../../scripts/ceremony/attest.ts';
import { blake2bFile, sha256File } from '../../scripts/ceremony/digest.ts';
import type { CeremonyRecord } from '../../scripts/ceremony/types.ts';
import { BEACON_NAME } from '../../scripts/ceremony/zkey.ts';
import { snark } from '../../scripts/circuits/build.ts';
import { generateDevPtau } from '../../scripts/circuits/devptau.ts';
import { devPtau } from '../../scripts/circuits/ptau.ts';
import type { GeneratedRuleset, SealArtifacts } from '../../scripts/contracts/rulesets.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN = path.join(ROOT, 'scripts', 'ceremony', 'main.ts');
const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-ceremony-'));
const dir = path.join(tmp, 'ceremony');
const out = path.join(tmp, 'generated');
const log = path.join(tmp, 'test.log');
const BEACON = 'ab'.repeat(32);
const SLOW = { timeout: 600_000 };

// Hardhat's public development accounts #1–#3: three contributors with known addresses.
const KEYS = {
  Alice: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  Bob: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  Carol: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
} as const;
type Contributor = keyof typeof KEYS;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run ceremony -- …` as a process (the test's own Node); SHROUD_DEBUG off so errors are one line. */
function ceremony(args: string[], env: NodeJS.ProcessEnv = {}): Result {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, SHROUD_DEBUG: '', SHROUD_CONTRIBUTOR_KEY: '', ...env },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const show = (r: Result) => `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

function ok(r: Result): string {
  assert.equal(r.code, 0, show(r));
  return r.stdout;
}

/** Exit `code`, and the last stderr line (the error) is one `ceremony: …` line matching `what`, no stack. */
function refused(r: Result, code: number, what: RegExp): void {
  assert.equal(r.code, code, show(r));
  const last = r.stderr.trimEnd().split('\n').at(-1)!;
  assert.ok(last.startsWith('ceremony: '), show(r));
  assert.match(last, what, show(r));
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
}

const readRecord = (d = dir) =>
  JSON.parse(readFileSync(path.join(d, 'ceremony.json'), 'utf8')) as CeremonyRecord;
const writeRecord = (d: string, rec: CeremonyRecord) =>
  writeFileSync(path.join(d, 'ceremony.json'), JSON.stringify(rec, null, 2));
const circuitOf = (rec: CeremonyRecord, id: string) => rec.circuits.find((c) => c.id === id)!;
/** A copy of the ceremony folder, to damage without touching the real one. */
function fork(name: string): string {
  const d = path.join(tmp, name);
  cpSync(dir, d, { recursive: true });
  return d;
}

/** Replaces a circuit's final zkey with `file` and rewrites the record to match, as a dishonest coordinator would. */
async function substitute(d: string, id: string, file: string) {
  const rec = readRecord(d);
  const c = circuitOf(rec, id);
  cpSync(file, path.join(d, c.zkey));
  c.zkeySha256 = c.beacon!.zkeySha256 = await sha256File(file);
  writeRecord(d, rec);
}

/** Offset in `file` of the body of binfile section `id` (zkey: magic, version, count, then id/u64 size/body). */
function sectionOffset(buf: Buffer, id: number): number {
  let off = 12;
  for (let i = 0; i < buf.readUInt32LE(8); i++) {
    if (buf.readUInt32LE(off) === id) return off + 12;
    off += 12 + Number(buf.readBigUInt64LE(off + 4));
  }
  throw new Error(`no section ${id}`);
}

let ptau: string;
/** Saved copies of zkeys as the chain went, for the damage tests. */
const saved: Record<string, string> = {};

before(async () => {
  ptau = (await devPtau(12)).file;
});
after(async () => {
  await releaseSnarkjsThreads();
  rmSync(tmp, { recursive: true, force: true });
});

describe('ceremony CLI', () => {
  it('answers --help (exit 0) and bad flags or missing files with one line naming the flag (exit 2)', () => {
    for (const sub of [[], ['init'], ['contribute'], ['beacon'], ['verify'], ['finalize']]) {
      const r = ceremony([...sub, '--help']);
      assert.equal(r.code, 0, show(r));
      assert.match(r.stdout, /^usage: /);
      assert.equal(r.stderr, '');
    }
    const cases: [string[], RegExp][] = [
      [['--bogus'], /unknown flag --bogus/],
      [['init', '--bogus'], /unknown flag --bogus/],
      [['nope'], /unknown subcommand "nope"/],
      [
        ['init', '--ptau', '/nonexistent.ptau', '--ruleset', 'tiny', '--dir', tmp],
        /--ptau \/nonexistent\.ptau: no such file/,
      ],
      [['init', '--ptau', ptau, '--ruleset', 'nope', '--dir', tmp], /--ruleset nope: unknown/],
      [
        ['init', '--ptau', ptau, '--ruleset', 'tiny', '--circuits', 'nope', '--dir', tmp],
        /--circuits nope: unknown/,
      ],
      [['init', '--ptau', ptau, '--ruleset', 'tiny'], /--dir is required/],
      [['contribute', '--dir', '/nonexistent', '--name', 'A'], /--dir \/nonexistent: no such folder/],
      [['contribute', '--dir', tmp, '--name', 'A'], /--dir .*: no ceremony\.json/],
      [['beacon', '--dir', tmp, '--hash', 'xyz', '--iterations', '10'], /--hash xyz: hex/],
      [
        ['beacon', '--dir', tmp, '--hash', 'ab', '--iterations', '5'],
        /--iterations must be an integer in 10\.\.63/,
      ],
      [['verify'], /--dir is required/],
      [['verify', '--dir', tmp, '--ptau', '/nonexistent.ptau'], /--ptau \/nonexistent\.ptau: no such file/],
      [['finalize', '--dir', tmp, '--out', `${ptau}/x`], /--out .*is a file/],
    ];
    for (const [args, what] of cases) {
      const r = ceremony(args);
      refused(r, 2, what);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, show(r));
    }
    refused(
      ceremony(['contribute', '--dir', tmp, '--name', 'A'], { SHROUD_CONTRIBUTOR_KEY: '0x12' }),
      2,
      /SHROUD_CONTRIBUTOR_KEY: not a private key/,
    );
  });

  it('refuses a ptau that is not a published Hermez file, naming its hash, unless --dev', async () => {
    const flipped = path.join(tmp, 'flipped.ptau');
    const bytes = readFileSync(ptau);
    bytes[bytes.length - 100]! ^= 1;
    writeFileSync(flipped, bytes);
    const hash = await blake2bFile(flipped);
    refused(
      ceremony(['init', '--ptau', flipped, '--ruleset', 'tiny', '--dir', path.join(tmp, 'x')]),
      1,
      new RegExp(`blake2b ${hash} is not a published Hermez`),
    );
    refused(
      ceremony(['init', '--ptau', ptau, '--ruleset', 'tiny', '--dir', path.join(tmp, 'x')]),
      1,
      /is not a published Hermez .* \(its contribution is the INSECURE development beacon\); pass --dev/,
    );
    assert.ok(!existsSync(path.join(tmp, 'x')), 'nothing written');
  });

  it('init --dev: compiles, writes the first zkeys and ceremony.json', SLOW, async () => {
    const stdout = ok(
      ceremony([
        'init',
        '--ptau',
        ptau,
        '--ruleset',
        'tiny',
        '--circuits',
        'seal,spawn',
        '--dir',
        dir,
        '--dev',
      ]),
    );
    assert.match(stdout, /2 circuits on pot\d+\.dev\.ptau \(development keys/);
    const rec = readRecord();
    assert.equal(rec.dev, true);
    assert.equal(rec.ptau.blake2b, await blake2bFile(ptau));
    assert.deepEqual(
      rec.circuits.map((c) => c.id),
      ['seal', 'tiny/spawn'],
    );
    for (const c of rec.circuits) {
      assert.equal(await sha256File(path.join(dir, c.zkey)), c.zkeySha256);
      assert.equal(await sha256File(path.join(dir, c.r1cs)), c.r1csSha256);
      assert.deepEqual(c.contributions, []);
    }
    refused(
      ceremony(['init', '--ptau', ptau, '--ruleset', 'tiny', '--circuits', 'seal', '--dir', dir, '--dev']),
      2,
      /already holds a ceremony\.json/,
    );
  });

  it('refuses a ptau too small for a circuit, naming it', SLOW, async () => {
    const small = path.join(tmp, 'pot10.dev.ptau');
    await generateDevPtau(10, small);
    const d = path.join(tmp, 'small');
    refused(
      ceremony([
        'init',
        '--ptau',
        small,
        '--ruleset',
        'tiny',
        '--circuits',
        'seal,spawn',
        '--dir',
        d,
        '--dev',
      ]),
      1,
      /seal: 3,\d{3} constraints need a ptau of power 12; pot10\.dev\.ptau has power 10/,
    );
    assert.ok(!existsSync(path.join(d, 'ceremony.json')));
  });

  it('three contributors in turn, each attesting every circuit with their key', SLOW, async () => {
    for (const name of Object.keys(KEYS) as Contributor[]) {
      saved[`before ${name}`] = path.join(tmp, `seal-before-${name}.zkey`);
      cpSync(path.join(dir, circuitOf(readRecord(), 'seal').zkey), saved[`before ${name}`]!);
      const t0 = Date.now();
      const stdout = ok(
        ceremony(['contribute', '--dir', dir, '--name', name], { SHROUD_CONTRIBUTOR_KEY: KEYS[name] }),
      );
      console.log(`# contribute ${name}: ${Date.now() - t0} ms (seal + tiny/spawn)`);
      const lines = stdout.trim().split('\n');
      assert.equal(lines.length, 2, stdout);
      const address = new Wallet(KEYS[name]).address;
      for (const line of lines)
        assert.match(
          line,
          new RegExp(
            `^attestation: shroud-ceremony v1 \\S+ #\\d ${name} [0-9a-f]{128} prev 0x[0-9a-f]{64} \\| signer ${address} \\| signature 0x[0-9a-f]{130}$`,
          ),
        );
    }
    const rec = readRecord();
    for (const c of rec.circuits) {
      assert.deepEqual(
        c.contributions.map((k) => [k.index, k.name, k.address]),
        (Object.keys(KEYS) as Contributor[]).map((n, i) => [i + 1, n, new Wallet(KEYS[n]).address]),
      );
      assert.equal(c.contributions[0]!.prev, c.initialSha256);
      // Only the latest zkey is kept.
      assert.deepEqual(
        readdirSync(path.join(dir, c.id)).filter((f) => f.endsWith('.zkey')),
        [path.basename(c.zkey)],
      );
      assert.match(c.zkey, /_0003\.zkey$/);
    }
  });

  it('refuses a contribution on the wrong previous file, leaving the folder as it was', SLOW, async () => {
    const d = fork('wrong-previous');
    const rec = readRecord(d);
    const seal = circuitOf(rec, 'seal');
    cpSync(saved['before Carol']!, path.join(d, seal.zkey)); // Bob's output where Carol's should be
    const before = readFileSync(path.join(d, 'ceremony.json'), 'utf8');
    refused(
      ceremony(['contribute', '--dir', d, '--name', 'Dave']),
      1,
      /^ceremony: seal: seal\/seal_0003\.zkey has sha256 0x[0-9a-f]{64}, ceremony\.json records 0x[0-9a-f]{64}: not the file the previous step produced \(the wrong previous file\)$/,
    );
    assert.equal(readFileSync(path.join(d, 'ceremony.json'), 'utf8'), before);
    assert.ok(!existsSync(path.join(d, 'seal', 'seal_0004.zkey')));
  });

  it('beacon closes the ceremony', SLOW, () => {
    const stdout = ok(ceremony(['beacon', '--dir', dir, '--hash', BEACON, '--iterations', '10']));
    assert.equal(stdout.trim().split('\n').length, 2, stdout);
    for (const c of readRecord().circuits) {
      assert.equal(c.beacon?.hash, BEACON);
      assert.equal(c.beacon?.iterations, 10);
      assert.equal(c.beacon?.prev, c.contributions[2]!.zkeySha256);
    }
    refused(
      ceremony(['contribute', '--dir', dir, '--name', 'Dave']),
      1,
      /the beacon is applied; the ceremony takes no more contributions/,
    );
  });

  // finalize runs verify first (the same code as `verify`, which the damage tests below run as its own
  // command): its verdict lines are verify's. One full verification fewer keeps the test short.
  it(
    'verify passes; finalize writes the manifest and seal.json; the keys prove and verify a real seal proof',
    SLOW,
    async () => {
      const stdout = ok(ceremony(['finalize', '--dir', dir, '--out', out]));
      assert.match(stdout, /^seal: ok, 3 contributions \(Alice, Bob, Carol\) and the beacon$/m);
      assert.match(stdout, /^tiny\/spawn: ok, 3 contributions \(Alice, Bob, Carol\) and the beacon$/m);
      assert.match(stdout, /^ceremony verified: 2 circuits/m);
      const rec = readRecord();
      const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Record<
        string,
        GeneratedRuleset
      >;
      const spawnEntry = manifest.tiny!.verifiers.spawn!;
      const seal = JSON.parse(readFileSync(path.join(out, 'seal.json'), 'utf8')) as SealArtifacts;
      assert.equal(spawnEntry.contract, 'TinySpawnVerifier');
      assert.equal(seal.contract, 'SealVerifier');
      for (const [entry, c] of [
        [spawnEntry, circuitOf(rec, 'tiny/spawn')],
        [seal, circuitOf(rec, 'seal')],
      ] as const) {
        assert.equal(entry.devKeys, true);
        assert.equal(entry.zkeySha256, await sha256File(entry.zkey));
        assert.equal(entry.zkeySha256, c.zkeySha256);
        assert.equal(entry.wasmSha256, await sha256File(entry.wasm));
        assert.equal(entry.vkeySha256, await sha256File(entry.vkey));
        assert.equal(entry.r1csSha256, c.r1csSha256);
        assert.deepEqual(
          entry.contributions,
          c.contributions.map(({ name, hash, address }) => ({ name, hash, address })),
        );
        assert.deepEqual(entry.beacon, { hash: BEACON, iterations: 10 });
      }
      assert.match(
        readFileSync(path.join(out, 'TinySpawnVerifier.sol'), 'utf8'),
        /contract TinySpawnVerifier\b/,
      );
      assert.match(readFileSync(path.join(out, 'SealVerifier.sol'), 'utf8'), /contract SealVerifier\b/);

      const { plan } = sealShare(await loadHasher(), generateSealKey().publicKey, 0x5eedn, {
        gameId: 7n,
        player: 0x70997970c51812dc3a010c7d01b50e0d17dc79c8n,
      });
      const { proof, publicSignals } = await snarkjs.groth16.fullProve(plan.input, seal.wasm, seal.zkey);
      const vkey = JSON.parse(readFileSync(seal.vkey, 'utf8'));
      assert.deepEqual(publicSignals, plan.publicSignals.map(String));
      assert.equal(await snarkjs.groth16.verify(vkey, publicSignals, proof), true);
      assert.equal(await snarkjs.groth16.verify(vkey, [...publicSignals.slice(0, -1), '1'], proof), false);
    },
  );

  it('verify detects a forged attestation, naming the circuit and contribution', () => {
    const d = fork('forged');
    const rec = readRecord(d);
    const bob = circuitOf(rec, 'tiny/spawn').contributions[1]!;
    // Carol's signature over Bob's attestation text, with Bob's address still recorded.
    bob.signature = new Wallet(KEYS.Carol).signMessageSync(attestationText('tiny/spawn', bob));
    writeRecord(d, rec);
    refused(
      ceremony(['verify', '--dir', d]),
      1,
      new RegExp(
        `^ceremony: tiny/spawn: contribution #2 \\(Bob\\): the attestation is signed by ${new Wallet(KEYS.Carol).address}, not by the recorded ${bob.address}$`,
      ),
    );
  });

  it('verify detects a changed zkey, even when the record is rewritten to match', SLOW, async () => {
    const d = fork('flipped');
    const zkey = path.join(d, circuitOf(readRecord(d), 'seal').zkey);
    const bytes = readFileSync(zkey);
    // Section 10 (contributions): circuit hash (64), count (4), then Alice's deltaAfter, g1_s, g1_sx (3 × 64),
    // g2_spx (128) and transcript (64): flip a transcript byte.
    bytes[sectionOffset(bytes, 10) + 64 + 4 + 3 * 64 + 128 + 10]! ^= 1;
    const flipped = path.join(tmp, 'flipped.zkey');
    writeFileSync(flipped, bytes);
    cpSync(flipped, zkey);
    refused(
      ceremony(['verify', '--dir', d]),
      1,
      /^ceremony: seal: seal\/seal_0004\.zkey has sha256 .*: the file changed after it was recorded$/,
    );
    await substitute(d, 'seal', flipped);
    refused(
      ceremony(['verify', '--dir', d]),
      1,
      /^ceremony: seal: contribution #1 \(Alice\): zkey verify rejects seal_0004\.zkey/,
    );
  });

  it("verify detects a contribution replaced by another run's, naming it", SLOW, async () => {
    // Another run of Carol's step on Bob's output, then the same beacon: a valid zkey, but not the recorded chain.
    const other3 = path.join(tmp, 'other-3.zkey');
    const other4 = path.join(tmp, 'other-4.zkey');
    await snark(
      ['zkey', 'contribute', saved['before Carol']!, other3, '-n=Carol', '-e=another run'],
      log,
      'other Carol',
    );
    await snark(['zkey', 'beacon', other3, other4, BEACON, '10', `-n=${BEACON_NAME}`], log, 'other beacon');
    const d = fork('replaced');
    await substitute(d, 'seal', other4); // Carol's recorded hash and signature stay as they were
    refused(
      ceremony(['verify', '--dir', d]),
      1,
      /^ceremony: seal: contribution #3 \(Carol\): the zkey's contribution hash [0-9a-f]{16}… is not the recorded [0-9a-f]{16}…$/,
    );
  });
});
