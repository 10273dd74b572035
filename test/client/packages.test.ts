/**
 * The installable packages (scripts/packages/build.ts): @shroud/core and @shroud/sdk built to JavaScript with
 * declarations, packed, installed from their tarballs into an app outside the workspace, and used there by plain
 * Node (which refuses TypeScript under node_modules) and by the TypeScript compiler (the types resolve, so a
 * misuse is an error, not `any`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildPackages, builtManifest, packageFiles as files } from '../../scripts/packages/build.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'shroud-packages-'));
const out = path.join(tmp, 'packages');
const app = path.join(tmp, 'app');
let built: { dirs: string[]; tarballs: string[] };
after(() => rmSync(tmp, { recursive: true, force: true }));

// The app: plain JavaScript, by the names the README shows. It deals a map with the core, has the SDK verify a
// served tile against the root, and a tampered one rejected; it prints what it saw.
const APP_JS = `
import { generateMap } from '@shroud/core/generator/index.ts';
import { leafCoord, tileIndex } from '@shroud/core/geometry.ts';
import { commitMap } from '@shroud/core/maptree.ts';
import { merklePath } from '@shroud/core/merkle.ts';
import { loadHasher } from '@shroud/core/poseidon.ts';
import { shippedRuleset } from '@shroud/core/ruleset/shipped.ts';
import { TileRejectedError, verifyRevealedTiles } from '@shroud/sdk';

const h = await loadHasher();
const { board } = shippedRuleset('tiny');
const tiles = generateMap(h, board, 12345n);
const map = commitMap(h, board, tiles, 777n);
const leaf = 5;
const c = leafCoord(board, leaf);
const t = tiles[tileIndex(board, c)];
const served = { leaf, ...c, terrain: t.terrain, feature: t.feature, resource: t.resource, rivers: t.rivers,
  salt: map.salts[leaf].toString(), path: merklePath(map.tree, leaf).map(String) };
const [ok] = verifyRevealedTiles(h, board, map.tree.root, [leaf], [served]);
let rejected = '';
try {
  verifyRevealedTiles(h, board, map.tree.root, [leaf], [{ ...served, terrain: (t.terrain + 1) % 4 }]);
} catch (e) {
  rejected = e instanceof TileRejectedError ? e.reason : String(e);
}
console.log(JSON.stringify({ col: ok.col, row: ok.row, terrain: ok.terrain, expected: t.terrain, rejected }));
`;

// The same names from TypeScript: one planted misuse, which only resolved types can catch.
const APP_TS = `
import { loadHasher } from '@shroud/core/poseidon.ts';
import { shippedRuleset } from '@shroud/core/ruleset/shipped.ts';
import { type VerifiedTile, verifyRevealedTiles } from '@shroud/sdk';

const h = await loadHasher();
const { board } = shippedRuleset('tiny');
const fine: VerifiedTile[] = verifyRevealedTiles(h, board, 1n, [0], []);
const planted: string = verifyRevealedTiles(h, board, 1n, [0], []);
export { fine, planted };
`;

describe('the installable packages', () => {
  before(() => {
    built = buildPackages(out, { pack: true });
  });

  it('are JavaScript with a declaration per module, the workspace manifest’s data files, and no TypeScript source', () => {
    for (const [pkg, dir] of [
      ['core', built.dirs[0]!],
      ['client/sdk', built.dirs[1]!],
    ] as const) {
      const fs = files(dir);
      const js = fs.filter((f) => f.endsWith('.js'));
      assert.ok(js.length > 10, `${pkg}: ${js.length} modules`);
      for (const f of js)
        assert.ok(fs.includes(f.replace(/\.js$/, '.d.ts')), `${pkg}/${f} has no declaration`);
      assert.deepEqual(
        fs.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        [],
        `${pkg} ships a TypeScript source`,
      );
      // Every source module is there, built.
      for (const f of files(path.join(ROOT, pkg)).filter((x) => x.endsWith('.ts')))
        assert.ok(fs.includes(f.replace(/\.ts$/, '.js')), `${pkg}/${f} not built`);
      for (const f of files(path.join(ROOT, pkg)).filter((x) => x.endsWith('.json')))
        assert.ok(fs.includes(f), `${pkg}/${f} not copied`);
    }
    assert.deepEqual(
      built.tarballs.map((t) => path.basename(t)),
      ['shroud-core-0.1.0.tgz', 'shroud-sdk-0.1.0.tgz'],
    );
  });

  it('refuse to replace a folder that is not an earlier build (the clone itself, whose core is the source)', () => {
    assert.throws(() => buildPackages(ROOT), /--out .*: .*core exists and is not a package build/);
    for (const inside of ['core', 'client/sdk/out'])
      assert.throws(() => buildPackages(path.join(ROOT, inside)), /inside the .* package's sources/);
    assert.ok(existsSync(path.join(ROOT, 'core', 'field.ts')));
    // An earlier build is replaced.
    assert.deepEqual(buildPackages(out).dirs, built.dirs);
  });

  it('point every export and import condition at the built files', () => {
    const core = JSON.parse(readFileSync(path.join(ROOT, 'core', 'package.json'), 'utf8'));
    const m = builtManifest(core) as { exports: Record<string, unknown>; imports: Record<string, unknown> };
    assert.deepEqual(m.exports, { './*.ts': { types: './*.d.ts', default: './*.js' }, './*': './*' });
    assert.deepEqual(m.imports, {
      '#poseidon': { browser: './poseidon-lite.js', default: './poseidon-circomlib.js' },
    });
    const sdk = JSON.parse(readFileSync(path.join(built.dirs[1]!, 'package.json'), 'utf8'));
    assert.deepEqual(sdk.exports['.'], { types: './index.d.ts', default: './index.js' });
    for (const t of ['./index.js', './index.d.ts', './prover.js', './prover.d.ts'])
      assert.ok(existsSync(path.join(built.dirs[1]!, t)), t);
    assert.equal(sdk.dependencies['@shroud/core'], core.version);
  });

  it('install from their tarballs into an app outside the workspace, where plain Node and tsc use them', () => {
    mkdirSync(app, { recursive: true });
    writeFileSync(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    );
    const npm = spawnSync(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', ...built.tarballs],
      {
        cwd: app,
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    assert.equal(npm.status, 0, `${npm.stdout}${npm.stderr}`);
    // Plain Node: no type stripping under node_modules, so this runs only on the built JavaScript.
    writeFileSync(path.join(app, 'app.js'), APP_JS);
    const run = spawnSync(process.execPath, ['app.js'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const seen = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.deepEqual(seen, {
      col: 5,
      row: 0,
      terrain: seen.expected,
      expected: seen.expected,
      rejected: 'bad-path',
    });
    // tsc: the declarations resolve through the exports maps; the planted misuse is the one error.
    writeFileSync(path.join(app, 'app.ts'), APP_TS);
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2023', 'dom'],
          types: [],
          strict: true,
          allowImportingTsExtensions: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['app.ts'],
      }),
    );
    const tsc = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const errors = `${tsc.stdout}${tsc.stderr}`.split('\n').filter((l) => /error TS/.test(l));
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(
      errors[0]!,
      /^app\.ts\(9,7\): error TS2322: Type 'VerifiedTile\[\]' is not assignable to type 'string'/,
    );
  });
});
