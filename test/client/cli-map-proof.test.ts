/**
 * The CLI player's check of the ZK map proof (client/play/map-proof.ts, `--map-proof-keys`, `--map-proof-registry`):
 * every bad input is a one-line usage error at argument parsing (in-process and as a real `client/cli.ts` process:
 * exit 2, no stack), the keys are the player's own files, and the `GamePlayer`'s `mapProof` option is
 * `verifyMapProof` bound to them with the registry of the flag or the `--deployment` record.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AbiCoder, type Provider } from 'ethers';
import { parsePlayArgs, USAGE } from '../../client/play/args.ts';
import { readDeploymentFile } from '../../client/play/deployment.ts';
import {
  checkMapProofKeys,
  checkMapProofRegistry,
  type MapProofFlags,
  mapProofFlags,
  mapProofOptions,
  mapProofOutcomeLine,
  mapProofStatusLine,
} from '../../client/play/map-proof.ts';
import { MapProofError } from '../../client/sdk/errors.ts';
import type { MapProofClaim } from '../../client/sdk/mapproof.ts';
import { bn254 } from '../../client/sdk/mapproof.ts';
import { releaseSnarkjsThreads } from '../../client/sdk/snark-threads.ts';
import { shippedRuleset } from '../../core/index.ts';
import { mapRootSignalCount } from '../../core/mapproof/signals.ts';
import type { MapProof } from '../../core/mapproof/types.ts';
import { UsageError } from '../../lib/cli.ts';
import { type NodeRun, runNode } from '../helpers/run-node.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-cli-map-proof-'));
after(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await releaseSnarkjsThreads();
});

const GAME = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const REGISTRY = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const ENV = {
  SHROUD_PLAYER_KEY: `0x${'11'.repeat(32)}`,
  RPC_URL: 'http://127.0.0.1:1',
  SHROUD_GAME_CONTRACT: GAME,
  SHROUD_DEALER_URL: 'http://127.0.0.1:2',
};
const tiny = shippedRuleset('tiny');
const TINY_ROOT_SIGNALS = mapRootSignalCount(tiny.players.max, tiny.board.zoneCount);

/** A verification key of the right shape whose points are the curve's generators (valid points, no real circuit). */
let G1: string[];
let G2: string[][];
const vkey = (nPublic: number) => ({
  protocol: 'groth16',
  curve: 'bn128',
  nPublic,
  vk_alpha_1: G1,
  vk_beta_2: G2,
  vk_gamma_2: G2,
  vk_delta_2: G2,
  vk_alphabeta_12: [],
  IC: Array.from({ length: nPublic + 1 }, () => G1),
});

let n = 0;
/** A fresh folder with the given files (path relative to it → contents). */
function keysDir(files: Record<string, unknown>): string {
  const dir = path.join(tmp, `keys-${n++}`);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), typeof body === 'string' ? body : JSON.stringify(body));
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}
/** The flat layout: DIR/mapchunk.vkey.json, DIR/maproot.vkey.json (tiny's signal counts unless told). */
const flat = (root: unknown = vkey(TINY_ROOT_SIGNALS), chunk: unknown = vkey(3)) =>
  keysDir({ 'mapchunk.vkey.json': chunk, 'maproot.vkey.json': root });

function deploymentFile(record: Record<string, unknown>): string {
  const file = path.join(tmp, `deployment-${n++}.json`);
  writeFileSync(file, JSON.stringify({ chainId: 31337, shroudGame: GAME, ...record }));
  return file;
}

const usage = (f: () => unknown, what: RegExp) =>
  assert.throws(
    f,
    (e: unknown) => e instanceof UsageError && what.test(e.message) && !e.message.includes('\n'),
  );

before(async () => {
  const c = await bn254();
  G1 = (c.G1.toObject(c.G1.toAffine(c.G1.g)) as bigint[]).map(String);
  G2 = (c.G2.toObject(c.G2.toAffine(c.G2.g)) as bigint[][]).map((xs) => xs.map(String));
});

describe('--map-proof-keys / --map-proof-registry: each bad input is a one-line usage error', () => {
  it('a missing folder, a folder without the keys, a file where the folder should be', () => {
    usage(() => mapProofFlags({ keys: path.join(tmp, 'nope'), registry: REGISTRY }), /no such folder/);
    usage(() => mapProofFlags({ keys: keysDir({}), registry: REGISTRY }), /no mapchunk\.vkey\.json/);
    usage(
      () => mapProofFlags({ keys: keysDir({ 'mapchunk.vkey.json': vkey(3) }), registry: REGISTRY }),
      /no maproot\.vkey\.json/,
    );
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, 'x');
    usage(() => mapProofFlags({ keys: file, registry: REGISTRY }), /no such folder/);
  });

  it('a key that is not JSON, or not a Groth16 BN254 verification key', () => {
    usage(
      () => mapProofFlags({ keys: flat('{not json'), registry: REGISTRY }),
      /maproot\.vkey\.json: not JSON/,
    );
    usage(
      () => mapProofFlags({ keys: flat({ ...vkey(3), protocol: 'plonk' }), registry: REGISTRY }),
      /not a Groth16 verification key \(protocol "plonk"\)/,
    );
    usage(
      () =>
        mapProofFlags({ keys: flat(vkey(TINY_ROOT_SIGNALS), { ...vkey(3), IC: [G1] }), registry: REGISTRY }),
      /mapchunk\.vkey\.json: not a Groth16 verification key \(IC is not 4 G1 points\)/,
    );
    usage(
      () => mapProofFlags({ keys: flat({ ...vkey(3), vk_beta_2: G1 }), registry: REGISTRY }),
      /vk_beta_2 is not a G2 point/,
    );
    usage(() => mapProofFlags({ keys: flat([1, 2]), registry: REGISTRY }), /not an object/);
  });

  it('an unreadable key file', { skip: process.getuid?.() === 0 && 'root reads any file' }, () => {
    const dir = flat();
    chmodSync(path.join(dir, 'mapchunk.vkey.json'), 0o000);
    usage(() => mapProofFlags({ keys: dir, registry: REGISTRY }), /mapchunk\.vkey\.json: not readable/);
  });

  it('a malformed registry address; a registry without keys; keys without a registry', () => {
    usage(
      () => mapProofFlags({ keys: flat(), registry: '0x1234' }),
      /--map-proof-registry 0x1234: not a 0x-hex/,
    );
    usage(() => mapProofFlags({ registry: REGISTRY }), /--map-proof-registry without --map-proof-keys/);
    usage(() => mapProofFlags({ keys: flat() }), /needs the MapProofRegistry: give --map-proof-registry/);
    usage(
      () => mapProofFlags({ keys: flat(), deployment: { file: 'd.json' } }),
      /--deployment d\.json has no mapProofRegistry/,
    );
    usage(
      () =>
        mapProofFlags({
          keys: flat(),
          registry: REGISTRY,
          deployment: { file: 'd.json', mapProofRegistry: `0x${'ab'.repeat(20)}` },
        }),
      /name different registries/,
    );
  });

  it('a --deployment record whose mapProofRegistry is malformed; an older record without one is still read', () => {
    usage(
      () => readDeploymentFile('deployment', deploymentFile({ mapProofRegistry: 'nope' })),
      /its mapProofRegistry is not a 0x-hex contract address/,
    );
    const old = readDeploymentFile('deployment', deploymentFile({}));
    assert.equal(old.mapProofRegistry, undefined);
    assert.equal(
      readDeploymentFile('deployment', deploymentFile({ mapProofRegistry: REGISTRY })).mapProofRegistry,
      REGISTRY,
    );
  });

  it('keys of another ruleset, or with points off the curve, once the game ruleset is known', async () => {
    const wrong = mapProofFlags({ keys: flat(vkey(TINY_ROOT_SIGNALS + 1)), registry: REGISTRY })!;
    await assert.rejects(
      checkMapProofKeys(wrong, tiny, 'tiny'),
      (e: unknown) =>
        e instanceof UsageError &&
        /takes \d+ public signals, the game's ruleset tiny \d+: not tiny's maproot key/.test(e.message),
    );
    const offCurve = mapProofFlags({
      keys: flat({ ...vkey(TINY_ROOT_SIGNALS), vk_alpha_1: ['1', '3', '1'] }),
      registry: REGISTRY,
    })!;
    await assert.rejects(
      checkMapProofKeys(offCurve, tiny, 'tiny'),
      (e: unknown) => e instanceof UsageError && /maproot\.vkey\.json: verification key: /.test(e.message),
    );
    await checkMapProofKeys(mapProofFlags({ keys: flat(), registry: REGISTRY })!, tiny, 'tiny');
  });

  it('development keys (setup.json devSetup beside them) only on the local chain (review 35)', async () => {
    const dev = mapProofFlags({
      keys: keysDir({
        'mapchunk/mapchunk.vkey.json': vkey(3),
        'maproot/maproot.vkey.json': vkey(TINY_ROOT_SIGNALS),
        'maproot/setup.json': { devSetup: true },
      }),
      registry: REGISTRY,
    })!;
    assert.equal(dev.dev, true);
    assert.equal(mapProofFlags({ keys: flat(), registry: REGISTRY })!.dev, false);
    await assert.rejects(
      checkMapProofKeys(dev, tiny, 'tiny', 11155111n),
      (e: unknown) =>
        e instanceof UsageError && /development keys .* prove nothing on chain 11155111/.test(e.message),
    );
    await checkMapProofKeys(dev, tiny, 'tiny', 31337n);
  });

  it("a registry that is not this game contract's MapProofRegistry (review 35)", async () => {
    const f = mapProofFlags({ keys: flat(), registry: REGISTRY })!;
    const answering = (game: string | null) =>
      ({
        call: async () => {
          if (game === null) return '0x';
          return AbiCoder.defaultAbiCoder().encode(['address'], [game]);
        },
      }) as unknown as Provider;
    await checkMapProofRegistry(f, answering(GAME.toLowerCase()), GAME);
    await assert.rejects(
      checkMapProofRegistry(f, answering(REGISTRY), GAME),
      (e: unknown) => e instanceof UsageError && /records the games of 0x.*, not of 0x5FbDB/.test(e.message),
    );
    await assert.rejects(
      checkMapProofRegistry(f, answering(null), GAME),
      (e: unknown) => e instanceof UsageError && /is not a MapProofRegistry on this chain/.test(e.message),
    );
  });
});

/** Runs `node client/cli.ts ARGS` with ENV; resolves with its exit code and output. */
const cli = (args: string[]): Promise<NodeRun> => runNode('client/cli.ts', args, ENV);

describe('npm run play: the map-proof flags', () => {
  it('--help lists --map-proof-keys and --map-proof-registry', async () => {
    assert.match(USAGE, /--map-proof-keys DIR/);
    assert.match(USAGE, /--map-proof-registry 0x/);
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--map-proof-keys DIR .*YOUR verification keys/);
    assert.match(r.stdout, /--map-proof-registry 0x…/);
  });

  it('a bad flag is one line `player: …` naming it, exit 2, before any connection (no stack)', async () => {
    const game = ['--game', '1'];
    const cases: [string[], RegExp][] = [
      [
        [...game, '--map-proof-keys', path.join(tmp, 'nope'), '--map-proof-registry', REGISTRY],
        /no such folder/,
      ],
      [
        [...game, '--map-proof-keys', flat('{'), '--map-proof-registry', REGISTRY],
        /maproot\.vkey\.json: not JSON/,
      ],
      [
        [...game, '--map-proof-keys', flat(), '--map-proof-registry', '0xzz'],
        /--map-proof-registry 0xzz: not a 0x-hex/,
      ],
      [[...game, '--map-proof-keys', flat()], /--map-proof-keys needs the MapProofRegistry/],
      [[...game, '--map-proof-registry', REGISTRY], /--map-proof-registry without --map-proof-keys/],
      [[...game, '--map-proof-keys'], /--map-proof-keys needs a value/],
      [
        [...game, '--map-proof-keys', flat(), '--deployment', deploymentFile({ mapProofRegistry: 'bad' })],
        /mapProofRegistry is not a 0x-hex/,
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    runs.forEach((r, i) => {
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(r.code, 2, `${cases[i]![0].join(' ')}: ${r.stderr}`);
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, /^player: /);
      assert.match(lines[0]!, cases[i]![1]);
      assert.equal(r.stdout, '');
    });
  });
});

describe('parsePlayArgs → the GamePlayer mapProof option', () => {
  it('reads the keys (flat, or circuits:build per-circuit folders) and the registry of the flag or the record', () => {
    const root = vkey(TINY_ROOT_SIGNALS);
    const chunk = vkey(3);
    const viaFlag = parsePlayArgs(
      ['--game', '1', '--map-proof-keys', flat(root, chunk), '--map-proof-registry', REGISTRY],
      ENV,
    ).mapProof!;
    assert.equal(viaFlag.registry, REGISTRY);
    assert.deepEqual(viaFlag.vkeys, { mapchunk: chunk, maproot: root });
    // build/circuits/<ruleset>/ as `npm run circuits:build -- --circuits mapchunk,maproot` leaves it.
    const built = keysDir({ 'mapchunk/mapchunk.vkey.json': chunk, 'maproot/maproot.vkey.json': root });
    const viaRecord = parsePlayArgs(
      [
        '--game',
        '1',
        '--map-proof-keys',
        built,
        '--deployment',
        deploymentFile({ mapProofRegistry: REGISTRY }),
      ],
      { ...ENV, SHROUD_GAME_CONTRACT: '' },
    ).mapProof!;
    assert.equal(viaRecord.registry, REGISTRY);
    assert.match(viaRecord.registrySource, /^--deployment /);
    assert.deepEqual(viaRecord.vkeys, { mapchunk: chunk, maproot: root });
    assert.equal(viaRecord.files.maproot, path.join(built, 'maproot', 'maproot.vkey.json'));
    // Without the flag nothing is checked, even with a record that names a registry.
    const none = parsePlayArgs(
      ['--game', '1', '--deployment', deploymentFile({ mapProofRegistry: REGISTRY })],
      {
        ...ENV,
        SHROUD_GAME_CONTRACT: '',
      },
    );
    assert.equal(none.mapProof, undefined);
    assert.match(mapProofStatusLine(none.mapProof), /map proof: not checked .*--map-proof-keys DIR/);
    assert.match(mapProofStatusLine(viaFlag), new RegExp(`checked with your keys .* ${REGISTRY}`));
  });

  it('binds verifyMapProof to the keys read from the files, with the registry', async () => {
    const f = parsePlayArgs(
      ['--game', '1', '--map-proof-keys', flat(), '--map-proof-registry', REGISTRY],
      ENV,
    ).mapProof!;
    const seen: unknown[] = [];
    const spy = mapProofOptions(f, async (claim, proof, vkeys) => {
      seen.push(claim, proof, vkeys);
    });
    const claim = { board: tiny.board, maxPlayers: tiny.players.max, gameId: 1n } as unknown as MapProofClaim;
    const proof = { chunks: [] } as unknown as MapProof;
    await spy.verify(claim, proof);
    assert.equal(spy.registry, REGISTRY);
    assert.deepEqual(seen, [claim, proof, f.vkeys]);
    // The default is the SDK's verifyMapProof: a proof without signals is a MapProofError (a refusal).
    const real = mapProofOptions(f);
    await assert.rejects(real.verify(claim, proof), (e: unknown) => e instanceof MapProofError);
  });

  it('sums up the outcome after play: verified (with its time), refused (not proven Gen(seed), the audit judges)', () => {
    const f = { registry: REGISTRY } as MapProofFlags;
    const check = { turn: 7, verifyMs: 123.4, at: 0 };
    assert.equal(
      mapProofOutcomeLine(undefined, { mapProofRefused: null, player: { mapProof: check } }),
      null,
    );
    assert.match(
      mapProofOutcomeLine(f, { mapProofRefused: null, player: { mapProof: check } })!,
      /verified at turn 7 in 123 ms/,
    );
    const refused = mapProofOutcomeLine(f, {
      mapProofRefused: new MapProofError(2, 'chunk proof does not verify'),
      player: { mapProof: null },
    })!;
    assert.match(refused, /REFUSED \(map proof, zone 2: chunk proof does not verify\)/);
    assert.match(
      refused,
      /NOT proven to be Gen\(seed\); play went on .* the audit after the game judges the map/,
    );
    assert.match(
      mapProofOutcomeLine(f, { mapProofRefused: null, player: { mapProof: null } })!,
      /not recorded .* before play ended/,
    );
  });
});
