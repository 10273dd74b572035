/**
 * The deployment files hold together: the systemd unit parses (`systemd-analyze verify` where it exists)
 * and has the hardening and paths the docs promise; the Dockerfile runs the dealer as a non-root user on
 * production dependencies only, with everything it loads copied in; CI builds the image where Docker can.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { parseEnvFile } from './dealer-process.ts';
import { tempDir } from './fixture.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');
const UNIT = read('deploy/shroud-dealer.service');
const DOCKERFILE = read('deploy/Dockerfile');
const EXAMPLE_ENV = parseEnvFile(read('dealer/config.production.example.env'));
const tmp = tempDir();
after(() => tmp.cleanup());

/** `[Section]` → directive → every value it is given (in order). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[([A-Za-z]+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line);
    assert.ok(kv && current, `not a directive in a section: ${line}`);
    current.set(kv[1]!, [...(current.get(kv[1]!) ?? []), kv[2]!]);
  }
  return sections;
}

describe('deploy/shroud-dealer.service', () => {
  const unit = parseUnit(UNIT);
  const service = unit.get('Service')!;
  const one = (k: string) => {
    const v = service.get(k);
    assert.ok(v, `[Service] ${k}= is set`);
    return v[v.length - 1]!;
  };

  it('has its sections, the env file, a dedicated user and a restart policy that spares config errors', () => {
    assert.deepEqual([...unit.keys()], ['Unit', 'Service', 'Install']);
    assert.equal(one('EnvironmentFile'), '/etc/shroud/dealer.env');
    assert.ok(!['root', '0', ''].includes(one('User')), 'not root');
    assert.equal(one('Restart'), 'on-failure');
    // dealer/main.ts exits 2 on a configuration error: restarting would only loop.
    assert.ok(one('RestartPreventExitStatus').split(/\s+/).includes('2'));
    assert.equal(unit.get('Install')!.get('WantedBy')?.[0], 'multi-user.target');
    const [node, main, ...rest] = one('ExecStart').split(/\s+/);
    assert.ok(path.isAbsolute(node!), 'ExecStart names node by absolute path');
    assert.equal(main, path.join(one('WorkingDirectory'), 'dealer/main.ts'));
    assert.deepEqual(rest, [], 'no --config: the environment configures it');
  });

  it('is hardened, and may write only the database folder the example env file uses', () => {
    for (const [k, v] of Object.entries({
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      RestrictSUIDSGID: 'yes',
      CapabilityBoundingSet: '',
      UMask: '0077',
    }))
      assert.equal(one(k), v, k);
    const dbDir = path.dirname(EXAMPLE_ENV.SHROUD_DB!);
    assert.deepEqual(service.get('ReadWritePaths'), [dbDir]);
    assert.equal(path.join('/var/lib', one('StateDirectory')), dbDir, 'StateDirectory creates that folder');
  });

  it('passes systemd-analyze verify (where systemd is installed)', (t) => {
    const probe = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    if (probe.error)
      return t.skip('systemd-analyze is not installed here: the structural checks above stand');
    // The unit names /usr/bin/node, which need not exist on a test machine: verify checks the binary.
    const file = path.join(tmp.dir, 'shroud-dealer.service');
    writeFileSync(file, UNIT.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.trim(), '', 'no warning (unknown directive, bad value)');
  });
});

describe('deploy/Dockerfile', () => {
  const lines = DOCKERFILE.replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const instr = (name: string) =>
    lines.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1));
  const env = Object.fromEntries(
    instr('ENV').flatMap((l) => [...l.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
  );

  it('node:24-slim, production dependencies, a non-root user, a health check, the port and the volume', () => {
    // A first stage bundles the web pages; the image is the last stage.
    assert.deepEqual(instr('FROM'), ['node:24-slim AS web', 'node:24-slim']);
    assert.ok(
      instr('RUN').some((r) => /npm install --omit=dev/.test(r)),
      'dev dependencies left out',
    );
    const user = instr('USER');
    assert.equal(user.length, 1);
    assert.notEqual(user[0], 'root');
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    assert.ok(at('USER ') < at('ENTRYPOINT '), 'the user is set before the entrypoint');
    assert.match(instr('HEALTHCHECK')[0]!, /\/health/);
    assert.deepEqual(instr('EXPOSE'), [env.SHROUD_DEALER_PORT]);
    assert.equal(env.SHROUD_DEALER_HOST, '0.0.0.0', 'reachable through the published port');
    assert.deepEqual(JSON.parse(instr('VOLUME')[0]!), [path.dirname(env.SHROUD_DB!)]);
    assert.deepEqual(JSON.parse(instr('ENTRYPOINT')[0]!), ['node', 'dealer/main.ts']);
  });

  it('copies everything the dealer loads, and it imports production dependencies only', async () => {
    const fromStage = instr('COPY').filter((c) => c.startsWith('--from='));
    // The web pages the dealer serves come from the first stage, which builds them with build:web.
    assert.deepEqual(fromStage, ['--from=web /opt/shroud/build/web ./build/web']);
    assert.ok(
      instr('RUN').includes('node scripts/build-web.ts --out build/web'),
      'the web stage builds the pages',
    );
    const copied = instr('COPY')
      .filter((c) => !c.startsWith('--from='))
      .flatMap((c) => c.split(/\s+/).slice(0, -1))
      .filter((src) => !['package.json', 'package-lock.json'].includes(src));
    for (const src of copied) assert.ok(existsSync(path.join(ROOT, src)), `COPY ${src}: exists`);
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const r = await esbuild.build({
      entryPoints: ['dealer/main.ts', 'dealer/mapproof/worker.ts'].map((f) => path.join(ROOT, f)),
      absWorkingDir: ROOT,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      metafile: true,
      outdir: path.join(tmp.dir, 'bundle'),
      logLevel: 'silent',
    });
    const files = Object.keys(r.metafile.inputs);
    for (const f of files)
      assert.ok(
        copied.some((src) => f === src || f.startsWith(`${src}/`)),
        `${f} is loaded at run time but not copied`,
      );
    const packages = new Set(
      Object.values(r.metafile.inputs)
        .flatMap((i) => i.imports)
        .filter((i) => i.external && !i.path.startsWith('node:'))
        .map((i) =>
          i.path
            .split('/')
            .slice(0, i.path.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    );
    assert.ok(packages.has('fastify') && packages.has('pg'), [...packages].join(' '));
    // esbuild is imported (lazily) only to build a web page that is missing; the image ships them built by
    // its web stage, so the dealer never loads it there.
    packages.delete('esbuild');
    for (const p of packages) assert.ok(p in pkg.dependencies, `${p} is imported at run time: a dependency`);
  });

  it('.dockerignore keeps secrets, databases and build output out of the context', () => {
    const ignore = read('.dockerignore').split('\n');
    for (const p of ['.git', 'node_modules', 'build', '**/*.sqlite', 'dealer-keys*', '**/*.env'])
      assert.ok(ignore.includes(p), p);
  });

  it('CI builds and runs the image where Docker can, and says when it cannot', () => {
    const ci = read('.ci/run');
    assert.match(ci, /if command -v docker >\/dev\/null 2>&1 && docker info >\/dev\/null 2>&1; then/);
    assert.match(ci, /docker build -q -f deploy\/Dockerfile/);
    assert.match(ci, /the deploy\/Dockerfile build is skipped/);
  });
});
