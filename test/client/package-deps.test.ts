/**
 * The workspace packages declare what they import: every package a module of `@shroud/core` (folder `core`) or
 * `@shroud/sdk` (folder `client/sdk`) imports at run time is in that package's own `dependencies`, so an install
 * outside this workspace (without the root's hoisted packages) resolves it. Type-only imports are erased.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The `.ts` files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The package names a module imports at run time: bare specifiers of value imports, re-exports and `import()`. */
function runtimeImports(source: string): Set<string> {
  const out = new Set<string>();
  const statements =
    /^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^\s*import\s+'([^']+)'/gms;
  for (const m of source.matchAll(statements)) {
    if (m[2]) continue; // `import type` / `export type`: erased
    const spec = m[3] ?? m[4] ?? m[5]!;
    if (spec.startsWith('.') || spec.startsWith('#') || spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    out.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  }
  return out;
}

describe('workspace packages declare their run-time imports', () => {
  it('the scanner sees value imports and dynamic imports, not type-only ones', () => {
    const found = runtimeImports(
      "import { a } from 'x/y.js';\nimport type { T } from 'types-only';\nexport { b } from '@s/p/q.ts';\n" +
        "const m = await import('dyn');\nimport './local.ts';\nimport 'side-effect';\n",
    );
    assert.deepEqual([...found].sort(), ['@s/p', 'dyn', 'side-effect', 'x']);
  });

  for (const dir of ['core', 'client/sdk']) {
    it(`${dir}: every package it imports is in its package.json dependencies`, () => {
      const pkg = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      const declared = new Set(Object.keys(pkg.dependencies ?? {}));
      const missing: string[] = [];
      for (const file of sources(path.join(ROOT, dir))) {
        for (const name of runtimeImports(readFileSync(file, 'utf8'))) {
          if (name !== pkg.name && !declared.has(name)) missing.push(`${path.relative(ROOT, file)}: ${name}`);
        }
      }
      assert.deepEqual(missing, [], `${pkg.name} imports packages it does not declare`);
    });
  }
});
