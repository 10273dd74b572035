/**
 * Nothing outside the clone: no code, script or CI step refers to a `shared` folder beside the clone (the powers of tau
 * come from what the user points at, or the development ptau under build/). .ci/run also runs the tests
 * on a second clone with nothing beside it; this catches a new reference before CI does.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));

it('no tracked code, script or CI file refers to a shared folder beside the clone', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(
      (f) => /\.(ts|js|mjs|cjs|sh|json)$|^\.ci\//.test(f) && f !== SELF && !f.endsWith('package-lock.json'),
    );
  assert.ok(files.length > 50, 'git ls-files lists the clone');
  const pattern = /\.\.[/\\]shared\b|['"]\.\.['"]\s*,\s*['"]shared['"]/;
  const hits = files.filter((f) => pattern.test(readFileSync(path.join(ROOT, f), 'utf8')));
  assert.deepEqual(hits, []);
});
