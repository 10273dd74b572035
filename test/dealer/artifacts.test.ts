/**
 * The dealer's content-addressed artifact routes (dealer/routes/artifacts.ts) and `npm run artifacts:export`:
 * every header, 304 and HEAD, 400/404 naming the field, bodies that hash to their URL, a 30 MB zkey streamed
 * rather than read whole, a file rebuilt in place, the routes off without a folder, and the export CLI.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { artifactSha256 } from '../../core/artifacts.ts';
import { ArtifactCatalog, openArtifactCatalog } from '../../dealer/artifacts.ts';
import { loadConfig } from '../../dealer/config.ts';
import { exportArtifacts } from '../../scripts/artifacts-export.ts';
import { GENERATED_DIR, readManifest } from '../../scripts/contracts/rulesets.ts';
import { runNode } from '../helpers/run-node.ts';
import { type Dealer, startDealer, tempDir } from './fixture.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sha = (b: Uint8Array) => `0x${createHash('sha256').update(b).digest('hex')}`;
const BIG = 30 * 1024 * 1024;

/** A generated-artifacts folder in miniature: seal.json, a manifest with one ruleset, and a 30 MB zkey. */
function fakeGenerated(dir: string) {
  const file = (rel: string, bytes: Uint8Array) => {
    const p = path.join(dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, bytes);
    return p;
  };
  const bytes = (n: number, seed: number) => {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i += 4096) b[i] = (seed + i / 4096) & 0xff;
    b[0] = seed;
    return b;
  };
  const files = {
    sealZkey: bytes(5000, 1),
    sealWasm: bytes(3000, 2),
    turnZkey: bytes(BIG, 3),
    turnWasm: bytes(4000, 4),
    spawnZkey: bytes(6000, 5),
    spawnWasm: bytes(4000, 4), // the same wasm as turn's: one URL serves both
  };
  writeFileSync(
    path.join(dir, 'seal.json'),
    JSON.stringify({
      contract: 'SealVerifier',
      nPublic: 5,
      zkey: file('seal/seal.zkey', files.sealZkey),
      wasm: file('seal/seal.wasm', files.sealWasm),
    }),
  );
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      fake: {
        name: 'fake',
        hash: `0x${'ab'.repeat(32)}`,
        verifiers: {
          spawn: {
            // Absolute paths of another clone: the files are found at their conventional place instead.
            zkey: '/elsewhere/fake/spawn.zkey',
            wasm: '/elsewhere/fake/spawn.wasm',
          },
          turn: { zkey: 'x', wasm: 'x' },
        },
      },
    }),
  );
  file('fake/spawn.zkey', files.spawnZkey);
  file('fake/spawn.wasm', files.spawnWasm);
  file('fake/turn.zkey', files.turnZkey);
  file('fake/turn.wasm', files.turnWasm);
  return files;
}

const tmp = tempDir();
after(() => tmp.cleanup());
const gen = path.join(tmp.dir, 'generated');
mkdirSync(gen);
const files = fakeGenerated(gen);
const url = (b: Uint8Array, kind: 'zkey' | 'wasm') => `/v1/artifacts/${sha(b).slice(2)}.${kind}`;

describe('dealer artifact routes', () => {
  let dealer: Dealer;
  let catalog: ArtifactCatalog;
  const warnings: string[] = [];
  before(async () => {
    const t0 = performance.now();
    catalog = await ArtifactCatalog.scan(gen, { warn: (m) => warnings.push(m) });
    console.log(`catalog (30 MB zkey + small files) hashed in ${Math.round(performance.now() - t0)} ms`);
    dealer = await startDealer({ artifacts: catalog });
  });
  after(() => dealer.close());

  it('lists every circuit with its hashes and URLs, the seal with ruleset null', async () => {
    const r = await dealer.app.inject({ method: 'GET', url: '/v1/artifacts' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['cache-control'], 'no-cache');
    const rows = r.json() as Record<string, unknown>[];
    assert.deepEqual(
      rows.map((x) => [x.ruleset, x.circuit]),
      [
        [null, 'seal'],
        ['fake', 'spawn'],
        ['fake', 'turn'],
      ],
    );
    assert.deepEqual(rows[2], {
      ruleset: 'fake',
      rulesetHash: `0x${'ab'.repeat(32)}`,
      circuit: 'turn',
      zkey: sha(files.turnZkey),
      wasm: sha(files.turnWasm),
      zkeyBytes: BIG,
      wasmBytes: 4000,
      zkeyUrl: url(files.turnZkey, 'zkey'),
      wasmUrl: url(files.turnWasm, 'wasm'),
    });
    assert.equal(rows[0]!.rulesetHash, null);
    assert.equal(rows[1]!.wasmUrl, rows[2]!.wasmUrl, 'identical files share a URL');
    assert.deepEqual(warnings, []);
  });

  it('serves a file immutable, with a strong ETag, its length and type; the body hashes to its URL', async () => {
    for (const [bytes, kind, type] of [
      [files.sealZkey, 'zkey', 'application/octet-stream'],
      [files.sealWasm, 'wasm', 'application/wasm'],
      [files.spawnZkey, 'zkey', 'application/octet-stream'],
    ] as const) {
      const r = await dealer.app.inject({ method: 'GET', url: url(bytes, kind) });
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(r.headers.etag, `"${sha(bytes).slice(2)}"`);
      assert.equal(r.headers['content-length'], String(bytes.byteLength));
      assert.equal(r.headers['content-type'], type);
      assert.equal(sha(r.rawPayload), sha(bytes));
      assert.equal(`/v1/artifacts/${sha(r.rawPayload).slice(2)}.${kind}`, url(bytes, kind));
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await dealer.app.inject({ method: 'HEAD', url: url(files.turnZkey, 'zkey') });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-length'], String(BIG));
    assert.equal(r.headers['content-type'], 'application/octet-stream');
    assert.equal(r.headers.etag, `"${sha(files.turnZkey).slice(2)}"`);
    assert.equal(r.rawPayload.byteLength, 0);
  });

  it('answers If-None-Match with a 304 (exact, weak, listed or *), else the file', async () => {
    const etag = `"${sha(files.sealZkey).slice(2)}"`;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const r = await dealer.app.inject({
        method: 'GET',
        url: url(files.sealZkey, 'zkey'),
        headers: { 'if-none-match': inm },
      });
      assert.equal(r.statusCode, 304, inm);
      assert.equal(r.headers.etag, etag);
      assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(r.rawPayload.byteLength, 0);
    }
    const r = await dealer.app.inject({
      method: 'GET',
      url: url(files.sealZkey, 'zkey'),
      headers: { 'if-none-match': '"0000"' },
    });
    assert.equal(r.statusCode, 200);
  });

  it('refuses a malformed hash or kind with a 400 naming it, an unknown file with a 404', async () => {
    const hex = sha(files.sealZkey).slice(2);
    const cases: [string, number, string][] = [
      ['xyz.zkey', 400, 'hash'],
      [`${hex.toUpperCase()}.zkey`, 400, 'hash'],
      [`0x${hex}.zkey`, 400, 'hash'],
      [`${hex.slice(1)}.zkey`, 400, 'hash'],
      [`${hex}.txt`, 400, 'kind'],
      [hex, 400, 'kind'],
      [`${'0'.repeat(64)}.zkey`, 404, 'hash'],
      [`${hex}.wasm`, 404, 'hash'], // the seal zkey's hash asked for as a wasm
    ];
    for (const [file, status, field] of cases) {
      const r = await dealer.app.inject({ method: 'GET', url: `/v1/artifacts/${file}` });
      assert.equal(r.statusCode, status, file);
      const body = r.json();
      assert.equal(body.statusCode, status);
      assert.equal(body.field, field, file);
      assert.match(body.message, new RegExp(`^(${field}: |no )`));
    }
  });

  it('streams a 30 MB zkey: a client that stops reading stops the file reads', async () => {
    const address = await dealer.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    // Bytes this process read (files and sockets alike): a buffered reply reads all 30 MB up front.
    const rchar = () => {
      const io = readFileSync('/proc/self/io', 'utf8');
      return Number(/rchar: (\d+)/.exec(io)![1]);
    };
    const hasIo = existsSync('/proc/self/io');
    const before = hasIo ? rchar() : 0;
    const t0 = performance.now();
    const { digest, readWhilePaused, status, length } = await new Promise<{
      digest: string;
      readWhilePaused: number;
      status: number;
      length: string | undefined;
    }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: Number(port), path: url(files.turnZkey, 'zkey') },
        (res) => {
          const h = createHash('sha256');
          let paused = false;
          let readWhilePaused = 0;
          res.on('data', (c: Buffer) => {
            h.update(c);
            if (paused) return;
            paused = true;
            res.pause();
            // Long enough for a buffering server to have read the whole file many times over.
            setTimeout(() => {
              readWhilePaused = hasIo ? rchar() - before : 0;
              res.resume();
            }, 400);
          });
          res.on('end', () =>
            resolve({
              digest: `0x${h.digest('hex')}`,
              readWhilePaused,
              status: res.statusCode!,
              length: res.headers['content-length'],
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const ms = Math.round(performance.now() - t0);
    assert.equal(status, 200);
    assert.equal(length, String(BIG));
    assert.equal(digest, sha(files.turnZkey), 'the body hashes to its URL');
    console.log(
      `30 MB zkey over HTTP in ${ms} ms; ${(readWhilePaused / 2 ** 20).toFixed(1)} MB read while paused`,
    );
    if (hasIo) assert.ok(readWhilePaused < BIG / 2, `read ${readWhilePaused} bytes while the client paused`);
  });

  it('notices a file rebuilt in place: the old URL turns 404, the index names the new one', async () => {
    const g2 = path.join(tmp.dir, 'rebuilt');
    mkdirSync(g2);
    const f = fakeGenerated(g2);
    const c = await ArtifactCatalog.scan(g2);
    const d = await startDealer({ artifacts: c });
    try {
      const fresh = new Uint8Array(7000).fill(9);
      writeFileSync(path.join(g2, 'seal', 'seal.zkey'), fresh);
      const old = await d.app.inject({ method: 'GET', url: url(f.sealZkey, 'zkey') });
      assert.equal(old.statusCode, 404);
      const rows = (await d.app.inject({ method: 'GET', url: '/v1/artifacts' })).json();
      assert.equal(rows[0].zkey, sha(fresh));
      const now = await d.app.inject({ method: 'GET', url: rows[0].zkeyUrl });
      assert.equal(now.statusCode, 200);
      assert.equal(sha(now.rawPayload), sha(fresh));
    } finally {
      await d.close();
    }
  });

  it('leaves out a file whose hash differs from the one the manifest records', async () => {
    const g3 = path.join(tmp.dir, 'recorded');
    mkdirSync(g3);
    fakeGenerated(g3);
    const m = JSON.parse(readFileSync(path.join(g3, 'manifest.json'), 'utf8'));
    m.fake.verifiers.spawn.zkeySha256 = `0x${'11'.repeat(32)}`;
    writeFileSync(path.join(g3, 'manifest.json'), JSON.stringify(m));
    const warned: string[] = [];
    const c = await ArtifactCatalog.scan(g3, { warn: (w) => warned.push(w) });
    assert.deepEqual(
      c.entries.map((e) => e.circuit),
      ['seal', 'turn'],
    );
    assert.match(warned.join('\n'), /fake\/spawn zkey: .* the manifest records 0x1111/);
  });

  it('never serves nor exports a file outside its folder, whatever the manifest names (the deployer ships it)', async () => {
    // The dealer's secrets, and a manifest from someone else naming them where a circuit's file is missing.
    const secrets = path.join(tmp.dir, 'dealer-keys.env');
    writeFileSync(
      secrets,
      'SHROUD_TX_KEY=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d\n',
    );
    const g4 = path.join(tmp.dir, 'hostile');
    mkdirSync(g4);
    fakeGenerated(g4);
    const m = JSON.parse(readFileSync(path.join(g4, 'manifest.json'), 'utf8'));
    m.fake.verifiers.attack = { zkey: secrets, wasm: path.join(g4, 'fake', '..', '..', 'dealer-keys.env') };
    m.fake.verifiers.combat = { zkey: 'x', wasm: 'x' };
    writeFileSync(path.join(g4, 'manifest.json'), JSON.stringify(m));
    // And a symlink where a conventional file belongs.
    symlinkSync(secrets, path.join(g4, 'fake', 'combat.zkey'));
    writeFileSync(path.join(g4, 'fake', 'combat.wasm'), 'wasm');
    const warned: string[] = [];
    const c = await ArtifactCatalog.scan(g4, { warn: (w) => warned.push(w) });
    const secret = sha(readFileSync(secrets));
    assert.equal(c.lookup(secret as `0x${string}`, 'zkey'), undefined, 'the key file is not served');
    assert.equal(c.lookup(secret as `0x${string}`, 'wasm'), undefined);
    assert.ok(
      c.files.every((f) => f.path.startsWith(`${g4}${path.sep}`)),
      c.files.map((f) => f.path).join('\n'),
    );
    assert.deepEqual(
      c.entries.map((e) => e.circuit),
      ['seal', 'spawn', 'turn'],
    );
    assert.match(warned.join('\n'), /fake\/attack zkey: .*outside the artifacts folder/);
    assert.match(warned.join('\n'), /fake\/combat zkey: .*outside the artifacts folder/);
    const out = path.join(tmp.dir, 'hostile-export');
    await exportArtifacts(g4, out);
    assert.ok(!existsSync(path.join(out, `${secret.slice(2)}.zkey`)), 'nor copied to a static host');
  });

  it('is off without a folder; artifacts.dir comes from the config or SHROUD_ARTIFACTS_DIR', async () => {
    const logs: string[] = [];
    const push = (_o: object, m: string) => logs.push(m);
    const log = { info: push, warn: push, error: push };
    assert.equal(await openArtifactCatalog(path.join(tmp.dir, 'absent'), log), undefined);
    assert.match(logs.join('\n'), /no artifacts folder: \/v1\/artifacts is off/);
    const broken = path.join(tmp.dir, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, 'manifest.json'), '{ not json');
    assert.equal(await openArtifactCatalog(broken, log), undefined);
    assert.match(logs.join('\n'), /cannot read the artifacts folder/);
    assert.ok(await openArtifactCatalog(gen, log), 'a good folder is served');
    const d = await startDealer();
    try {
      const r = await d.app.inject({ method: 'GET', url: '/v1/artifacts' });
      assert.equal(r.statusCode, 404);
    } finally {
      await d.close();
    }
    const defaults = path.join(ROOT, 'dealer', 'config.default.json');
    assert.equal(loadConfig(defaults, {}).artifacts?.dir, './contracts/generated');
    assert.equal(loadConfig(defaults, { SHROUD_ARTIFACTS_DIR: '/srv/a' }).artifacts?.dir, '/srv/a');
  });
});

describe('dealer serving contracts/generated', () => {
  it('indexes the seal and every generated circuit, each hash that of its file', async () => {
    const c = await ArtifactCatalog.scan(GENERATED_DIR);
    const tiny = readManifest().tiny!;
    const d = await startDealer({ artifacts: c });
    try {
      const rows = (await d.app.inject({ method: 'GET', url: '/v1/artifacts' })).json() as {
        ruleset: string | null;
        circuit: string;
        zkey: string;
        wasm: string;
        zkeyUrl: string;
      }[];
      assert.equal(rows[0]!.circuit, 'seal');
      for (const circuit of ['spawn', 'turn', 'attack', 'combat', 'maproot'] as const) {
        const row = rows.find((r) => r.ruleset === 'tiny' && r.circuit === circuit)!;
        assert.ok(row, circuit);
        const v = tiny.verifiers[circuit]!;
        assert.equal(
          row.zkey,
          await artifactSha256(readFileSync(path.join(GENERATED_DIR, 'tiny', `${circuit}.zkey`))),
        );
        assert.equal(row.wasm, await artifactSha256(readFileSync(v.wasm)));
      }
      const turn = rows.find((r) => r.ruleset === 'tiny' && r.circuit === 'turn')!;
      const r = await d.app.inject({ method: 'GET', url: turn.zkeyUrl });
      assert.equal(await artifactSha256(r.rawPayload), turn.zkey);
    } finally {
      await d.close();
    }
  });
});

/** Runs the export CLI as a real process. */
const exportCli = (args: string[]) => runNode('scripts/artifacts-export.ts', args);

describe('npm run artifacts:export', () => {
  it('writes <sha256>.zkey/.wasm and index.json with relative URLs; a second run keeps them', async () => {
    const out = path.join(tmp.dir, 'static', 'v1');
    const r = await exportCli(['--out', out, '--from', gen]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /3 circuits, 5 files written/);
    const index = JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')) as {
      circuit: string;
      zkey: string;
      zkeyUrl: string;
      wasm: string;
      wasmUrl: string;
    }[];
    assert.equal(index.length, 3);
    for (const row of index) {
      assert.equal(row.zkeyUrl, `${row.zkey.slice(2)}.zkey`);
      assert.equal(row.wasmUrl, `${row.wasm.slice(2)}.wasm`);
      assert.equal(sha(readFileSync(path.join(out, row.zkeyUrl))), row.zkey);
      assert.equal(sha(readFileSync(path.join(out, row.wasmUrl))), row.wasm);
    }
    const again = await exportCli(['--out', out, '--from', gen]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 files written .* 5 already there/);
  });

  it('follows the CLI convention: --help exit 0, a bad or missing flag one line exit 2', async () => {
    const help = await exportCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: npm run artifacts:export -- --out DIR/);
    for (const [args, what] of [
      [['--bogus'], /^artifacts:export: unknown flag --bogus/],
      [[], /^artifacts:export: --out is required/],
      [
        ['--out', tmp.dir, '--from', '/nonexistent'],
        /^artifacts:export: --from \/nonexistent: no such folder/,
      ],
    ] as const) {
      const r = await exportCli([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, what);
      assert.equal(r.stdout, '');
    }
  });
});
